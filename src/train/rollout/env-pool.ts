/**
 * A set of environment instances that rollouts borrow: one per concurrently running episode.
 * The pool creates them lazily from a factory and closes them all in `close()`.
 */
import type { Env } from '../../gym/env.js';
import { TrainError } from '../train-error.js';

/**
 * Environments for one split, grown on demand.
 *
 * @example
 * ```ts
 * const pool = new EnvPool(() => make('SQLEnv-v0', { split: 'train' }));
 * const envs = pool.take(32);
 * await pool.close();
 * ```
 */
export class EnvPool<Obs> {
  private readonly envs: Env<Obs, unknown>[] = [];
  private closed = false;

  constructor(private readonly factory: () => Env<Obs, unknown>) {}

  /** At least `n` environments (the first n of the pool). */
  take(n: number): Env<Obs, unknown>[] {
    if (this.closed) throw new TrainError('EnvPool is closed');
    while (this.envs.length < n) this.envs.push(this.factory());
    return this.envs.slice(0, n);
  }

  /** Closes every environment. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const env of this.envs.splice(0)) await env.close();
  }
}
