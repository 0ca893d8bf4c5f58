import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Policy, SafetensorsFile, createTinyModel, loadModel, type TinyModelOptions } from '../../src/lm/index.js';
import { packageRoot } from '../../src/base/package-root.js';
import { frameworkPython } from '../python/venv.js';
import { useTempDirs } from '../helpers/temp-dirs.js';

/**
 * Checks log-probs and gradients against scripts/torch_reference.py, an independent PyTorch
 * implementation reading the same model directory. Runs on the venv of scripts/python-venv.sh
 * (PyTorch 2.13, the torch the benches compare against; the same venv the framework tests use),
 * skipped only where there is no local Python index.
 */
const PYTHON = frameworkPython('PyTorch reference of the LM graphs', ['torch', 'numpy']);
const SCRIPT = join(packageRoot(), 'scripts', 'torch_reference.py');
const tempDir = useTempDirs('lm-torch-');

const sequences = [
  [3, 17, 42, 99, 7, 250, 12, 1, 64],
  [11, 5, 300, 8],
  [400, 2, 77, 78, 79, 80, 81],
];

const configs: [string, TinyModelOptions][] = [
  ['Qwen2-style (q/k/v biases, untied lm_head, BF16 weights)', { arch: 'qwen2', layers: 2, hidden: 64, heads: 4, kvHeads: 2, tieWordEmbeddings: false, dtype: 'BF16', seed: 11, initStd: 0.1 }],
  ['Qwen3-style (q/k norms, head_dim ≠ hidden/heads, tied)', { arch: 'qwen3', layers: 2, hidden: 64, heads: 4, kvHeads: 1, headDim: 32, seed: 12, initStd: 0.1 }],
  [
    'Qwen3-style with YaRN RoPE scaling',
    { arch: 'qwen3', layers: 1, hidden: 64, heads: 4, kvHeads: 2, seed: 13, initStd: 0.1, ropeScaling: { type: 'yarn', factor: 4, originalMaxPositions: 16, betaFast: 32, betaSlow: 1, attentionFactor: 0.1 * Math.log(4) + 1 } },
  ],
];

// The first shape again, scored at a sampling temperature: log_softmax(logits / T), as GRPO trains.
const cases: [string, TinyModelOptions, number][] = [...configs.map(([label, options]): [string, TinyModelOptions, number] => [label, options, 1]), [`${configs[0]![0]}, temperature 0.6`, configs[0]![1], 0.6]];

describe.runIf(PYTHON)('against the PyTorch reference', () => {
  for (const [label, options, temperature] of cases) {
    it(`matches log-probs and gradients: ${label}`, async () => {
      const dir = tempDir();
      await createTinyModel(join(dir, 'model'), { vocabSize: 500, ...options });
      const model = await loadModel(join(dir, 'model'));
      const policy = await Policy.create(model, { train: 'full' });
      try {
        const weights = sequences.map((s) => new Array(s.length).fill(-1));
        const ours = await policy.backward(sequences, weights, { temperature });

        const gradPath = join(dir, 'ref-grad.safetensors');
        const args = [SCRIPT, '--model', join(dir, 'model'), '--grad-out', gradPath, '--temperature', String(temperature), ...sequences.flatMap((s) => ['--tokens', s.join(',')])];
        const run = spawnSync(PYTHON!, args, { encoding: 'utf8' });
        expect(run.status, run.stderr).toBe(0);
        const ref = JSON.parse(run.stdout) as { logprobs: number[][] };

        let maxLogprobError = 0;
        // torch's row t scores token t + 1; ours is token-aligned (entry t scores token t).
        ref.logprobs.forEach((row, b) => row.forEach((v, t) => (maxLogprobError = Math.max(maxLogprobError, Math.abs(v - ours.logprobs[b]![t + 1]!)))));

        const file = await SafetensorsFile.open(gradPath);
        let maxAbs = 0;
        let maxRel = 0;
        try {
          expect(file.names().sort()).toEqual([...ours.gradients.keys()].sort());
          for (const [name, g] of ours.gradients) {
            const r = await file.read(name);
            let scale = 0;
            let err = 0;
            r.data.forEach((v, i) => {
              scale = Math.max(scale, Math.abs(v));
              err = Math.max(err, Math.abs(v - g.data[i]!));
            });
            maxAbs = Math.max(maxAbs, err);
            maxRel = Math.max(maxRel, err / Math.max(scale, 1e-12));
          }
        } finally {
          await file.close();
        }
        console.log(`[torch reference] ${label}: logprobs max abs err ${maxLogprobError.toExponential(2)}; gradients max abs err ${maxAbs.toExponential(2)}, max rel err (per tensor, vs its largest entry) ${maxRel.toExponential(2)}`);
        expect(maxLogprobError).toBeLessThan(1e-4);
        expect(maxRel).toBeLessThan(1e-3);
      } finally {
        await policy.close();
      }
    }, 60_000);
  }
});
