/** Messages between a {@link WorkerTrainStep} and its worker thread. */
import type { WireSessionOptions, WireTensor } from '../runtime/worker-protocol.js';
import type { TrainStepLayout } from './train-step.js';

/** Main thread → worker. */
export type ToTrainWorker =
  | { readonly kind: 'create'; readonly model: Uint8Array; readonly layout: TrainStepLayout; readonly options: WireSessionOptions }
  | { readonly kind: 'step'; readonly id: number; readonly batch: Record<string, WireTensor>; readonly lr: number }
  | { readonly kind: 'parameters'; readonly id: number }
  | { readonly kind: 'close' };

/** Worker → main thread. */
export type FromTrainWorker =
  | { readonly kind: 'ready' }
  | { readonly kind: 'stepped'; readonly id: number; readonly loss: number; readonly gradNorm?: number; readonly extra: Record<string, WireTensor>; readonly runMs: number }
  | { readonly kind: 'parameters'; readonly id: number; readonly values: Record<string, WireTensor> }
  | { readonly kind: 'error'; readonly id?: number; readonly name: string; readonly message: string };
