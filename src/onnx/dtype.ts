/**
 * Element types the graph builder supports, with their ONNX `TensorProto.DataType` codes and
 * the JavaScript typed arrays that hold them.
 */
import { floatToHalfBits } from '../base/half-float.js';

/** An element type of a graph tensor. */
export type DType = 'float32' | 'float64' | 'float16' | 'int64' | 'int32' | 'bool';

/** ONNX `TensorProto.DataType` enum values (onnx.proto3). */
export const ONNX_DTYPE_CODE: Readonly<Record<DType, number>> = {
  float32: 1,
  int32: 6,
  int64: 7,
  bool: 9,
  float16: 10,
  float64: 11,
};

/** Bytes per element of each dtype. */
export const DTYPE_BYTES: Readonly<Record<DType, number>> = {
  float32: 4,
  float64: 8,
  float16: 2,
  int64: 8,
  int32: 4,
  bool: 1,
};

/** Whether values of this dtype can carry gradients. */
export function isFloatDType(dtype: DType): boolean {
  return dtype === 'float32' || dtype === 'float64' || dtype === 'float16';
}

/** The typed array that holds host data of each dtype (float16 is stored as raw uint16 bits). */
export interface TypedArrayOf {
  float32: Float32Array;
  float64: Float64Array;
  float16: Uint16Array;
  int64: BigInt64Array;
  int32: Int32Array;
  bool: Uint8Array;
}

/** Any typed array the builder accepts as tensor data. */
export type HostArray = TypedArrayOf[DType];

/**
 * Build the typed array of `dtype` from plain numbers (bigint for int64 accepted too).
 *
 * @example
 * ```ts
 * toTypedArray('int64', [1, 2, 3]); // BigInt64Array [1n, 2n, 3n]
 * ```
 */
export function toTypedArray(dtype: DType, values: ArrayLike<number | bigint | boolean>): HostArray {
  const n = values.length;
  switch (dtype) {
    case 'float32':
      return Float32Array.from({ length: n }, (_, i) => Number(values[i]));
    case 'float64':
      return Float64Array.from({ length: n }, (_, i) => Number(values[i]));
    case 'int32':
      return Int32Array.from({ length: n }, (_, i) => Number(values[i]));
    case 'int64':
      return BigInt64Array.from({ length: n }, (_, i) => BigInt(values[i] as number | bigint));
    case 'bool':
      return Uint8Array.from({ length: n }, (_, i) => (values[i] ? 1 : 0));
    case 'float16':
      return Uint16Array.from({ length: n }, (_, i) => floatToHalfBits(Number(values[i])));
  }
}
