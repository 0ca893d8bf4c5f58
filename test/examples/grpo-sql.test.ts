import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { flagOverrides, main } from '../../examples/grpo-sql/demo.js';
import type { TrainConfig } from '../../src/train/config/schema.js';
import { headroomLine } from '../../src/train/eval/headroom-line.js';
import { resultsTable, type ResultRow } from '../../src/train/eval/results-table.js';
import { trainingVerdict } from '../../src/train/eval/training-verdict.js';
import { trainingResultLine, type TrainingResultLine } from '../../src/train/eval/result-line.js';
import type { TrainingSummary } from '../../src/train/run/run-types.js';
import { run as evalCli } from '../../src/cli/eval.js';
import { createSqlTrainingSetup } from '../../src/recipes/sql/sql-training-setup.js';
import { openTrainedRun } from '../../src/recipes/sql/trained-run.js';
import { CheckpointStore } from '../../src/train/checkpoint/checkpoint-store.js';
import { readRunConfig } from '../../src/train/run/run-config-file.js';
import { readRunMetrics } from '../../src/train/training-run.js';
import { useTempDirs } from '../helpers/temp-dirs.js';

const tempDir = useTempDirs('sqlenv-demo-');

describe('examples/grpo-sql (npm run demo), quick configuration', () => {
  it('runs baselines, SFT and GRPO on SQLEnv with the tiny ONNX model and writes the dashboard', async () => {
    const runDir = join(tempDir(), 'run');
    const lines: string[] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void lines.push(args.join(' ')));
    const resultFile = join(tempDir(), 'result.json');
    let code: number;
    try {
      code = await main(['--quick', '--run-dir', runDir, '--result-json', resultFile]);
    } finally {
      log.mockRestore();
    }
    expect(code).toBe(0);
    // The example prints what the library computes from the run's own results (their wording is unit-tested there).
    const { config, summary, rows } = JSON.parse(await readFile(resultFile, 'utf8')) as { config: TrainConfig; summary: TrainingSummary; rows: ResultRow[] };
    const splits = [...config.env.validationSplits, ...config.env.evalSplits];
    expect(splits).toEqual(['validation', 'eval']);
    expect(rows.map((r) => r.policy)).toEqual(['random agent', 'noisy oracle (garbled calls)', 'oracle (upper bound)', 'model, untrained', 'model + SFT', 'model + SFT + GRPO']);
    expect(rows.find((r) => r.policy.startsWith('oracle'))!.bySplit['eval']!.success).toBe(1);
    expect(lines.some((l) => l.includes(resultsTable(rows, splits, config.eval.samples)))).toBe(true);
    expect(headroomLine(summary, splits)).toMatch(/^headroom after SFT/);
    expect(lines).toContain(headroomLine(summary, splits));
    expect(lines).toContain(trainingVerdict(summary, splits));
    // The last line is the run's outcome as JSON: each test split's role, decoding and paired change.
    const last = JSON.parse(lines.at(-1)!) as TrainingResultLine;
    expect(last).toEqual(trainingResultLine(summary, { eval: 'seen' }, { seed: config.seed, seconds: last.seconds, trainedDecoding: 'guided' }));
    expect(last.results.map((r) => [r.split, r.role, r.decoding])).toEqual([['eval', 'seen', 'guided'], ['eval', 'seen', 'unguided']]);
    const out = lines.join('\n');
    expect(out).toMatch(/WARNING: group size K = 2 < 4/);
    expect(out).toMatch(/memory estimate: /);
    expect(out).toMatch(/2 GRPO steps on split procedural \(4 questions\)/);

    const records = await readRunMetrics(runDir);
    expect(records.filter((r) => r.kind === 'sft').length).toBeGreaterThan(0);
    expect(records.filter((r) => r.kind === 'train').map((r) => r.step)).toEqual([1, 2]);
    expect(records.some((r) => r.kind === 'eval' && r.label === 'final' && r.split === 'eval')).toBe(true);
    // The held-out curve during GRPO is on the validation split only; pass@K after SFT and at the end.
    expect(records.filter((r) => r.kind === 'eval' && r.label === 'grpo').map((r) => [r.step, r.split])).toEqual([[1, 'validation']]);
    for (const label of ['sft', 'final']) {
      const sampled = records.filter((r) => r.kind === 'eval' && r.label === label);
      expect(sampled.map((r) => r.split).sort()).toEqual(['eval', 'validation']);
      for (const r of sampled) {
        expect(r).toMatchObject({ samples: 2, sampled_questions: 2, pass_at_k: expect.any(Number), pass_at_1: expect.any(Number), majority: expect.any(Number), missed_but_sampled: expect.any(Number) });
        // With n = K samples, pass@K is the share with a right sample, which the ceiling contains.
        expect(r['sharpening_ceiling'] as number).toBeGreaterThanOrEqual(r['pass_at_k'] as number);
      }
    }
    expect(records.find((r) => r.kind === 'eval' && r.label === 'untrained')?.['pass_at_k']).toBeUndefined();
    // GRPO practises on the generated databases (sql.generated, grpo.trainSplit), written into the run directory.
    const heldOut = new Set(['validation', 'eval']);
    const traces = records.filter((r) => r.kind === 'trace' && !heldOut.has(String(r.split)));
    expect(traces.length).toBeGreaterThan(0);
    expect(new Set(traces.map((r) => r.split))).toEqual(new Set(['procedural']));
    expect(traces[0]?.['question']).toBeTypeOf('string');
    expect(existsSync(join(runDir, 'generated', 'procedural', 'database', 'procedural_1'))).toBe(true);
    expect(existsSync(join(runDir, 'dashboard.html'))).toBe(true);
    expect(existsSync(join(runDir, 'plots', 'reward.svg'))).toBe(true);
    expect(existsSync(join(runDir, 'checkpoints', 'step-000002', 'weights.safetensors'))).toBe(true);

    // The run kept its config; `sqlenv eval --run` opens it with the last checkpoint's weights
    // and reproduces the run's own final evaluation.
    expect((await readRunConfig(runDir)) as { runDir: string }).toMatchObject({ runDir, grpo: { steps: 2 } });
    const trained = await openTrainedRun(runDir, { splits: ['eval'] });
    const fresh = await createSqlTrainingSetup(trained.config);
    try {
      expect(trained.step).toBe(2);
      const saved = (await new CheckpointStore(runDir).load(2)).weights;
      const loaded = await trained.setup.policy.readParameters();
      const initial = await fresh.setup.policy.readParameters();
      expect([...loaded.keys()].sort()).toEqual([...saved.keys()].sort());
      for (const [name, t] of saved) expect(loaded.get(name)!.data).toEqual(t.data);
      expect([...saved].some(([name, t]) => initial.get(name)!.data.some((x, i) => x !== t.data[i]))).toBe(true);
    } finally {
      await fresh.close();
      await trained.close();
    }
    const evalLines: string[] = [];
    const evalLog = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void evalLines.push(args.join(' ')));
    try {
      // The quick run evaluated with its guide (rollout.guidedDecoding 'always'): --guided reproduces it.
      expect(await evalCli(['--run', runDir, '--split', 'eval', '--episodes', '2', '--samples', '2', '--guided', '--json'])).toBe(0);
    } finally {
      evalLog.mockRestore();
    }
    const evaluated = JSON.parse(evalLines.at(-1)!) as {
      checkpoint_step: number; episodes: number; success_rate: number; mean_return: number; correct: boolean[]; unguided: { success_rate: number; correct: boolean[] };
      sampled: { passAtK: number; passAt1: number; curve: { k: number; passAtK: number }[]; headroom: { questions: number; greedyRight: number; ceiling: number } };
    };
    const final = records.find((r) => r.kind === 'eval' && r.label === 'final' && r.split === 'eval')!;
    expect(final['decoding']).toBe('guided');
    // A guided figure comes with the unguided one beside it, in the run's record and from the CLI alike.
    expect(evaluated).toMatchObject({
      checkpoint_step: 2, episodes: 2, success_rate: final['success'], mean_return: final['mean_return'], decoding: 'guided',
      unguided: { success_rate: final['unguided_success'], mean_return: final['unguided_mean_return'] }, sampled: { passAtK: expect.any(Number) },
    });
    // Greedy's verdict per question, in the split's order: as many as episodes, right as often as success_rate says.
    expect(evaluated.correct).toHaveLength(2);
    expect(evaluated.correct.filter(Boolean).length / 2).toBe(evaluated.success_rate);
    // The pass@k curve ends at pass@K, and the sharpening ceiling counts greedy's own right answers.
    expect(evaluated.sampled.curve.map((p) => p.k)).toEqual([1, 2]);
    expect(evaluated.sampled.curve[0]!.passAtK).toBeCloseTo(evaluated.sampled.passAt1, 12);
    expect(evaluated.sampled.curve[1]!.passAtK).toBeCloseTo(evaluated.sampled.passAtK, 12);
    expect(evaluated.sampled.headroom.questions).toBe(2);
    expect(evaluated.sampled.headroom.greedyRight).toBe(Math.round(2 * evaluated.success_rate));
    expect(evaluated.sampled.headroom.ceiling).toBeGreaterThanOrEqual(evaluated.success_rate);
    // By default the same weights are decoded without the task's guide, whatever the run's config says.
    const unguidedLines: string[] = [];
    const unguidedLog = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void unguidedLines.push(args.join(' ')));
    try {
      expect(await evalCli(['--run', runDir, '--split', 'eval', '--episodes', '2', '--json'])).toBe(0);
      expect(await evalCli(['--run', runDir, '--split', 'eval', '--episodes', '2'])).toBe(0);
    } finally {
      unguidedLog.mockRestore();
    }
    const unguidedJson = unguidedLines.find((l) => l.startsWith('{'))!;
    expect(JSON.parse(unguidedJson)).toMatchObject({ episodes: 2, decoding: 'unguided', success_rate: evaluated.unguided.success_rate, correct: evaluated.unguided.correct });
    expect(JSON.parse(unguidedJson)).not.toHaveProperty('unguided');
    // The printed report names its decoding too.
    expect(unguidedLines.some((l) => l.includes('greedy, unguided decoding'))).toBe(true);
    expect(unguidedLines.some((l) => /^success rate [\d.]+% \(unguided\)/.test(l))).toBe(true);
    // --traces: each greedy episode as a trace line, in the split's order, with the verdicts the summary counts.
    const tracesFile = join(runDir, 'eval-traces.jsonl');
    const tracedLog = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      expect(await evalCli(['--run', runDir, '--split', 'eval', '--episodes', '2', '--traces', tracesFile, '--json'])).toBe(0);
    } finally {
      tracedLog.mockRestore();
    }
    const evalTraces = (await readFile(tracesFile, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as { kind: string; split: string; step: number; question: string; turns: { action: string; result: string }[]; correct: boolean });
    expect(evalTraces.map((t) => [t.kind, t.split, t.step])).toEqual([['trace', 'eval', 2], ['trace', 'eval', 2]]);
    expect(evalTraces.map((t) => t.correct)).toEqual(evaluated.correct);
    expect(evalTraces.every((t) => t.question.length > 0 && t.turns.length > 0 && t.turns.every((turn) => typeof turn.action === 'string' && typeof turn.result === 'string'))).toBe(true);
  }, 180_000);
});

describe('the demo\'s run directory', () => {
  const runDirOf = (values: Record<string, string>) => flagOverrides(values).find((s) => s.startsWith('runDir='));
  it('is fresh and timestamped for the bundled configuration, so a second demo does not resume the first', () => {
    expect(runDirOf({})).toMatch(/^runDir="runs\/grpo-sql-\d{8}-\d{6}"$/);
  });
  it("is the user's own config's runDir (no override), and --run-dir wins over both", () => {
    expect(runDirOf({ config: 'mine.json' })).toBeUndefined();
    expect(runDirOf({ config: 'mine.json', 'run-dir': 'here' })).toBe('runDir="here"');
  });
});

describe('--model DIR', () => {
  it('turns on LoRA, the full tool schemas, value answers and describing oracle trajectories', async () => {
    const { applyOverrides } = await import('../../src/train/config/load-config.js');
    const { resolveSqlTrainConfig } = await import('../../src/recipes/sql/sql-config.js');
    const { readFile } = await import('node:fs/promises');
    const bundled = JSON.parse(await readFile(new URL('../../examples/grpo-sql/config.json', import.meta.url), 'utf8'));
    const config = resolveSqlTrainConfig(applyOverrides(bundled, flagOverrides({ model: './Qwen3-0.6B' })));
    expect(config.model.path).toBe('./Qwen3-0.6B');
    expect(config.model.lora.rank).toBe(16);
    expect(config.sql.compactTools).toBe(false);
    expect(config.env.kwargs).toEqual({ answerMode: 'value' });
    expect(config.sql.sft.describeTables).toBe(true);
  });
});
