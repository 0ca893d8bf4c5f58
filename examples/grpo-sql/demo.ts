/**
 * The bundled GRPO example: `npm run demo`.
 *
 * 1. loads the bundled pre-trained tiny base (models/tiny-sql; `npm run model:pretrain` rebuilds
 *    it) — or builds a random tiny model (`--set model.path='"tiny"'`), or loads `--model DIR` with LoRA;
 * 2. evaluates the random, noisy and oracle baselines on the held-out splits;
 * 3. runs the training pipeline: untrained evaluation, SFT warm-up on oracle trajectories with
 *    the tool-call format check before and after, GRPO, held-out evaluation after each phase;
 * 4. prints a before/after table; the run directory holds metrics.jsonl, checkpoints,
 *    dashboard.html and plots/*.svg (`npx sqlenv dashboard RUN_DIR` serves it live).
 *
 * Options: --config FILE (default examples/grpo-sql/config.json), --quick (a seconds-long
 * smoke configuration), --model DIR, --device cpu|cuda|webgpu, --lora-rank R, --run-dir DIR,
 * --seed S, --set key.path=value (repeatable), --result-json FILE (write the results as JSON).
 */
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { NoisyAgent, OracleAgent, RandomAgent, runEpisodes, type Env, type SqlAction, type SqlAgent, type SqlDataset, type SqlObservation } from 'sqlenv';
import { answersWithSql, createSqlTrainingSetup, foundVersusAnswered, loadSqlTrainConfig, type SqlTrainConfig } from 'sqlenv/recipes';
import {
  decodingOf,
  estimateTrainingMemory,
  formatBytes,
  formatDuration,
  headroomLine,
  resultsTable,
  runTraining,
  trainingResultLine,
  trainingVerdict,
  type ResultRow,
  type SplitRole,
  type SplitSuccess,
} from 'sqlenv/train';

const USAGE = `usage: npm run demo -- [--quick] [--config FILE] [--model DIR] [--device cpu|cuda|webgpu]
                        [--lora-rank R] [--run-dir DIR] [--seed S] [--set key.path=value ...]
                        [--result-json FILE]`;

function timestamp(): string {
  return new Date().toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
}

/** The config overrides (`key.path=value`) that the command-line flags imply; exported for tests. */
export function flagOverrides(values: Record<string, string | boolean | string[] | undefined>): string[] {
  const sets: string[] = [];
  if (typeof values['model'] === 'string') {
    sets.push(`model.path=${JSON.stringify(values['model'])}`);
    // Real models train LoRA adapters; the base model (adapters off) is the KL reference.
    sets.push(`model.lora.rank=${values['lora-rank'] ?? 16}`);
    sets.push('sql.compactTools=false');
    // A real model reads values out of result tables, so it answers with values (the bundled
    // tiny model answers with SQL, judged by execution match) and learns to describe first.
    sets.push('env.kwargs.answerMode="value"', 'sql.sft.describeTables=true');
    // Real tokenizers are efficient, but the full tool schemas and schema descriptions need room.
    sets.push('rollout.maxTotalTokens=2048', 'rollout.maxNewTokensPerTurn=128');
  } else if (typeof values['lora-rank'] === 'string') {
    sets.push(`model.lora.rank=${values['lora-rank']}`);
  }
  if (typeof values['device'] === 'string') sets.push(`model.device=${JSON.stringify(values['device'])}`);
  if (typeof values['seed'] === 'string') sets.push(`seed=${values['seed']}`);
  // --run-dir wins; a user's --config keeps its own runDir (so it can resume); the bundled
  // configurations get a fresh timestamped directory, so a second demo does not resume the first.
  if (typeof values['run-dir'] === 'string') sets.push(`runDir=${JSON.stringify(values['run-dir'])}`);
  else if (typeof values['config'] !== 'string') sets.push(`runDir=${JSON.stringify(join('runs', `grpo-sql-${timestamp()}`))}`);
  // Explicit --set overrides come last so they win over the flags' implied settings.
  return [...sets, ...((values['set'] as string[] | undefined) ?? [])];
}

/**
 * Plays `agent` on the questions the model is evaluated on (the run's order of the split), in the
 * environment the model is trained and judged in (`makeEnv`: the run's own, env.kwargs included).
 */
async function baseline(agent: SqlAgent, makeEnv: () => Env<SqlObservation, SqlAction>, config: SqlTrainConfig, questionIds: readonly string[]): Promise<SplitSuccess[string]> {
  const report = await runEpisodes(makeEnv, agent, { episodes: questionIds.length, seed: config.seed, questionIds });
  return { success: report.success_rate, meanReturn: report.mean_return, episodes: report.episodes };
}

/** This folder in the sources, where the configs are (also when the example runs from dist/). */
function exampleDir(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  return existsSync(join(here, 'config.json')) ? here : join(here, '..', '..', '..', 'examples', 'grpo-sql');
}

/**
 * What each held-out split measures: the questions GRPO practised, other questions on the same
 * databases, hand-written databases it never practised on, and the databases SFT trained on.
 */
function splitRoles(config: SqlTrainConfig): Record<string, SplitRole> {
  const roles: Record<string, SplitRole> = {};
  const { split, heldOutSplit } = config.sql.generated;
  for (const s of config.env.evalSplits) {
    if (s === split) roles[s] = 'adapt_practice';
    else if (s === heldOutSplit) roles[s] = 'adapt_heldout';
    else if (s.includes('unseen')) roles[s] = 'transfer';
    else roles[s] = 'seen';
  }
  return roles;
}

/** Runs the example; returns the process exit code. */
export async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      config: { type: 'string' },
      quick: { type: 'boolean', default: false },
      model: { type: 'string' },
      device: { type: 'string' },
      'lora-rank': { type: 'string' },
      'run-dir': { type: 'string' },
      seed: { type: 'string' },
      set: { type: 'string', multiple: true },
      'result-json': { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const started = Date.now();
  const configFile = values.config ?? join(exampleDir(), values.quick ? 'quick-config.json' : 'config.json');
  const config = await loadSqlTrainConfig(configFile, flagOverrides(values));
  console.log(`sqlenv GRPO example — config ${configFile}, run directory ${config.runDir}`);

  const resources = await createSqlTrainingSetup(config);
  try {
    const { model, datasets, setup } = resources;
    const trainable = setup.policy.parameterCount();
    const memory = estimateTrainingMemory({
      parameters: model.parameterCount(),
      trainableParameters: trainable,
      layers: model.config.numLayers,
      hidden: model.config.hiddenSize,
      vocab: model.config.vocabSize,
      batch: Math.ceil((config.rollout.numGenerations * config.rollout.questionsPerStep) / config.optim.gradAccumulation),
      sequenceLength: config.rollout.maxTotalTokens,
    });
    console.log(`model ${config.model.path === 'tiny' ? `tiny (${join(config.runDir, 'model')})` : config.model.path}: ${(model.parameterCount() / 1e6).toFixed(2)}M parameters, ` +
      `${(trainable / 1e6).toFixed(2)}M trainable (${config.model.lora.rank > 0 ? `LoRA r=${config.model.lora.rank}` : 'full'}), device ${config.model.device}`);
    console.log(`memory estimate: ${formatBytes(memory.total)} (weights ${formatBytes(memory.weights)}, resident optimizer ${formatBytes(memory.optimizer)}, activations ${formatBytes(memory.activations)})`);

    // Validation splits (settings are chosen on them) first, then the test splits (reported).
    const splits = [...config.env.validationSplits, ...config.env.evalSplits];
    const evalQuestionIds = (split: string): string[] =>
      Array.from({ length: Math.min(config.eval.episodes, setup.questionCount(split)) }, (_, i) => String(setup.task.episodeSpec?.(i, split)?.options?.['questionId']));
    const rows: ResultRow[] = [];
    // Baselines answer the way the environment judges (with SQL under answerMode 'sql').
    const answerWithSql = answersWithSql(config);
    const agents: [string, (d: SqlDataset) => SqlAgent][] = [
      ['random agent', () => new RandomAgent(config.seed)],
      ['noisy oracle (garbled calls)', (d) => new NoisyAgent(d, { seed: config.seed, answerWithSql })],
      ['oracle (upper bound)', (d) => new OracleAgent(d, { stepBudget: config.env.stepBudget, answerWithSql })],
    ];
    for (const [name, make] of agents) {
      const bySplit: SplitSuccess = {};
      for (const split of splits) bySplit[split] = await baseline(make(datasets.get(split)!), () => resources.makeEnv(split), config, evalQuestionIds(split));
      rows.push({ policy: name, bySplit });
    }
    console.log(`\nbaselines on the first ${config.eval.episodes} evaluation questions (or all, when fewer) of each held-out split (a fixed sample of every database and difficulty):\n${resultsTable(rows, splits)}\n`);

    const summary = await runTraining(setup);
    const base = config.model.path === 'tiny' ? 'model, untrained' : config.model.path === 'tiny-sql' ? 'base model (pre-trained on train SQL)' : 'base model';
    const labels: [string, string][] = [['untrained', base], ['sft', 'model + SFT'], ['final', config.mode === 'sft' ? 'model + SFT (final)' : 'model + SFT + GRPO']];
    for (const [key, name] of labels) if (summary.evaluations[key]) rows.push({ policy: name, bySplit: summary.evaluations[key]! });

    const k = config.eval.samples;
    const sampledNote = k > 1 ? `; pass@${k}: ${k} samples at temperature ${config.rollout.temperature} on the first ${config.eval.sampledQuestions || config.eval.episodes} of them` : '';
    const decoding = config.rollout.guidedDecoding === 'off' ? 'unguided (the plain model)' : `guided in ${config.rollout.guidedDecoding === 'always' ? 'training and evaluation' : 'evaluation'} (the unguided figures are in the eval lines above)`;
    console.log(`\n=== results (greedy, decoded ${decoding}: the same ${config.eval.episodes} questions per split${sampledNote}; validation splits choose settings, ${config.env.evalSplits.join('/')} are the test splits) ===\n${resultsTable(rows, splits, k)}`);
    const room = headroomLine(summary, splits);
    if (room) console.log(room);
    const found = foundVersusAnswered(summary, splits);
    if (found) console.log(found);
    const fc = summary.formatCheck;
    if (fc.before && fc.after) console.log(`tool-call format check: ${(fc.before.share * 100).toFixed(1)}% before SFT → ${(fc.after.share * 100).toFixed(1)}% after`);
    if (summary.firstReward !== undefined) console.log(`GRPO train reward: step 1 ${summary.firstReward.toFixed(3)} → step ${summary.grpoSteps} ${summary.lastReward!.toFixed(3)}`);
    console.log(trainingVerdict(summary, splits));
    console.log(`wall time ${formatDuration(Date.now() - started)}; dashboard: ${join(config.runDir, 'dashboard.html')} (live: npx sqlenv dashboard ${config.runDir})`);
    console.log(`evaluate it again, on any split: npx sqlenv eval --run ${config.runDir} --split ${config.env.evalSplits[0] ?? 'eval'} --all --samples 4`);
    // For benchmarks that run seeds as separate processes (bench/train-demo.bench.ts reads it).
    if (typeof values['result-json'] === 'string') await writeFile(values['result-json'], JSON.stringify({ config, summary, rows }));
    // The last line: the run's outcome as one JSON object, for scripts and the benchmark over seeds.
    const trainedDecoding = decodingOf(setup.task, config.rollout, 'training');
    console.log(JSON.stringify(trainingResultLine(summary, splitRoles(config), { seed: config.seed, seconds: Math.round((Date.now() - started) / 1000), trainedDecoding })));
    return 0;
  } finally {
    await resources.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).then(
    (code) => (process.exitCode = code),
    (err: unknown) => {
      console.error(err instanceof Error ? err.message : String(err));
      process.exitCode = 1;
    },
  );
}
