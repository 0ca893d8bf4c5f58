import type { Env } from '../../gym/env.js';
import type { JSONSchema } from '../../gym/spaces/space.js';
import type { WireSchema, WireTool } from '../protocol/messages.js';
import { toolsOf } from './tools.js';

/**
 * The JSON Schema of this server's state object ({@link WireState}) — the real one, where
 * OpenEnv always serves its base schema.
 */
export const STATE_SCHEMA: JSONSchema = {
  title: 'SessionState',
  type: 'object',
  properties: {
    episode_id: { type: ['string', 'null'], description: 'Id of the running episode (from reset, or generated); null before the first reset.' },
    step_count: { type: 'integer', minimum: 0, description: 'Steps taken in the running episode.' },
    env_id: { type: 'string', description: 'The registered env id this server serves.' },
    session_id: { type: ['string', 'null'], description: 'The session id (null for stateless HTTP calls).' },
    done: { type: 'boolean', description: 'terminated || truncated.' },
    terminated: { type: 'boolean' },
    truncated: { type: 'boolean' },
    episode_return: { type: 'number', description: 'Sum of rewards in the running episode.' },
  },
  required: ['episode_id', 'step_count', 'env_id', 'session_id', 'done', 'terminated', 'truncated', 'episode_return'],
  additionalProperties: false,
};

/** What the server tells clients about its env, read once from a probe instance. */
export interface EnvDescription {
  schema: WireSchema;
  tools: WireTool[];
  metadata: { name: string; description: string; version: string; env_id: string; readme_content?: string; [key: string]: unknown };
}

/**
 * Describe an env for `/schema`, `/metadata` and `tools/list` from one instance: its spaces'
 * own `toJSONSchema()`, its tools, and its registry description.
 *
 * @example
 * ```ts
 * const d = describeEnv('GuessNumber-v0', make('GuessNumber-v0'));
 * d.schema.action; // { type: 'integer', …, 'x-space': 'Discrete' }
 * ```
 */
export function describeEnv(envId: string, env: Env<unknown, unknown>, version: string): EnvDescription {
  const spec = env.spec as { description?: unknown } | undefined;
  const description = typeof spec?.description === 'string' ? spec.description : `The ${envId} environment, served over the OpenEnv protocol.`;
  return {
    schema: { action: env.actionSpace.toJSONSchema(), observation: env.observationSpace.toJSONSchema(), state: STATE_SCHEMA },
    tools: toolsOf(env.actionSpace),
    metadata: {
      name: envId,
      env_id: envId,
      description,
      version,
      render_modes: env.metadata.renderModes,
      // A path this server answers (its OpenAPI document), not a file of a checkout the client does not have.
      documentation_url: '/openapi.json',
    },
  };
}
