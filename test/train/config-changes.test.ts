import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configChanges, describeConfigChange } from '../../src/train/run/config-changes.js';
import { TrainError } from '../../src/train/train-error.js';
import { readRunMetrics, runTraining } from '../../src/train/training-run.js';
import { useTempDirs } from '../helpers/temp-dirs.js';
import { letterSetup } from './fixtures/letter-run.js';

const tempDir = useTempDirs('sqlenv-resume-');

describe('configChanges', () => {
  it('lists nested settings that differ, by dotted path, with both values', () => {
    const before = { seed: 0, grpo: { steps: 30, loss: { beta: 0.2 } }, env: { evalSplits: ['eval'] } };
    const after = { seed: 0, grpo: { steps: 120, loss: { beta: 0.2 } }, env: { evalSplits: [] } };
    expect(configChanges(before, after)).toEqual([
      { path: 'grpo.steps', before: 30, after: 120 },
      { path: 'env.evalSplits', before: ['eval'], after: [] },
    ]);
  });

  it('reports keys only one side has, and treats an undefined key as absent', () => {
    expect(configChanges({ a: { x: 1, y: undefined } }, { a: { x: 1, z: 'new' } })).toEqual([{ path: 'a.z', before: undefined, after: 'new' }]);
    expect(configChanges({ a: { x: 1 } }, { a: {} })).toEqual([{ path: 'a.x', before: 1, after: undefined }]);
    expect(configChanges({ a: 1 }, { a: 1 })).toEqual([]);
  });

  it('compares an object with a non-object whole', () => {
    expect(configChanges({ a: { x: 1 } }, { a: 3 })).toEqual([{ path: 'a', before: { x: 1 }, after: 3 }]);
  });

  it('describes a change on one line', () => {
    expect(describeConfigChange({ path: 'rollout.guidedDecoding', before: 'evaluation', after: 'always' })).toBe('rollout.guidedDecoding "evaluation" → "always"');
    expect(describeConfigChange({ path: 'a.z', before: undefined, after: 2 })).toBe('a.z (unset) → 2');
  });
});

describe('resuming a run with other settings', () => {
  it('prints and logs each change with its old value, and writes the new config.json', async () => {
    const runDir = tempDir();
    await runTraining(letterSetup(runDir, { grpo: { steps: 2, loss: { beta: 0.01 } } }));
    const lines: string[] = [];
    const summary = await runTraining(letterSetup(runDir, { grpo: { steps: 4, loss: { beta: 0.01 } }, rollout: { numGenerations: 8, questionsPerStep: 4, maxTurns: 2, maxNewTokensPerTurn: 4, maxTotalTokens: 48, temperature: 0.7 } }, lines));
    expect(summary.resumedFromStep).toBe(2);
    const printed = lines.find((l) => l.startsWith('resumed with settings that differ'));
    expect(printed).toContain('grpo.steps 2 → 4');
    expect(printed).toContain('rollout.temperature 1 → 0.7');
    const events = (await readRunMetrics(runDir)).filter((r) => r.kind === 'event' && r.event === 'config_changed');
    expect(events).toHaveLength(1);
    const saved = JSON.parse(await readFile(join(runDir, 'config.json'), 'utf8')) as { grpo: { steps: number }; rollout: { temperature: number } };
    expect([saved.grpo.steps, saved.rollout.temperature]).toEqual([4, 0.7]);
  });

  it('says nothing when the settings are the same, and the directory may move', async () => {
    const runDir = tempDir();
    await runTraining(letterSetup(runDir, { grpo: { steps: 2, loss: { beta: 0.01 } } }));
    const lines: string[] = [];
    await runTraining(letterSetup(runDir, { grpo: { steps: 2, loss: { beta: 0.01 } } }, lines));
    expect(lines.some((l) => l.includes('differ'))).toBe(false);
    expect((await readRunMetrics(runDir)).some((r) => r.kind === 'event' && r.event === 'config_changed')).toBe(false);
  });

  it('refuses another model, before touching the checkpoint or config.json', async () => {
    const runDir = tempDir();
    await runTraining(letterSetup(runDir, { grpo: { steps: 2, loss: { beta: 0.01 } } }));
    const before = await readFile(join(runDir, 'config.json'), 'utf8');
    const other = letterSetup(runDir, { grpo: { steps: 4, loss: { beta: 0.01 } }, model: { path: 'other-model' } });
    await expect(runTraining(other)).rejects.toThrow(TrainError);
    await expect(runTraining(other)).rejects.toThrow(/model\.path "tiny" → "other-model".*another directory \(--run-dir\)/);
    expect(await readFile(join(runDir, 'config.json'), 'utf8')).toBe(before);
  });

  it('lets the device and the thread count change', async () => {
    const runDir = tempDir();
    await runTraining(letterSetup(runDir, { grpo: { steps: 2, loss: { beta: 0.01 } } }));
    const lines: string[] = [];
    await runTraining(letterSetup(runDir, { grpo: { steps: 3, loss: { beta: 0.01 } }, model: { device: 'webgpu', threads: 2 } }, lines));
    const printed = lines.find((l) => l.startsWith('resumed with settings'));
    expect(printed).toContain('model.device "cpu" → "webgpu"');
    expect(printed).toContain('model.threads 1 → 2');
  });
});
