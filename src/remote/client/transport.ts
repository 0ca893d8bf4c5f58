import type { WireEncoding } from '../protocol/codec.js';
import { RemoteEnvError } from './remote-env-error.js';
import type { JsonRpcRequest, JsonRpcResponse, WireResetRequest, WireSchema, WireState, WireStepResult } from '../protocol/messages.js';
import { RemoteError } from '../remote-error.js';

/**
 * One session with a remote env server, over some transport. Calls are answered in order;
 * `close()` ends the session and releases the connection (idempotent).
 */
export interface RemoteTransport {
  reset(request: WireResetRequest): Promise<WireStepResult>;
  step(action: unknown): Promise<WireStepResult>;
  state(): Promise<WireState>;
  mcp(request: JsonRpcRequest): Promise<JsonRpcResponse>;
  close(): Promise<void>;
}

/** Connection options shared by the transports. */
export interface TransportOptions {
  encoding: WireEncoding;
  /** Bearer token for servers started with `--token`. */
  token?: string;
  /** Give up on one request after this long (the session is then closed). Default 60 000 ms. */
  requestTimeoutMs?: number;
}

/** The HTTP base URL (`http://host:port`) for any of `http://…`, `ws://…`, `…/ws`. */
export function httpBaseUrl(url: string): string {
  const u = new URL(url);
  if (u.protocol === 'ws:') u.protocol = 'http:';
  if (u.protocol === 'wss:') u.protocol = 'https:';
  u.pathname = u.pathname.replace(/\/ws\/?$/, '').replace(/\/+$/, '');
  return u.toString().replace(/\/+$/, '');
}

/** The WebSocket URL (`ws://host:port/ws`) for any of `http://…`, `ws://…`, `…/ws`. */
export function wsUrl(url: string): string {
  const base = new URL(httpBaseUrl(url));
  base.protocol = base.protocol === 'https:' ? 'wss:' : 'ws:';
  base.pathname = `${base.pathname.replace(/\/+$/, '')}/ws`;
  return base.toString();
}

/**
 * `GET /schema` of a server: the env's action/observation/state JSON Schemas.
 *
 * @example
 * ```ts
 * const schema = await fetchSchema('http://127.0.0.1:8000');
 * spaceFromJSONSchema(schema.action);
 * ```
 */
export async function fetchSchema(url: string, options: { token?: string } = {}): Promise<WireSchema> {
  const res = await fetch(`${httpBaseUrl(url)}/schema`, { headers: options.token ? { authorization: `Bearer ${options.token}` } : {} });
  if (!res.ok) throw new RemoteError(`GET /schema answered HTTP ${res.status}: ${await res.text()}`);
  return (await res.json()) as WireSchema;
}

/**
 * `GET /schema` from the first of `urls` that answers (servers of one deployment serve the same env).
 *
 * @example
 * ```ts
 * const schema = await fetchSchemaFromAny(['http://a:8000', 'http://b:8000']);
 * ```
 */
export async function fetchSchemaFromAny(urls: readonly string[], options: { token?: string } = {}): Promise<WireSchema> {
  const failures: string[] = [];
  for (const url of urls) {
    try {
      return await fetchSchema(url, options);
    } catch (err) {
      if (urls.length === 1) throw err;
      failures.push(`${url}: ${(err as Error).message}`);
    }
  }
  throw new RemoteEnvError('CONNECTION_ERROR', `No server answered GET /schema: ${failures.join('; ')}`);
}
