import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { WireCodec } from '../protocol/codec.js';
import { MSGPACK_CONTENT_TYPE, type JsonRpcRequest, type JsonRpcResponse, type WireResetRequest, type WireState, type WireStepResult } from '../protocol/messages.js';
import { RemoteEnvError } from './remote-env-error.js';
import { httpBaseUrl, type RemoteTransport, type TransportOptions } from './transport.js';

/**
 * A session over HTTP: `POST /sessions` on first use, then `/reset`, `/step`, `/state`,
 * `/mcp` with the `X-Session-Id` header, and `DELETE /sessions/:id` on close. Requests go over
 * one kept-alive connection of this transport's own agent (node:http is several times faster
 * than `fetch` for many small requests), which `close()` releases.
 *
 * @example
 * ```ts
 * const t = new HttpTransport('http://127.0.0.1:8000', { encoding: 'json' });
 * await t.reset({ seed: 1 });
 * await t.close();
 * ```
 */
export class HttpTransport implements RemoteTransport {
  private readonly codec = new WireCodec();
  private readonly base: URL;
  private readonly agent: HttpAgent;
  private session: Promise<string> | undefined;
  private closed = false;

  constructor(
    url: string,
    private readonly options: TransportOptions,
  ) {
    this.base = new URL(httpBaseUrl(url));
    this.agent = this.base.protocol === 'https:' ? new HttpsAgent({ keepAlive: true, maxSockets: 1 }) : new HttpAgent({ keepAlive: true, maxSockets: 1 });
  }

  async reset(request: WireResetRequest): Promise<WireStepResult> {
    return (await this.call('POST', '/reset', request, await this.sessionId())) as WireStepResult;
  }

  async step(action: unknown): Promise<WireStepResult> {
    return (await this.call('POST', '/step', { action }, await this.sessionId())) as WireStepResult;
  }

  async state(): Promise<WireState> {
    return (await this.call('GET', '/state', undefined, await this.sessionId())) as WireState;
  }

  async mcp(request: JsonRpcRequest): Promise<JsonRpcResponse> {
    return (await this.call('POST', '/mcp', request, await this.sessionId())) as JsonRpcResponse;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const id = await this.session?.catch(() => undefined);
    // The header too, so that balancers that route by it reach the session's server.
    if (id) await this.call('DELETE', `/sessions/${encodeURIComponent(id)}`, undefined, id).catch(() => undefined);
    this.agent.destroy();
  }

  private sessionId(): Promise<string> {
    if (this.closed) return Promise.reject(new RemoteEnvError('SESSION_ERROR', 'This remote env is closed; create a new one.'));
    this.session ??= this.call('POST', '/sessions').then((r) => String((r as { session_id: string }).session_id));
    return this.session;
  }

  private async call(method: string, path: string, body?: unknown, session?: string): Promise<unknown> {
    const type = this.options.encoding === 'msgpack' ? MSGPACK_CONTENT_TYPE : 'application/json';
    const payload = body === undefined ? undefined : this.codec.encode(body, this.options.encoding);
    const headers: Record<string, string | number> = { accept: type };
    if (payload !== undefined) {
      headers['content-type'] = type;
      headers['content-length'] = Buffer.byteLength(payload);
    }
    if (session) headers['x-session-id'] = session;
    if (this.options.token) headers.authorization = `Bearer ${this.options.token}`;
    const where = `${method} ${this.base.origin}${path}`;
    const { status, contentType, bytes } = await this.send(method, path, headers, payload).catch((err: Error) => {
      throw new RemoteEnvError('CONNECTION_ERROR', `${where} failed: ${err.message}`);
    });
    const data = bytes.length === 0 ? undefined : this.codec.decode(bytes, contentType.includes('msgpack') ? 'msgpack' : 'json');
    if (status < 200 || status >= 300) {
      const answer = (typeof data === 'object' && data !== null ? data : {}) as Record<string, unknown>;
      const message = typeof answer.message === 'string' ? answer.message : JSON.stringify(answer.detail ?? data);
      throw new RemoteEnvError(String(answer.code ?? `HTTP_${status}`), message, answer, status);
    }
    return data;
  }

  private send(method: string, path: string, headers: Record<string, string | number>, payload: string | Buffer | undefined) {
    const request = this.base.protocol === 'https:' ? httpsRequest : httpRequest;
    const timeoutMs = this.options.requestTimeoutMs ?? 60_000;
    return new Promise<{ status: number; contentType: string; bytes: Buffer }>((resolve, reject) => {
      const req = request(
        { host: this.base.hostname, port: this.base.port, path: `${this.base.pathname.replace(/\/$/, '')}${path}`, method, headers, agent: this.agent, timeout: timeoutMs },
        (res: IncomingMessage) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, contentType: String(res.headers['content-type'] ?? ''), bytes: Buffer.concat(chunks) }));
          res.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
      req.on('error', reject);
      req.end(payload);
    });
  }
}
