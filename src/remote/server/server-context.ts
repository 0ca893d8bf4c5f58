import type { WireCodec } from '../protocol/codec.js';
import type { BearerAuth } from './auth.js';
import type { EnvDescription } from './env-description.js';
import type { ServerLogger } from './logger.js';
import type { ServerMetrics } from './metrics.js';
import type { SessionManager } from './session-manager.js';

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
  /** The env's schemas, tools and metadata (read from a probe instance at listen time). */
  description(): EnvDescription;
  /** True once shutdown began: new work is refused with 503. */
  isDraining(): boolean;
  /** Track a request so shutdown waits for it. */
  track<T>(work: Promise<T>): Promise<T>;
}
