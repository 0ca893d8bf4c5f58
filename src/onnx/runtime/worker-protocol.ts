/** Messages between a {@link WorkerSession} and its worker thread. */
import type { DType, HostArray } from '../dtype.js';
import type { HostTensor } from './host-tensor.js';
import type { OptimizationLevel } from './session.js';
import type { ProviderName } from './providers.js';

/** Plain tensor data as posted between threads. */
export interface WireTensor {
  readonly type: DType;
  readonly dims: readonly number[];
  readonly data: HostArray;
}

/** Host tensors as posted to a worker: the data is structured-cloned (copied), so the caller keeps its arrays. */
export function toWireTensors(tensors: Readonly<Record<string, HostTensor>>): Record<string, WireTensor> {
  const wire: Record<string, WireTensor> = {};
  for (const [k, t] of Object.entries(tensors)) wire[k] = { type: t.type, dims: [...t.dims], data: t.data };
  return wire;
}

/** Session settings sent to the worker. */
export interface WireSessionOptions {
  readonly provider: ProviderName;
  readonly optimization: OptimizationLevel;
  readonly intraOpThreads?: number;
}

/** Main thread → worker. */
export type ToWorker =
  | { readonly kind: 'create'; readonly model: Uint8Array; readonly options: WireSessionOptions }
  | { readonly kind: 'run'; readonly id: number; readonly feeds: Record<string, WireTensor>; readonly outputs?: readonly string[] }
  | { readonly kind: 'close' };

/** Worker → main thread. */
export type FromWorker =
  | { readonly kind: 'ready'; readonly inputNames: readonly string[]; readonly outputNames: readonly string[] }
  | { readonly kind: 'result'; readonly id: number; readonly outputs: Record<string, WireTensor>; readonly runMs: number }
  | { readonly kind: 'error'; readonly id?: number; readonly name: string; readonly message: string }
  | { readonly kind: 'closed' };
