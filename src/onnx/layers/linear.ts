/** Dense layers and embeddings. */
import type { Tensor } from '../graph/tensor.js';
import { add } from '../ops/elementwise.js';
import { gather } from '../ops/indexing.js';
import { gemm, matmul } from '../ops/matmul.js';
import { transpose } from '../ops/shape-ops.js';

/** Options of {@link linear}. */
export interface LinearOptions {
  /**
   * The weight is stored `[out, in]` (PyTorch / Hugging Face layout) rather than `[in, out]`.
   * The product is then `MatMul(x, Transpose(W))`, or for 2-D `x` with `product: 'gemm'` one
   * `Gemm` with `transB`, which reads the weight as it is stored.
   */
  readonly outIn?: boolean;
  /**
   * How a 2-D `x` meets an `[out, in]` weight (default `'matmul'`). onnxruntime folds the
   * transpose of `'matmul'` into the product on CPU and CUDA but not on WebGPU, where it copies
   * the weight at every run: `'gemm'` avoids that and wins at a few rows (a decode step: 3.2 ms
   * against 30 ms for a 151,936 × 1024 LM head at 16 rows on an H100), while WebGPU's MatMul
   * kernel wins at many (130 ms against 156 ms at 1,280 rows, transpose included).
   */
  readonly product?: 'gemm' | 'matmul';
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
  if (opts.outIn && opts.product === 'gemm' && x.rank === 2) return gemm(x, weight, bias, { transB: true });
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
