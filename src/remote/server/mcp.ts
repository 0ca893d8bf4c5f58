import { ProtocolError } from '../protocol/error-codes.js';
import type { JsonRpcResponse, WireStepResult, WireTool } from '../protocol/messages.js';
import type { EnvSession } from './env-session.js';
import { RemoteError } from '../remote-error.js';

/** What a JSON-RPC request can reach: the env's tools and a way to call one. */
export interface McpTarget {
  tools(): WireTool[];
  /** Call a tool as one env step (`{name, arguments}` action). */
  callTool(name: string, args: Record<string, unknown>): Promise<WireStepResult>;
}

/** A session as a JSON-RPC target: tool calls are steps of its running episode. */
export function sessionTarget(session: EnvSession): McpTarget {
  return {
    tools: () => session.tools,
    callTool: (name, args) => session.step({ type: 'call_tool', tool_name: name, arguments: args }),
  };
}

/**
 * OpenEnv's session methods over JSON-RPC (`openenv/session/create`, `openenv/session/close`)
 * and the `params.session_id` that routes `tools/list` / `tools/call` to a session.
 */
export interface McpSessions {
  /** Open a session (HTTP: a new one, its episode started; WebSocket: the connection's own) and answer its id. */
  create(params: Record<string, unknown>): Promise<Record<string, unknown> & { session_id: string }>;
  /** Close an open session; false when there is none with this id. */
  close(id: string): Promise<boolean>;
  /** The target of an open session, or undefined when there is none with this id. */
  target(id: string): McpTarget | undefined;
}

/**
 * The session methods over a WebSocket, whose connection is one session: create answers that
 * session's id (idempotent, as OpenEnv), close ends it, and no other session is reachable.
 */
export function connectionSessions(session: EnvSession, closeOwn: () => Promise<void>): McpSessions {
  return {
    create: () => Promise.resolve({ session_id: session.id }),
    close: async (id) => {
      if (id !== session.id || session.isClosed) return false;
      await closeOwn();
      return true;
    },
    target: (id) => (id === session.id && !session.isClosed ? sessionTarget(session) : undefined),
  };
}

/** The MCP protocol revision this server answers `initialize` with. */
export const MCP_PROTOCOL_VERSION = '2025-06-18';

/** JSON-RPC 2.0 error codes. */
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
const METHOD_NOT_FOUND = -32601;
const INVALID_PARAMS = -32602;
const INTERNAL_ERROR = -32603;

/**
 * Answer one JSON-RPC 2.0 request of the MCP subset OpenEnv uses: `initialize`, `tools/list`,
 * `tools/call`, `openenv/session/create`, `openenv/session/close` (and `ping`). Returns
 * `undefined` for notifications (no `id`), which get no answer. A tool call's result carries the
 * step as `structuredContent` and the observation as text; an env-reported error
 * (`info.error_type`) sets `isError`. A `params.session_id` routes tools/list and tools/call to
 * that session (via `sessions`); unknown or closed ids answer INVALID_PARAMS (-32602), as OpenEnv.
 *
 * @example
 * ```ts
 * await handleJsonRpc({ jsonrpc: '2.0', id: 1, method: 'tools/list' }, target, 'SQLEnv-v0');
 * // { jsonrpc: '2.0', id: 1, result: { tools: [{ name, description, inputSchema }] } }
 * ```
 */
export async function handleJsonRpc(request: unknown, target: McpTarget, serverName: string, sessions?: McpSessions): Promise<JsonRpcResponse | undefined> {
  if (typeof request !== 'object' || request === null || Array.isArray(request)) {
    return rpcError(null, INVALID_REQUEST, 'A JSON-RPC request is an object {jsonrpc: "2.0", id, method, params?}.');
  }
  const req = request as Record<string, unknown>;
  const id = typeof req.id === 'string' || typeof req.id === 'number' ? req.id : null;
  const isNotification = !('id' in req);
  if (req.jsonrpc !== '2.0' || typeof req.method !== 'string') {
    return rpcError(id, INVALID_REQUEST, 'A JSON-RPC request needs jsonrpc: "2.0" and a string method.');
  }
  const params = (typeof req.params === 'object' && req.params !== null ? req.params : {}) as Record<string, unknown>;
  try {
    const result = await dispatch(req.method, params, target, serverName, sessions);
    return isNotification ? undefined : { jsonrpc: '2.0', id, result };
  } catch (err) {
    if (err instanceof RpcFailure) return rpcError(id, err.code, err.message);
    if (err instanceof ProtocolError) return rpcError(id, err.code === 'VALIDATION_ERROR' ? INVALID_PARAMS : INTERNAL_ERROR, err.message, err.toWire());
    return rpcError(id, INTERNAL_ERROR, (err as Error).message);
  }
}

/** The JSON-RPC answer to a body that could not be decoded. */
export function jsonRpcParseError(message: string): JsonRpcResponse {
  return rpcError(null, PARSE_ERROR, message);
}

class RpcFailure extends RemoteError {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

async function dispatch(method: string, params: Record<string, unknown>, defaultTarget: McpTarget, serverName: string, sessions?: McpSessions): Promise<unknown> {
  const sessionId = params.session_id;
  if (sessionId !== undefined && typeof sessionId !== 'string') throw new RpcFailure(INVALID_PARAMS, 'params.session_id must be a string (from openenv/session/create).');
  switch (method) {
    case 'openenv/session/create':
      if (!sessions) throw new RpcFailure(METHOD_NOT_FOUND, 'Sessions cannot be created here.');
      return sessions.create(params);
    case 'openenv/session/close': {
      if (!sessions) throw new RpcFailure(METHOD_NOT_FOUND, 'Sessions cannot be closed here.');
      if (sessionId === undefined) throw new RpcFailure(INVALID_PARAMS, 'openenv/session/close needs params.session_id (from openenv/session/create).');
      if (!(await sessions.close(sessionId))) throw new RpcFailure(INVALID_PARAMS, unknownSession(sessionId));
      return { session_id: sessionId, closed: true };
    }
  }
  let target = defaultTarget;
  if (sessionId !== undefined) {
    const found = sessions?.target(sessionId);
    if (!found) throw new RpcFailure(INVALID_PARAMS, unknownSession(sessionId));
    target = found;
  }
  switch (method) {
    case 'initialize':
      return { protocolVersion: MCP_PROTOCOL_VERSION, capabilities: { tools: { listChanged: false } }, serverInfo: { name: serverName, version: '0.1.0' } };
    case 'ping':
    case 'notifications/initialized':
      return {};
    case 'tools/list':
      return { tools: target.tools().map((t) => ({ name: t.name, description: t.description, inputSchema: t.input_schema })) };
    case 'tools/call': {
      const name = params.name;
      const args = params.arguments ?? {};
      if (typeof name !== 'string') throw new RpcFailure(INVALID_PARAMS, 'tools/call needs params.name (a tool name from tools/list).');
      if (typeof args !== 'object' || args === null || Array.isArray(args)) throw new RpcFailure(INVALID_PARAMS, 'tools/call params.arguments must be an object.');
      const tools = target.tools();
      if (!tools.some((t) => t.name === name)) {
        throw new RpcFailure(INVALID_PARAMS, `Unknown tool "${name}". Available tools: ${tools.map((t) => t.name).join(', ') || 'none'}.`);
      }
      const step = await target.callTool(name, args as Record<string, unknown>);
      const errorType = step.info.error_type;
      return {
        content: [{ type: 'text', text: JSON.stringify(step.observation) }],
        structuredContent: step,
        isError: typeof errorType === 'string' && errorType !== '',
      };
    }
    default:
      throw new RpcFailure(
        METHOD_NOT_FOUND,
        `Unknown method "${method}". Supported: initialize, ping, tools/list, tools/call, openenv/session/create, openenv/session/close.`,
      );
  }
}

function unknownSession(id: string): string {
  return `No open session_id "${id}" (closed, reaped after idling, or never created); create one with openenv/session/create.`;
}

function rpcError(id: string | number | null, code: number, message: string, data?: unknown): JsonRpcResponse {
  return { jsonrpc: '2.0', id, error: data === undefined ? { code, message } : { code, message, data } };
}
