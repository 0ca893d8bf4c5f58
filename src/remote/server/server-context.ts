import type { IncomingMessage, ServerResponse } from 'node:http';
import type { WireCodec } from '../protocol/codec.js';
import type { BearerAuth } from './auth.js';
import type { EnvDescription } from './env-description.js';
import type { FlowLimits } from './flow-control.js';
import type { ServerLogger } from './logger.js';
import type { ServerMetrics } from './metrics.js';
import type { OpenApiDocument } from './openapi.js';
import type { ServerMode } from './server-mode.js';
import type { SessionManager } from './session-manager.js';

/**
 * Multi-process serving (`sqlenv serve --workers N`): the ids of the sessions a process opens
 * carry its prefix, and an HTTP request for a session another process owns is answered by that
 * process. WebSocket sessions need none of this: they live on their connection.
 *
 * @example
 * ```ts
 * const router: SessionRouter = { sessionIdPrefix: 'w0-', forward: async (id, req, res) => false };
 * createServer({ envId: 'GuessNumber-v0', router });
 * ```
 */
export interface SessionRouter {
  /** Prefix of the ids of the sessions this process opens. */
  readonly sessionIdPrefix: string;
  /**
   * Answer `req` from the process that owns `sessionId` and resolve `true`, or resolve `false`
   * when this process owns it (the request is then answered here). Rejects with a
   * `ProtocolError` when the owner is gone. `body`, when given, is sent instead of `req`'s
   * (for a request whose body was read to find the session).
   */
  forward(sessionId: string, req: IncomingMessage, res: ServerResponse, body?: Buffer): Promise<boolean>;
}

/** What the HTTP routes and WebSocket connections share within one server. */
export interface ServerContext {
  readonly envId: string;
  readonly sessions: SessionManager;
  readonly codec: WireCodec;
  readonly auth: BearerAuth;
  readonly metrics: ServerMetrics;
  readonly logger: ServerLogger;
  readonly maxBodyBytes: number;
  readonly maxFrameBytes: number;
  /** Per-connection backpressure bounds. */
  readonly flow: FlowLimits;
  /** Set when several processes serve together (`--workers`). */
  readonly router: SessionRouter | undefined;
  /** `simulation` serves /reset, /step and /state over HTTP; `production` does not. */
  readonly mode: ServerMode;
  /** The env's schemas, tools and metadata (read from a probe instance at listen time). */
  description(): EnvDescription;
  /** The OpenAPI document of `GET /openapi.json` (built from {@link description} at listen time). */
  openapi(): OpenApiDocument;
  /** True once shutdown began: new work is refused with 503. */
  isDraining(): boolean;
  /** Track a request so shutdown waits for it. */
  track<T>(work: Promise<T>): Promise<T>;
}
