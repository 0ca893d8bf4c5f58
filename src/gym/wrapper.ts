import type { EnvMetadata, ResetOptions, ResetResult, StepResult } from './env.js';
import { Env } from './env.js';
import type { Rng } from '../base/rng.js';
import type { EnvSpec } from './registration/env-spec.js';
import type { Space } from './spaces/space.js';

/**
 * Wraps an environment to change its behaviour, as Gymnasium's `Wrapper`. Everything not
 * overridden is forwarded to the inner env: spaces, `metadata`, `renderMode`, `spec`,
 * `npRandom`, `reset`, `step`, `render`, `close`. Assigning `actionSpace`, `observationSpace`,
 * `metadata` or `spec` on a wrapper overrides it for this wrapper (and wrappers around it) only.
 *
 * Type parameters: `Obs`/`Act` are what the wrapper exposes, `InnerObs`/`InnerAct` what the
 * wrapped env speaks.
 *
 * @example
 * ```ts
 * class CountSteps<O, A> extends Wrapper<O, A> {
 *   steps = 0;
 *   override async step(action: A) { this.steps++; return this.env.step(action); }
 * }
 * const env = new CountSteps(make('GuessNumber-v0'));
 * ```
 */
export class Wrapper<Obs = unknown, Act = unknown, InnerObs = Obs, InnerAct = Act> extends Env<Obs, Act> {
  private actionSpaceOverride: Space<Act, unknown> | undefined;
  private observationSpaceOverride: Space<Obs, unknown> | undefined;

  constructor(readonly env: Env<InnerObs, InnerAct>) {
    super();
    if (!(env instanceof Env)) {
      throw new TypeError(`${new.target.name} wraps an Env, got ${String(env)}`);
    }
    // Env declares metadata/renderMode/spec as plain fields (so environments can assign them
    // naturally); a wrapper replaces those own properties with forwarding accessors.
    forwardField<EnvMetadata>(this, 'metadata', () => this.env.metadata);
    forwardField<string | undefined>(this, 'renderMode', () => this.env.renderMode);
    forwardField<EnvSpec | undefined>(this, 'spec', () => this.env.spec);
  }

  get actionSpace(): Space<Act, unknown> {
    return this.actionSpaceOverride ?? (this.env.actionSpace as unknown as Space<Act, unknown>);
  }

  set actionSpace(space: Space<Act, unknown>) {
    this.actionSpaceOverride = space;
  }

  get observationSpace(): Space<Obs, unknown> {
    return this.observationSpaceOverride ?? (this.env.observationSpace as unknown as Space<Obs, unknown>);
  }

  set observationSpace(space: Space<Obs, unknown>) {
    this.observationSpaceOverride = space;
  }

  override get npRandom(): Rng {
    return this.env.npRandom;
  }

  override get unwrapped(): Env<unknown, unknown> {
    return this.env.unwrapped;
  }

  // Plain forwarding returns the inner promise instead of awaiting it: one promise per layer less
  // on the hot path of make()'s three wrappers.
  override reset(options: ResetOptions = {}): Promise<ResetResult<Obs>> {
    return this.env.reset(options) as unknown as Promise<ResetResult<Obs>>;
  }

  step(action: Act): Promise<StepResult<Obs>> {
    return this.env.step(action as unknown as InnerAct) as unknown as Promise<StepResult<Obs>>;
  }

  override render(): unknown {
    return this.env.render();
  }

  override async close(): Promise<void> {
    await this.env.close();
  }

  /** The chain of wrapper class names from outermost to the inner env, e.g. `TimeLimit<OrderEnforcing<…>>`. */
  override toString(): string {
    return `<${this.constructor.name}${this.env.toString()}>`;
  }
}

/**
 * Changes observations: subclasses implement {@link observation}, applied to what `reset` and
 * `step` return.
 *
 * @example
 * ```ts
 * class Upper extends ObservationWrapper<string, string> {
 *   observation(obs: string) { return obs.toUpperCase(); }
 * }
 * ```
 */
export abstract class ObservationWrapper<Obs, InnerObs, Act = unknown> extends Wrapper<Obs, Act, InnerObs, Act> {
  /** Map an observation of the inner env to this wrapper's observation. */
  abstract observation(obs: InnerObs): Obs;

  override async reset(options: ResetOptions = {}): Promise<ResetResult<Obs>> {
    const [obs, info] = await this.env.reset(options);
    return [this.observation(obs), info];
  }

  override async step(action: Act): Promise<StepResult<Obs>> {
    const [obs, reward, terminated, truncated, info] = await this.env.step(action);
    return [this.observation(obs), reward, terminated, truncated, info];
  }
}

/**
 * Changes rewards: subclasses implement {@link reward}.
 *
 * @example
 * ```ts
 * class Double<O, A> extends RewardWrapper<O, A> {
 *   reward(r: number) { return 2 * r; }
 * }
 * ```
 */
export abstract class RewardWrapper<Obs = unknown, Act = unknown> extends Wrapper<Obs, Act> {
  /** Map the inner env's reward. */
  abstract reward(reward: number): number;

  override async step(action: Act): Promise<StepResult<Obs>> {
    const [obs, reward, terminated, truncated, info] = await this.env.step(action);
    return [obs, this.reward(reward), terminated, truncated, info];
  }
}

/**
 * Changes actions before they reach the inner env: subclasses implement {@link action} (and
 * usually set `actionSpace` to the space of the actions they accept).
 *
 * @example
 * ```ts
 * class OneBased<O> extends ActionWrapper<number, number, O> {
 *   action(a: number) { return a - 1; }
 * }
 * ```
 */
export abstract class ActionWrapper<Act, InnerAct, Obs = unknown> extends Wrapper<Obs, Act, Obs, InnerAct> {
  /** Map this wrapper's action to one the inner env accepts. */
  abstract action(action: Act): InnerAct;

  override async step(action: Act): Promise<StepResult<Obs>> {
    return this.env.step(this.action(action));
  }
}

function forwardField<T>(target: object, key: string, read: () => T): void {
  let override: { value: T } | undefined;
  Object.defineProperty(target, key, {
    configurable: true,
    enumerable: true,
    get: () => (override ? override.value : read()),
    set: (value: T) => {
      override = { value };
    },
  });
}
