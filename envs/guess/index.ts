/**
 * The toy environment `GuessNumber-v0`, registered in the default registry on import.
 */
import { register } from '../../src/gym/registry.js';
import { GuessNumber, type GuessNumberOptions } from './guess-number.js';

export { GuessNumber, type GuessNumberOptions } from './guess-number.js';

register<GuessNumberOptions>('GuessNumber-v0', {
  entryPoint: (kwargs) => new GuessNumber(kwargs),
  maxEpisodeSteps: 10,
  rewardThreshold: 0.95,
  description: 'Guess a secret number from 1 to maxNumber; the env says higher or lower.',
});
