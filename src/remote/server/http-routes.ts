import type { IncomingMessage, ServerResponse } from 'node:http';
import type { WireEncoding } from '../protocol/codec.js';
import { ProtocolError, validationError } from '../protocol/error-codes.js';
import { MSGPACK_CONTENT_TYPE, SESSION_HEADER, type WireResetRequest, type WireState } from '../protocol/messages.js';
import type { EnvSession } from './env-session.js';
import { handleJsonRpc, jsonRpcParseError, sessionTarget, type McpSessions, type McpTarget } from './mcp.js';
import { servesRoute } from './server-mode.js';
import type { ServerContext } from './server-context.js';

/** The 409 answer of a `POST /step` sent without `X-Session-Id`. */
export const STATELESS_STEP_MESSAGE =
  'POST /step without an X-Session-Id header is stateless (as in OpenEnv): it runs on a fresh env that is closed after the request, ' +
  'so there is no episode to step. Open a session with POST /sessions, send its session_id as the X-Session-Id header on ' +
  '/reset and then /step, or use the WebSocket /ws (one session per connection).';

/** The method each fixed route answers (for 405 answers and their `Allow` header). */
const ROUTE_METHODS: Readonly<Record<string, string>> = {
  '/health': 'GET',
  '/metadata': 'GET',
  '/schema': 'GET',
  '/openapi.json': 'GET',
  '/metrics': 'GET',
  '/state': 'GET',
  '/sessions': 'POST',
  '/close': 'POST',
  '/reset': 'POST',
  '/step': 'POST',
  '/mcp': 'POST',
};

interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  path: string;
  /** The encoding of the request body (from Content-Type). */
  requestEncoding: WireEncoding;
  /** The encoding of the answer (from Accept, else the request's). */
  responseEncoding: WireEncoding;
}

/**
 * The HTTP side of the server: OpenEnv's routes (`/reset`, `/step`, `/state`, `/health`,
 * `/metadata`, `/schema`, `/mcp`), this server's sessions (`POST /sessions`,
 * `DELETE /sessions/:id`, `POST /close`, header `X-Session-Id`) and `/metrics`.
 *
 * Without a session header, `/reset` and `/step` keep OpenEnv's stateless behaviour: a fresh
 * env per request, closed after it (so a plain `/step` has no episode and answers 409).
 *
 * @example
 * ```ts
 * const routes = new HttpRoutes(context);
 * http.createServer((req, res) => routes.handle(req, res));
 * ```
 */
export class HttpRoutes {
  constructor(private readonly ctx: ServerContext) {}

  /** Answer one request; never throws (errors become status codes). */
  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const requestEncoding: WireEncoding = (req.headers['content-type'] ?? '').includes('msgpack') ? 'msgpack' : 'json';
    const accept = req.headers.accept ?? '';
    const responseEncoding: WireEncoding = accept.includes('msgpack') ? 'msgpack' : accept.includes('json') ? 'json' : requestEncoding;
    const ex: Exchange = { req, res, path: url.pathname.replace(/\/+$/, '') || '/', requestEncoding, responseEncoding };
    try {
      await this.ctx.track(this.route(ex));
    } catch (err) {
      this.fail(ex, err);
    }
  }

  private async route(ex: Exchange): Promise<void> {
    const { req, path } = ex;
    const method = req.method ?? 'GET';
    if (path === '/health' && method === 'GET') {
      return this.send(ex, this.ctx.isDraining() ? 503 : 200, { status: this.ctx.isDraining() ? 'unhealthy' : 'healthy' });
    }
    if (!this.ctx.auth.accepts(req.headers.authorization)) {
      throw new ProtocolError('UNAUTHORIZED', 'Missing or wrong bearer token: send the header "Authorization: Bearer <token>" with the server\'s --token.');
    }
    if (this.ctx.isDraining()) throw new ProtocolError('CAPACITY_REACHED', 'The server is shutting down; retry against another instance.', { reason: 'draining' });
    const sessionId = header(req, SESSION_HEADER);
    const sessionRoute = /^\/sessions\/([^/]+)$/.exec(path);
    if (!servesRoute(this.ctx.mode, path)) {
      throw new ProtocolError('NOT_FOUND', `${path} is not served in production mode; use POST /mcp (openenv/session/create, tools/call) or the WebSocket /ws.`);
    }
    // Under --workers another process may own the session: it answers (before the body is read here).
    const routed = sessionId ?? (sessionRoute ? decodeURIComponent(sessionRoute[1]!) : undefined);
    if (routed !== undefined && this.ctx.router && (await this.ctx.router.forward(routed, req, ex.res))) return;
    switch (`${method} ${sessionRoute ? '/sessions/:id' : path}`) {
      case 'GET /metadata':
        return this.send(ex, 200, this.ctx.description().metadata);
      case 'GET /schema':
        return this.send(ex, 200, this.ctx.description().schema);
      case 'GET /openapi.json':
        return this.send(ex, 200, this.ctx.openapi());
      case 'GET /metrics':
        ex.res.writeHead(200, { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' });
        ex.res.end(this.ctx.metrics.render());
        return;
      case 'POST /sessions': {
        await this.readBody(ex);
        const session = await this.ctx.sessions.open('http');
        // Also as a header: load balancers (HAProxy stick tables) route later requests by it.
        ex.res.setHeader(SESSION_HEADER, session.id);
        return this.send(ex, 201, { session_id: session.id, env_id: this.ctx.envId });
      }
      case 'DELETE /sessions/:id':
        return this.closeSession(ex, decodeURIComponent(sessionRoute![1]!));
      case 'POST /close':
        if (!sessionId) throw validationError([{ loc: ['header', SESSION_HEADER], msg: 'POST /close needs the X-Session-Id header', type: 'missing' }]);
        return this.closeSession(ex, sessionId);
      case 'POST /reset': {
        const body = (await this.readBody(ex)) ?? {};
        return this.send(ex, 200, await this.withSession(sessionId, (s) => s.reset(body as WireResetRequest)));
      }
      case 'POST /step': {
        const body = await this.readBody(ex);
        if (typeof body !== 'object' || body === null || !('action' in body)) {
          throw validationError([{ loc: ['body', 'action'], msg: 'Field required: POST /step takes {"action": ...}', type: 'missing' }]);
        }
        const { action } = body as { action: unknown };
        return this.send(ex, 200, sessionId ? await this.withSession(sessionId, (s) => s.step(action)) : await this.statelessStep(action));
      }
      case 'GET /state':
        return this.send(ex, 200, sessionId ? this.ctx.sessions.get(sessionId).state() : this.statelessState());
      case 'POST /mcp':
        return this.mcp(ex, sessionId);
      default: {
        const allowed = sessionRoute ? 'DELETE' : ROUTE_METHODS[path];
        if (allowed) {
          ex.res.setHeader('allow', allowed);
          throw new ProtocolError('NOT_FOUND', `${method} is not supported on ${path}; use ${allowed}.`, { status: 405 });
        }
        throw new ProtocolError('NOT_FOUND', `No route ${method} ${path}. Routes: ${Object.keys(ROUTE_METHODS).join(', ')}, /sessions/:id, /ws (WebSocket).`);
      }
    }
  }

  private async closeSession(ex: Exchange, id: string): Promise<void> {
    this.ctx.sessions.get(id); // 404 for unknown ids
    await this.ctx.sessions.close(id, 'client');
    this.send(ex, 200, { session_id: id, closed: true });
  }

  private async mcp(ex: Exchange, sessionId: string | undefined): Promise<void> {
    let request: unknown;
    try {
      request = await this.readBody(ex);
    } catch (err) {
      if (err instanceof ProtocolError && err.code === 'INVALID_JSON') return this.send(ex, 200, jsonRpcParseError(err.message));
      throw err;
    }
    // Under --workers, a session named in the JSON-RPC params (OpenEnv's way) may be another
    // process's: pass the request on to it, as the header-routed requests are.
    const paramsSession = mcpParamsSession(request);
    if (!sessionId && paramsSession && this.ctx.router) {
      const body = this.ctx.codec.encode(request, ex.requestEncoding);
      if (await this.ctx.router.forward(paramsSession, ex.req, ex.res, typeof body === 'string' ? Buffer.from(body) : body)) return;
    }
    const target: McpTarget = sessionId
      ? sessionTarget(this.ctx.sessions.get(sessionId))
      : {
          tools: () => this.ctx.description().tools,
          // Stateless, as OpenEnv's HTTP mode: a fresh episode per call.
          callTool: (name, args) =>
            this.withSession(undefined, async (s) => {
              await s.reset({});
              return s.step({ type: 'call_tool', tool_name: name, arguments: args });
            }),
        };
    const answer = await handleJsonRpc(request, target, this.ctx.envId, this.mcpSessions());
    if (answer === undefined) {
      ex.res.writeHead(202).end();
      return;
    }
    this.send(ex, 200, answer);
  }

  /** `openenv/session/*` over HTTP: sessions of the session manager, started on creation so tools/call can play at once. */
  private mcpSessions(): McpSessions {
    const sessions = this.ctx.sessions;
    return {
      create: async (params) => {
        const session = await sessions.open('http');
        try {
          const { session_id: _ignored, ...reset } = params;
          return { session_id: session.id, ...(await session.reset(reset as WireResetRequest)) };
        } catch (err) {
          await sessions.close(session.id, 'client');
          throw err;
        }
      },
      close: async (id) => {
        if (!sessions.has(id)) return false;
        await sessions.close(id, 'client');
        return true;
      },
      target: (id) => (sessions.has(id) ? sessionTarget(sessions.get(id)) : undefined),
    };
  }

  /**
   * `POST /step` without a session: OpenEnv's stateless mode steps a fresh env, which here has
   * no episode, so anything but `list_tools` answers 409 — with a message that says why and
   * what to send instead (OpenEnv itself would call `env.step` on the unreset env).
   */
  private async statelessStep(action: unknown): Promise<unknown> {
    try {
      return await this.withSession(undefined, (s) => s.step(action));
    } catch (err) {
      if (err instanceof ProtocolError && err.extra.reason === 'reset_needed') {
        throw new ProtocolError('SESSION_ERROR', STATELESS_STEP_MESSAGE, { reason: 'reset_needed', stateless: true });
      }
      throw err;
    }
  }

  /** Run `fn` on the named session, or on a throwaway one (OpenEnv's stateless mode). */
  private async withSession<T>(sessionId: string | undefined, fn: (s: EnvSession) => Promise<T>): Promise<T> {
    if (sessionId) return fn(this.ctx.sessions.get(sessionId));
    const session = await this.ctx.sessions.open('stateless');
    try {
      return await fn(session);
    } finally {
      await this.ctx.sessions.close(session.id, 'stateless');
    }
  }

  private statelessState(): WireState {
    return { episode_id: null, step_count: 0, env_id: this.ctx.envId, session_id: null, done: false, terminated: false, truncated: false, episode_return: 0 };
  }

  /** Read and decode the body within the size limit; `undefined` when empty. */
  private async readBody(ex: Exchange): Promise<unknown> {
    const { req } = ex;
    const limit = this.ctx.maxBodyBytes;
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > limit) throw tooLarge(declared, limit);
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > limit) throw tooLarge(size, limit);
      chunks.push(chunk);
    }
    if (size === 0) return undefined;
    return this.ctx.codec.decode(Buffer.concat(chunks), ex.requestEncoding);
  }

  private send(ex: Exchange, status: number, body: unknown): void {
    if (ex.res.headersSent) return;
    const payload = this.ctx.codec.encode(body, ex.responseEncoding);
    ex.res.writeHead(status, {
      'content-type': ex.responseEncoding === 'msgpack' ? MSGPACK_CONTENT_TYPE : 'application/json',
      'content-length': Buffer.byteLength(payload),
    });
    ex.res.end(payload);
  }

  private fail(ex: Exchange, err: unknown): void {
    const error = err instanceof ProtocolError ? err : new ProtocolError('EXECUTION_ERROR', (err as Error).message ?? String(err));
    this.ctx.metrics.errorSeen('protocol', error.code);
    if (error.code === 'EXECUTION_ERROR' || error.code === 'FACTORY_ERROR') {
      this.ctx.logger.log('request_error', { path: ex.path, code: error.code, message: error.message });
    }
    const status = typeof error.extra.status === 'number' ? error.extra.status : error.httpStatus;
    if (error.code === 'UNAUTHORIZED') ex.res.setHeader('www-authenticate', 'Bearer');
    if (error.code === 'PAYLOAD_TOO_LARGE') {
      // Stop reading an oversized upload: answer, then drop the connection.
      ex.res.setHeader('connection', 'close');
      ex.res.once('finish', () => ex.req.destroy());
    }
    const { status: _status, ...extra } = error.extra;
    const detail = error.details.length > 0 ? error.details : error.message;
    this.send(ex, status, { detail, code: error.code, message: error.message, ...extra });
  }
}

/** The `params.session_id` of a JSON-RPC request, when it names one. */
function mcpParamsSession(request: unknown): string | undefined {
  const params = typeof request === 'object' && request !== null ? (request as { params?: unknown }).params : undefined;
  const id = typeof params === 'object' && params !== null ? (params as { session_id?: unknown }).session_id : undefined;
  return typeof id === 'string' && id.length > 0 ? id : undefined;
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  const first = Array.isArray(value) ? value[0] : value;
  return first && first.length > 0 ? first : undefined;
}

function tooLarge(size: number, limit: number): ProtocolError {
  return new ProtocolError('PAYLOAD_TOO_LARGE', `Request body of ${size} bytes exceeds the limit of ${limit} bytes (server option maxBodyBytes).`, {
    max_bytes: limit,
  });
}
