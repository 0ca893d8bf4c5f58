import type { Info } from '../../../src/gym/env.js';
import type { SqlObservation } from '../observation/sql-observation.js';
import type { SqlAction } from '../sql-env.js';

/**
 * A policy for SQLEnv: given the observation and info of the last step, the next action.
 * `reset` is called at the start of each episode with the reset's observation and info.
 *
 * @example
 * ```ts
 * const agent: SqlAgent = { name: 'always-describe', reset() {}, act: (obs) => ({ name: 'describe', arguments: { table_name: obs.tables[0]! } }) };
 * ```
 */
export interface SqlAgent {
  readonly name: string;
  reset(obs: SqlObservation, info: Info): void | Promise<void>;
  act(obs: SqlObservation, info: Info): SqlAction | Promise<SqlAction>;
}
