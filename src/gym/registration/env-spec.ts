import type { Env } from '../env.js';

/** Keyword arguments passed to an environment's entry point. */
export type EnvKwargs = Record<string, unknown>;

/** Builds an environment from its (merged) keyword arguments. */
export type EntryPoint<Kwargs extends object = EnvKwargs> = (kwargs: Kwargs) => Env<unknown, unknown>;

/** What {@link Registry.register} accepts beside the id. */
export interface RegisterOptions<Kwargs extends object = EnvKwargs> {
  /** Builds the environment; receives the registered kwargs overridden by `make()`'s. */
  entryPoint: EntryPoint<Kwargs>;
  /** Episodes are truncated after this many steps (adds a TimeLimit wrapper). */
  maxEpisodeSteps?: number;
  /** The return at which the task counts as solved. */
  rewardThreshold?: number;
  /** The same seed and actions may give different results (skips checkEnv's step-determinism check). */
  nondeterministic?: boolean;
  /** Wrap with OrderEnforcing (default true). */
  orderEnforce?: boolean;
  /** Skip the PassiveEnvChecker wrapper (default false). */
  disableEnvChecker?: boolean;
  /** Default keyword arguments of the entry point. */
  kwargs?: Partial<Kwargs>;
  /** One line on what the environment is, shown in listings. */
  description?: string;
}

/**
 * The recipe `make()` uses to build an environment, as Gymnasium's `EnvSpec`. The spec on a
 * made env (`env.spec`) carries the kwargs actually used.
 */
export interface EnvSpec {
  /** The full id, `[namespace/]Name[-vN]`. */
  id: string;
  namespace: string | undefined;
  name: string;
  version: number | undefined;
  entryPoint: EntryPoint<EnvKwargs>;
  maxEpisodeSteps: number | undefined;
  rewardThreshold: number | undefined;
  nondeterministic: boolean;
  orderEnforce: boolean;
  disableEnvChecker: boolean;
  kwargs: EnvKwargs;
  description: string | undefined;
}
