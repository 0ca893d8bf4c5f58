import { spawn } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CheckpointError, CheckpointStore } from '../../src/train/checkpoint/checkpoint-store.js';
import { readRunMetrics, runTraining } from '../../src/train/training-run.js';
import { useTempDirs } from '../helpers/temp-dirs.js';
import { letterSetup } from './fixtures/letter-run.js';

const tempDir = useTempDirs('sqlenv-ckpt-');

const sample = (step: number) => ({
  step,
  weights: new Map([['w', { shape: [2], data: new Float32Array([step, -step]) }]]),
  optimizer: { step: step * 2, m: new Map([['w', new Float32Array([0.5, 0.25])]]), v: new Map([['w', new Float32Array([1, 2])]]) },
  rngState: [1, 2, 3, step],
  extra: { phase: 'grpo', note: 'x' },
});

describe('CheckpointStore', () => {
  it('round-trips weights, optimizer moments, RNG state and extra state', async () => {
    const store = new CheckpointStore(tempDir());
    await store.save(sample(3));
    const back = (await store.loadLatest())!;
    expect(back.step).toBe(3);
    expect([...back.weights.get('w')!.data]).toEqual([3, -3]);
    expect(back.optimizer.step).toBe(6);
    expect([...back.optimizer.v.get('w')!]).toEqual([1, 2]);
    expect(back.rngState).toEqual([1, 2, 3, 3]);
    expect(back.extra).toEqual({ phase: 'grpo', note: 'x' });
  });

  it('keeps only the newest `keep` checkpoints', async () => {
    const store = new CheckpointStore(tempDir(), { keep: 2 });
    for (const s of [1, 2, 3]) await store.save(sample(s));
    expect(await store.listSteps()).toEqual([3, 2]);
  });

  it('keeps a pinned checkpoint beside the newest `keep`, also for a store reopened later', async () => {
    const dir = tempDir();
    const store = new CheckpointStore(dir, { keep: 1 });
    await store.save(sample(0), { pinned: true });
    for (const s of [2, 4]) await store.save(sample(s));
    expect(await store.listSteps()).toEqual([4, 0]);
    const reopened = new CheckpointStore(dir, { keep: 1 });
    await reopened.save(sample(6));
    expect(await reopened.listSteps()).toEqual([6, 0]);
    expect(await reopened.pinnedSteps()).toEqual([0]);
    expect((await reopened.load(0)).weights.get('w')!.data).toEqual(new Float32Array([0, -0]));
  });

  it('falls back to the previous checkpoint when the newest is corrupt', async () => {
    const dir = tempDir();
    const store = new CheckpointStore(dir, { keep: 3 });
    await store.save(sample(1));
    await store.save(sample(2));
    await writeFile(join(dir, 'checkpoints', 'step-000002', 'weights.safetensors'), 'garbage');
    expect((await store.loadLatest())!.step).toBe(1);
  });

  it('ignores and removes a half-written (uncommitted) directory', async () => {
    const dir = tempDir();
    let fail = false;
    const store = new CheckpointStore(dir, {
      beforeCommit: async () => {
        if (fail) throw new Error('simulated crash before commit');
      },
    });
    await store.save(sample(1));
    fail = true;
    await expect(store.save(sample(2))).rejects.toThrow(/simulated crash/);
    expect((await readdir(join(dir, 'checkpoints'))).some((n) => n.startsWith('.tmp-'))).toBe(true);
    expect((await new CheckpointStore(dir).loadLatest())!.step).toBe(1);
    expect((await readdir(join(dir, 'checkpoints'))).some((n) => n.startsWith('.tmp-'))).toBe(false);
  });

  it('reports a run whose every checkpoint is corrupt', async () => {
    const dir = tempDir();
    const store = new CheckpointStore(dir);
    await store.save(sample(1));
    await writeFile(join(dir, 'checkpoints', 'step-000001', 'state.json'), '{}');
    await expect(store.loadLatest()).rejects.toThrow(CheckpointError);
  });
});

describe('checkpoint retention in a training run', () => {
  it('keeps the checkpoint after SFT (step 0) however many later ones retention drops', async () => {
    const runDir = tempDir();
    await runTraining(letterSetup(runDir, { mode: 'sft+grpo', grpo: { steps: 6, loss: { beta: 0.01 } }, checkpoint: { everySteps: 2, keep: 1 } }));
    const store = new CheckpointStore(runDir);
    expect(await store.listSteps()).toEqual([6, 0]);
    expect((await store.load(0)).extra.phase).toBe('sft_done');
  });
});

describe('crash during a checkpoint, then resume', () => {
  it('a SIGKILLed run resumes from the last committed checkpoint and ends where an uninterrupted run ends', async () => {
    const runDir = tempDir();
    const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'fixtures', 'crash-child.ts'), runDir, '3'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exit = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
    await new Promise<void>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('CRASH_POINT')) resolve();
        if (out.includes('FINISHED')) reject(new Error('child finished without reaching the crash point'));
      });
      child.on('exit', () => reject(new Error(`child exited early: ${stderr}`)));
    });
    child.kill('SIGKILL');
    expect(await exit).toBe('SIGKILL');
    // Commit 1 = after warm-up (step 0), 2 = step 2, 3 = step 4 (killed mid-way).
    const names = await readdir(join(runDir, 'checkpoints'));
    expect(names).toContain('step-000002');
    expect(names).not.toContain('step-000004');
    expect(names.some((n) => n.startsWith('.tmp-step-000004'))).toBe(true);

    const resumed = letterSetup(runDir, { grpo: { steps: 6, loss: { beta: 0.01 } } });
    const summary = await runTraining(resumed);
    expect(summary.resumedFromStep).toBe(2);
    const train = (await readRunMetrics(runDir)).filter((r) => r.kind === 'train');
    expect(train.map((r) => r.step)).toEqual([1, 2, 3, 4, 5, 6]);
    const latest = JSON.parse(await readFile(join(runDir, 'checkpoints', 'latest.json'), 'utf8')) as { step: number };
    expect(latest.step).toBe(6);

    const straight = letterSetup(tempDir(), { grpo: { steps: 6, loss: { beta: 0.01 } } });
    await runTraining(straight);
    expect([...(await resumed.policy.readParameters()).values()].map((t) => [...t.data])).toEqual([...(await straight.policy.readParameters()).values()].map((t) => [...t.data]));
  });
});
