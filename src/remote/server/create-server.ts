import { createServer as createHttpServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import type { Env } from '../../gym/env.js';
import { make } from '../../gym/index.js';
import { WireCodec } from '../protocol/codec.js';
import { BearerAuth } from './auth.js';
import { describeEnv, type EnvDescription } from './env-description.js';
import { DEFAULT_FLOW_LIMITS, HttpFlowControl, type FlowLimits } from './flow-control.js';
import type { ActionValidation } from './env-session.js';
import { HttpRoutes } from './http-routes.js';
import { jsonLineLogger, type ServerLogger } from './logger.js';
import { ServerMetrics } from './metrics.js';
import { buildOpenApiDocument, type OpenApiDocument } from './openapi.js';
import type { ServerContext, SessionRouter } from './server-context.js';
import type { ServerMode } from './server-mode.js';
import { SessionManager } from './session-manager.js';
import { WS_CLOSE, WsConnection } from './ws-connection.js';
import { RemoteError } from '../remote-error.js';

/** Options of {@link createServer}; the backpressure bounds are {@link FlowLimits} (defaults {@link DEFAULT_FLOW_LIMITS}). */
export interface ServerOptions extends Partial<FlowLimits> {
  /** The registered env id to serve (`make(envId, envKwargs)` builds each session's env). */
  envId: string;
  envKwargs?: Record<string, unknown>;
  /** Build envs another way than `make` (e.g. an unregistered class); receives `envKwargs`. */
  createEnv?: (kwargs: Record<string, unknown>) => Env<unknown, unknown> | Promise<Env<unknown, unknown>>;
  /** Concurrent sessions (WebSocket connections + HTTP sessions + in-flight stateless calls). Default 64. */
  maxSessions?: number;
  /** Close sessions idle this long; 0 never. Default 300 000 (5 min). */
  sessionTimeoutMs?: number;
  /** Require `Authorization: Bearer <token>` on every route but `/health`. */
  token?: string;
  /** Largest HTTP request body. Default 1 MiB. */
  maxBodyBytes?: number;
  /** Largest WebSocket message answered with an error frame; 4× this closes the socket (1009). Default 1 MiB. */
  maxFrameBytes?: number;
  /** `'env'` (default): the env judges actions; `'space'`: reject non-members of the action space with 422. */
  actionValidation?: ActionValidation;
  /** WebSocket ping interval to detect half-open sockets (a socket that misses one ping is dropped); 0 disables. Default 30 000 ms. */
  heartbeatMs?: number;
  /** How often idle sessions are looked for. Default: a quarter of `sessionTimeoutMs`, between 50 ms and 10 s. */
  reapIntervalMs?: number;
  /** Several processes serving together (`sqlenv serve --workers`): session id prefix and forwarding of other processes' HTTP sessions. */
  router?: SessionRouter;
  /** Structured event log; defaults to JSON lines on stderr. Pass `silentLogger` in tests. */
  logger?: ServerLogger;
  /** `'simulation'` (default) serves /reset, /step, /state over HTTP; `'production'` leaves them out (OpenEnv's modes). */
  mode?: ServerMode;
}

/** A running (or ready-to-run) OpenEnv-compatible server. */
export interface EnvServer {
  /** Start listening; resolves with the bound address (port 0 picks a free port). */
  listen(port?: number, host?: string): Promise<AddressInfo>;
  /** Graceful shutdown: refuse new work, finish in-flight requests, close every session's env. Idempotent. */
  close(): Promise<void>;
  /**
   * Answer one HTTP request that arrived on another listener (e.g. the loopback port through
   * which the other processes of `--workers` forward this process's HTTP sessions).
   */
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** The bound address once listening. */
  readonly address: AddressInfo | undefined;
  /** `http://host:port` once listening. */
  readonly url: string;
  readonly metrics: ServerMetrics;
}

/** The server's flow limits: the options given, the defaults for the rest, each a positive integer. */
function resolveFlowLimits(options: Partial<FlowLimits>): FlowLimits {
  const limits = { ...DEFAULT_FLOW_LIMITS };
  for (const key of Object.keys(limits) as (keyof FlowLimits)[]) {
    const value = options[key];
    if (value === undefined) continue;
    if (!Number.isInteger(value) || value < 1) throw new RangeError(`server option ${key} must be a positive integer, got ${String(value)}`);
    limits[key] = value;
  }
  return limits;
}

/** Version reported by `/metadata` and MCP `initialize`. */
export const SERVER_VERSION = '0.1.0';

/**
 * Serve any registered env over OpenEnv's HTTP + WebSocket protocol, with this project's
 * fixes: stateful HTTP sessions, `info` on the wire, capacity limits, idle reaping, bearer
 * tokens, size limits, graceful drain, JSON logs and Prometheus metrics.
 *
 * @example
 * ```ts
 * const server = createServer({ envId: 'SQLEnv-v0', envKwargs: { dataset: 'bundled' }, maxSessions: 32 });
 * const { port } = await server.listen(8000, '127.0.0.1');
 * // … later
 * await server.close();
 * ```
 */
export function createServer(options: ServerOptions): EnvServer {
  const envKwargs = options.envKwargs ?? {};
  const createEnv = () => (options.createEnv ? options.createEnv(envKwargs) : make(options.envId, envKwargs));
  const logger = options.logger ?? jsonLineLogger();
  const metrics = new ServerMetrics();
  const connections = new Set<WsConnection>();
  const inFlight = new Set<Promise<unknown>>();
  let description: EnvDescription | undefined;
  let openapi: OpenApiDocument | undefined;
  let draining = false;
  let address: AddressInfo | undefined;
  let closing: Promise<void> | undefined;

  const sessions = new SessionManager({
    envId: options.envId,
    createEnv,
    maxSessions: options.maxSessions ?? 64,
    sessionTimeoutMs: options.sessionTimeoutMs ?? 300_000,
    ...(options.reapIntervalMs !== undefined ? { reapIntervalMs: options.reapIntervalMs } : {}),
    ...(options.router ? { idPrefix: options.router.sessionIdPrefix } : {}),
    validation: options.actionValidation ?? 'env',
    metrics,
    logger,
    onReaped: (session) => {
      for (const c of connections) if (c.sessionId === session.id) void c.shutdown(WS_CLOSE.idleTimeout, 'session idle timeout');
    },
  });

  const context: ServerContext = {
    envId: options.envId,
    sessions,
    codec: new WireCodec(),
    auth: new BearerAuth(options.token),
    metrics,
    logger,
    maxBodyBytes: options.maxBodyBytes ?? 1 << 20,
    maxFrameBytes: options.maxFrameBytes ?? 1 << 20,
    flow: resolveFlowLimits(options),
    router: options.router,
    mode: options.mode ?? 'simulation',
    description: () => {
      if (!description) throw new RemoteError('server not listening yet');
      return description;
    },
    openapi: () => {
      if (!openapi) throw new RemoteError('server not listening yet');
      return openapi;
    },
    isDraining: () => draining,
    track: (work) => {
      inFlight.add(work);
      const forget = () => inFlight.delete(work);
      work.then(forget, forget);
      return work;
    },
  };

  const routes = new HttpRoutes(context);
  const httpFlow = new HttpFlowControl(
    context.flow,
    (event, socket) => {
      metrics.flowEvent('http', event);
      if (event === 'stall_close') logger.log('backpressure_close', { transport: 'http', remote: socket.remoteAddress, unsent_bytes: socket.writableLength });
    },
    (bytes) => metrics.unsentBytes('http', bytes),
  );
  // noDelay: replies are small; Nagle's algorithm would hold them for the peer's delayed ACK.
  const http: HttpServer = createHttpServer({ noDelay: true, keepAliveTimeout: 30_000 }, (req, res) => {
    void httpFlow.track(req, res).then((answer) => (answer ? routes.handle(req, res) : undefined));
  });
  const wss = new WebSocketServer({ noServer: true, maxPayload: context.maxFrameBytes * 4 });
  http.on('upgrade', (req, socket, head) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const refuse = (status: number, text: string) => {
      socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    };
    if (path !== '/ws') return refuse(404, 'Not Found');
    if (!context.auth.accepts(req.headers.authorization)) return refuse(401, 'Unauthorized');
    if (draining) return refuse(503, 'Service Unavailable');
    wss.handleUpgrade(req, socket, head, (ws) => {
      const connection = new WsConnection(ws, context);
      connections.add(connection);
      ws.on('close', () => connections.delete(connection));
      connection.start();
    });
  });
  const heartbeatMs = options.heartbeatMs ?? 30_000;
  const heartbeat = heartbeatMs > 0 ? setInterval(() => connections.forEach((c) => c.heartbeat()), heartbeatMs) : undefined;
  heartbeat?.unref();

  return {
    metrics,
    handle: (req, res) => routes.handle(req, res),
    get address() {
      return address;
    },
    get url() {
      if (!address) throw new RemoteError('server is not listening; call listen() first');
      const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      return `http://${host}:${address.port}`;
    },
    async listen(port = 8000, host = '127.0.0.1') {
      // A probe env answers /schema, /metadata and tools/list, and surfaces factory errors at start-up.
      const probe = await createEnv();
      try {
        description = describeEnv(options.envId, probe, SERVER_VERSION);
        openapi = buildOpenApiDocument(description, context.mode);
      } finally {
        await probe.close();
      }
      await new Promise<void>((resolve, reject) => {
        http.once('error', reject);
        http.listen(port, host, () => {
          http.off('error', reject);
          resolve();
        });
      });
      address = http.address() as AddressInfo;
      logger.log('listening', { env_id: options.envId, host: address.address, port: address.port, max_sessions: sessions.max });
      return address;
    },
    close() {
      closing ??= (async () => {
        draining = true;
        clearInterval(heartbeat);
        logger.log('shutdown', { active_sessions: sessions.size, in_flight: inFlight.size });
        const stopped = new Promise<void>((resolve) => http.close(() => resolve()));
        http.closeIdleConnections();
        await Promise.all([...connections].map((c) => c.shutdown(WS_CLOSE.goingAway, 'server shutting down')));
        await Promise.allSettled([...inFlight]);
        await sessions.closeAll();
        wss.close();
        http.closeAllConnections();
        if (address) await stopped;
        logger.log('stopped', {});
      })();
      return closing;
    },
  };
}
