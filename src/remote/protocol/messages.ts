/**
 * The messages of the OpenEnv wire protocol (see docs/remote.md), as TypeScript types shared
 * by the server, {@link RemoteEnv} and tests.
 */
import type { JSONSchema } from '../../gym/spaces/space.js';

/**
 * The answer to reset and step: OpenEnv's `{observation, reward, done}` plus fields OpenEnv
 * clients ignore — Gymnasium's `terminated`/`truncated` split and the env's `info` (OpenEnv
 * drops observation metadata on the wire; this server keeps it).
 */
export interface WireStepResult<Obs = unknown> {
  observation: Obs;
  /** `null` after reset, as OpenEnv. */
  reward: number | null;
  /** `terminated || truncated`. */
  done: boolean;
  terminated: boolean;
  truncated: boolean;
  info: Record<string, unknown>;
  /** The env's text rendering (`render()` of an env made with `renderMode: 'ansi'`), for text agents. */
  rendered?: string;
}

/** The body of `POST /reset` and the `data` of a WebSocket `reset` message. */
export interface WireResetRequest {
  seed?: number;
  episode_id?: string;
  /** Passed to the env's `reset({ options })`, merged with any other extra keys. */
  options?: Record<string, unknown>;
  [extra: string]: unknown;
}

/** The state object of `GET /state` and WebSocket `state` answers. */
export interface WireState {
  episode_id: string | null;
  step_count: number;
  env_id: string;
  session_id: string | null;
  done: boolean;
  terminated: boolean;
  truncated: boolean;
  episode_return: number;
}

/** `GET /schema`: the env's own action and observation schemas and the state schema. */
export interface WireSchema {
  action: JSONSchema;
  observation: JSONSchema;
  state: JSONSchema;
}

/** A tool as OpenEnv's `list_tools` answers it (MCP's `inputSchema` spelled `input_schema`). */
export interface WireTool {
  name: string;
  description: string;
  input_schema: JSONSchema;
}

/** A JSON-RPC 2.0 request, as carried by `POST /mcp` and WebSocket `mcp` messages. */
export interface JsonRpcRequest {
  jsonrpc: '2.0';
  id?: string | number | null;
  method: string;
  params?: Record<string, unknown>;
}

/** A JSON-RPC 2.0 response. */
export type JsonRpcResponse =
  | { jsonrpc: '2.0'; id: string | number | null; result: unknown }
  | { jsonrpc: '2.0'; id: string | number | null; error: { code: number; message: string; data?: unknown } };

/** Client → server WebSocket messages. `request_id`, when given, is echoed in the answer. */
export type ClientMessage =
  | { type: 'reset'; data?: WireResetRequest; request_id?: string }
  | { type: 'step'; data: unknown; request_id?: string }
  | { type: 'state'; request_id?: string }
  | { type: 'close'; request_id?: string }
  | { type: 'mcp'; data: JsonRpcRequest; request_id?: string };

/** Server → client WebSocket messages. */
export type ServerMessage =
  | { type: 'observation'; data: WireStepResult; request_id?: string }
  | { type: 'state'; data: WireState; request_id?: string }
  | { type: 'mcp'; data: JsonRpcResponse; request_id?: string }
  | { type: 'error'; data: { message: string; code: string; [extra: string]: unknown }; request_id?: string };

/** The HTTP header that binds `/reset`, `/step`, `/state`, `/mcp` and `/close` to a session. */
export const SESSION_HEADER = 'x-session-id';

/** The content type of MessagePack bodies. */
export const MSGPACK_CONTENT_TYPE = 'application/msgpack';
