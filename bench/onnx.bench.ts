/**
 * `npm run bench -- onnx`: forward and forward+backward of one decoder block and of a small
 * decoder LM on onnxruntime (CPU), beside PyTorch eager on the same machine in the same run
 * (bench/torch_ref/decoder_bench.py, torch from the venv of scripts/python-venv.sh; skipped with a
 * note when there is none).
 */
import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { packageRoot } from '../src/base/package-root.js';
import { Rng } from '../src/base/rng.js';
import { Graph, OnnxSession, grad, hostTensor, softmaxCrossEntropy, type HostTensor, type Tensor } from '../src/onnx/index.js';
import { readOnnxProfile, type ProfileSummary } from '../src/onnx/runtime/profile.js';
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

/** Rounds of ours-then-PyTorch (alternating which goes first): the machine's speed drifts, so each ratio is taken within a round. */
const ROUNDS = 3;
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

/** Our two sessions of a case (forward, forward + backward) and their feeds. */
async function onnxSessions(c: Case): Promise<{ run: (key: keyof Timings) => Promise<number>; profile: () => Promise<ProfileSummary>; close: () => Promise<void> }> {
  const built = { forward: build(c, false), forwardBackward: build(c, true) };
  const sessions = {
    forward: await OnnxSession.create(built.forward.graph, { optimization: 'all' }),
    forwardBackward: await OnnxSession.create(built.forwardBackward.graph, { optimization: 'all' }),
  };
  return {
    run: async (key) => (await timeIt(() => sessions[key].run(built[key].feeds), { warmup: 1, minMs: c.minMs, minIters: c.minIters })).p50,
    // One profiled session of the forward + backward: onnxruntime's per-node kernel times.
    profile: async () => {
      const dir = await mkdtemp(join(tmpdir(), 'sqlenv-onnx-profile-'));
      try {
        const s = await OnnxSession.create(built.forwardBackward.graph, { optimization: 'all', profile: join(dir, 'p') });
        for (let i = 0; i < 4; i++) await s.run(built.forwardBackward.feeds);
        await s.close();
        const file = readdirSync(dir).find((f) => f.endsWith('.json'));
        if (!file) throw new Error(`onnxruntime wrote no profile in ${dir}`);
        return readOnnxProfile(join(dir, file), { skipRuns: 1 });
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
    close: async () => { await sessions.forward.close(); await sessions.forwardBackward.close(); },
  };
}

interface TorchTimings extends Timings { version: string; gflops: number }
interface TorchProfile { total_ms: number; ops: { op: string; ms: number; calls: number }[] }

async function torchRun<T>(python: string, c: Case, extra: Record<string, unknown>): Promise<T> {
  const script = join(packageRoot(), 'bench', 'torch_ref', 'decoder_bench.py');
  const cfg = { ...c, hidden: mlpHidden({ vocab: c.vocab, dim: c.dim, layers: c.layers, heads: c.heads, seqLen: c.seq, batch: c.batch }), min_ms: c.minMs, min_iters: c.minIters, ...extra };
  const { stdout } = await promisify(execFile)(python, [script, JSON.stringify(cfg)], { maxBuffer: 1 << 20, timeout: 30 * 60_000 });
  return JSON.parse(stdout) as T;
}

async function torchTimings(python: string, c: Case): Promise<TorchTimings> {
  const r = await torchRun<{ torch: string; matmul_gflops: number; forward: { p50: number }; forward_backward: { p50: number } }>(python, c, {});
  return { forward: r.forward.p50, forwardBackward: r.forward_backward.p50, version: r.torch, gflops: r.matmul_gflops };
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/** The top rows of both profiles side by side: operator, ms per forward + backward, share. */
function profileTable(ours: ProfileSummary, torch: TorchProfile | undefined): string {
  const n = 8;
  const rows: (string | number)[][] = [];
  for (let i = 0; i < n; i++) {
    const o = ours.byOp[i];
    const t = torch?.ops[i];
    rows.push([
      o ? `${o.op} (${o.calls})` : '', o ? o.ms.toFixed(1) : '', o ? `${(o.share * 100).toFixed(0)}%` : '',
      t ? `${t.op} (${t.calls})` : '', t ? t.ms.toFixed(1) : '', t ? `${((t.ms / torch!.total_ms) * 100).toFixed(0)}%` : '',
    ]);
  }
  rows.push(['all kernels', ours.kernelMs.toFixed(1), '100%', torch ? 'all ops (self time)' : '', torch ? torch.total_ms.toFixed(1) : '', torch ? '100%' : '']);
  return mdTable(['onnxruntime op (launches)', 'ms', 'share', 'PyTorch op (calls)', 'ms', 'share'], rows);
}

export default async function onnxBench(): Promise<BenchSection> {
  const rows: (string | number)[][] = [];
  const notes: string[] = [];
  const profiles: string[] = [];
  const python = referencePython();
  if (!python) notes.push('PyTorch reference skipped: no Python venv (scripts/python-venv.sh needs the local package index, or set SQLENV_PYTHON)');
  for (const c of CASES) {
    const ours = await onnxSessions(c);
    const mine: Timings[] = [];
    const theirs: TorchTimings[] = [];
    try {
      for (let r = 0; r < ROUNDS; r++) {
        const runOurs = async () => { mine.push({ forward: await ours.run('forward'), forwardBackward: await ours.run('forwardBackward') }); };
        const runTorch = async () => { if (python) theirs.push(await torchTimings(python, c)); };
        if (r % 2 === 0) { await runOurs(); await runTorch(); } else { await runTorch(); await runOurs(); }
      }
      const torchProfile = python ? (await torchRun<{ profile: TorchProfile }>(python, c, { profile: true })).profile : undefined;
      profiles.push(`**${c.name}, forward + backward** (ms per call; onnxruntime's per-node profile, kernel time; PyTorch's profiler, self CPU time, which adds its own overhead):`, '', profileTable(await ours.profile(), torchProfile), '');
    } catch (e) {
      notes.push(`PyTorch reference failed: ${(e as Error).message.split('\n')[0]}`);
    } finally {
      await ours.close();
    }
    if (theirs.length > 0) notes.push(`PyTorch ${theirs[0]!.version} for "${c.name}": 512×512 matmul at ${median(theirs.map((t) => t.gflops)).toFixed(0)} GFLOP/s.`);
    for (const [label, key] of [['forward', 'forward'], ['forward + backward', 'forwardBackward']] as const) {
      const m = median(mine.map((t) => t[key]));
      const t = theirs.length > 0 ? median(theirs.map((x) => x[key])) : undefined;
      const ratios = theirs.map((x, i) => x[key] / mine[i]![key]);
      rows.push([c.name, label, m.toFixed(1), t === undefined ? 'n/a' : t.toFixed(1), ratios.length ? `${median(ratios).toFixed(2)}× (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)})` : 'n/a']);
    }
  }
  return {
    title: 'ONNX compute core: transformer forward / forward+backward on CPU vs PyTorch eager',
    markdown: [
      `onnxruntime-node ${'1.30'} CPU provider (optimisation level 'all', float32, gradients from \`grad\` as standard ONNX ops) beside PyTorch eager (the venv of scripts/python-venv.sh, ${cpus().length} threads) on the same model, same sizes, measured in the same run: ${ROUNDS} rounds per case, ours and PyTorch's in turn (alternating which goes first), because this machine's speed drifts between minutes. Times are the median over rounds of each round's median ms per call; the ratio is the median of the rounds' ratios (their range in brackets); > 1 means onnxruntime is faster.`,
      '',
      mdTable(['case', 'pass', 'onnxruntime ms', 'PyTorch ms', 'PyTorch / onnxruntime'], rows),
      ...(notes.length ? ['', ...notes] : []),
      '',
      '### Where the forward + backward spends its time',
      '',
      ...profiles,
    ].join('\n'),
  };
}
