import type { Env, Info, ResetOptions, ResetResult, StepResult } from '../env.js';
import { AutoresetMode } from './autoreset-mode.js';

/**
 * One sub-environment of a vector env together with its autoreset state. Both SyncVectorEnv (in
 * process) and AsyncVectorEnv's workers drive their envs through this class, so the autoreset
 * semantics are written once.
 *
 * @example
 * ```ts
 * const runner = new SubEnvRunner(make('GuessNumber-v0'), AutoresetMode.SAME_STEP);
 * await runner.reset({ seed: 0 });
 * const [obs, reward, terminated, truncated, info] = await runner.step(50);
 * ```
 */
export class SubEnvRunner<Obs = unknown, Act = unknown> {
  /** NEXT_STEP mode: the last step ended an episode, so the next step resets instead. */
  private pendingReset = false;

  constructor(
    readonly env: Env<Obs, Act>,
    readonly autoresetMode: AutoresetMode,
  ) {}

  async reset(options: ResetOptions = {}): Promise<ResetResult<Obs>> {
    this.pendingReset = false;
    return this.env.reset(options);
  }

  async step(action: Act): Promise<StepResult<Obs>> {
    if (this.pendingReset) {
      this.pendingReset = false;
      const [obs, info] = await this.env.reset();
      return [obs, 0, false, false, info];
    }
    const [obs, reward, terminated, truncated, info] = await this.env.step(action);
    const ended = terminated || truncated;
    if (!ended || this.autoresetMode === AutoresetMode.DISABLED) return [obs, reward, terminated, truncated, info];
    if (this.autoresetMode === AutoresetMode.NEXT_STEP) {
      this.pendingReset = true;
      return [obs, reward, terminated, truncated, info];
    }
    const [resetObs, resetInfo] = await this.env.reset();
    const merged: Info = { ...resetInfo, final_obs: obs, final_info: info };
    return [resetObs, reward, terminated, truncated, merged];
  }

  async close(): Promise<void> {
    await this.env.close();
  }
}
