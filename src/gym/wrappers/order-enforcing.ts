import type { Env, ResetOptions, ResetResult, StepResult } from '../env.js';
import { Wrapper } from '../wrapper.js';
import { GymError } from '../gym-error.js';

/**
 * `step()` (or `render()`) was called before `reset()`, or after `close()`, as Gymnasium's
 * `ResetNeeded`.
 *
 * @example
 * ```ts
 * await make('GuessNumber-v0').step(50); // throws ResetNeeded
 * ```
 */
export class ResetNeeded extends GymError {
  constructor(message: string) {
    super(message);
    this.name = 'ResetNeeded';
  }
}

/**
 * Throws {@link ResetNeeded} when `step()` comes before the first `reset()`, as Gymnasium's
 * `OrderEnforcing`. Unlike Gymnasium it also throws on `step()` after `close()`: a closed
 * environment has released its resources (SQL workers, sockets), so it must be reset — which
 * re-opens it if the environment supports that — before stepping again.
 * `render()` before `reset()` throws too unless `disableRenderOrderEnforcing` is set.
 *
 * @example
 * ```ts
 * const env = new OrderEnforcing(new GuessNumber());
 * await env.reset();
 * await env.step(50);
 * ```
 */
export class OrderEnforcing<Obs = unknown, Act = unknown> extends Wrapper<Obs, Act> {
  private resetCalled = false;
  private closed = false;

  constructor(
    env: Env<Obs, Act>,
    private readonly options: { disableRenderOrderEnforcing?: boolean } = {},
  ) {
    super(env);
  }

  /** Whether `reset()` has been called since construction or the last `close()`. */
  get hasReset(): boolean {
    return this.resetCalled;
  }

  override async reset(options: ResetOptions = {}): Promise<ResetResult<Obs>> {
    const result = await this.env.reset(options);
    this.resetCalled = true;
    this.closed = false;
    return result;
  }

  override step(action: Act): Promise<StepResult<Obs>> {
    if (!this.resetCalled) {
      return Promise.reject(
        new ResetNeeded(
          this.closed
            ? 'cannot call step() after close(): call reset() to start a new episode first'
            : 'cannot call step() before reset(): call `await env.reset()` to start an episode first',
        ),
      );
    }
    return this.env.step(action);
  }

  override render(): unknown {
    if (!this.resetCalled && !this.options.disableRenderOrderEnforcing) {
      throw new ResetNeeded('cannot call render() before reset(): reset the env first, or pass { disableRenderOrderEnforcing: true }');
    }
    return this.env.render();
  }

  override async close(): Promise<void> {
    this.resetCalled = false;
    this.closed = true;
    await this.env.close();
  }
}
