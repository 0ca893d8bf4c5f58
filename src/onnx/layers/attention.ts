/** Attention building blocks: causal masks, rotary position embeddings, scaled dot-product attention. */
import { setNodeGradient } from '../autodiff/custom.js';
import { unbroadcast } from '../autodiff/unbroadcast.js';
import type { DType } from '../dtype.js';
import { ShapeError } from '../graph/errors.js';
import type { Tensor } from '../graph/tensor.js';
import { add, greater, mul, neg, sub, where } from '../ops/elementwise.js';
import { gather } from '../ops/indexing.js';
import { matmul } from '../ops/matmul.js';
import { nnGrads, softmax } from '../ops/nn.js';
import { reduceSum } from '../ops/reduce.js';
import { concat, expand, shapeOf, slice, split, squeeze, swapLastAxes, trilu } from '../ops/shape-ops.js';

/** A large negative score for masked positions that stays finite in the dtype. */
export function maskValue(dtype: DType): number {
  return dtype === 'float16' ? -6e4 : -1e9;
}

/**
 * Which keys each query may attend to, for scores `[..., T, S]` (S ≥ T; query i sits at absolute
 * position S − T + i, which covers a KV cache). Static T and S give a constant; otherwise the mask
 * is built at run time from the scores' shape.
 *
 * @example
 * ```ts
 * const allowed = causalMask(scores); // bool [T, S]
 * ```
 */
export function causalMask(scores: Tensor): Tensor {
  const g = scores.graph;
  const T = scores.dim(-2);
  const S = scores.dim(-1);
  if (typeof T === 'number' && typeof S === 'number') {
    const data = new Uint8Array(T * S);
    for (let i = 0; i < T; i++) for (let j = 0; j <= S - T + i && j < S; j++) data[i * S + j] = 1;
    return g.constant('bool', data, [T, S]);
  }
  const shape = shapeOf(scores);
  const dimAt = (i: number): Tensor => gather(shape, g.constant('int64', [i], [1]));
  const [t, s] = [dimAt(scores.rank - 2), dimAt(scores.rank - 1)];
  const ones = expand(g.scalar(1, 'float32'), concat([t, s], 0), [T, S]);
  const offset = sub(s, t);
  return greater(trilu(ones, false, squeeze(offset, [0])), 0);
}

/**
 * `scores` where allowed, `scores` plus a large negative value elsewhere: softmax gives those
 * positions zero weight either way. The mask is applied as an added bias (0 or {@link maskValue})
 * rather than a `Where`, because its gradient is the identity: the backward pass spends nothing on
 * it, and a constant mask folds into one constant bias, so the forward is a single broadcast Add.
 *
 * @example
 * ```ts
 * const masked = maskScores(s, causalMask(s));
 * ```
 */
export function maskScores(scores: Tensor, allowed: Tensor): Tensor {
  const g = scores.graph;
  return add(scores, where(allowed, g.scalar(0, scores.dtype), g.scalar(maskValue(scores.dtype), scores.dtype)));
}

/**
 * Rotary position embedding tables in the "rotate half" layout (Llama, Qwen): for position p and
 * pair i < d/2, angle p · theta^(−2i/d), repeated for both halves. Returns `[positions, headDim]`.
 *
 * @example
 * ```ts
 * const { cos, sin } = ropeTables(128, 64, 10000);
 * ```
 */
export function ropeTables(positions: number, headDim: number, theta = 10000): { cos: Float64Array; sin: Float64Array } {
  if (headDim % 2 !== 0) throw new RangeError(`rope needs an even head dim, got ${headDim}`);
  const half = headDim / 2;
  const cos = new Float64Array(positions * headDim);
  const sin = new Float64Array(positions * headDim);
  for (let p = 0; p < positions; p++) {
    for (let i = 0; i < half; i++) {
      const angle = p * Math.pow(theta, (-2 * i) / headDim);
      for (const j of [i, i + half]) {
        cos[p * headDim + j] = Math.cos(angle);
        sin[p * headDim + j] = Math.sin(angle);
      }
    }
  }
  return { cos, sin };
}

/**
 * Apply rotary embeddings to `x [..., T, headDim]` with tables `cos`, `sin` broadcastable to it:
 * `x·cos + rotateHalf(x)·sin`, where `rotateHalf([a, b]) = [−b, a]`.
 *
 * @example
 * ```ts
 * const qr = rope(q /* [B, H, T, 64] *\/, cos /* [T, 64] *\/, sin);
 * ```
 */
export function rope(x: Tensor, cos: Tensor, sin: Tensor): Tensor {
  const d = x.dim(-1);
  if (typeof d !== 'number' || d % 2 !== 0) throw new ShapeError('rope', `head dim must be static and even, got ${d}`);
  const rotateHalf = (t: Tensor, sign: 1 | -1): Tensor => {
    const [a, b] = split(t, -1, [d / 2, d / 2]);
    return sign === 1 ? concat([neg(b!), a!], t.rank - 1) : concat([b!, neg(a!)], t.rank - 1);
  };
  const rotated = rotateHalf(x, 1);
  const y = add(mul(x, cos), mul(rotated, sin));
  // A rotation's gradient is the inverse rotation: dx = dy·cos + rotateHalfᵀ(dy·sin), with
  // rotateHalfᵀ([a, b]) = [b, −a]. Written whole, the backward has no Pad per half and no sums
  // of them, which differentiating the slices one by one would emit.
  setNodeGradient(y, ({ dy: [dy], addGradient }) => {
    addGradient(x, () => add(mul(dy!, cos), rotateHalf(mul(dy!, sin), -1)));
    addGradient(cos, () => unbroadcast(mul(dy!, x), cos));
    addGradient(sin, () => unbroadcast(mul(dy!, rotated), sin));
    return [undefined, undefined];
  });
  return y;
}

/**
 * `softmax(scores)` over the last axis, handed to `attendTo`, which must return the attention
 * output built linearly from those weights, `O[..., t, :] = Σ_s P[..., t, s] · V_s` (one value
 * block or several, any reshapes between), in the layout `[..., T, D]` of the scores' leading
 * axes; the weights must reach the loss only through it. Returns that output.
 *
 * Why: the backward pass of softmax needs `Σ_s P·dP` for every query, a pass over the
 * `[…, T, S]` weights; for attention it equals `Σ_d dO·O` (because `dP = dO·Vᵀ` and `O = P·V`),
 * a pass over the `[…, T, D]` output instead, which is S/D times smaller. The weights' gradient
 * is then `P ⊙ (dP − Σ_d dO·O)`, exact, with one fewer pass over the largest tensors of the
 * backward.
 *
 * @example
 * ```ts
 * const o = attend(maskedScores, (p) => matmul(p, v)); // [B, H, T, D]
 * ```
 */
export function attend(scores: Tensor, attendTo: (weights: Tensor) => Tensor): Tensor {
  const weights = softmax(scores, -1);
  const out = attendTo(weights);
  const clash = out.shape.slice(0, -1).some((d, i) => typeof d === 'number' && typeof scores.shape[i] === 'number' && d !== scores.shape[i]);
  if (out.rank !== scores.rank || clash) {
    throw new ShapeError('attend', `the output [${out.shape.join(', ')}] must keep the leading axes of the scores [${scores.shape.join(', ')}]`);
  }
  setNodeGradient(weights, (ctx) => {
    const dOut = ctx.gradOf(out);
    // Without a gradient at the output, the weights' gradient comes from elsewhere: softmax's own rule.
    if (!dOut) return nnGrads['Softmax']!(ctx);
    const [p, dp] = [ctx.y[0]!, ctx.dy[0]!];
    return [mul(p, sub(dp, reduceSum(mul(dOut, out), [-1], true)))];
  });
  return out;
}

/** Options of {@link attention}. */
export interface AttentionOptions {
  /** Causal mask (default true) unless `allowed` is given. */
  readonly causal?: boolean;
  /** Which keys each query may attend to, bool `[T, S]` (replaces the causal mask). */
  readonly allowed?: Tensor;
  /**
   * Causal attention with static T and S is computed in this many blocks of consecutive queries,
   * each against the keys up to its last query only: the blocks skip the keys that the mask hides
   * from all of their queries, (n − 1)/2n of the scores. Default: one block per 128 queries (at
   * most 4); 1 turns it off. The values and gradients are those of one block.
   */
  readonly queryBlocks?: number;
}

/**
 * Scaled dot-product attention over `[..., T, d]` queries and `[..., S, d]` keys/values, with a
 * causal mask by default.
 *
 * @example
 * ```ts
 * const o = attention(q, k, v); // [B, H, T, d]
 * ```
 */
export function attention(q: Tensor, k: Tensor, v: Tensor, opts: AttentionOptions = {}): Tensor {
  const d = q.dim(-1);
  if (typeof d !== 'number') throw new ShapeError('attention', 'head dim must be static');
  const T = q.dim(-2);
  const S = k.dim(-2);
  const kT = swapLastAxes(k);
  const causal = !opts.allowed && opts.causal !== false;
  if (causal && typeof T === 'number' && typeof S === 'number' && S >= T) {
    const blocks = Math.max(1, Math.min(T, opts.queryBlocks ?? Math.min(4, Math.floor(T / 128))));
    if (blocks > 1) {
      const sizes = Array.from({ length: blocks }, (_, b) => Math.floor(((b + 1) * T) / blocks) - Math.floor((b * T) / blocks));
      let end = S - T;
      const outs = split(q, -2, sizes).map((qb, b) => {
        end += sizes[b]!;
        const kb = end === S ? kT : slice(kT, [-1], [0], [end]);
        const vb = end === S ? v : slice(v, [-2], [0], [end]);
        return scaledDotProduct(qb, kb, vb, d, true);
      });
      return concat(outs, q.rank - 2);
    }
  }
  return scaledDotProduct(q, kT, v, d, opts.causal !== false, opts.allowed);
}

function scaledDotProduct(q: Tensor, kT: Tensor, v: Tensor, d: number, causal: boolean, allowedMask?: Tensor): Tensor {
  let scores = mul(matmul(q, kT), 1 / Math.sqrt(d));
  const allowed = allowedMask ?? (causal ? causalMask(scores) : undefined);
  if (allowed) scores = maskScores(scores, allowed);
  return attend(scores, (p) => matmul(p, v));
}
