import type { EnvMetadata, ResetOptions } from '../env.js';
import type { MakeOptions } from '../registry.js';
import type { JSONSchema } from '../spaces/space.js';
import type { AutoresetMode } from './autoreset-mode.js';

/** What an AsyncVectorEnv worker receives as `workerData`: how to build its sub-envs. */
export interface WorkerInit {
  /** Global indices of the sub-envs this worker hosts, in order. */
  envIndices: number[];
  envId: string;
  kwargs: Record<string, unknown>;
  makeOptions: MakeOptions;
  autoresetMode: AutoresetMode;
  /** Module URLs imported, in order, before `make()`: the package entry first, then the user's. */
  imports: string[];
}

/** A call from the parent to a worker; `positions` index the worker's own sub-envs (0-based). */
export type WorkerRequest =
  | { id: number; type: 'reset'; positions: number[]; options: ResetOptions[] }
  | { id: number; type: 'step'; actions: unknown[] }
  | { id: number; type: 'close' };

/** A {@link WorkerRequest} before the handle numbers it. */
export type UnnumberedRequest = WorkerRequest extends infer R ? (R extends unknown ? Omit<R, 'id'> : never) : never;

/** An error crossing the thread boundary (Error objects lose their class when cloned). */
export interface SerializedError {
  name: string;
  message: string;
  stack?: string;
  /** The global index of the sub-env that threw, when one did. */
  envIndex?: number;
}

/** The first message of a worker: its envs are built (spaces as JSON Schemas), or building failed. */
export type WorkerHello =
  | { type: 'ready'; actionSpace: JSONSchema; observationSpace: JSONSchema; metadata: EnvMetadata }
  | { type: 'init-error'; error: SerializedError };

/** A worker's answer to one {@link WorkerRequest}: one result per addressed sub-env. */
export type WorkerResponse =
  | { type: 'result'; id: number; ok: true; value: unknown }
  | { type: 'result'; id: number; ok: false; error: SerializedError };

/** Error → {@link SerializedError}, for anything thrown. */
export function serializeError(error: unknown, envIndex?: number): SerializedError {
  const base: SerializedError =
    error instanceof Error ? { name: error.name, message: error.message, ...(error.stack ? { stack: error.stack } : {}) } : { name: 'Error', message: String(error) };
  return envIndex === undefined ? base : { ...base, envIndex };
}
