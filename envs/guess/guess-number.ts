import { Env, type EnvMetadata, type ResetOptions, type ResetResult, type StepResult } from '../../src/gym/env.js';
import { Discrete } from '../../src/gym/spaces/discrete.js';
import { Text } from '../../src/gym/spaces/text.js';

/** Keyword arguments of {@link GuessNumber}. */
export interface GuessNumberOptions {
  /** The secret is drawn uniformly from 1 … maxNumber (default 100). */
  maxNumber?: number;
  /** `'ansi'` makes `render()` return the last message. */
  renderMode?: 'ansi';
}

/**
 * A tiny text game: guess a secret number; the env answers "Too low.", "Too high." or
 * "Correct!". Reward 1 for the right guess (which ends the episode), −0.01 for each wrong one.
 * The whole environment fits in one screen: it is the template for writing your own.
 *
 * @example
 * ```ts
 * const env = new GuessNumber({ maxNumber: 10 });
 * const [obs] = await env.reset({ seed: 1 }); // 'Guess a number from 1 to 10.'
 * const [, reward, terminated] = await env.step(5);
 * ```
 */
export class GuessNumber extends Env<string, number> {
  override metadata: EnvMetadata = { renderModes: ['ansi'] };
  readonly actionSpace: Discrete;
  readonly observationSpace = new Text({ maxLength: 64, charset: 'any' });
  private secret = 0;
  private message = '';

  constructor(options: GuessNumberOptions = {}) {
    super();
    this.actionSpace = new Discrete(options.maxNumber ?? 100, 1);
    this.renderMode = options.renderMode;
  }

  override async reset(options: ResetOptions = {}): Promise<ResetResult<string>> {
    await super.reset(options); // re-seeds this.npRandom when a seed is given
    this.secret = this.npRandom.intBetween(1, this.actionSpace.n);
    this.message = `Guess a number from 1 to ${this.actionSpace.n}.`;
    return [this.message, {}];
  }

  async step(guess: number): Promise<StepResult<string>> {
    const correct = guess === this.secret;
    this.message = correct ? 'Correct!' : guess < this.secret ? 'Too low.' : 'Too high.';
    return [this.message, correct ? 1 : -0.01, correct, false, {}];
  }

  override render(): string {
    return this.message;
  }
}
