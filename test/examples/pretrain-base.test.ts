import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PRETRAIN_DEFAULTS, pretrainBase } from '../../examples/grpo-sql/pretrain-base.js';
import { loadModel } from '../../src/lm/model/language-model.js';
import { packageRoot } from '../../src/base/package-root.js';
import { SafetensorsFile } from '../../src/lm/safetensors/reader.js';
import { resolveTrainConfig } from '../../src/train/config/load-config.js';
import { resolveModelDir } from '../../src/train/policy/create-policy.js';

describe('examples/grpo-sql/pretrain-base.ts', () => {
  it('pre-trains a small model on train questions and writes a loadable model directory, atomically', async () => {
    const root = mkdtempSync(join(tmpdir(), 'sqlenv-pretrain-'));
    const out = join(root, 'base');
    try {
      const lines: string[] = [];
      const shape = { layers: 1, hidden: 32, heads: 2, kvHeads: 1, intermediate: 64, vocab: 400 };
      const loss = await pretrainBase({ ...PRETRAIN_DEFAULTS, ...shape, out, epochs: 2, batch: 4, questions: 8, print: (l) => lines.push(l) });
      expect(Number.isFinite(loss)).toBe(true);
      expect(lines[0]).toMatch(/on 8 train questions × 2 epochs/);
      // Only the finished directory is left: no staging or work directories.
      expect(readdirSync(root)).toEqual(['base']);
      const model = await loadModel(out);
      expect(model.config.numLayers).toBe(1);
      expect(model.config.hiddenSize).toBe(32);
      const file = await SafetensorsFile.open(join(out, 'model.safetensors'));
      try {
        expect(file.metadata['pretrained']).toMatch(/8 train questions × 2 epochs/);
      } finally {
        await file.close();
      }
      // The committed model is reproducible: the same options give the same weights, bit for bit.
      const again = join(root, 'again');
      await pretrainBase({ ...PRETRAIN_DEFAULTS, ...shape, out: again, epochs: 2, batch: 4, questions: 8, print: () => {} });
      expect(readFileSync(join(again, 'model.safetensors')).equals(readFileSync(join(out, 'model.safetensors')))).toBe(true);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  }, 240_000);

  it('the bundled pre-trained base ships with the package and model.path "tiny-sql" finds it', async () => {
    const dir = await resolveModelDir(resolveTrainConfig({ model: { path: 'tiny-sql' } }));
    expect(dir).toBe(join(packageRoot(), 'models', 'tiny-sql'));
    for (const f of ['config.json', 'model.safetensors', 'tokenizer.json', 'tokenizer_config.json']) expect(existsSync(join(dir, f))).toBe(true);
    const model = await loadModel(dir);
    expect(model.config.numLayers).toBe(PRETRAIN_DEFAULTS.layers);
    expect(model.config.hiddenSize).toBe(PRETRAIN_DEFAULTS.hidden);
  });

  it('model.tiny shapes the random tiny model of a run', async () => {
    const runDir = mkdtempSync(join(tmpdir(), 'sqlenv-tiny-shape-'));
    try {
      const dir = await resolveModelDir(resolveTrainConfig({ runDir, model: { path: 'tiny', tiny: { layers: 1, hidden: 48, heads: 2, kvHeads: 1, intermediate: 96, vocabSize: 400 } } }));
      const model = await loadModel(dir);
      expect([model.config.numLayers, model.config.hiddenSize, model.config.numHeads, model.config.intermediateSize]).toEqual([1, 48, 2, 96]);
    } finally {
      rmSync(runDir, { recursive: true, force: true });
    }
  }, 60_000);
});
