import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { flagOverrides, foundVersusAnswered, headroom, main, verdict } from '../../examples/grpo-sql/demo.js';
import { run as evalCli } from '../../src/cli/eval.js';
import { createSqlTrainingSetup } from '../../src/recipes/sql/sql-training-setup.js';
import { openTrainedRun } from '../../src/recipes/sql/trained-run.js';
import { CheckpointStore } from '../../src/train/checkpoint/checkpoint-store.js';
import { readRunConfig } from '../../src/train/run/run-config-file.js';
import type { SplitResult } from '../../src/train/run/run-types.js';
import { readRunMetrics } from '../../src/train/training-run.js';
import { useTempDirs } from '../helpers/temp-dirs.js';

const tempDir = useTempDirs('sqlenv-demo-');

describe('examples/grpo-sql (npm run demo), quick configuration', () => {
  it('runs baselines, SFT and GRPO on SQLEnv with the tiny ONNX model and writes the dashboard', async () => {
    const runDir = join(tempDir(), 'run');
    const lines: string[] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void lines.push(args.join(' ')));
    let code: number;
    try {
      code = await main(['--quick', '--run-dir', runDir]);
    } finally {
      log.mockRestore();
    }
    expect(code).toBe(0);
    const out = lines.join('\n');
    expect(out).toMatch(/\| oracle \(upper bound\)\s+\| 100\.0%/);
    expect(out).toMatch(/\| model \+ SFT \+ GRPO/);
    expect(out).toMatch(/WARNING: group size K = 2 < 4/);
    expect(out).toMatch(/tool-call format check: [\d.]+% before SFT → [\d.]+% after/);
    expect(out).toMatch(/memory estimate: /);
    expect(out).toMatch(/2 GRPO steps on split procedural \(4 questions\)/);
    // Validation and test splits, greedy and pass@K, and the headroom after SFT.
    expect(out).toMatch(/\| policy\s+\| validation greedy \| validation pass@2 \| eval greedy \| eval pass@2 \|/);
    expect(out).toMatch(/\| model \+ SFT \+ GRPO\s+\| [\d.]+%\s+\| [\d.]+%\s+\| [\d.]+%\s+\| [\d.]+%/);
    expect(out).toMatch(/headroom after SFT .*validation pass@1 [\d.]+% → pass@2 [\d.]+% \(majority vote [\d.]+%; on these 2 questions greedy [\d.]+%, \d of its misses answered by a sample: ceiling [\d.]+%\)/);
    expect(out).toMatch(/GRPO's greedy held-out success: validation [\d.]+%, eval [\d.]+%/);

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
    // GRPO practises on the generated databases (env.generated, grpo.trainSplit), written into the run directory.
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
      expect(await evalCli(['--run', runDir, '--split', 'eval', '--episodes', '2', '--samples', '2', '--json'])).toBe(0);
    } finally {
      evalLog.mockRestore();
    }
    const evaluated = JSON.parse(evalLines.at(-1)!) as {
      checkpoint_step: number; episodes: number; success_rate: number; mean_return: number; correct: boolean[];
      sampled: { passAtK: number; passAt1: number; curve: { k: number; passAtK: number }[]; headroom: { questions: number; greedyRight: number; ceiling: number } };
    };
    const final = records.find((r) => r.kind === 'eval' && r.label === 'final' && r.split === 'eval')!;
    expect(evaluated).toMatchObject({ checkpoint_step: 2, episodes: 2, success_rate: final['success'], mean_return: final['mean_return'], guided_decoding: true, sampled: { passAtK: expect.any(Number) } });
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
    // --unguided: the same weights decoded without the task's guide.
    const unguidedLines: string[] = [];
    const unguidedLog = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void unguidedLines.push(args.join(' ')));
    try {
      expect(await evalCli(['--run', runDir, '--split', 'eval', '--episodes', '2', '--unguided', '--json'])).toBe(0);
    } finally {
      unguidedLog.mockRestore();
    }
    expect(JSON.parse(unguidedLines.at(-1)!)).toMatchObject({ episodes: 2, guided_decoding: false });
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

describe('the demo\'s found-versus-answered line', () => {
  const result = (success: number, found?: number, repeats?: number, copied?: number) => ({
    success, meanReturn: 0, episodes: 10,
    ...(found === undefined ? {} : { outcomes: { found_gold_result: found, ...(repeats === undefined ? {} : { answer_repeats_query: repeats }), ...(copied === undefined ? {} : { gold_literals_written: copied }) } }),
  });
  it('puts the share of episodes whose query found the gold result beside the share answered right', () => {
    const summary = { formatCheck: {}, sftSteps: 1, grpoSteps: 1, wallSeconds: 1, evaluations: { sft: { validation: result(0.1, 0.4), eval: result(0.05) }, final: { validation: result(0.3, 0.45, 0.6) } } };
    expect(foundVersusAnswered(summary, ['validation', 'eval'])).toBe(
      'a query returned the gold result (greedy) vs answered right — after SFT: validation 40.0% found, 10.0% answered; after GRPO: validation 45.0% found, 30.0% answered (60.0% repeating the query)',
    );
  });
  it("adds the share whose query wrote the gold SQL's values when the task reports it", () => {
    const summary = { formatCheck: {}, sftSteps: 1, grpoSteps: 1, wallSeconds: 1, evaluations: { sft: { eval: result(0.5, 0.6, 0.7, 0.55) } } };
    expect(foundVersusAnswered(summary, ['eval'])).toBe(
      "a query returned the gold result (greedy) vs answered right — after SFT: eval 60.0% found, 50.0% answered (70.0% repeating the query; 55.0% writing the gold SQL's values)",
    );
  });
  it('says nothing when no evaluation reported the outcome (no episode finished, or a task without outcomes)', () => {
    expect(foundVersusAnswered({ formatCheck: {}, sftSteps: 1, grpoSteps: 0, wallSeconds: 1, evaluations: { sft: { eval: result(0) } } }, ['eval'])).toBeUndefined();
  });
});

describe("the demo's verdict line", () => {
  const split = (success: number, episodes: number) => ({ success, meanReturn: 0, episodes });
  const summaryOf = (sft: Record<string, SplitResult>, final: Record<string, SplitResult>) => ({ formatCheck: {}, sftSteps: 1, grpoSteps: 1, wallSeconds: 1, evaluations: { sft, final } });
  /** `right` of `n` questions answered, the first `right` of them (or those listed by index). */
  const answered = (n: number, right: number | number[]) => {
    const correct = Array.from({ length: n }, (_, i) => (typeof right === 'number' ? i < right : right.includes(i)));
    return { success: correct.filter(Boolean).length / n, meanReturn: 0, episodes: n, correct };
  };
  it('prints the change per split in points and in questions gained and lost, and calls a change beyond chance an improvement', () => {
    // 12 gained, 0 lost on eval: exact McNemar p = 2 · 2^-12 ≈ 0.00049, under 0.05 / 2.
    expect(verdict(summaryOf({ validation: answered(72, 36), eval: answered(119, 40) }, { validation: answered(72, 36), eval: answered(119, 52) }), ['validation', 'eval'])).toBe(
      "GRPO's greedy held-out success: validation 50.0%, eval 43.7%\nChange from SFT to GRPO: validation +0.0 pts (0 gained, 0 lost), eval +10.1 pts (12 gained, 0 lost)" +
        ' — GRPO improved on the SFT checkpoint beyond chance on eval (p = 0.00049) (exact McNemar test on the same questions, p < 0.025 per split).',
    );
  });
  it('does not call a change of a question or two an improvement', () => {
    // Found in the demo: validation_unseen_db +1.7 and eval -0.8 points averaged to "GRPO improved on the SFT checkpoint".
    const line = verdict(
      summaryOf({ unseen: answered(119, [0, 1, 2, 3, 4, 5, 6, 7, 8]), eval: answered(119, 97) }, { unseen: answered(119, [0, 1, 2, 3, 4, 5, 6, 7, 10, 11, 12]), eval: answered(119, 96) }),
      ['unseen', 'eval'],
    );
    expect(line).toContain('unseen +1.7 pts (3 gained, 1 lost), eval -0.8 pts (0 gained, 1 lost)');
    expect(line).toContain('no split changed beyond chance');
    expect(line).toContain('GRPO did NOT measurably improve');
  });
  it('says when GRPO did worse beyond chance, and when the splits disagree', () => {
    const worse = verdict(summaryOf({ eval: answered(119, 60) }, { eval: answered(119, 40) }), ['eval']);
    expect(worse).toContain('GRPO did worse than the SFT checkpoint beyond chance on eval');
    const mixed = verdict(summaryOf({ a: answered(119, 60), b: answered(119, 20) }, { a: answered(119, 40), b: answered(119, 40) }), ['a', 'b']);
    expect(mixed).toContain('mixed: GRPO did better than SFT on b');
    expect(mixed).toContain('and worse on a');
  });
  it('without per-question results (a run from before them) gives the mean change and says there is no test', () => {
    expect(verdict(summaryOf({ validation: split(0.5, 72), eval: split(0.4, 119) }, { validation: split(0.6, 72), eval: split(0.35, 119) }), ['validation', 'eval'])).toBe(
      "GRPO's greedy held-out success: validation 60.0%, eval 35.0%\nChange from SFT to GRPO: validation +10.0 pts, eval -5.0 pts" +
        " — mean +2.5 pts; this run's evaluations did not record per-question results, so there is no significance test.",
    );
  });
  it('does not compare evaluations of different question counts (a run resumed with another eval.episodes)', () => {
    // Found by a run resumed with eval.episodes 226: the line claimed +5.3 points from 119 questions to 226.
    const line = verdict(summaryOf({ validation: split(0.792, 72), unseen: split(0.076, 119) }, { validation: split(0.778, 72), unseen: split(0.128, 226) }), ['validation', 'unseen']);
    expect(line).toContain('validation -1.4 pts, unseen not comparable (119 questions after SFT, 226 after GRPO)');
    expect(line).toContain('mean -1.4 pts');
    expect(verdict(summaryOf({ unseen: split(0.076, 119) }, { unseen: split(0.128, 226) }), ['unseen'])).toContain('no split was evaluated on the same questions');
  });
  it('names a split missing from one of the evaluations instead of counting it as 0%', () => {
    expect(verdict(summaryOf({ validation: split(0.5, 72) }, { validation: split(0.5, 72), eval: split(0.3, 119) }), ['validation', 'eval'])).toContain('eval not evaluated after SFT');
  });
});

describe("the demo's headroom line", () => {
  it('prints pass@1 → pass@K and the sharpening ceiling after SFT, per sampled split', () => {
    const sampled = { k: 16, questions: 72, passAt1: 0.568, passAtK: 0.778, majority: 0.639, greedy: 0.708, missedButSampled: 5, ceiling: 0.778 };
    const summary = { formatCheck: {}, sftSteps: 1, grpoSteps: 1, wallSeconds: 1, evaluations: { sft: { validation: { success: 0.708, meanReturn: 0, episodes: 72, sampled }, eval: { success: 0.7, meanReturn: 0, episodes: 119 } } } };
    expect(headroom(summary, ['validation', 'eval'])).toBe(
      'headroom after SFT (samples at the rollout temperature): validation pass@1 56.8% → pass@16 77.8% (majority vote 63.9%; on these 72 questions greedy 70.8%, 5 of its misses answered by a sample: ceiling 77.8%)',
    );
    expect(headroom({ ...summary, evaluations: {} }, ['validation'])).toBeUndefined();
  });
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
    const { applyOverrides, resolveTrainConfig } = await import('../../src/train/config/load-config.js');
    const { readFile } = await import('node:fs/promises');
    const bundled = JSON.parse(await readFile(new URL('../../examples/grpo-sql/config.json', import.meta.url), 'utf8'));
    const config = resolveTrainConfig(applyOverrides(bundled, flagOverrides({ model: './Qwen3-0.6B' })));
    expect(config.model.path).toBe('./Qwen3-0.6B');
    expect(config.model.lora.rank).toBe(16);
    expect(config.env.compactTools).toBe(false);
    expect(config.env.kwargs).toEqual({ answerMode: 'value' });
    expect(config.sft.describeTables).toBe(true);
  });
});
