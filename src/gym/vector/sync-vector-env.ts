import type { Env, EnvMetadata, Info, ResetOptions } from '../env.js';
import type { Space } from '../spaces/space.js';
import { isAutoresetMode, type AutoresetMode } from './autoreset-mode.js';
import { SubEnvRunner } from './sub-env-runner.js';
import { DEFAULT_AUTORESET_MODE, VectorEnv } from './vector-env.js';

/** Options of {@link SyncVectorEnv}. */
export interface SyncVectorEnvOptions {
  /** Default `AutoresetMode.NEXT_STEP`. */
  autoresetMode?: AutoresetMode;
}

/**
 * Sub-environments in this thread, as Gymnasium's `SyncVectorEnv`. Their `reset`/`step` calls
 * are started together and awaited together, so envs that wait on I/O (SQL workers, network)
 * overlap; CPU-bound envs run one after another.
 *
 * @example
 * ```ts
 * const vec = new SyncVectorEnv(Array.from({ length: 4 }, () => () => make('GuessNumber-v0')));
 * const [obs, infos] = await vec.reset({ seed: 0 });
 * await vec.step([50, 50, 50, 50]);
 * await vec.close();
 * ```
 */
export class SyncVectorEnv<Obs = unknown, Act = unknown> extends VectorEnv<Obs, Act> {
  readonly numEnvs: number;
  readonly autoresetMode: AutoresetMode;
  /** The sub-environments, in order. */
  readonly envs: readonly Env<Obs, Act>[];
  private readonly runners: SubEnvRunner<Obs, Act>[];
  private closed: Promise<void> | undefined;

  constructor(envFns: readonly (() => Env<Obs, Act>)[], options: SyncVectorEnvOptions = {}) {
    super();
    if (envFns.length === 0) throw new RangeError('SyncVectorEnv needs at least one env function');
    this.autoresetMode = options.autoresetMode ?? DEFAULT_AUTORESET_MODE;
    if (!isAutoresetMode(this.autoresetMode)) throw new RangeError(`unknown autoresetMode ${String(this.autoresetMode)}`);
    this.envs = envFns.map((fn) => fn());
    this.numEnvs = this.envs.length;
    const [first] = this.envs;
    this.envs.forEach((env, i) => {
      if (!env.actionSpace.equals(first!.actionSpace) || !env.observationSpace.equals(first!.observationSpace)) {
        throw new TypeError(`sub-env ${i} has different spaces than sub-env 0; every sub-env of a vector env must share its action and observation spaces`);
      }
    });
    this.runners = this.envs.map((env) => new SubEnvRunner(env, this.autoresetMode));
  }

  get singleActionSpace(): Space<Act, unknown> {
    return this.envs[0]!.actionSpace;
  }

  get singleObservationSpace(): Space<Obs, unknown> {
    return this.envs[0]!.observationSpace;
  }

  get metadata(): EnvMetadata {
    return { ...this.envs[0]!.metadata, autoresetMode: this.autoresetMode };
  }

  async close(): Promise<void> {
    this.closed ??= Promise.all(this.runners.map((r) => r.close())).then(() => undefined);
    return this.closed;
  }

  protected async resetSubEnvs(indices: number[], options: ResetOptions[]): Promise<[Obs, Info][]> {
    return Promise.all(indices.map((i, k) => this.runners[i]!.reset(options[k])));
  }

  protected async stepSubEnvs(actions: readonly Act[]): Promise<[Obs, number, boolean, boolean, Info][]> {
    return Promise.all(this.runners.map((runner, i) => runner.step(actions[i]!)));
  }
}
