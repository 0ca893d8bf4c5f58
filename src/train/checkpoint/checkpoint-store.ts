/**
 * Training checkpoints: weights (or adapters) and optimizer moments in safetensors, RNG state,
 * step and caller state in JSON, each directory committed atomically.
 *
 * Layout: `<runDir>/checkpoints/step-000010/{weights.safetensors, optimizer.safetensors,
 * state.json, manifest.json}` and `<runDir>/checkpoints/latest.json`. A checkpoint is written
 * into a hidden temporary directory, every file is fsynced, the manifest (sizes and SHA-256 of
 * every file) is written last, and the directory is renamed into place; only then is
 * `latest.json` replaced. A crash at any point leaves the previous checkpoint intact and the
 * half-written directory is ignored (and removed on the next save or load).
 *
 * Retention: the newest `keep` checkpoints are kept, plus every checkpoint saved with
 * `{ pinned: true }` (the run's checkpoint after SFT), which later saves never delete, so a run's
 * starting point stays available for comparison however long the run.
 */
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { SafetensorsFile } from '../../lm/safetensors/reader.js';
import { writeSafetensors } from '../../lm/safetensors/writer.js';
import type { AdamWState } from '../optim/policy-optimizer.js';
import { fsyncPath, writeFileAtomic } from './durable-fs.js';
import { TrainError } from '../train-error.js';

/** A float32 tensor as checkpoints store it (structurally the LM layer's tensor type). */
export interface CheckpointTensor {
  readonly shape: readonly number[];
  readonly data: Float32Array;
}

/** Everything needed to continue a run exactly where it stopped. */
export interface CheckpointData {
  /** Completed training steps (GRPO steps, or SFT steps in SFT mode). */
  step: number;
  /** Trainable tensors by name (LoRA adapters, or all weights). */
  weights: Map<string, CheckpointTensor>;
  optimizer: AdamWState;
  /** `Rng.getState()` of the trainer's generator. */
  rngState: number[];
  /** Free-form JSON state of the caller (phase, data cursor, best scores…). */
  extra: Record<string, unknown>;
}

interface Manifest {
  format: 'sqlenv-checkpoint';
  version: 1;
  step: number;
  files: { name: string; bytes: number; sha256: string }[];
  /** Kept whatever `keep` says (absent in older manifests: not pinned). */
  pinned?: true;
}

/** How one checkpoint is saved. */
export interface SaveOptions {
  /** Never deleted by retention, and not counted in `keep`. */
  pinned?: boolean;
}

/** Thrown when no valid checkpoint can be read (the message lists what was tried). */
export class CheckpointError extends TrainError {
  constructor(message: string) {
    super(message);
    this.name = 'CheckpointError';
  }
}

const FILES = ['weights.safetensors', 'optimizer.safetensors', 'state.json'] as const;
const stepDirName = (step: number) => `step-${String(step).padStart(6, '0')}`;

async function sha256File(path: string): Promise<string> {
  return createHash('sha256').update(await readFile(path)).digest('hex');
}

/**
 * Reads and writes the checkpoints of one run directory.
 *
 * @example
 * ```ts
 * const store = new CheckpointStore('runs/demo', { keep: 2 });
 * await store.save({ step: 0, weights, optimizer: opt.exportState(), rngState: rng.getState(), extra: {} }, { pinned: true });
 * await store.save({ step: 10, weights, optimizer: opt.exportState(), rngState: rng.getState(), extra: {} });
 * const last = await store.loadLatest(); // undefined for a fresh run
 * ```
 */
export class CheckpointStore {
  readonly dir: string;
  private readonly keep: number;
  /** Test hook: awaited after the data files are written and before the commit rename. */
  private readonly beforeCommit: (() => Promise<void>) | undefined;

  constructor(runDir: string, options: { keep?: number; beforeCommit?: () => Promise<void> } = {}) {
    this.dir = join(runDir, 'checkpoints');
    this.keep = Math.max(1, options.keep ?? 2);
    this.beforeCommit = options.beforeCommit;
  }

  /** Writes a checkpoint atomically and prunes old unpinned ones; returns its directory. */
  async save(data: CheckpointData, options: SaveOptions = {}): Promise<string> {
    await mkdir(this.dir, { recursive: true });
    await this.removeIncomplete();
    const finalDir = join(this.dir, stepDirName(data.step));
    const tmpDir = join(this.dir, `.tmp-${stepDirName(data.step)}-${process.pid}`);
    await rm(tmpDir, { recursive: true, force: true });
    await mkdir(tmpDir);

    await writeSafetensors(join(tmpDir, 'weights.safetensors'), data.weights, { metadata: { format: 'pt', step: String(data.step) } });
    const moments = new Map<string, CheckpointTensor>();
    for (const [name, m] of data.optimizer.m) moments.set(`m.${name}`, { shape: [m.length], data: m });
    for (const [name, v] of data.optimizer.v) moments.set(`v.${name}`, { shape: [v.length], data: v });
    await writeSafetensors(join(tmpDir, 'optimizer.safetensors'), moments, { metadata: { adam_step: String(data.optimizer.step) } });
    const state = { step: data.step, optimizerStep: data.optimizer.step, rngState: data.rngState, extra: data.extra };
    await writeFileAtomic(join(tmpDir, 'state.json'), JSON.stringify(state, null, 2));

    const files: Manifest['files'] = [];
    for (const name of FILES) {
      const path = join(tmpDir, name);
      await fsyncPath(path);
      files.push({ name, bytes: (await stat(path)).size, sha256: await sha256File(path) });
    }
    await this.beforeCommit?.();
    const manifest: Manifest = { format: 'sqlenv-checkpoint', version: 1, step: data.step, files, ...(options.pinned ? { pinned: true as const } : {}) };
    await writeFileAtomic(join(tmpDir, 'manifest.json'), JSON.stringify(manifest, null, 2));
    await fsyncPath(tmpDir);
    await rm(finalDir, { recursive: true, force: true });
    await rename(tmpDir, finalDir);
    await fsyncPath(this.dir);
    await writeFileAtomic(join(this.dir, 'latest.json'), JSON.stringify({ step: data.step, dir: stepDirName(data.step) }));
    await this.prune();
    return finalDir;
  }

  /** Steps of the committed checkpoint directories, newest first (validity not checked). */
  async listSteps(): Promise<number[]> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return [];
    }
    return names
      .map((n) => /^step-(\d+)$/.exec(n))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => Number(m[1]))
      .sort((a, b) => b - a);
  }

  /**
   * Loads the newest valid checkpoint: the one `latest.json` names, else the newest directory
   * whose manifest matches its files. Returns undefined when the run has none.
   */
  async loadLatest(): Promise<CheckpointData | undefined> {
    await this.removeIncomplete();
    const candidates = await this.listSteps();
    try {
      const latest = JSON.parse(await readFile(join(this.dir, 'latest.json'), 'utf8')) as { step: number };
      candidates.sort((a, b) => (a === latest.step ? -1 : b === latest.step ? 1 : b - a));
    } catch {
      // No pointer (crash before it was written): fall back to scanning.
    }
    const problems: string[] = [];
    for (const step of candidates) {
      try {
        return await this.load(step);
      } catch (err) {
        problems.push(`${stepDirName(step)}: ${(err as Error).message}`);
      }
    }
    if (problems.length > 0) {
      throw new CheckpointError(`no valid checkpoint in ${this.dir}:\n  ${problems.join('\n  ')}\nDelete the run directory to start over.`);
    }
    return undefined;
  }

  /** Loads and verifies the checkpoint of one step. */
  async load(step: number): Promise<CheckpointData> {
    const dir = join(this.dir, stepDirName(step));
    const manifest = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')) as Manifest;
    for (const f of manifest.files) {
      const path = join(dir, f.name);
      const size = (await stat(path)).size;
      if (size !== f.bytes || (await sha256File(path)) !== f.sha256) {
        throw new CheckpointError(`${f.name} does not match its manifest (size ${size}, expected ${f.bytes})`);
      }
    }
    const state = JSON.parse(await readFile(join(dir, 'state.json'), 'utf8')) as {
      step: number;
      optimizerStep: number;
      rngState: number[];
      extra: Record<string, unknown>;
    };
    const weights = new Map<string, CheckpointTensor>();
    const wf = await SafetensorsFile.open(join(dir, 'weights.safetensors'));
    try {
      for (const name of wf.names()) weights.set(name, await wf.read(name));
    } finally {
      await wf.close();
    }
    const m = new Map<string, Float32Array>();
    const v = new Map<string, Float32Array>();
    const of = await SafetensorsFile.open(join(dir, 'optimizer.safetensors'));
    try {
      for (const name of of.names()) {
        const data = (await of.read(name)).data;
        if (name.startsWith('m.')) m.set(name.slice(2), data);
        else if (name.startsWith('v.')) v.set(name.slice(2), data);
      }
    } finally {
      await of.close();
    }
    return { step: state.step, weights, optimizer: { step: state.optimizerStep, m, v }, rngState: state.rngState, extra: state.extra };
  }

  private async removeIncomplete(): Promise<void> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return;
    }
    for (const n of names) if (n.startsWith('.tmp-')) await rm(join(this.dir, n), { recursive: true, force: true });
  }

  /** Steps of the committed checkpoints saved with `{ pinned: true }`, newest first. */
  async pinnedSteps(): Promise<number[]> {
    const pinned: number[] = [];
    for (const step of await this.listSteps()) if (await this.isPinned(step)) pinned.push(step);
    return pinned;
  }

  private async isPinned(step: number): Promise<boolean> {
    try {
      const manifest = JSON.parse(await readFile(join(this.dir, stepDirName(step), 'manifest.json'), 'utf8')) as Partial<Manifest>;
      return manifest.pinned === true;
    } catch {
      // An unreadable manifest is an invalid checkpoint, which retention may delete.
      return false;
    }
  }

  private async prune(): Promise<void> {
    const pinned = new Set(await this.pinnedSteps());
    const unpinned = (await this.listSteps()).filter((step) => !pinned.has(step));
    for (const step of unpinned.slice(this.keep)) await rm(join(this.dir, stepDirName(step)), { recursive: true, force: true });
  }
}
