import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lengthBucketedBatches, padSequence, PRETRAIN_DEFAULTS, pretrainBase, PretrainOptionsError } from '../../scripts/model/pretrain-base.js';
import { Rng } from '../../src/base/rng.js';
import { loadModel } from '../../src/lm/model/language-model.js';
import { packageRoot } from '../../src/base/package-root.js';
import { SafetensorsFile } from '../../src/lm/safetensors/reader.js';
import { resolveTrainConfig } from '../../src/train/config/load-config.js';
import { resolveModelDir } from '../../src/train/policy/create-policy.js';
import { useTempDirs } from '../helpers/temp-dirs.js';

const tempDir = useTempDirs('sqlenv-pretrain-');
const tinyShapeDir = useTempDirs('sqlenv-tiny-shape-');

const seq = (n: number) => ({ tokens: Array.from({ length: n }, (_, i) => i + 1), mask: Array.from({ length: n }, () => 1), assistantTexts: [], correct: true });

describe('scripts/model/pretrain-base.ts', () => {
  it('padSequence pads to the next multiple with masked pad tokens', () => {
    const p = padSequence(seq(5), 4, 0);
    expect(p.tokens).toEqual([1, 2, 3, 4, 5, 0, 0, 0]);
    expect(p.mask).toEqual([1, 1, 1, 1, 1, 0, 0, 0]);
    expect(padSequence(seq(8), 4, 0).tokens).toHaveLength(8);
  });

  it('lengthBucketedBatches keeps every sequence once and groups similar lengths', () => {
    const sequences = [64, 128, 64, 192, 128, 64, 192, 128].map((n) => seq(n));
    const batches = lengthBucketedBatches(sequences, 3, new Rng(1));
    expect(batches.flat().map((s) => s.tokens.length).sort((a, b) => a - b)).toEqual([64, 64, 64, 128, 128, 128, 192, 192]);
    expect(batches).toHaveLength(3);
    // Sorted before cutting: the lengths inside each batch are contiguous in sorted order.
    const maxima = batches.map((b) => Math.max(...b.map((s) => s.tokens.length))).sort((a, b) => a - b);
    expect(maxima).toEqual([64, 128, 192]);
  });

  it('refuses corpus seeds that are validation databases', async () => {
    await expect(pretrainBase({ ...PRETRAIN_DEFAULTS, out: '/nonexistent', runDir: '/nonexistent', firstDbSeed: 9_000_000, databases: 3, print: () => {} })).rejects.toBeInstanceOf(PretrainOptionsError);
  });

  it('pre-trains on procedural databases, writes a loadable model atomically, resumes from its epoch checkpoint bit for bit', async () => {
    const root = tempDir();
    const out = join(root, 'base');
    const lines: string[] = [];
    const small = { ...PRETRAIN_DEFAULTS, layers: 1, hidden: 32, heads: 2, kvHeads: 1, intermediate: 64, vocab: 400, epochs: 2, batch: 4, databases: 2, perDb: 4, padTo: 32 };
    const loss = await pretrainBase({ ...small, out, runDir: join(root, 'run-a'), print: (l) => lines.push(l) });
    expect(Number.isFinite(loss)).toBe(true);
    expect(lines[0]).toMatch(/on 8 oracle trajectories of 2 procedural databases .* × 2 epochs/);
    expect(lines.filter((l) => /^epoch \d\/2: mean loss/.test(l))).toHaveLength(2);
    // Only the finished directory and the checkpoints are left: no staging or work directories.
    expect(readdirSync(root).sort()).toEqual(['base', 'run-a']);
    const model = await loadModel(out);
    expect(model.config.numLayers).toBe(1);
    expect(model.config.hiddenSize).toBe(32);
    const file = await SafetensorsFile.open(join(out, 'model.safetensors'));
    try {
      expect(file.metadata['pretrained']).toMatch(/8 oracle trajectories of 2 procedural databases × 2 epochs/);
    } finally {
      await file.close();
    }
    const weights = readFileSync(join(out, 'model.safetensors'));
    // Interrupted after epoch 1 (the print after the checkpoint throws), then started again: it
    // resumes from the checkpoint and ends with the uninterrupted run's weights, bit for bit.
    const again = join(root, 'again');
    const runB = join(root, 'run-b');
    await expect(
      pretrainBase({ ...small, out: again, runDir: runB, print: (l) => { if (l.startsWith('epoch 1/2')) throw new Error('interrupted'); } }),
    ).rejects.toThrow('interrupted');
    expect(existsSync(again)).toBe(false);
    const resumed: string[] = [];
    await pretrainBase({ ...small, out: again, runDir: runB, print: (l) => resumed.push(l) });
    expect(resumed.some((l) => l.startsWith('resumed from') && l.includes('after epoch 1'))).toBe(true);
    expect(readFileSync(join(again, 'model.safetensors')).equals(weights)).toBe(true);
    // Other options do not resume someone else's checkpoint.
    const other: string[] = [];
    await pretrainBase({ ...small, epochs: 1, out: again, runDir: runB, print: (l) => other.push(l) });
    expect(other.some((l) => l.startsWith('ignoring the checkpoint'))).toBe(true);
  }, 300_000);

  it('the bundled pre-trained base ships with the package and model.path "tiny-sql" finds it', async () => {
    const dir = await resolveModelDir(resolveTrainConfig({ model: { path: 'tiny-sql' } }));
    expect(dir).toBe(join(packageRoot(), 'models', 'tiny-sql'));
    for (const f of ['config.json', 'model.safetensors', 'tokenizer.json', 'tokenizer_config.json']) expect(existsSync(join(dir, f))).toBe(true);
    const model = await loadModel(dir);
    expect(model.config.numLayers).toBe(PRETRAIN_DEFAULTS.layers);
    expect(model.config.hiddenSize).toBe(PRETRAIN_DEFAULTS.hidden);
  });

  it('model.tiny shapes the random tiny model of a run', async () => {
    const runDir = tinyShapeDir();
    const dir = await resolveModelDir(resolveTrainConfig({ runDir, model: { path: 'tiny', tiny: { layers: 1, hidden: 48, heads: 2, kvHeads: 1, intermediate: 96, vocabSize: 400 } } }));
    const model = await loadModel(dir);
    expect([model.config.numLayers, model.config.hiddenSize, model.config.numHeads, model.config.intermediateSize]).toEqual([1, 48, 2, 96]);
  }, 60_000);
});
