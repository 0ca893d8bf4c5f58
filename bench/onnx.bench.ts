/**
 * `npm run bench -- onnx`: forward and forward+backward of one decoder block and of a small
 * decoder LM on onnxruntime (CPU), beside PyTorch eager on the same machine in the same run
 * (bench/torch_ref/decoder_bench.py, torch from the venv of scripts/python-venv.sh; skipped with a
 * note when there is none).
 */
import { execFile } from 'node:child_process';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { packageRoot } from '../src/base/package-root.js';
import { Rng } from '../src/base/rng.js';
import { Graph, OnnxSession, grad, hostTensor, softmaxCrossEntropy, type HostTensor, type Tensor } from '../src/onnx/index.js';
import { decoderLM, initDecoderWeights } from '../src/onnx/models/decoder.js';
import { blockParams, decoderBlock, mlpHidden, ropeConstants } from '../src/onnx/models/decoder.js';
import { mdTable, timeIt, type BenchSection } from './harness.js';
import { referencePython } from './reference-python.js';

interface Case {
  readonly name: string;
  readonly kind: 'block' | 'model';
  readonly batch: number;
  readonly seq: number;
  readonly dim: number;
  readonly heads: number;
  readonly vocab: number;
  readonly layers: number;
  /** Timing budget: samples are taken until both are reached. */
  readonly minMs: number;
  readonly minIters: number;
}

const CASES: readonly Case[] = [
  { name: 'one block (B 8, T 256, d 256, 8 heads)', kind: 'block', batch: 8, seq: 256, dim: 256, heads: 8, vocab: 0, layers: 1, minMs: 2000, minIters: 5 },
  { name: 'decoder LM (4 layers, d 256, vocab 4096, T 256, B 8)', kind: 'model', batch: 8, seq: 256, dim: 256, heads: 8, vocab: 4096, layers: 4, minMs: 0, minIters: 3 },
];

interface Timings { forward: number; forwardBackward: number }

/** Build the case's graph with loss and (optionally) gradients of every parameter as outputs. */
function build(c: Case, withGrad: boolean): { graph: Graph; feeds: Record<string, HostTensor> } {
  const g = new Graph(c.kind);
  const rng = new Rng(0);
  const hidden = mlpHidden({ vocab: c.vocab, dim: c.dim, layers: c.layers, heads: c.heads, seqLen: c.seq, batch: c.batch });
  const feeds: Record<string, HostTensor> = {};
  let loss: Tensor;
  let params: readonly Tensor[];
  let shapes: Record<string, readonly number[]>;
  if (c.kind === 'block') {
    shapes = {};
    const ps: Tensor[] = [];
    const param = (n: string, s: readonly number[]): Tensor => { shapes[n] = s; const t = g.input(n, 'float32', s); ps.push(t); return t; };
    const x = g.input('x', 'float32', [c.batch, c.seq, c.dim]);
    const y = decoderBlock(x, blockParams(param, c.dim, hidden), c.heads, ropeConstants(g, c.seq, c.dim / c.heads, 'float32'));
    loss = y.mul(y).mean();
    params = ps;
    feeds['x'] = hostTensor('float32', x.shape as number[], Float32Array.from({ length: c.batch * c.seq * c.dim }, () => rng.normal()));
  } else {
    const m = decoderLM(g, { vocab: c.vocab, dim: c.dim, layers: c.layers, heads: c.heads, seqLen: c.seq, batch: c.batch });
    const targets = g.input('targets', 'int64', [c.batch, c.seq]);
    loss = softmaxCrossEntropy(m.logits, targets);
    params = m.params;
    shapes = { ...m.shapes };
    const ids = () => BigInt64Array.from({ length: c.batch * c.seq }, () => BigInt(rng.int(c.vocab)));
    feeds['ids'] = hostTensor('int64', [c.batch, c.seq], ids());
    feeds['targets'] = hostTensor('int64', [c.batch, c.seq], ids());
  }
  g.output(loss, 'loss');
  if (withGrad) {
    const grads = grad(loss, params);
    for (const p of params) g.output(grads.get(p)!, `grad.${p.name}`);
  }
  const init = initDecoderWeights(shapes, 'float32', () => rng.normal());
  for (const [name, data] of Object.entries(init)) feeds[name] = hostTensor('float32', shapes[name]!, data);
  return { graph: g, feeds };
}

async function onnxTimings(c: Case): Promise<Timings> {
  const out: Partial<Timings> = {};
  for (const withGrad of [false, true]) {
    const { graph, feeds } = build(c, withGrad);
    const session = await OnnxSession.create(graph, { optimization: 'all' });
    const t = await timeIt(() => session.run(feeds), { warmup: 1, minMs: c.minMs, minIters: c.minIters });
    await session.close();
    out[withGrad ? 'forwardBackward' : 'forward'] = t.p50;
  }
  return out as Timings;
}

interface TorchTimings extends Timings { version: string; gflops: number }

async function torchTimings(python: string | undefined, c: Case): Promise<TorchTimings | string> {
  const script = join(packageRoot(), 'bench', 'torch_ref', 'decoder_bench.py');
  const cfg = { ...c, hidden: mlpHidden({ vocab: c.vocab, dim: c.dim, layers: c.layers, heads: c.heads, seqLen: c.seq, batch: c.batch }), min_ms: c.minMs, min_iters: c.minIters };
  if (!python) return 'PyTorch reference skipped: no Python venv (scripts/python-venv.sh needs the local package index, or set SQLENV_PYTHON)';
  try {
    const { stdout } = await promisify(execFile)(python, [script, JSON.stringify(cfg)], { maxBuffer: 1 << 20, timeout: 30 * 60_000 });
    const r = JSON.parse(stdout) as { torch: string; matmul_gflops: number; forward: { p50: number }; forward_backward: { p50: number } };
    return { forward: r.forward.p50, forwardBackward: r.forward_backward.p50, version: r.torch, gflops: r.matmul_gflops };
  } catch (e) {
    return `PyTorch reference skipped: ${(e as Error).message.split('\n')[0]}`;
  }
}

export default async function onnxBench(): Promise<BenchSection> {
  const rows: (string | number)[][] = [];
  const notes: string[] = [];
  const python = referencePython();
  for (const c of CASES) {
    const ort = await onnxTimings(c);
    const torch = await torchTimings(python, c);
    if (typeof torch === 'string') notes.push(torch);
    else notes.push(`PyTorch ${torch.version} for "${c.name}": 512×512 matmul at ${torch.gflops.toFixed(0)} GFLOP/s.`);
    const ref = typeof torch === 'string' ? undefined : torch;
    for (const [label, key] of [['forward', 'forward'], ['forward + backward', 'forwardBackward']] as const) {
      const mine = ort[key];
      const theirs = ref?.[key];
      rows.push([c.name, label, mine.toFixed(1), theirs === undefined ? 'n/a' : theirs.toFixed(1), theirs === undefined ? 'n/a' : `${(theirs / mine).toFixed(2)}×`]);
    }
  }
  return {
    title: 'ONNX compute core: transformer forward / forward+backward on CPU vs PyTorch eager',
    markdown: [
      `onnxruntime-node ${'1.30'} CPU provider (optimisation level 'all', float32, gradients from \`grad\` as standard ONNX ops) beside PyTorch eager (the venv of scripts/python-venv.sh, ${cpus().length} threads) on the same model, same sizes, measured in the same run. Median ms per call; ratio > 1 means onnxruntime is faster.`,
      '',
      mdTable(['case', 'pass', 'onnxruntime ms', 'PyTorch ms', 'PyTorch / onnxruntime'], rows),
      ...(notes.length ? ['', ...notes] : []),
    ].join('\n'),
  };
}
