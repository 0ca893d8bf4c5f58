/**
 * Prefill and decode throughput of the ONNX transformer graphs (src/lm) on CPU, beside the
 * PyTorch reference (scripts/torch_reference.py, torch CPU) on the same model directory in the
 * same run: a tiny model and a random-weight model of Qwen3-0.6B's shape.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Rng } from '../src/base/rng.js';
import { Policy, createTinyModel, loadModel, type GenerationTimings, type TinyModelOptions } from '../src/lm/index.js';
import { packageRoot } from '../src/base/package-root.js';
import { mdTable, type BenchSection } from './harness.js';
import { referencePython } from './reference-python.js';

/** Both sides run single-threaded: the bench machine is shared, and equal threads make the comparison fair. */
const THREADS = 1;

interface Throughput {
  prefill: number;
  decode: number;
}

async function measureOurs(dir: string, batch: number, promptLen: number, newTokens: number): Promise<Throughput> {
  const model = await loadModel(dir);
  const policy = await Policy.create(model, { train: 'none', intraOpThreads: THREADS });
  try {
    const rng = new Rng(0);
    const prompts = Array.from({ length: batch }, () => Array.from({ length: promptLen }, () => rng.int(model.tokenizer.vocabSize)));
    const options = { temperature: 0, stopTokenIds: [] };
    await policy.generate(prompts.map((p) => p.slice(0, 4)), { ...options, maxTokens: 2 }); // compile + warm-up
    let timings: GenerationTimings | undefined;
    // newTokens + 1 sampled tokens = one prefill pass + newTokens decode passes.
    await policy.generate(prompts, { ...options, maxTokens: newTokens + 1, onTimings: (t) => (timings = t) });
    const { prefillMs, decodeMs, decodeSteps } = timings!;
    return { prefill: (batch * promptLen) / (prefillMs / 1000), decode: (batch * decodeSteps) / (decodeMs / 1000) };
  } finally {
    await policy.close();
  }
}

function measureTorch(python: string | undefined, dir: string, batch: number, promptLen: number, newTokens: number): Throughput | string {
  if (!python) return 'unavailable (no Python venv: scripts/python-venv.sh needs the local package index, or set SQLENV_PYTHON)';
  const script = join(packageRoot(), 'scripts', 'torch_reference.py');
  const args = [script, '--model', dir, '--bench', '--batch', String(batch), '--prompt-len', String(promptLen), '--new-tokens', String(newTokens), '--threads', String(THREADS)];
  const run = spawnSync(python, args, { encoding: 'utf8', maxBuffer: 1 << 20 });
  if (run.status !== 0) return `unavailable (${(run.stderr || run.error?.message || 'no output').split('\n').filter(Boolean).at(-1)})`;
  const r = JSON.parse(run.stdout) as { prefill_tokens_per_s: number; decode_tokens_per_s: number };
  return { prefill: r.prefill_tokens_per_s, decode: r.decode_tokens_per_s };
}

const fmt = (v: number): string => (v >= 100 ? v.toFixed(0) : v.toFixed(1));

export default async function bench(): Promise<BenchSection> {
  const root = mkdtempSync(join(tmpdir(), 'lm-bench-'));
  const python = referencePython();
  // [label, shape, prompt tokens per row, new tokens per row]
  const models: [string, TinyModelOptions, number, number][] = [
    ['tiny (qwen3, 2 layers, hidden 128)', { arch: 'qwen3', layers: 2, hidden: 128, heads: 4, kvHeads: 2 }, 64, 32],
    [
      'Qwen3-0.6B shape (28 layers, hidden 1024, 16/8 heads, head_dim 128, vocab 151936), random BF16 weights',
      { arch: 'qwen3', layers: 28, hidden: 1024, heads: 16, kvHeads: 8, headDim: 128, intermediate: 3072, modelVocabSize: 151936, ropeTheta: 1e6, dtype: 'BF16' },
      32,
      8,
    ],
  ];
  const rows: (string | number)[][] = [];
  try {
    for (const [label, options, promptLen, newTokens] of models) {
      const dir = join(root, String(rows.length));
      await createTinyModel(dir, { seed: 0, ...options });
      const params = (await loadModel(dir)).parameterCount();
      for (const batch of [1, 16]) {
        process.stderr.write(`lm bench: ${label}, batch ${batch}\n`);
        const ours = await measureOurs(dir, batch, promptLen, newTokens);
        const torch = measureTorch(python, dir, batch, promptLen, newTokens);
        rows.push([
          label,
          `${promptLen} / ${newTokens}`,
          `${(params / 1e6).toFixed(params < 1e7 ? 2 : 0)} M`,
          batch,
          fmt(ours.prefill),
          typeof torch === 'string' ? torch : fmt(torch.prefill),
          fmt(ours.decode),
          typeof torch === 'string' ? '—' : fmt(torch.decode),
        ]);
      }
      rmSync(dir, { recursive: true, force: true });
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  return {
    title: 'Language-model graphs: prefill and decode throughput (CPU)',
    markdown: [
      `Tokens per second (prompt tokens per row / new tokens per row as listed), greedy decoding with the KV cache; ${THREADS} thread on each side`,
      '(onnxruntime-node `intraOpNumThreads` and `torch.set_num_threads`). "ours" is `Policy.generate` (ONNX graphs from',
      'src/lm on onnxruntime CPU, including host-side sampling, masks and RoPE tables); "torch" is the independent',
      'PyTorch reference `scripts/torch_reference.py` (eager, float32, same weights; torch from the venv of scripts/python-venv.sh) run in the same bench.',
      'The machine is shared with other jobs while measuring: compare the two columns of a row, not rows across runs.',
      '',
      mdTable(['model', 'prompt / new tokens', 'params', 'batch', 'prefill ours', 'prefill torch', 'decode ours', 'decode torch'], rows),
    ].join('\n'),
  };
}
