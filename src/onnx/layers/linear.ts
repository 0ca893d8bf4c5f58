/** Dense layers and embeddings. */
import type { Tensor } from '../graph/tensor.js';
import { add } from '../ops/elementwise.js';
import { gather } from '../ops/indexing.js';
import { matmul } from '../ops/matmul.js';
import { transpose } from '../ops/shape-ops.js';

/** Options of {@link linear}. */
export interface LinearOptions {
  /**
   * The weight is stored `[out, in]` (PyTorch / Hugging Face layout) rather than `[in, out]`.
   * onnxruntime folds the transpose into the product at optimisation level 'all'.
   */
  readonly outIn?: boolean;
}

/**
 * `x · W (+ b)` over the last axis of `x`.
 *
 * @example
 * ```ts
 * const h = linear(x /* ['B', 'T', 256] *\/, w /* [256, 1024] *\/); // ['B', 'T', 1024]
 * ```
 */
export function linear(x: Tensor, weight: Tensor, bias?: Tensor, opts: LinearOptions = {}): Tensor {
  const y = matmul(x, opts.outIn ? transpose(weight) : weight);
  return bias ? add(y, bias) : y;
}

/**
 * Rows of `table` at `ids` (token embeddings). The gradient scatters-adds into the table.
 *
 * @example
 * ```ts
 * const h = embedding(wte /* [V, d] *\/, ids /* ['B', 'T'] int64 *\/); // ['B', 'T', d]
 * ```
 */
export function embedding(table: Tensor, ids: Tensor): Tensor {
  return gather(table, ids, 0);
}
