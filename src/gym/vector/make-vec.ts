import { make, type EnvKwargs, type MakeOptions } from '../registry.js';
import { AsyncVectorEnv, type AsyncVectorEnvOptions } from './async-vector-env.js';
import type { AutoresetMode } from './autoreset-mode.js';
import { SyncVectorEnv } from './sync-vector-env.js';
import type { VectorEnv } from './vector-env.js';

/** Options of {@link makeVec}. */
export interface MakeVecOptions extends Omit<AsyncVectorEnvOptions, 'envId' | 'autoresetMode'> {
  /** `'sync'` (default): sub-envs in this thread; `'async'`: in worker threads. */
  vectorizationMode?: 'sync' | 'async';
  autoresetMode?: AutoresetMode;
  kwargs?: EnvKwargs;
  makeOptions?: MakeOptions;
}

/**
 * A vector env of `numEnvs` copies of a registered environment, as Gymnasium's `make_vec`. In
 * sync mode the copies come from the default registry's `make`; in async mode each worker makes
 * its own (the async-only options — `imports`, `numWorkers`, `timeoutMs`… — apply there).
 *
 * @example
 * ```ts
 * const vec = makeVec<string, number>('GuessNumber-v0', { numEnvs: 4, vectorizationMode: 'async' });
 * ```
 */
export function makeVec<Obs = unknown, Act = unknown>(id: string, options: MakeVecOptions): VectorEnv<Obs, Act> {
  const { vectorizationMode = 'sync', ...rest } = options;
  if (vectorizationMode === 'async') return new AsyncVectorEnv<Obs, Act>({ ...rest, envId: id });
  if (vectorizationMode !== 'sync') throw new RangeError(`vectorizationMode must be 'sync' or 'async', got ${String(vectorizationMode)}`);
  return new SyncVectorEnv<Obs, Act>(
    Array.from({ length: rest.numEnvs }, () => () => make<Obs, Act>(id, rest.kwargs, rest.makeOptions)),
    rest.autoresetMode === undefined ? {} : { autoresetMode: rest.autoresetMode },
  );
}
