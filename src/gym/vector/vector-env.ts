import type { EnvMetadata, Info, ResetOptions } from '../env.js';
import { deriveSeed } from '../../base/rng.js';
import type { Space } from '../spaces/space.js';
import { Tuple } from '../spaces/tuple.js';
import { AutoresetMode } from './autoreset-mode.js';

/** Options of {@link VectorEnv.reset}. */
export interface VectorResetOptions {
  /**
   * One integer: sub-env `i` is seeded with `seed + i` (Gymnasium's rule); or one seed per
   * sub-env (`undefined` leaves that sub-env unseeded).
   */
  seed?: number | readonly (number | undefined)[];
  /** Passed to every reset sub-env, except `resetMask` which selects the sub-envs to reset. */
  options?: { resetMask?: readonly boolean[]; [key: string]: unknown };
}

/** `[observations, infos]`: one entry per sub-env. */
export type VectorResetResult<Obs> = [obs: Obs[], infos: Info[]];

/** `[observations, rewards, terminations, truncations, infos]`: one entry per sub-env. */
export type VectorStepResult<Obs> = [obs: Obs[], rewards: Float64Array, terminations: boolean[], truncations: boolean[], infos: Info[]];

/**
 * Several copies of an environment stepped together, as Gymnasium's `VectorEnv`.
 *
 * Batching: observations are arrays of per-env observations (observations may be strings or
 * objects, which do not stack into tensors); rewards are a `Float64Array`; `terminations` and
 * `truncations` are `boolean[]`; infos are an array of per-env info objects (not Gymnasium's
 * dict of arrays, which suits NumPy but not free-form text infos). The batched spaces are
 * `Tuple`s of the single spaces, so `actionSpace.sample()` gives one action per sub-env.
 *
 * @example
 * ```ts
 * const [obs] = await vec.reset({ seed: 42 });       // sub-env i seeded with 42 + i
 * const [next, rewards, term, trunc, infos] = await vec.step(vec.actionSpace.sample());
 * await vec.close();
 * ```
 */
export abstract class VectorEnv<Obs = unknown, Act = unknown> {
  abstract readonly numEnvs: number;
  abstract readonly autoresetMode: AutoresetMode;
  /** The action space of one sub-env. */
  abstract get singleActionSpace(): Space<Act, unknown>;
  /** The observation space of one sub-env. */
  abstract get singleObservationSpace(): Space<Obs, unknown>;
  /** Metadata of the sub-envs, with `autoresetMode` added. */
  abstract get metadata(): EnvMetadata;

  private batchedActionSpace: Tuple<Space<Act, unknown>[]> | undefined;
  private batchedObservationSpace: Tuple<Space<Obs, unknown>[]> | undefined;
  private lastObs: Obs[] = [];

  /** One action per sub-env: a Tuple of `numEnvs` copies of the single action space. */
  get actionSpace(): Tuple<Space<Act, unknown>[]> {
    this.batchedActionSpace ??= new Tuple(Array.from({ length: this.numEnvs }, () => this.singleActionSpace));
    return this.batchedActionSpace;
  }

  /** One observation per sub-env: a Tuple of `numEnvs` copies of the single observation space. */
  get observationSpace(): Tuple<Space<Obs, unknown>[]> {
    this.batchedObservationSpace ??= new Tuple(Array.from({ length: this.numEnvs }, () => this.singleObservationSpace));
    return this.batchedObservationSpace;
  }

  /** Reset all sub-envs, or those selected by `options.resetMask` (the others keep their last observation and get `{}` as info). */
  async reset(resetOptions: VectorResetOptions = {}): Promise<VectorResetResult<Obs>> {
    const { resetMask, ...options } = resetOptions.options ?? {};
    if (resetMask !== undefined && resetMask.length !== this.numEnvs) {
      throw new RangeError(`resetMask has ${resetMask.length} entries; the vector env has ${this.numEnvs} sub-envs`);
    }
    const seeds = this.subEnvSeeds(resetOptions.seed);
    const indices = Array.from({ length: this.numEnvs }, (_, i) => i).filter((i) => resetMask?.[i] ?? true);
    const results = await this.resetSubEnvs(
      indices,
      indices.map((i) => {
        const opts: ResetOptions = { options };
        if (seeds[i] !== undefined) opts.seed = seeds[i];
        return opts;
      }),
    );
    const infos: Info[] = Array.from({ length: this.numEnvs }, () => ({}));
    indices.forEach((envIndex, k) => {
      const [obs, info] = results[k]!;
      this.lastObs[envIndex] = obs;
      infos[envIndex] = info;
    });
    return [this.lastObs.slice(), infos];
  }

  /** Step every sub-env with its action (one per sub-env), resetting ended episodes per {@link autoresetMode}. */
  async step(actions: readonly Act[]): Promise<VectorStepResult<Obs>> {
    if (actions.length !== this.numEnvs) {
      throw new RangeError(`step() needs one action per sub-env (${this.numEnvs}), got ${actions.length}`);
    }
    const results = await this.stepSubEnvs(actions);
    const obs = new Array<Obs>(this.numEnvs);
    const rewards = new Float64Array(this.numEnvs);
    const terminations = new Array<boolean>(this.numEnvs);
    const truncations = new Array<boolean>(this.numEnvs);
    const infos = new Array<Info>(this.numEnvs);
    results.forEach(([o, r, term, trunc, info], i) => {
      obs[i] = o;
      rewards[i] = r;
      terminations[i] = term;
      truncations[i] = trunc;
      infos[i] = info;
    });
    this.lastObs = obs.slice();
    return [obs, rewards, terminations, truncations, infos];
  }

  /** Close every sub-env (and worker). Idempotent. */
  abstract close(): Promise<void>;

  /** Reset the sub-envs `indices[k]` with `options[k]`; results in the same order. */
  protected abstract resetSubEnvs(indices: number[], options: ResetOptions[]): Promise<[Obs, Info][]>;

  /** Step every sub-env with its action, applying the autoreset mode; results in sub-env order. */
  protected abstract stepSubEnvs(actions: readonly Act[]): Promise<[Obs, number, boolean, boolean, Info][]>;

  private subEnvSeeds(seed: VectorResetOptions['seed']): (number | undefined)[] {
    if (seed === undefined) return new Array<undefined>(this.numEnvs).fill(undefined);
    if (typeof seed === 'number') return Array.from({ length: this.numEnvs }, (_, i) => deriveSeed(seed, i));
    if (seed.length !== this.numEnvs) throw new RangeError(`reset() got ${seed.length} seeds for ${this.numEnvs} sub-envs`);
    return [...seed];
  }

  toString(): string {
    return `${this.constructor.name}(numEnvs=${this.numEnvs}, autoresetMode=${this.autoresetMode})`;
  }
}

/** The default mode of vector envs, as in Gymnasium. */
export const DEFAULT_AUTORESET_MODE: AutoresetMode = AutoresetMode.NEXT_STEP;
