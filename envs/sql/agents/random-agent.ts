import type { Info } from '../../../src/gym/env.js';
import { ToolCallSpace, type ToolCall } from '../../../src/gym/spaces/tool-call.js';
import type { SqlObservation } from '../observation/sql-observation.js';
import { SQL_TOOLS } from '../tools/registry.js';
import type { SqlAgent } from './agent.js';

/**
 * Samples the action space: schema-valid calls with random arguments (random table names, random
 * SQL text, random answers). It scores about 0%, the floor any learning must beat.
 *
 * @example
 * ```ts
 * const agent = new RandomAgent(0);
 * const action = agent.act(obs, info); // e.g. { name: 'sample', arguments: { table_name: 'x7Q', n: 3 } }
 * ```
 */
export class RandomAgent implements SqlAgent {
  readonly name = 'random';
  private readonly space: ToolCallSpace;

  constructor(seed?: number) {
    this.space = new ToolCallSpace(SQL_TOOLS, seed);
  }

  reset(_obs: SqlObservation, _info: Info): void {}

  act(_obs: SqlObservation, _info: Info): ToolCall {
    return this.space.sample();
  }
}
