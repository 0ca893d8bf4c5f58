import { attend, linear, ops, type Dim, type Tensor } from './onnx.js';

/**
 * Building blocks of Llama-family decoders as ONNX subgraphs. Shapes in comments:
 * B batch, T new positions, S attended positions (past + new), H query heads, K key/value
 * heads, D head dimension, E hidden size.
 */

/** A LoRA adapter on one projection, as graph tensors: `A` [r, in], `B` [out, r]. */
export interface LoraTensors {
  readonly a: Tensor;
  readonly b: Tensor;
  /** `alpha / r`. */
  readonly scale: number;
}

/**
 * A PyTorch-layout linear layer `x Wᵀ + b`, plus `scale · (x Aᵀ) Bᵀ` when a LoRA adapter is
 * given (the low-rank path is computed separately, never merged, so only A and B need
 * gradients). With rows, `x` [N, in], and `product: 'gemm'` every product reads its weight as
 * stored, with no transpose at run time (see `linear` for when that pays).
 *
 * @example
 * const q = loraLinear(h, wq, bq);
 */
export function loraLinear(x: Tensor, weight: Tensor, bias?: Tensor, lora?: LoraTensors, product: 'gemm' | 'matmul' = 'matmul'): Tensor {
  const form = { outIn: true, product };
  const y = linear(x, weight, bias, form);
  if (!lora) return y;
  return y.add(linear(linear(x, lora.a, undefined, form), lora.b, undefined, form).mul(lora.scale));
}

/**
 * SwiGLU MLP: `down(silu(gate(x)) · up(x))`.
 *
 * @example
 * const y = swiGlu(h, gateW, upW, downW);
 */
export function swiGlu(
  x: Tensor,
  gate: Tensor,
  up: Tensor,
  down: Tensor,
  lora: { gate?: LoraTensors; up?: LoraTensors; down?: LoraTensors } = {},
  product: 'gemm' | 'matmul' = 'matmul',
): Tensor {
  const activated = loraLinear(x, gate, undefined, lora.gate, product).silu().mul(loraLinear(x, up, undefined, lora.up, product));
  return loraLinear(activated, down, undefined, lora.down, product);
}

/**
 * Grouped-query attention without repeating keys and values: queries [B, H, T, D] are viewed
 * as [B, K, H/K, T, D] so each group of H/K query heads broadcasts against its shared
 * key/value head [B, K, 1, S, D]. `bias` [B, 1, T, S] holds 0 where attention is allowed and a
 * large negative number elsewhere (causality and padding). Returns [B, H, T, D].
 *
 * @example
 * const out = groupedQueryAttention(q, k, v, bias, { numHeads: 8, numKvHeads: 2, headDim: 64 });
 */
export function groupedQueryAttention(
  q: Tensor,
  k: Tensor,
  v: Tensor,
  bias: Tensor,
  dims: { numHeads: number; numKvHeads: number; headDim: number },
  opts: { mayBeEmpty?: boolean } = {},
): Tensor {
  const group = dims.numHeads / dims.numKvHeads;
  // Queries that may number zero (a block of causalQueryBlocks) are reshaped by their explicit
  // sizes: a -1 cannot be inferred from zero elements. Otherwise constant shapes, fewer nodes.
  const qShape = opts.mayBeEmpty ? ops.shapeOf(q) : undefined;
  const [B, , T] = q.shape;
  const q5 = qShape
    ? ops.reshapeTo(q, ops.concat([ops.slice(qShape, [0], [0], [1]), q.graph.int64s([dims.numKvHeads, group]), ops.slice(qShape, [0], [2], [4])], 0), [B!, dims.numKvHeads, group, T!, dims.headDim], { allowZero: true })
    : q.reshape([0, dims.numKvHeads, group, -1, dims.headDim]);
  const k5 = k.unsqueeze([2]);
  const v5 = v.unsqueeze([2]);
  const scores = q5.matmul(k5.transpose([0, 1, 2, 4, 3])).mul(1 / Math.sqrt(dims.headDim)).add(bias.unsqueeze([1]));
  const out = attend(scores, (weights) => weights.matmul(v5));
  return qShape ? ops.reshapeTo(out, qShape, q.shape, { allowZero: true }) : out.reshape([0, dims.numHeads, -1, dims.headDim]);
}

/** The fewest queries a causal block holds: below it, the skipped scores save less than the extra ops cost. */
const MIN_QUERY_BLOCK = 64;

/**
 * How a whole-sequence pass splits its T queries into causal blocks, computed once per graph and
 * shared by every layer: the blocks' sizes, where each ends, and each block's rows of the bias
 * restricted to the keys up to its end.
 */
export interface CausalBlocks {
  readonly count: number;
  /** T, as an int64 [1] tensor. */
  readonly length: Tensor;
  /** The blocks' sizes, int64 [count]. */
  readonly sizes: Tensor;
  /** Where each block ends (exclusive), int64 [1] each; the last is T. */
  readonly ends: readonly Tensor[];
  /** Each block's bias, [B, 1, rows of the block, keys up to its end]. */
  readonly biases: readonly Tensor[];
}

/**
 * The causal blocks of a pass whose additive `bias` is [B, 1, T, T]. Blocks hold ⌈T/n⌉ queries
 * but at least 64, counted from the end: a short sequence fills only the last block and attends
 * in one piece. A block left empty is one with no keys either: a product over zero queries (a
 * key's gradient from an empty block) is not written by onnxruntime's CPU kernels, and would read
 * as garbage.
 *
 * @example
 * const plan = causalBlocks(bias, 4); // then causalQueryBlocks(q, k, v, plan, dims) in every layer
 */
export function causalBlocks(bias: Tensor, count: number): CausalBlocks {
  const length = ops.slice(ops.shapeOf(bias), [0], [2], [3]);
  const size = ops.maximum(length.add(count - 1).div(count), MIN_QUERY_BLOCK);
  const ends = Array.from({ length: count }, (_, b) => (b === count - 1 ? length : ops.maximum(length.sub(size.mul(count - 1 - b)), 0)));
  const sizes = ops.concat(ends.map((e, b) => (b === 0 ? e : e.sub(ends[b - 1]!))), 0);
  const rows = ops.split(bias, 2, sizes, count);
  const biases = rows.map((r, b) => (b === count - 1 ? r : leading(r, 3, ends[b]!, length)));
  return { count, length, sizes, ends, biases };
}

/** The first `end` positions of `t` along `axis`, whose extent is `length`. */
function leading(t: Tensor, axis: number, end: Tensor, length: Tensor): Tensor {
  return ops.split(t, axis, ops.concat([end, length.sub(end)], 0), 2)[0]!;
}

/**
 * {@link groupedQueryAttention} over whole sequences (no cache: queries and keys are the same T
 * positions) with a causal bias, in the blocks of `plan` ({@link causalBlocks}): each block of
 * consecutive queries attends to the keys up to its own last query only. The keys after a block
 * are hidden from all of its queries by the causal mask, so their scores are never computed
 * ((n − 1)/2n of them for n equal blocks). Values and gradients are those of one block: the
 * skipped scores would have had weight exactly 0.
 *
 * @example
 * const out = causalQueryBlocks(q, k, v, plan, { numHeads: 8, numKvHeads: 2, headDim: 64 });
 */
export function causalQueryBlocks(
  q: Tensor,
  k: Tensor,
  v: Tensor,
  plan: CausalBlocks,
  dims: { numHeads: number; numKvHeads: number; headDim: number },
): Tensor {
  const queries = ops.split(q, 2, plan.sizes, plan.count);
  const outs = queries.map((qb, b) => {
    const last = b === plan.count - 1;
    const end = plan.ends[b]!;
    const keys = last ? k : leading(k, 2, end, plan.length);
    const values = last ? v : leading(v, 2, end, plan.length);
    return groupedQueryAttention(qb, keys, values, plan.biases[b]!, dims, { mayBeEmpty: true });
  });
  return ops.concat(outs, 2);
}

/**
 * {@link groupedQueryAttention} over keys/values given in blocks (e.g. a prompt's cache that stays
 * the same for every decode step, then the growing cache of the generated tokens): the scores
 * of all blocks share one softmax, and the output sums each block's weighted values, so no block
 * is ever concatenated (copied) with another. `bias` [B, 1, T, S₁ + S₂ + …] covers the blocks in
 * order. One block is exactly `groupedQueryAttention`.
 *
 * @example
 * const out = blockAttention(q, [{ key: promptK, value: promptV }, { key: k, value: v }], bias, { numHeads: 8, numKvHeads: 2, headDim: 64 });
 */
export function blockAttention(
  q: Tensor,
  blocks: readonly { readonly key: Tensor; readonly value: Tensor }[],
  bias: Tensor,
  dims: { numHeads: number; numKvHeads: number; headDim: number },
): Tensor {
  if (blocks.length === 1) return groupedQueryAttention(q, blocks[0]!.key, blocks[0]!.value, bias, dims);
  const group = dims.numHeads / dims.numKvHeads;
  const q5 = q.reshape([0, dims.numKvHeads, group, -1, dims.headDim]);
  const scores = blocks.map((b) => q5.matmul(b.key.unsqueeze([2]).transpose([0, 1, 2, 4, 3])));
  const all = ops.concat(scores, -1).mul(1 / Math.sqrt(dims.headDim)).add(bias.unsqueeze([1]));
  const out = attend(all, (p) => ops.splitLike(p, -1, scores).map((w, i) => w.matmul(blocks[i]!.value.unsqueeze([2]))).reduce((a, b) => a.add(b)));
  return out.reshape([0, dims.numHeads, -1, dims.headDim]);
}

/**
 * Keys or values shared by groups of consecutive rows, [U, K, Q, D], repeated for each row of its
 * group: [B, K, Q, D], where `batch` is B as a [1] int64 tensor and every group has B / U rows.
 * The gradient (Expand's) sums each group's rows. A pass over whole sequences attends to the
 * repeated block concatenated with its own keys: copying Q·D values per row and key/value head
 * costs far less than concatenating the T × (Q + S) scores of each query head, as
 * {@link groupSharedAttention} does for the few rows of a decode step.
 *
 * @example
 * const keys = ops.concat([repeatForRows(promptK, batch), k], 2); // [B, K, Q + S, D]
 */
export function repeatForRows(shared: Tensor, batch: Tensor): Tensor {
  const g = shared.graph;
  const shape = ops.shapeOf(shared);
  const dim = (axis: number): Tensor => ops.slice(shape, [0], [axis], [axis + 1]);
  const groups = dim(0);
  const perGroup = batch.div(groups);
  const [, K, Q, D] = shared.shape as [unknown, number, Dim, number];
  const repeated = ops.expand(shared.unsqueeze([1]), ops.concat([groups, perGroup, dim(1), dim(2), dim(3)], 0));
  return ops.reshapeTo(repeated, ops.concat([batch, dim(1), dim(2), dim(3)], 0), [g.freshDim('rows'), K, Q, D]);
}

/**
 * {@link blockAttention} whose first block is shared by groups of consecutive rows: `shared`
 * keys/values are [U, K, Q, D], one per group, and rows b = u·G … u·G + G − 1 (G = B / U, the
 * same for every group) attend to group u's block; the other `blocks` are per row, [B, K, S, D].
 * Each group's queries are stacked so that one product per group and key/value head reads the
 * shared block (instead of every row reading its own copy of it): the GRPO decode, where the K
 * samples of a prompt continue the same prompt cache. `bias` [B, 1, T, Q + S₁ + …] covers the
 * shared block, then the others, in order. For the few rows of a decode step: passes over whole
 * sequences (scoring and training continuations) concatenate keys instead ({@link repeatForRows}).
 *
 * @example
 * const out = groupSharedAttention(q, { key: promptK, value: promptV }, [{ key: k, value: v }], bias, { numHeads: 8, numKvHeads: 2, headDim: 64 });
 */
export function groupSharedAttention(
  q: Tensor,
  shared: { readonly key: Tensor; readonly value: Tensor },
  blocks: readonly { readonly key: Tensor; readonly value: Tensor }[],
  bias: Tensor,
  dims: { numHeads: number; numKvHeads: number; headDim: number },
): Tensor {
  const { numKvHeads: K, headDim: D } = dims;
  const group = dims.numHeads / K;
  const g = q.graph;
  const dimOf = (t: Tensor, axis: number): Tensor => ops.slice(ops.shapeOf(t), [0], [axis], [axis + 1]);
  // Reshape to a shape assembled from run-time dims (tensors) and static ones (numbers).
  const reshapeAs = (x: Tensor, parts: readonly (Tensor | number)[]): Tensor =>
    ops.reshapeTo(
      x,
      ops.concat(parts.map((p) => (typeof p === 'number' ? g.int64s([p]) : p)), 0),
      parts.map((p) => (typeof p === 'number' && p > 0 ? p : g.freshDim('shared'))),
    );
  const U = dimOf(shared.key, 0);
  const Q = dimOf(shared.key, 2);
  // Queries [B, H, T, D] → [B, K, M, D] (M = group·T: a row's queries per key/value head) →
  // [U, G, K, M, D] → stacked per group and head: [U, K, G·M, D].
  const q4 = q.reshape([0, K, -1, D]);
  const M = dimOf(q4, 2);
  const B = dimOf(q4, 0);
  const stack = (x: Tensor, last: Tensor | number): Tensor => reshapeAs(reshapeAs(x, [U, -1, K, M, last]).transpose([0, 2, 1, 3, 4]), [U, K, -1, last]);
  const unstack = (x: Tensor, last: Tensor | number): Tensor => reshapeAs(reshapeAs(x, [U, K, -1, M, last]).transpose([0, 2, 1, 3, 4]), [B, K, group, -1, last]);
  const sharedScores = unstack(stack(q4, D).matmul(shared.key.transpose([0, 1, 3, 2])), Q); // [B, K, group, T, Q]
  const q5 = q.reshape([0, K, group, -1, D]);
  const scores = [sharedScores, ...blocks.map((b) => q5.matmul(b.key.unsqueeze([2]).transpose([0, 1, 2, 4, 3])))];
  const all = ops.concat(scores, -1).mul(1 / Math.sqrt(D)).add(bias.unsqueeze([1]));
  const out = attend(all, (p) => {
    const [sharedWeights, ...weights] = ops.splitLike(p, -1, scores);
    // The shared block's weights stacked the same way, times its values, back to the rows.
    const sharedOut = unstack(stack(reshapeAs(sharedWeights!, [B, K, M, Q]), Q).matmul(shared.value), D); // [B, K, group, T, D]
    return weights.map((w, i) => w.matmul(blocks[i]!.value.unsqueeze([2]))).reduce((a, b) => a.add(b), sharedOut);
  });
  return out.reshape([0, dims.numHeads, -1, D]);
}
