import type { Env } from '../env.js';
import type { Space } from '../spaces/space.js';
import { ObservationWrapper } from '../wrapper.js';

/**
 * Applies a function to every observation, as Gymnasium's `TransformObservation`. Pass the new
 * observation space when the function changes the observations' type or range.
 *
 * @example
 * ```ts
 * const env = new TransformObservation(make('GuessNumber-v0'), (o: string) => o.length, new Discrete(65));
 * ```
 */
export class TransformObservation<Obs, InnerObs, Act = unknown> extends ObservationWrapper<Obs, InnerObs, Act> {
  constructor(
    env: Env<InnerObs, Act>,
    private readonly fn: (obs: InnerObs) => Obs,
    observationSpace?: Space<Obs, unknown>,
  ) {
    super(env);
    if (observationSpace) this.observationSpace = observationSpace;
  }

  observation(obs: InnerObs): Obs {
    return this.fn(obs);
  }
}
