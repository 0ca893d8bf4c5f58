import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readRunMetrics, runTraining } from '../../src/train/training-run.js';
import { isDocumentedMetric } from '../../src/train/metrics/metric-fields.js';
import { letterSetup } from './fixtures/letter-run.js';

const dirs: string[] = [];
async function tempRun(): Promise<string> {
  const d = await mkdtemp(join(tmpdir(), 'sqlenv-train-'));
  dirs.push(d);
  return d;
}
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

describe('runTraining (GRPO on a toy env with an exact bigram policy)', () => {
  it('raises the train reward, writes documented metrics, traces, checkpoints and the dashboard', async () => {
    const runDir = await tempRun();
    const lines: string[] = [];
    const summary = await runTraining(letterSetup(runDir, {}, lines));
    expect(summary.grpoSteps).toBe(12);
    expect(summary.lastReward!).toBeGreaterThan(summary.firstReward! + 0.2);
    expect(summary.evaluations['final']!['eval']!.success).toBeGreaterThan(summary.evaluations['untrained']!['eval']!.success);

    const records = await readRunMetrics(runDir);
    const train = records.filter((r) => r.kind === 'train');
    expect(train.map((r) => r.step)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    for (const r of records) {
      for (const key of Object.keys(r)) expect(isDocumentedMetric(key), `undocumented metric field ${key}`).toBe(true);
    }
    for (const field of ['reward', 'frac_reward_zero_std', 'kl', 'entropy', 'clip_ratio/region_mean', 'grad_norm', 'completions/mean_length', 'tools/failure_frequency']) {
      expect(train[0]![field], field).toBeTypeOf('number');
    }
    expect(records.filter((r) => r.kind === 'trace').length).toBeGreaterThanOrEqual(24);
    expect(records.some((r) => r.kind === 'eval' && r.label === 'grpo')).toBe(true);
    expect(lines.some((l) => /^grpo step 12\/12 \| reward/.test(l))).toBe(true);
    const html = await readFile(join(runDir, 'dashboard.html'), 'utf8');
    expect(html).toContain('<svg');
    expect(html).not.toMatch(/<script[^>]+src=/);
    expect((await stat(join(runDir, 'plots', 'reward.svg'))).size).toBeGreaterThan(500);
    expect((await stat(join(runDir, 'checkpoints', 'step-000012', 'manifest.json'))).isFile()).toBe(true);
  });

  it('prints the small-group guard for K = 2 with the dead-group rate', async () => {
    const runDir = await tempRun();
    const lines: string[] = [];
    await runTraining(letterSetup(runDir, { grpo: { steps: 1 }, rollout: { numGenerations: 2, questionsPerStep: 2, maxTurns: 2, maxNewTokensPerTurn: 3, maxTotalTokens: 48 }, eval: { episodes: 2, baselineEpisodes: 4 } }, lines));
    const warning = lines.find((l) => l.startsWith('WARNING: group size K = 2'));
    expect(warning).toBeDefined();
    expect(warning).toMatch(/±1/);
    expect(warning).toMatch(/p\^K \+ \(1−p\)\^K = \d+\.\d%/);
    const events = (await readRunMetrics(runDir)).filter((r) => r.kind === 'event' && r.event === 'small_group_warning');
    expect(events).toHaveLength(1);
  });

  it('SFT warm-up on oracle trajectories lowers the loss and runs the format check', async () => {
    const runDir = await tempRun();
    const lines: string[] = [];
    const summary = await runTraining(letterSetup(runDir, { mode: 'sft', eval: { episodes: 4 } }, lines));
    const sft = (await readRunMetrics(runDir)).filter((r) => r.kind === 'sft');
    expect(sft.length).toBe(summary.sftSteps);
    expect(sft[sft.length - 1]!.loss as number).toBeLessThan((sft[0]!.loss as number) * 0.7);
    expect(summary.formatCheck.before).toBeDefined();
    expect(summary.formatCheck.after).toBeDefined();
    expect(summary.evaluations['sft']!['eval']!.success).toBeGreaterThan(summary.evaluations['untrained']!['eval']!.success);
    expect(summary.grpoSteps).toBe(0);
  });

  it("drops zero-variance groups from the loss with zeroVariance 'drop'", async () => {
    const runDir = await tempRun();
    // rewardMode final + 1-token turns make many groups all-equal.
    await runTraining(letterSetup(runDir, { grpo: { steps: 2, zeroVariance: 'dynamic_sampling', maxResampleRounds: 2, rewardMode: 'final' }, eval: { episodes: 2 }, rollout: { numGenerations: 4, questionsPerStep: 3, maxTurns: 1, maxNewTokensPerTurn: 1, maxTotalTokens: 48 } }));
    const train = (await readRunMetrics(runDir)).filter((r) => r.kind === 'train');
    expect(train).toHaveLength(2);
    for (const r of train) {
      expect(r['resample_rounds']).toBeGreaterThanOrEqual(0);
      expect(r['groups_dropped']).toBeTypeOf('number');
    }
    expect(train.some((r) => (r['groups_dropped'] as number) > 0)).toBe(true);
  });
});
