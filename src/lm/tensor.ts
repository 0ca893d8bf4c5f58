/**
 * A float32 tensor held in host memory: the unit in which weights, gradients and logits move
 * between files, graphs and callers. Row-major (C order), as safetensors and ONNX store it.
 */
export interface FloatTensor {
  /** Dimensions, outermost first. A scalar has shape `[]`. */
  readonly shape: readonly number[];
  /** Row-major values; length is the product of `shape`. */
  readonly data: Float32Array;
}

/**
 * Number of elements of a tensor of this shape.
 *
 * @example
 * elementCount([2, 3]); // 6
 */
export function elementCount(shape: readonly number[]): number {
  let n = 1;
  for (const d of shape) n *= d;
  return n;
}

/**
 * Builds a {@link FloatTensor}, checking that the data length matches the shape.
 *
 * @example
 * const t = floatTensor([2, 2], new Float32Array([1, 2, 3, 4]));
 */
export function floatTensor(shape: readonly number[], data: Float32Array): FloatTensor {
  if (data.length !== elementCount(shape)) {
    throw new RangeError(`tensor data has ${data.length} elements but shape [${shape.join(', ')}] needs ${elementCount(shape)}`);
  }
  return { shape: [...shape], data };
}
