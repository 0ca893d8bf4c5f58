/** Host-side tensors exchanged with sessions, and conversion to onnxruntime tensors. */
import ort from 'onnxruntime-node';
import type { DType, HostArray } from '../dtype.js';

/** An onnxruntime tensor (host or device resident). */
export type OrtTensor = ort.Tensor;

/** Plain tensor data: what feeds accept and what worker sessions return. */
export interface HostTensor {
  readonly type: DType;
  readonly dims: readonly number[];
  readonly data: HostArray;
}

/** Feeds of one run: by input name, host data or onnxruntime tensors. */
export type Feeds = Readonly<Record<string, HostTensor | OrtTensor>>;

/**
 * A host tensor of `type` and `dims` over `data` (no copy).
 *
 * @example
 * ```ts
 * const x = hostTensor('float32', [2, 2], new Float32Array([1, 2, 3, 4]));
 * ```
 */
export function hostTensor(type: DType, dims: readonly number[], data: HostArray): HostTensor {
  const n = dims.reduce((a, b) => a * b, 1);
  if (data.length !== n) throw new RangeError(`tensor data has ${data.length} elements, dims [${dims.join(', ')}] need ${n}`);
  return { type, dims, data };
}

/** Wrap host data as an onnxruntime tensor without copying (ort tensors pass through). */
export function toOrt(t: HostTensor | OrtTensor): OrtTensor {
  if (t instanceof ort.Tensor) return t;
  return new ort.Tensor(t.type, t.data, t.dims);
}

/** Tensors marked by {@link markResident}. */
const residentTensors = new WeakSet<OrtTensor>();

/**
 * Mark a host tensor as resident: memory a runtime keeps bound between runs (weights bound once
 * per optimizer step, a KV cache fed back, optimizer state) rather than data fed anew. On the CPU
 * provider such a tensor is read in place; on GPU providers its counterpart is a `gpu-buffer`
 * tensor. Session stats count it under `residentFeeds`, not `feedBytes`. Returns `t`.
 *
 * @example
 * ```ts
 * const w = markResident(new ort.Tensor('float32', weights, [64, 64]));
 * ```
 */
export function markResident<T extends OrtTensor>(t: T): T {
  residentTensors.add(t);
  return t;
}

/** Whether feeding `t` moves no data: a device tensor, or a host tensor marked {@link markResident}. */
export function isResident(t: HostTensor | OrtTensor): boolean {
  if (!(t instanceof ort.Tensor)) return false;
  return (t.location !== 'cpu' && t.location !== 'cpu-pinned') || residentTensors.has(t);
}

/** Bytes held by a tensor's host data. */
export function byteSize(t: HostTensor | OrtTensor): number {
  if (t instanceof ort.Tensor && t.location !== 'cpu' && t.location !== 'cpu-pinned') return 0;
  return (t.data as HostArray).byteLength;
}
