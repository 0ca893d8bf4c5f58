/**
 * A small pre-norm decoder-only transformer (RMSNorm, causal multi-head attention with rotary
 * embeddings, SiLU-gated MLP, tied-free LM head) built on the graph builder. It is the model the
 * gradient checks, the training test and the benchmark use; parameters are graph inputs so one
 * compiled session serves every training step.
 */
import type { DType, HostArray } from '../dtype.js';
import { toTypedArray } from '../dtype.js';
import type { Graph } from '../graph/graph.js';
import type { Tensor } from '../graph/tensor.js';
import { attention, rope, ropeTables } from '../layers/attention.js';
import { embedding, linear } from '../layers/linear.js';
import { rmsNorm } from '../layers/norm.js';
import { add, mul } from '../ops/elementwise.js';
import { reshape, transpose } from '../ops/shape-ops.js';
import { silu } from '../ops/nn.js';

/** Sizes of a {@link decoderLM}. */
export interface DecoderConfig {
  readonly vocab: number;
  readonly dim: number;
  readonly layers: number;
  readonly heads: number;
  /** MLP hidden size (default 4·dim·2/3 rounded to 8, as Llama sizes it for a gated MLP). */
  readonly hidden?: number;
  readonly seqLen: number;
  readonly batch: number | string;
  readonly dtype?: DType;
}

/** The built model: its logits, its parameters (graph inputs) and their shapes. */
export interface DecoderModel {
  readonly ids: Tensor;
  readonly logits: Tensor;
  readonly params: readonly Tensor[];
  readonly shapes: Readonly<Record<string, readonly number[]>>;
}

/** Hidden size of the gated MLP. */
export function mlpHidden(cfg: DecoderConfig): number {
  return cfg.hidden ?? Math.max(8, Math.round((cfg.dim * 8) / 3 / 8) * 8);
}

/**
 * Build the forward pass into `g`: input `ids` [batch, seqLen] int64 → `logits` [batch, seqLen, vocab].
 *
 * @example
 * ```ts
 * const g = new Graph('lm');
 * const m = decoderLM(g, { vocab: 256, dim: 64, layers: 2, heads: 4, seqLen: 32, batch: 'B' });
 * ```
 */
export function decoderLM(g: Graph, cfg: DecoderConfig): DecoderModel {
  const dtype = cfg.dtype ?? 'float32';
  const { dim: d, heads: H, seqLen: T } = cfg;
  const hd = d / H;
  const hidden = mlpHidden(cfg);
  const shapes: Record<string, readonly number[]> = {};
  const params: Tensor[] = [];
  const param = (name: string, shape: readonly number[]): Tensor => {
    shapes[name] = shape;
    const t = g.input(name, dtype, shape);
    params.push(t);
    return t;
  };
  const ids = g.input('ids', 'int64', [cfg.batch, T]);
  const rotary = ropeConstants(g, T, hd, dtype);
  let x = embedding(param('wte', [cfg.vocab, d]), ids);
  for (let l = 0; l < cfg.layers; l++) {
    x = decoderBlock(x, blockParams((n, s) => param(`h${l}.${n}`, s), d, hidden), H, rotary);
  }
  const logits = linear(rmsNorm(x, param('ln_f', [d])), param('lm_head', [d, cfg.vocab]));
  return { ids, logits, params, shapes };
}

/**
 * Initial weights: norms at 1, matrices N(0, 0.02²) from a seeded generator.
 *
 * @example
 * ```ts
 * const init = initDecoderWeights(m.shapes, 'float32', () => rng.normal());
 * ```
 */
export function initDecoderWeights(shapes: Readonly<Record<string, readonly number[]>>, dtype: DType, normal: () => number): Record<string, HostArray> {
  const out: Record<string, HostArray> = {};
  for (const [name, shape] of Object.entries(shapes)) {
    const n = shape.reduce((a, b) => a * b, 1);
    const isNorm = shape.length === 1;
    out[name] = toTypedArray(dtype, Array.from({ length: n }, () => (isNorm ? 1 : 0.02 * normal())));
  }
  return out;
}

/** The weights of one decoder block. */
export interface BlockParams {
  readonly ln1: Tensor;
  readonly wq: Tensor;
  readonly wk: Tensor;
  readonly wv: Tensor;
  readonly wo: Tensor;
  readonly ln2: Tensor;
  readonly wGate: Tensor;
  readonly wUp: Tensor;
  readonly wDown: Tensor;
}

/** Declare a block's weights through `param(name, shape)` (names as in {@link decoderLM}). */
export function blockParams(param: (name: string, shape: readonly number[]) => Tensor, d: number, hidden: number): BlockParams {
  return {
    ln1: param('ln1', [d]),
    wq: param('wq', [d, d]),
    wk: param('wk', [d, d]),
    wv: param('wv', [d, d]),
    wo: param('wo', [d, d]),
    ln2: param('ln2', [d]),
    wGate: param('w_gate', [d, hidden]),
    wUp: param('w_up', [d, hidden]),
    wDown: param('w_down', [hidden, d]),
  };
}

/** RoPE cos/sin tables `[T, headDim]` as graph constants. */
export function ropeConstants(g: Graph, seqLen: number, headDim: number, dtype: DType): { cos: Tensor; sin: Tensor } {
  const tables = ropeTables(seqLen, headDim);
  return { cos: g.constant(dtype, tables.cos, [seqLen, headDim]), sin: g.constant(dtype, tables.sin, [seqLen, headDim]) };
}

/**
 * One pre-norm block: `x + attn(rmsNorm(x))`, then `x + mlp(rmsNorm(x))`, on `x [B, T, d]`.
 *
 * @example
 * ```ts
 * const y = decoderBlock(x, blockParams(param, 256, 688), 8, ropeConstants(g, 256, 32, 'float32'));
 * ```
 */
export function decoderBlock(x: Tensor, p: BlockParams, heads: number, rotary: { cos: Tensor; sin: Tensor }): Tensor {
  const d = x.dim(-1) as number;
  const hd = d / heads;
  const split = (t: Tensor): Tensor => transpose(reshape(t, [0, 0, heads, hd]), [0, 2, 1, 3]);
  const h = rmsNorm(x, p.ln1);
  const q = rope(split(linear(h, p.wq)), rotary.cos, rotary.sin);
  const k = rope(split(linear(h, p.wk)), rotary.cos, rotary.sin);
  const v = split(linear(h, p.wv));
  const o = reshape(transpose(attention(q, k, v), [0, 2, 1, 3]), [0, 0, d]);
  const x2 = add(x, linear(o, p.wo));
  const h2 = rmsNorm(x2, p.ln2);
  const gated = mul(silu(linear(h2, p.wGate)), linear(h2, p.wUp));
  return add(x2, linear(gated, p.wDown));
}
