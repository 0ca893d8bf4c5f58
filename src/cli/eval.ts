/**
 * `sqlenv eval`: run a baseline agent (random, oracle, noisy) on a dataset split and report
 * success rate, mean return, mean steps and error counts; or, with `--run DIR`, a trained model
 * (eval-run.ts). With `--json` the last line printed is one JSON object.
 */
import type { SqlAgent } from '../../envs/sql/agents/agent.js';
import { NoisyAgent } from '../../envs/sql/agents/noisy-agent.js';
import { OracleAgent } from '../../envs/sql/agents/oracle-agent.js';
import { RandomAgent } from '../../envs/sql/agents/random-agent.js';
import { runEpisodes, type EpisodeRecord } from '../../envs/sql/agents/run-episodes.js';
import type { ActionMode } from '../../envs/sql/actions/action-types.js';
import { describeDatasetSource, parseDatasetSource } from '../../envs/sql/datasets/dataset-source.js';
import { loadDataset } from '../../envs/sql/datasets/load-dataset.js';
import type { SqlDataset } from '../../envs/sql/datasets/sql-dataset.js';
import type { AnswerMode } from '../../envs/sql/judge/judge-config.js';
import { QueryPool } from '../../envs/sql/sandbox/query-pool.js';
import { SQLEnv } from '../../envs/sql/sql-env.js';
import { Rng } from '../base/rng.js';
import { sampledScores, type SampledScores, type SampleOutcome } from '../train/eval/pass-at-k.js';
import { parseCommandArgs } from './command-args.js';
import { evaluateRun, passAtKCurveLine } from './eval-run.js';

const USAGE = `usage: sqlenv eval --agent random|oracle|noisy [--dataset bundled|spider:DIR|bird:DIR|DIR]
                   [--split NAME] [--episodes N | --all] [--seed S] [--step-budget N]
                   [--action-mode tolerant|strict] [--answer-mode value|sql|either]
                   [--samples K] [--json]
       sqlenv eval --run DIR [--checkpoint STEP] [--config FILE] [--dataset SOURCE]
                   [--split NAME] [--episodes N | --all] [--samples K] [--seed S] [--guided]
                   [--traces FILE] [--json]

Runs a baseline agent for N episodes (episode i uses seed S+i and a seeded random question)
and prints success rate, mean return, mean steps, and how often each error type occurred.
--all plays every question of the split exactly once, in order, instead.
--samples K plays each question K times (N seeded random questions, or every question with
--all) and adds pass@1 (mean success of one sample), pass@K (at least one of the K right) and
majority vote (the most frequent submitted answer decides).
  random  samples the action space (the floor: about 0%)
  oracle  runs the gold SQL and answers with its result (must be 100%)
  noisy   the oracle's calls garbled as small models garble them (tests tolerance)

--run DIR evaluates a trained model instead: the run directory of \`sqlenv train\` or
\`npm run demo\`, with the weights of its newest checkpoint (--checkpoint STEP: another one;
0 is the checkpoint written when SFT ended). The run's own config (DIR/config.json, or
--config FILE) sets the model, prompts, step budget, answer mode and the split's difficulty
tiers; episodes are greedy over the first N questions, as the run's own evaluations (the same
weights give the same numbers), and --samples K adds pass@K at the run's rollout temperature.
Episodes are the model's own (unguided), whatever the run's rollout.guidedDecoding says; --guided
decodes with the task's guide and prints the unguided figure beside the guided one. Every report
names its decoding (JSON: "decoding": "unguided" | "guided").
--traces FILE writes each greedy episode as one JSON line (the question, every turn the model
wrote and the tool's answer, rewards, whether it was right), to read the failures one by one.
--split defaults to the run's first test split.`;

const AGENTS = ['random', 'oracle', 'noisy'] as const;

/** Entry point of `sqlenv eval`; returns the exit code. */
export async function run(argv: string[]): Promise<number> {
  const parsed = parseCommandArgs('eval', USAGE, {
    args: argv,
    options: {
      agent: { type: 'string' },
      dataset: { type: 'string' },
      split: { type: 'string' },
      episodes: { type: 'string', default: '20' },
      all: { type: 'boolean', default: false },
      seed: { type: 'string', default: '0' },
      'step-budget': { type: 'string' },
      'action-mode': { type: 'string' },
      'answer-mode': { type: 'string' },
      samples: { type: 'string', default: '1' },
      run: { type: 'string' },
      checkpoint: { type: 'string' },
      config: { type: 'string' },
      guided: { type: 'boolean', default: false },
      traces: { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (!parsed.ok) return parsed.exitCode;
  const { values } = parsed.args;
  const episodes = Number(values.episodes);
  const seed = Number(values.seed);
  const samples = Number(values.samples);
  const common = [
    Number.isInteger(episodes) && episodes > 0 ? '' : `--episodes must be a positive integer, got "${values.episodes}"`,
    Number.isInteger(seed) ? '' : `--seed must be an integer, got "${values.seed}"`,
    Number.isInteger(samples) && samples > 0 ? '' : `--samples must be a positive integer, got "${values.samples}"`,
  ];
  if (values.run !== undefined) {
    const checkpoint = values.checkpoint === undefined ? undefined : Number(values.checkpoint);
    const problems = [
      ...common,
      checkpoint === undefined || (Number.isInteger(checkpoint) && checkpoint >= 0) ? '' : `--checkpoint must be a step number (0 or more), got "${values.checkpoint}"`,
      values.agent === undefined ? '' : '--agent and --run exclude each other: --run evaluates the run\'s model',
      ...(['step-budget', 'action-mode', 'answer-mode'] as const).map((f) => values[f] === undefined ? '' : `--${f} comes from the run's config with --run (env.stepBudget, env.kwargs); drop it`),
    ].filter(Boolean);
    if (problems.length > 0) {
      console.error(`sqlenv eval: ${problems.join('; ')}\n\n${USAGE}`);
      return 2;
    }
    return evaluateRun({
      runDir: values.run, episodes, all: values.all, seed, samples, json: values.json, guided: values.guided,
      ...(checkpoint === undefined ? {} : { step: checkpoint }),
      ...(values.split === undefined ? {} : { split: values.split }),
      ...(values.dataset === undefined ? {} : { dataset: values.dataset }),
      ...(values.config === undefined ? {} : { configFile: values.config }),
      ...(values.traces === undefined ? {} : { tracesFile: values.traces }),
    });
  }
  const agentName = values.agent ?? 'random';
  const stepBudget = Number(values['step-budget'] ?? '10');
  const actionMode = values['action-mode'] ?? 'tolerant';
  const answerMode = (values['answer-mode'] ?? 'value') as AnswerMode;
  const split = values.split ?? 'train';
  const problems = [
    AGENTS.includes(agentName as (typeof AGENTS)[number]) ? '' : `--agent must be one of ${AGENTS.join(', ')}, got "${agentName}"`,
    ...common,
    Number.isInteger(stepBudget) && stepBudget > 0 ? '' : `--step-budget must be a positive integer, got "${values['step-budget']}"`,
    ['tolerant', 'strict'].includes(actionMode) ? '' : `--action-mode must be tolerant or strict`,
    ['value', 'sql', 'either'].includes(answerMode) ? '' : `--answer-mode must be value, sql or either`,
    values.checkpoint === undefined && values.config === undefined && !values.guided && values.traces === undefined ? '' : '--checkpoint, --config, --guided and --traces need --run DIR (a trained model)',
  ].filter(Boolean);
  if (problems.length > 0) {
    console.error(`sqlenv eval: ${problems.join('; ')}\n\n${USAGE}`);
    return 2;
  }

  const source = parseDatasetSource(values.dataset ?? 'bundled');
  const pool = new QueryPool();
  let dataset: SqlDataset | undefined;
  try {
    dataset = await loadDataset(source, split, { pool });
    const agent = makeAgent(agentName, dataset, seed, answerMode === 'sql');
    if (!values.json) {
      console.log(`${agent.name} on ${describeDatasetSource(source)}/${split}: ${dataset.questions.length} questions (${dataset.skipped.length} skipped), ${values.all ? `all ${dataset.questions.length}` : episodes} episodes`);
    }
    const ds = dataset;
    // --all: each question once, so a success rate is over the whole split rather than a sample.
    // --samples K: each chosen question K times in a row (episode seeds differ, so stochastic agents vary).
    const chosen = values.all ? dataset.questions.map((q) => q.id)
      : samples > 1 ? new Rng(seed).shuffle(dataset.questions.map((q) => q.id)).slice(0, episodes) : undefined;
    const questionIds = chosen && samples > 1 ? chosen.flatMap((id) => Array<string>(samples).fill(id)) : chosen;
    const report = await runEpisodes(
      () => new SQLEnv({ dataset: ds, pool, stepBudget, actionMode: actionMode as ActionMode, answerMode }),
      agent,
      {
        episodes: questionIds?.length ?? episodes,
        seed,
        ...(questionIds ? { questionIds } : {}),
        onEpisode: values.json ? undefined : (r) => console.log(`  ${r.questionId}: ${r.correct ? 'correct' : r.truncated ? 'out of budget' : 'wrong'}, return ${r.return.toFixed(3)}, ${r.steps} steps`),
      },
    );
    const summary = {
      agent: report.agent,
      dataset: describeDatasetSource(source),
      split,
      episodes: report.episodes,
      success_rate: report.success_rate,
      mean_return: report.mean_return,
      mean_steps: report.mean_steps,
      error_counts: report.error_counts,
      repair_counts: report.repair_counts,
      questions: dataset.questions.length,
      skipped_questions: dataset.skipped.length,
      ...(samples > 1 ? { sampled: sampledScoresOf(report.records, samples) } : {}),
    };
    if (values.json) {
      console.log(JSON.stringify(summary));
    } else {
      console.log(
        `success rate ${(100 * summary.success_rate).toFixed(1)}%, mean return ${summary.mean_return.toFixed(3)}, mean steps ${summary.mean_steps.toFixed(2)}`,
      );
      if (summary.sampled) {
        const s = summary.sampled;
        console.log(`${s.questions} questions × ${s.samples} samples: pass@1 ${(100 * s.passAt1).toFixed(1)}%, pass@${s.k} ${(100 * s.passAtK).toFixed(1)}%, majority vote ${(100 * s.majority).toFixed(1)}%`);
        console.log(passAtKCurveLine(s.curve));
      }
      const errors = Object.entries(summary.error_counts);
      console.log(`errors: ${errors.length ? errors.map(([k, v]) => `${k} ${v}`).join(', ') : 'none'}`);
    }
    return 0;
  } catch (err) {
    console.error(`sqlenv eval: ${(err as Error).message}`);
    return 1;
  } finally {
    await dataset?.close();
    await pool.close();
  }
}

/** Groups consecutive runs of each question's K episodes into pass@1 / pass@K / majority vote. */
function sampledScoresOf(records: readonly EpisodeRecord[], samples: number): SampledScores {
  const byQuestion: SampleOutcome[][] = [];
  for (let i = 0; i + samples <= records.length; i += samples) {
    byQuestion.push(records.slice(i, i + samples).map((r) => ({ correct: r.correct, ...(r.answer === undefined ? {} : { answer: r.answer }) })));
  }
  return sampledScores(byQuestion, samples);
}

function makeAgent(name: string, dataset: SqlDataset, seed: number, answerWithSql: boolean): SqlAgent {
  if (name === 'oracle') return new OracleAgent(dataset, { answerWithSql });
  if (name === 'noisy') return new NoisyAgent(dataset, { seed });
  return new RandomAgent(seed);
}
