import { Discrete, Env, type EnvMetadata, type ResetOptions, type ResetResult, type StepResult } from '../../../src/gym/index.js';

/**
 * A deterministic counting env for wrapper and vector tests: the observation is the step count,
 * the reward is the action, and the episode terminates after `length` steps. `reset` draws a
 * random offset from npRandom into info so seeding is observable.
 */
export class CountingEnv extends Env<number, number> {
  override metadata: EnvMetadata = { renderModes: ['ansi'] };
  readonly actionSpace = new Discrete(5);
  readonly observationSpace = new Discrete(1000);
  count = 0;
  closeCalls = 0;

  constructor(readonly length = 3) {
    super();
  }

  override async reset(options: ResetOptions = {}): Promise<ResetResult<number>> {
    await super.reset(options);
    this.count = 0;
    return [0, { offset: this.npRandom.int(1_000_000), options: options.options ?? null }];
  }

  async step(action: number): Promise<StepResult<number>> {
    this.count++;
    return [this.count, action, this.count >= this.length, false, { count: this.count }];
  }

  override render(): string {
    return `count=${this.count}`;
  }

  override async close(): Promise<void> {
    this.closeCalls++;
  }
}
