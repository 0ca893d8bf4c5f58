/**
 * The toy environment `GuessNumber-v0`, registered in the default registry on import.
 */
import { register, type EnvTypes } from '../../src/gym/registry.js';
import { GuessNumber, type GuessNumberOptions } from './guess-number.js';

// `make('GuessNumber-v0', …)` returns Env<string, number> and checks its kwargs.
declare module '../../src/gym/registry.js' {
  interface RegisteredEnvs {
    'GuessNumber-v0': EnvTypes<string, number, GuessNumberOptions>;
  }
}

export { GuessNumber, type GuessNumberOptions } from './guess-number.js';

register<GuessNumberOptions>('GuessNumber-v0', {
  entryPoint: (kwargs) => new GuessNumber(kwargs),
  maxEpisodeSteps: 10,
  rewardThreshold: 0.95,
  description: 'Guess a secret number from 1 to maxNumber; the env says higher or lower.',
});
