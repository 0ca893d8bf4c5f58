/**
 * JSON Schemas of the wire messages in ./messages.ts, the ones `/openapi.json` publishes. The
 * env-specific parts (action, observation) are parameters: each server fills in its env's own
 * space schemas, the same objects `/schema` serves.
 */
import type { JSONSchema } from '../../gym/spaces/space.js';

/** `POST /reset` body ({@link WireResetRequest}). */
export const RESET_REQUEST_SCHEMA: JSONSchema = {
  title: 'ResetRequest',
  type: 'object',
  properties: {
    seed: { type: ['integer', 'null'], minimum: 0, description: 'Seeds the env (Gymnasium reset(seed=...)).' },
    episode_id: { type: ['string', 'null'], description: 'Id for the new episode (generated when absent).' },
    options: { type: ['object', 'null'], description: "Passed to the env's reset options." },
  },
  additionalProperties: { description: 'Extra keys are merged into the reset options, as in OpenEnv.' },
};

/** `POST /step` body: `{action, ...}` with the env's own action schema. */
export function stepRequestSchema(action: JSONSchema): JSONSchema {
  return {
    title: 'StepRequest',
    type: 'object',
    properties: {
      action,
      timeout_s: { type: 'number', exclusiveMinimum: 0, description: 'Accepted for OpenEnv compatibility.' },
      request_id: { type: 'string' },
    },
    required: ['action'],
    additionalProperties: true,
  };
}

/** The answer to reset and step ({@link WireStepResult}) with the env's observation schema. */
export function stepResultSchema(observation: JSONSchema): JSONSchema {
  return {
    title: 'StepResult',
    type: 'object',
    properties: {
      observation,
      reward: { type: ['number', 'null'], description: 'null after reset.' },
      done: { type: 'boolean', description: 'terminated || truncated.' },
      terminated: { type: 'boolean' },
      truncated: { type: 'boolean' },
      info: { type: 'object', description: "The env's info dict (OpenEnv drops it; this server keeps it)." },
      rendered: { type: 'string', description: "The env's text rendering, when it has one." },
    },
    required: ['observation', 'reward', 'done', 'terminated', 'truncated', 'info'],
  };
}

/** `GET /health`. */
export const HEALTH_SCHEMA: JSONSchema = {
  title: 'Health',
  type: 'object',
  properties: { status: { enum: ['healthy', 'unhealthy', 'degraded'] } },
  required: ['status'],
};

/** `GET /metadata`. */
export const METADATA_SCHEMA: JSONSchema = {
  title: 'EnvironmentMetadata',
  type: 'object',
  properties: {
    name: { type: 'string' },
    description: { type: 'string' },
    version: { type: 'string' },
    env_id: { type: 'string' },
    readme_content: { type: 'string' },
    author: { type: 'string' },
    documentation_url: { type: 'string' },
  },
  required: ['name', 'description'],
};

/** `GET /schema` ({@link WireSchema}). */
export const SCHEMA_RESPONSE_SCHEMA: JSONSchema = {
  title: 'EnvironmentSchemas',
  type: 'object',
  properties: { action: { type: 'object' }, observation: { type: 'object' }, state: { type: 'object' } },
  required: ['action', 'observation', 'state'],
};

/** Every error answer: FastAPI's `detail` plus this server's `code` and `message`. */
export const ERROR_SCHEMA: JSONSchema = {
  title: 'Error',
  type: 'object',
  properties: {
    detail: {
      description: 'A message, or a list of validation errors {loc, msg, type} (HTTP 422).',
      oneOf: [
        { type: 'string' },
        {
          type: 'array',
          items: { type: 'object', properties: { loc: { type: 'array' }, msg: { type: 'string' }, type: { type: 'string' } }, required: ['loc', 'msg', 'type'] },
        },
      ],
    },
    code: { type: 'string', description: 'INVALID_JSON, VALIDATION_ERROR, SESSION_ERROR, CAPACITY_REACHED, …' },
    message: { type: 'string' },
  },
  required: ['detail', 'code', 'message'],
};

/** A JSON-RPC 2.0 request ({@link JsonRpcRequest}). */
export const JSON_RPC_REQUEST_SCHEMA: JSONSchema = {
  title: 'JsonRpcRequest',
  type: 'object',
  properties: {
    jsonrpc: { const: '2.0' },
    id: { type: ['string', 'integer', 'null'] },
    method: {
      type: 'string',
      description: 'initialize, ping, tools/list, tools/call, openenv/session/create, openenv/session/close',
    },
    params: { type: 'object', description: 'tools/call: {name, arguments, session_id?}; openenv/session/close: {session_id}.' },
  },
  required: ['jsonrpc', 'method'],
};

/** A JSON-RPC 2.0 response ({@link JsonRpcResponse}); errors are answered with HTTP 200 too. */
export const JSON_RPC_RESPONSE_SCHEMA: JSONSchema = {
  title: 'JsonRpcResponse',
  type: 'object',
  properties: {
    jsonrpc: { const: '2.0' },
    id: { type: ['string', 'integer', 'null'] },
    result: {},
    error: {
      type: 'object',
      properties: { code: { type: 'integer' }, message: { type: 'string' }, data: {} },
      required: ['code', 'message'],
    },
  },
  required: ['jsonrpc', 'id'],
  oneOf: [{ required: ['result'] }, { required: ['error'] }],
};

/** `POST /sessions` answer. */
export const SESSION_CREATED_SCHEMA: JSONSchema = {
  title: 'SessionCreated',
  type: 'object',
  properties: { session_id: { type: 'string' }, env_id: { type: 'string' } },
  required: ['session_id', 'env_id'],
};

/** `DELETE /sessions/{id}` and `POST /close` answer. */
export const SESSION_CLOSED_SCHEMA: JSONSchema = {
  title: 'SessionClosed',
  type: 'object',
  properties: { session_id: { type: 'string' }, closed: { const: true } },
  required: ['session_id', 'closed'],
};
