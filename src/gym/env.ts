import { Rng, randomSeed } from '../base/rng.js';
import type { Space } from './spaces/space.js';
import type { EnvSpec } from './registration/env-spec.js';

/** Free-form diagnostics returned beside observations, as Gymnasium's `info` dict. */
export type Info = Record<string, unknown>;

/** Options for {@link Env.reset}. */
export interface ResetOptions<Options = Record<string, unknown>> {
  /** Re-seed the environment's RNG; the same seed gives the same episode. */
  seed?: number;
  /** Environment-specific options (e.g. `{ questionId }` for SQLEnv). */
  options?: Options;
}

/** What {@link Env.reset} resolves to: `[observation, info]`. */
export type ResetResult<Obs> = [obs: Obs, info: Info];

/** What {@link Env.step} resolves to: `[observation, reward, terminated, truncated, info]`. */
export type StepResult<Obs> = [obs: Obs, reward: number, terminated: boolean, truncated: boolean, info: Info];

/** Static facts about an environment class, as Gymnasium's `metadata`. */
export interface EnvMetadata {
  renderModes: string[];
  renderFps?: number;
  [key: string]: unknown;
}

/**
 * The environment interface, as Gymnasium's `Env`, with async `reset` and `step` because
 * environments here do I/O (SQL sandboxes, network sessions).
 *
 * Subclasses call `super.reset({ seed })` first so that {@link npRandom} is re-seeded: the same
 * seed must give the same episode.
 *
 * @example
 * ```ts
 * class CoinFlip extends Env<number, number> {
 *   actionSpace = new Discrete(2);
 *   observationSpace = new Discrete(2);
 *   async reset(opts: ResetOptions = {}) { await super.reset(opts); return [0, {}] as ResetResult<number>; }
 *   async step(a: number) { const c = this.npRandom.int(2); return [c, a === c ? 1 : 0, true, false, {}] as StepResult<number>; }
 * }
 * ```
 */
export abstract class Env<Obs = unknown, Act = unknown> {
  /** Render modes and other static facts. */
  metadata: EnvMetadata = { renderModes: [] };
  /** The render mode chosen at construction, or undefined. */
  renderMode: string | undefined = undefined;
  /** Set by `make()` to the spec the env was made from. */
  spec: EnvSpec | undefined = undefined;
  abstract actionSpace: Space<Act, unknown>;
  abstract observationSpace: Space<Obs, unknown>;

  private rngInternal: Rng | undefined;

  /** The environment's RNG (Gymnasium's `np_random`); seeded by `reset({ seed })`. */
  get npRandom(): Rng {
    if (!this.rngInternal) this.rngInternal = new Rng(randomSeed());
    return this.rngInternal;
  }

  /** Start a new episode. Subclasses call `await super.reset(options)` first. */
  async reset(options: ResetOptions = {}): Promise<ResetResult<Obs>> {
    if (options.seed !== undefined) {
      this.rngInternal = new Rng(options.seed);
    }
    return undefined as unknown as ResetResult<Obs>;
  }

  /** Take one action. */
  abstract step(action: Act): Promise<StepResult<Obs>>;

  /** A rendering of the current state according to {@link renderMode} (text for `ansi`). */
  render(): unknown {
    return undefined;
  }

  /** Release resources. Idempotent: calling it twice never throws. */
  async close(): Promise<void> {}

  /** The innermost environment beneath any wrappers. */
  get unwrapped(): Env<unknown, unknown> {
    return this as Env<unknown, unknown>;
  }

  toString(): string {
    return `<${this.constructor.name}${this.spec ? `<${this.spec.id}>` : ''}>`;
  }
}
