/**
 * The bundled example over five seeds: held-out success of the untrained model, after SFT and
 * after GRPO — greedy and pass@K on the validation and test splits — mean and spread, with the
 * wall time per run. Slow (five full demo runs; `TRAIN_DEMO_SEEDS=0,1,2` picks seeds); run it
 * alone: `npm run bench -- train-demo`. Seeds run as separate processes, as many at once as there
 * are cores (each uses one onnxruntime thread), so the wall times below are measured under that load.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ALARM_EVENT_PREFIX } from '../src/train/diagnostics/alarms.js';
import type { ResultRow } from '../src/train/eval/results-table.js';
import { splitChanges, type SplitChange } from '../src/train/eval/training-verdict.js';
import type { SqlTrainConfig } from '../src/recipes/sql/sql-config.js';
import type { TrainingSummary } from '../src/train/run/run-types.js';
import { mdTable, type BenchSection } from './harness.js';

/** What the demo writes with `--result-json FILE`: the run's config, its summary and the printed table's rows. */
interface DemoResult {
  config: SqlTrainConfig;
  summary: TrainingSummary;
  rows: ResultRow[];
}

/** Seeds 0–4, or those of `TRAIN_DEMO_SEEDS` (e.g. `TRAIN_DEMO_SEEDS=0,1,2` for a shorter check). */
function seedsToRun(): number[] {
  const raw = process.env['TRAIN_DEMO_SEEDS'];
  if (raw === undefined || raw.trim() === '') return [0, 1, 2, 3, 4];
  const seeds = raw.split(',').map((x) => Number(x.trim()));
  if (seeds.some((x) => !Number.isSafeInteger(x) || x < 0)) throw new RangeError(`TRAIN_DEMO_SEEDS must list non-negative integers, e.g. 0,1,2; got "${raw}"`);
  return seeds;
}

/** Mean and sample standard deviation over seeds. */
function meanSd(values: number[]): { mean: number; sd: number } {
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  return { mean, sd: Math.sqrt(values.reduce((a, b) => a + (b - mean) ** 2, 0) / Math.max(1, values.length - 1)) };
}

function stats(values: number[]): string {
  const { mean, sd } = meanSd(values);
  return `${(mean * 100).toFixed(1)}% ± ${(sd * 100).toFixed(1)}`;
}

function meanReturn(values: number[]): string {
  const { mean, sd } = meanSd(values);
  return `${mean.toFixed(3)} ± ${sd.toFixed(3)}`;
}

/** Points of change, signed: "+3.1 ± 0.5". */
function signedStats(points: number[]): string {
  const { mean, sd } = meanSd(points);
  return `${mean >= 0 ? '+' : ''}${mean.toFixed(1)} ± ${sd.toFixed(1)}`;
}

/** How the run narrowed the questions (a curriculum), in words for the table's caption. */
function curriculum(r: DemoResult | undefined): string {
  if (!r) return '';
  const train = r.config.sql.trainDifficulties;
  const held = r.config.sql.evalDifficulties;
  if (train.length === 0 && held.length === 0) return ' and difficulties';
  return `; curriculum: trained on the ${train.length ? train.join('/') : 'all'} tier${train.length === 1 ? '' : 's'} and evaluated on the ${held.length ? held.join('/') : 'all'} tier${held.length === 1 ? '' : 's'} of the held-out splits`;
}

/** GRPO's health in one run's metrics.jsonl: mean frac_reward_zero_std after the first 3 steps, and the alarms raised. */
export interface RunHealth {
  zeroStdAfterStep3: number | undefined;
  alarms: string[];
}

/**
 * Reads a run's metrics.jsonl for {@link RunHealth} (before the bench deletes the run directory).
 *
 * @example
 * ```ts
 * runHealth('{"kind":"train","step":4,"frac_reward_zero_std":0.5}\n'); // { zeroStdAfterStep3: 0.5, alarms: [] }
 * ```
 */
export function runHealth(metricsJsonl: string): RunHealth {
  const zeroStd: number[] = [];
  const alarms: string[] = [];
  for (const line of metricsJsonl.split('\n')) {
    if (!line.trim()) continue;
    const r = JSON.parse(line) as { kind?: string; step?: number; event?: string; frac_reward_zero_std?: number };
    if (r.kind === 'train' && (r.step ?? 0) > 3 && typeof r.frac_reward_zero_std === 'number') zeroStd.push(r.frac_reward_zero_std);
    if (r.kind === 'event' && r.event?.startsWith(ALARM_EVENT_PREFIX)) alarms.push(`${r.event.slice(ALARM_EVENT_PREFIX.length)} at step ${r.step}`);
  }
  return { zeroStdAfterStep3: zeroStd.length ? zeroStd.reduce((a, b) => a + b, 0) / zeroStd.length : undefined, alarms };
}

/** Runs one seed of the demo in its own process (one onnxruntime thread each, so seeds run side by side). */
function runSeed(seed: number, dir: string): Promise<DemoResult & { health: RunHealth; line: string }> {
  const resultFile = join(dir, 'result.json');
  const demo = fileURLToPath(new URL('../examples/grpo-sql/demo.js', import.meta.url));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [demo, '--seed', String(seed), '--run-dir', join(dir, 'run'), '--result-json', resultFile], { stdio: ['ignore', 'pipe', 'pipe'] });
    let tail = '';
    let lastOut = '';
    const keep = (chunk: Buffer) => {
      tail = (tail + chunk.toString()).slice(-4000);
    };
    child.stdout.on('data', (chunk: Buffer) => {
      keep(chunk);
      lastOut = (lastOut + chunk.toString()).slice(-100_000);
    });
    child.stderr.on('data', keep);
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`demo seed ${seed} exited with ${code}:\n${tail}`));
      Promise.all([readFile(resultFile, 'utf8'), readFile(join(dir, 'run', 'metrics.jsonl'), 'utf8')])
        // The demo's last line on stdout is its result as one JSON object (trainingResultLine); stderr may interleave.
        .then(([result, metrics]) => resolve({ ...(JSON.parse(result) as DemoResult), health: runHealth(metrics), line: lastOut.trimEnd().split('\n').at(-1) ?? '' }), reject);
    });
  });
}

/**
 * Greedy episodes whose query returned the gold result (`outcomes/found_gold_result`) against
 * those answered right, after SFT and after GRPO, mean over seeds: what the answers threw away.
 */
function foundLine(results: readonly DemoResult[], splits: readonly string[]): string[] {
  const found = (r: DemoResult, label: string, s: string) => r.summary.evaluations[label]?.[s]?.outcomes?.['found_gold_result'];
  const cells = splits.flatMap((s) => {
    const at = (label: string) => results.map((r) => found(r, label, s));
    const sft = at('sft'), final = at('final');
    if (sft.some((x) => x === undefined) || final.some((x) => x === undefined)) return [];
    const success = (label: string) => results.map((r) => r.summary.evaluations[label]?.[s]?.success ?? 0);
    const outcome = (label: string, name: string) => results.map((r) => r.summary.evaluations[label]?.[s]?.outcomes?.[name] ?? 0);
    const change = (name: string) => `${stats(outcome('sft', name))} → ${stats(outcome('final', name))}`;
    return [`${s} ${stats(sft as number[])} → ${stats(final as number[])} (answered right ${stats(success('sft'))} → ${stats(success('final'))}; answer repeats the last query ${change('answer_repeats_query')}; a query wrote the gold SQL's values ${change('gold_literals_written')})`];
  });
  return cells.length ? [`A query returned the gold result (greedy, after SFT → after GRPO): ${cells.join('; ')}.`, ''] : [];
}

/**
 * The sharpening ceiling after SFT per split (greedy right or some sample right, on the sampled
 * questions), beside SFT's greedy success on them, mean over seeds: what GRPO had to work with.
 */
export function ceilingLine(results: readonly DemoResult[], splits: readonly string[]): string[] {
  const cells = splits.flatMap((s) => {
    const v = results.flatMap((r) => r.summary.evaluations['sft']?.[s]?.sampled ?? []);
    if (v.length < results.length) return [];
    return [`${s} ${stats(v.map((x) => x.greedy))} → ${stats(v.map((x) => x.ceiling))} (greedy misses some sample answered: ${v.map((x) => x.missedButSampled).join(', ')} of ${v[0]!.questions})`];
  });
  return cells.length ? [`Sharpening ceiling after SFT, on the sampled questions (greedy success → greedy right or at least one of the samples right; per seed the questions greedy missed that a sample answered): ${cells.join('; ')}.`, ''] : [];
}

export default async function bench(): Promise<BenchSection> {
  const SEEDS = seedsToRun();
  const root = await mkdtemp(join(tmpdir(), 'sqlenv-demo-bench-'));
  const results: (DemoResult & { health: RunHealth; line: string })[] = [];
  const parallel = Math.max(1, Math.min(SEEDS.length, availableParallelism()));
  try {
    for (let i = 0; i < SEEDS.length; i += parallel) {
      const batch = SEEDS.slice(i, i + parallel);
      results.push(...(await Promise.all(batch.map(async (seed) => {
        const dir = join(root, `seed-${seed}`);
        await mkdir(dir, { recursive: true });
        return runSeed(seed, dir);
      }))));
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }
  const first = results[0]?.config;
  const splits = first ? [...first.env.validationSplits, ...first.env.evalSplits] : [];
  const k = first?.eval.samples ?? 0;
  const rows: (string | number)[][] = [];
  for (const [label, name] of [['untrained', 'base model (before SFT)'], ['sft', '+ SFT'], ['final', '+ SFT + GRPO']] as const) {
    // eval.untrained: false (the default for the known bundled base) has no row before SFT.
    if (!results.some((r) => r.summary.evaluations[label])) continue;
    rows.push([
      name,
      ...splits.map((s) => stats(results.map((r) => r.summary.evaluations[label]?.[s]?.success ?? 0))),
      ...(k > 1 ? splits.map((s) => (label === 'untrained' ? '—' : stats(results.map((r) => r.summary.evaluations[label]?.[s]?.sampled?.passAtK ?? 0)))) : []),
      ...splits.map((s) => meanReturn(results.map((r) => r.summary.evaluations[label]?.[s]?.meanReturn ?? 0))),
    ]);
  }
  const oracle = results[0]?.rows.find((r) => r.policy.startsWith('oracle'));
  if (oracle) {
    rows.push(['oracle (upper bound)', ...splits.map((s) => `${((oracle.bySplit[s]?.success ?? 0) * 100).toFixed(1)}%`), ...(k > 1 ? splits.map(() => '—') : []), ...splits.map((s) => (oracle.bySplit[s]?.meanReturn ?? 0).toFixed(3))]);
  }
  const pts = (r: DemoResult, s: string) => ((r.summary.evaluations['final']?.[s]?.success ?? 0) - (r.summary.evaluations['sft']?.[s]?.success ?? 0)) * 100;
  /** A split's change from SFT to GRPO in points, with the questions gained and lost and the exact McNemar p-value where both evaluations recorded them. */
  const change = (c: SplitChange): string => {
    if (c.kind === 'missing') return `${c.split} not evaluated ${c.missingIn === 'after' ? 'after GRPO' : 'after SFT'}`;
    if (c.kind === 'incomparable') return `${c.split} not comparable (${c.questionsBefore} and ${c.questionsAfter} questions)`;
    const points = `${c.split} ${c.points >= 0 ? '+' : ''}${c.points.toFixed(1)}`;
    return c.kind === 'tested' ? `${points} (${c.paired.gained} gained, ${c.paired.lost} lost, p = ${c.paired.pValue.toPrecision(2)})` : points;
  };
  const deltas = results.map((r, i) => `seed ${SEEDS[i]}: ${splitChanges(r.summary.evaluations['sft'] ?? {}, r.summary.evaluations['final'] ?? {}, splits).map(change).join(', ')}`);
  const formatAfter = results.map((r) => r.summary.formatCheck.after?.share ?? 0);
  // A seed left over when the seeds do not divide into the parallel batches ran alone.
  const walls = results.map((r, i) => `${(r.summary.wallSeconds / 60).toFixed(1)} min${parallel > 1 && SEEDS.length % parallel !== 0 && i >= SEEDS.length - (SEEDS.length % parallel) ? ' (alone)' : ''}`);
  return {
    title: 'Bundled GRPO example (npm run demo) over seeds',
    markdown: [
      `Default configuration (examples/grpo-sql/config.json), seeds ${SEEDS.join(', ')}${process.env['TRAIN_DEMO_SEEDS'] ? ` (TRAIN_DEMO_SEEDS=${process.env['TRAIN_DEMO_SEEDS']})` : ''}; greedy held-out success and mean episode return on the same ${first?.eval.episodes ?? '?'} questions of each split (a fixed sample of its databases${curriculum(results[0])})` +
        (k > 1 ? `, and pass@${k} (${k} samples at temperature ${first?.rollout.temperature} on the first ${first?.eval.sampledQuestions || first?.eval.episodes} of them)` : '') +
        `, mean ± sample std over seeds. ${first?.env.validationSplits.join(' and ') || 'No validation split'}: settings are chosen on these; ${first?.env.evalSplits.join(' and ')}: the test splits, reported.`,
      '',
      mdTable(['policy', ...splits.map((s) => `${s} greedy`), ...(k > 1 ? splits.map((s) => `${s} pass@${k}`) : []), ...splits.map((s) => `${s} mean return`)], rows),
      '',
      `Held-out success change from SFT to SFT + GRPO, in points (with the questions gained and lost and the exact McNemar test's p-value on them): ${deltas.join('; ')}; ` +
        `mean ± sample std over seeds: ${splits.map((s) => `${s} ${signedStats(results.map((r) => pts(r, s)))}`).join(', ')}.`,
      '',
      ...foundLine(results, splits),
      ...ceilingLine(results, splits),
      `Post-SFT tool-call format check (share of calls with exactly the schema's arguments): ${stats(formatAfter)}. ` +
        `SFT steps per run: ${results.map((r) => r.summary.sftSteps).join(', ')} (at most ${first?.sft.epochs ?? '?'} epochs${first && first.sft.validationEpisodes > 0 ? ', stopped early once validation success stops rising' : ''}). ` +
        `Wall time per run (${parallel} run${parallel > 1 ? 's' : ''} at a time on this machine): ${walls.join(', ')}.`,
      '',
      `GRPO's health per seed (frac_reward_zero_std, mean over the steps after step 3; alarms raised): ` +
        results.map((r, i) => `seed ${SEEDS[i]}: ${r.health.zeroStdAfterStep3 === undefined ? '—' : r.health.zeroStdAfterStep3.toFixed(2)}, ${r.health.alarms.length ? r.health.alarms.join(' and ') : 'no alarm'}`).join('; ') + '.',
      '',
      'The demo\'s result line per seed (each test split\'s role, decoding, success after SFT and GRPO as fractions, questions gained and lost, exact McNemar p-value):',
      '',
      '```json',
      ...results.map((r) => r.line),
      '```',
    ].join('\n'),
  };
}
