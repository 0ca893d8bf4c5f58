import { Env, type Info, type ResetOptions, type ResetResult, type StepResult } from '../gym/env.js';
import type { AnySpace, Space } from '../gym/spaces/space.js';
import { spaceFromJSONSchema } from '../gym/spaces/from-json-schema.js';
import type { WireEncoding } from './protocol/codec.js';
import type { JsonRpcResponse, WireSchema, WireState, WireStepResult, WireTool } from './protocol/messages.js';
import { HttpTransport } from './client/http-transport.js';
import { RemoteEnvError } from './client/remote-env-error.js';
import { FailoverTransport, type ReconnectOptions } from './client/failover-transport.js';
import { fetchSchemaFromAny } from './client/transport.js';
import { WsTransport } from './client/ws-transport.js';

/** Options of {@link RemoteEnv}. */
export interface RemoteEnvOptions {
  /** Wire encoding: `'msgpack'` (binary frames / `application/msgpack`) or `'json'` (default). */
  encoding?: WireEncoding;
  /** `'ws'` (default): one WebSocket per env; `'http'`: an HTTP session (`X-Session-Id`). */
  transport?: 'ws' | 'http';
  /** Bearer token for servers started with `--token`. */
  token?: string;
  /**
   * The server's `/schema`, if already fetched (see {@link RemoteEnv.fetchSchema}): the spaces
   * are then ready at construction, which synchronous env factories (vector envs) need.
   */
  schema?: WireSchema;
  /** Give up on one request after this long. Default 60 000 ms. */
  requestTimeoutMs?: number;
  /** How `reset` looks for a server when the env has none or lost its own (tries, backoff). */
  reconnect?: ReconnectOptions;
}

/**
 * An environment served by an OpenEnv-compatible server (`sqlenv serve`), behind the same
 * async `Env` API as a local one: its spaces are rebuilt from the server's `/schema`, and the
 * server's `info` (which OpenEnv drops) comes back from `reset` and `step`. Server errors are
 * thrown as {@link RemoteEnvError} with the wire code.
 *
 * Given several server URLs, the envs of one process start on the servers in turn (so they
 * spread evenly), and `reset` moves to the next live server when one is unreachable, full or
 * shutting down, backing off between rounds (see {@link FailoverTransport}). A server that goes
 * away mid-episode ends that episode with a {@link SessionLostError} (`SESSION_LOST`) from the
 * call in flight and every call after it until the next `reset`; nothing waits longer than
 * `requestTimeoutMs`.
 *
 * @example
 * ```ts
 * const env = await RemoteEnv.connect('http://127.0.0.1:8000', { encoding: 'msgpack' });
 * const [obs, info] = await env.reset({ seed: 1 });
 * const [obs2, reward, terminated, truncated, info2] = await env.step({ name: 'describe', arguments: { table_name: 'singer' } });
 * await env.close();
 * ```
 */
export class RemoteEnv<Obs = unknown, Act = unknown> extends Env<Obs, Act> {
  /** Resolves once the spaces are known (immediately when `options.schema` was given). */
  readonly ready: Promise<void>;
  private spaces: { action: Space<Act, unknown>; observation: Space<Obs, unknown> } | undefined;
  private lastRendered: string | undefined;
  private closing: Promise<void> | undefined;

  /** Open a remote env (on one server, or spread over several) and wait for its spaces. */
  static async connect<Obs = unknown, Act = unknown>(url: string | readonly string[], options: RemoteEnvOptions = {}): Promise<RemoteEnv<Obs, Act>> {
    const env = new RemoteEnv<Obs, Act>(url, options);
    await env.ready;
    return env;
  }

  /** `GET /schema` once, to share between many envs (e.g. the factories of a vector env). */
  static fetchSchema(url: string | readonly string[], options: { token?: string } = {}): Promise<WireSchema> {
    return fetchSchemaFromAny(typeof url === 'string' ? [url] : url, options);
  }

  /** The servers this env may use. */
  readonly urls: readonly string[];
  private readonly transport: FailoverTransport;

  constructor(url: string | readonly string[], options: RemoteEnvOptions = {}) {
    super();
    this.urls = typeof url === 'string' ? [url] : [...url];
    if (this.urls.length === 0) throw new RemoteEnvError('VALIDATION_ERROR', 'RemoteEnv needs at least one server URL.');
    const transportOptions = { encoding: options.encoding ?? 'json', token: options.token, requestTimeoutMs: options.requestTimeoutMs };
    const open = (server: string) => (options.transport === 'http' ? new HttpTransport(server, transportOptions) : new WsTransport(server, transportOptions));
    this.transport = new FailoverTransport(this.urls, open, options.reconnect);
    if (options.schema) {
      this.spaces = rebuildSpaces<Obs, Act>(options.schema);
      this.ready = Promise.resolve();
    } else {
      this.ready = fetchSchemaFromAny(this.urls, { token: options.token }).then((schema) => {
        this.spaces = rebuildSpaces<Obs, Act>(schema);
      });
      // Surfaced by reset/step or by awaiting `ready`, not as an unhandled rejection.
      this.ready.catch(() => undefined);
    }
  }

  /** The server of the current session (or the one the next session tries first). */
  get url(): string {
    return this.transport.url;
  }

  get actionSpace(): Space<Act, unknown> {
    return this.requireSpaces().action;
  }

  get observationSpace(): Space<Obs, unknown> {
    return this.requireSpaces().observation;
  }

  override async reset(options: ResetOptions = {}): Promise<ResetResult<Obs>> {
    await super.reset(options);
    await this.ready;
    const result = await this.transport.reset({ ...(options.seed !== undefined ? { seed: options.seed } : {}), ...(options.options ? { options: options.options } : {}) });
    this.lastRendered = result.rendered;
    return [result.observation as Obs, result.info ?? {}];
  }

  async step(action: Act): Promise<StepResult<Obs>> {
    await this.ready;
    const result: WireStepResult = await this.transport.step(action);
    this.lastRendered = result.rendered;
    const terminated = result.terminated ?? result.done;
    return [result.observation as Obs, result.reward ?? 0, terminated, result.truncated ?? false, (result.info ?? {}) as Info];
  }

  /** The session's state object (`episode_id`, `step_count`, …). */
  state(): Promise<WireState> {
    return this.transport.state();
  }

  /** The env's tools, from MCP `tools/list`. */
  async listTools(): Promise<WireTool[]> {
    const result = unwrapRpc(await this.transport.mcp({ jsonrpc: '2.0', id: 1, method: 'tools/list' })) as { tools: { name: string; description: string; inputSchema: WireTool['input_schema'] }[] };
    return result.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.inputSchema }));
  }

  /** The server's text rendering of the last observation (envs made with `renderMode: 'ansi'`). */
  override render(): string | undefined {
    return this.lastRendered;
  }

  /** End the session and close the connection. Idempotent. */
  override close(): Promise<void> {
    this.closing ??= this.transport.close();
    return this.closing;
  }

  private requireSpaces(): NonNullable<typeof this.spaces> {
    if (!this.spaces) {
      throw new RemoteEnvError('SESSION_ERROR', `The spaces of ${this.url} are not known yet: await env.ready (or use RemoteEnv.connect, or pass options.schema).`);
    }
    return this.spaces;
  }
}

function rebuildSpaces<Obs, Act>(schema: WireSchema): { action: Space<Act, unknown>; observation: Space<Obs, unknown> } {
  return {
    action: spaceFromJSONSchema(schema.action) as AnySpace as Space<Act, unknown>,
    observation: spaceFromJSONSchema(schema.observation) as AnySpace as Space<Obs, unknown>,
  };
}

function unwrapRpc(response: JsonRpcResponse): unknown {
  if ('error' in response) throw new RemoteEnvError('EXECUTION_ERROR', response.error.message, { rpc_error: response.error });
  return response.result;
}
