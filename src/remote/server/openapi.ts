import type { JSONSchema } from '../../gym/spaces/space.js';
import {
  ERROR_SCHEMA,
  HEALTH_SCHEMA,
  JSON_RPC_REQUEST_SCHEMA,
  JSON_RPC_RESPONSE_SCHEMA,
  METADATA_SCHEMA,
  RESET_REQUEST_SCHEMA,
  SCHEMA_RESPONSE_SCHEMA,
  SESSION_CLOSED_SCHEMA,
  SESSION_CREATED_SCHEMA,
  stepRequestSchema,
  stepResultSchema,
} from '../protocol/wire-schemas.js';
import type { EnvDescription } from './env-description.js';
import { servesRoute, type ServerMode } from './server-mode.js';

/**
 * The OpenEnv HTTP API version this server implements. `openenv validate` reads it from
 * `info.version` and reports the profile `openenv-http/1.x` for any `1.*`.
 */
export const OPENENV_HTTP_API_VERSION = '1.0.0';

/** An OpenAPI 3.1 document (the parts this server writes). */
export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string; [extension: `x-${string}`]: unknown };
  paths: Record<string, Record<string, unknown>>;
  components: { schemas: Record<string, JSONSchema> };
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: unknown) => ({ 'application/json': { schema } });
const ok = (description: string, schema: unknown) => ({ description, content: json(schema) });
const error = (description: string) => ({ description, content: json(ref('Error')) });
const SESSION_HEADER_PARAMETER = {
  name: 'X-Session-Id',
  in: 'header',
  required: false,
  description: 'Binds the request to a session from POST /sessions. Without it /reset and /step are stateless, as in OpenEnv.',
  schema: { type: 'string' },
};

/**
 * The OpenAPI document of a server: every route it answers in `mode`, with the env's own
 * action, observation and state schemas (the objects `/schema` serves) in its components, so
 * the document describes the real request and response bodies of this env.
 *
 * @example
 * ```ts
 * const doc = buildOpenApiDocument(describeEnv('GuessNumber-v0', env, '0.1.0'), 'simulation');
 * doc.paths['/step'].post; // requestBody {action: <the env's action schema>}
 * ```
 */
export function buildOpenApiDocument(description: EnvDescription, mode: ServerMode): OpenApiDocument {
  const { schema, metadata } = description;
  const paths: Record<string, Record<string, unknown>> = {
    '/health': {
      get: { operationId: 'health', summary: 'Liveness: healthy, or unhealthy (503) while draining.', responses: { 200: ok('Serving.', ref('Health')), 503: ok('Shutting down.', ref('Health')) } },
    },
    '/metadata': { get: { operationId: 'metadata', summary: 'Name, description and version of the served env.', responses: { 200: ok('Metadata.', ref('EnvironmentMetadata')) } } },
    '/schema': { get: { operationId: 'schema', summary: "The env's action, observation and state JSON Schemas.", responses: { 200: ok('Schemas.', ref('EnvironmentSchemas')) } } },
    '/openapi.json': { get: { operationId: 'openapi', summary: 'This document.', responses: { 200: { description: 'OpenAPI 3.1 document.', content: json({ type: 'object' }) } } } },
    '/mcp': {
      post: {
        operationId: 'mcp',
        summary: 'JSON-RPC 2.0: initialize, ping, tools/list, tools/call, openenv/session/create, openenv/session/close.',
        description:
          'openenv/session/create opens a session and starts its episode (params: seed?, episode_id?, options?); pass its session_id in ' +
          'the params of tools/list, tools/call and openenv/session/close (or as X-Session-Id). Without a session, tools/call plays one ' +
          'tool call on a fresh episode. JSON-RPC errors are answered with HTTP 200.',
        parameters: [SESSION_HEADER_PARAMETER],
        requestBody: { required: true, content: json(ref('JsonRpcRequest')) },
        responses: { 200: ok('A JSON-RPC response.', ref('JsonRpcResponse')), 202: { description: 'A notification (no id): no answer.' } },
      },
    },
    '/sessions': {
      post: {
        operationId: 'openSession',
        summary: 'Open a stateful HTTP session (this server; OpenEnv HTTP is stateless).',
        responses: { 201: ok('The session.', ref('SessionCreated')), 503: error('At capacity (CAPACITY_REACHED).') },
      },
    },
    '/sessions/{session_id}': {
      delete: {
        operationId: 'closeSession',
        summary: "Close a session and its env.",
        parameters: [{ name: 'session_id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { 200: ok('Closed.', ref('SessionClosed')), 404: error('No such session.') },
      },
    },
    '/close': {
      post: {
        operationId: 'closeSessionByHeader',
        summary: 'Close the session named by X-Session-Id.',
        parameters: [{ ...SESSION_HEADER_PARAMETER, required: true }],
        responses: { 200: ok('Closed.', ref('SessionClosed')), 404: error('No such session.') },
      },
    },
    '/metrics': {
      get: { operationId: 'metrics', summary: 'Prometheus metrics.', responses: { 200: { description: 'Text exposition format.', content: { 'text/plain': { schema: { type: 'string' } } } } } },
    },
    '/reset': {
      post: {
        operationId: 'reset',
        summary: 'Start an episode (in the session of X-Session-Id, else on a throwaway env).',
        parameters: [SESSION_HEADER_PARAMETER],
        requestBody: { required: false, content: json(ref('ResetRequest')) },
        responses: { 200: ok('The first observation; reward is null.', ref('StepResult')), 422: error('Invalid seed, episode_id or options.') },
      },
    },
    '/step': {
      post: {
        operationId: 'step',
        summary: "Apply an action to the session's running episode.",
        parameters: [SESSION_HEADER_PARAMETER],
        requestBody: { required: true, content: json(ref('StepRequest')) },
        responses: {
          200: ok('The observation, reward and flags.', ref('StepResult')),
          409: error('No episode is running (reset first; plain HTTP without a session is stateless).'),
          422: error('The action failed validation.'),
        },
      },
    },
    '/state': {
      get: {
        operationId: 'state',
        summary: "The session's state (episode id, step count, flags, return).",
        parameters: [SESSION_HEADER_PARAMETER],
        responses: { 200: ok('The state.', ref('State')), 404: error('No such session.') },
      },
    },
  };
  for (const path of Object.keys(paths)) if (!servesRoute(mode, path)) delete paths[path];

  return {
    openapi: '3.1.0',
    info: {
      title: metadata.name,
      version: OPENENV_HTTP_API_VERSION,
      description:
        `${metadata.description}\n\nServed by sqlenv ${metadata.version} in ${mode} mode over the OpenEnv protocol ` +
        `(openenv-http/${OPENENV_HTTP_API_VERSION}); the WebSocket /ws carries one session per connection.`,
      'x-sqlenv-version': metadata.version,
      'x-openenv-mode': mode,
      'x-websocket': '/ws',
    },
    paths,
    components: {
      schemas: {
        Action: schema.action,
        Observation: schema.observation,
        State: schema.state,
        ResetRequest: RESET_REQUEST_SCHEMA,
        StepRequest: stepRequestSchema(ref('Action')),
        StepResult: stepResultSchema(ref('Observation')),
        Health: HEALTH_SCHEMA,
        EnvironmentMetadata: METADATA_SCHEMA,
        EnvironmentSchemas: SCHEMA_RESPONSE_SCHEMA,
        Error: ERROR_SCHEMA,
        JsonRpcRequest: JSON_RPC_REQUEST_SCHEMA,
        JsonRpcResponse: JSON_RPC_RESPONSE_SCHEMA,
        SessionCreated: SESSION_CREATED_SCHEMA,
        SessionClosed: SESSION_CLOSED_SCHEMA,
      },
    },
  };
}
