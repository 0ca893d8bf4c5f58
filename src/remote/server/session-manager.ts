import { randomUUID } from 'node:crypto';
import type { Env } from '../../gym/env.js';
import { ProtocolError } from '../protocol/error-codes.js';
import { EnvSession, type ActionValidation } from './env-session.js';
import type { ServerLogger } from './logger.js';
import type { ServerMetrics } from './metrics.js';

/** Why a session ended (a label of `sqlenv_sessions_closed_total`). */
export type CloseReason = 'client' | 'disconnect' | 'idle' | 'shutdown' | 'stateless' | 'backpressure';

/** What the manager needs to build and watch sessions. */
export interface SessionManagerOptions {
  envId: string;
  createEnv: () => Env<unknown, unknown> | Promise<Env<unknown, unknown>>;
  maxSessions: number;
  /** Idle time after which a session is closed; 0 disables reaping. */
  sessionTimeoutMs: number;
  /** How often to look for idle sessions. Default: a quarter of the timeout, between 50 ms and 10 s. */
  reapIntervalMs?: number;
  /** Prefix of every session id (the process's mark under `--workers`). Default none. */
  idPrefix?: string;
  validation: ActionValidation;
  metrics: ServerMetrics;
  logger: ServerLogger;
  /** Called when the reaper closes a session, so its transport can hang up too. */
  onReaped?: (session: EnvSession) => void;
}

/**
 * Owns every open session: enforces the capacity limit (`CAPACITY_REACHED`), builds each
 * session's env (`FACTORY_ERROR` when that fails), reaps idle sessions, and closes them all on
 * shutdown. A session's failure never touches another's env.
 *
 * @example
 * ```ts
 * const sessions = new SessionManager({ envId, createEnv: () => make(envId), maxSessions: 8, … });
 * const s = await sessions.open('http');
 * await sessions.close(s.id, 'client');
 * ```
 */
export class SessionManager {
  private readonly sessions = new Map<string, EnvSession>();
  /** Sessions being built count against capacity too, so a burst cannot overshoot it. */
  private pending = 0;
  private readonly reaper: NodeJS.Timeout | undefined;

  constructor(private readonly options: SessionManagerOptions) {
    if (options.sessionTimeoutMs > 0) {
      const every = options.reapIntervalMs ?? Math.max(50, Math.min(options.sessionTimeoutMs / 4, 10_000));
      this.reaper = setInterval(() => this.reapIdle(), every);
      this.reaper.unref();
    }
  }

  get size(): number {
    return this.sessions.size;
  }

  get max(): number {
    return this.options.maxSessions;
  }

  /** Open a session with a fresh env. */
  async open(transport: 'http' | 'ws' | 'stateless'): Promise<EnvSession> {
    const active = this.sessions.size + this.pending;
    if (active >= this.options.maxSessions) {
      throw new ProtocolError(
        'CAPACITY_REACHED',
        `The server is at its limit of ${this.options.maxSessions} sessions; close one or start the server with a higher --max-sessions.`,
        { active_sessions: active, max_sessions: this.options.maxSessions },
      );
    }
    this.pending++;
    let env: Env<unknown, unknown>;
    try {
      env = await this.options.createEnv();
    } catch (err) {
      this.options.logger.log('factory_error', { env_id: this.options.envId, message: (err as Error).message });
      throw new ProtocolError('FACTORY_ERROR', `Could not create ${this.options.envId}: ${(err as Error).message}`);
    } finally {
      this.pending--;
    }
    const { metrics } = this.options;
    const session = new EnvSession(env, {
      envId: this.options.envId,
      id: `${this.options.idPrefix ?? ''}${randomUUID()}`,
      validation: this.options.validation,
      observer: {
        onReset: () => metrics.resetDone(),
        onStep: (seconds, info) => {
          metrics.stepTook(seconds);
          if (typeof info.error_type === 'string' && info.error_type !== '') metrics.errorSeen('env', info.error_type);
        },
      },
    });
    this.sessions.set(session.id, session);
    metrics.sessionOpened();
    if (transport !== 'stateless') this.options.logger.log('session_open', { session_id: session.id, transport });
    return session;
  }

  /** The open session with this id, or `SESSION_ERROR` (answered with HTTP 404) naming what to do. */
  get(id: string): EnvSession {
    const session = this.sessions.get(id);
    if (!session) {
      throw new ProtocolError('SESSION_ERROR', `No open session "${id}" (closed, reaped after idling, or never created); create one with POST /sessions.`, {
        reason: 'unknown_session',
        status: 404,
      });
    }
    return session;
  }

  has(id: string): boolean {
    return this.sessions.has(id);
  }

  /** Close one session (after its in-flight request). Unknown ids are ignored. */
  async close(id: string, reason: CloseReason): Promise<void> {
    const session = this.sessions.get(id);
    if (!session) return;
    this.sessions.delete(id);
    this.options.metrics.sessionClosed(reason);
    if (reason !== 'stateless') this.options.logger.log('session_close', { session_id: id, reason });
    try {
      await session.close();
    } catch (err) {
      this.options.logger.log('env_close_error', { session_id: id, message: (err as Error).message });
    }
  }

  /** Close every session and stop reaping (graceful shutdown). */
  async closeAll(): Promise<void> {
    if (this.reaper) clearInterval(this.reaper);
    await Promise.all([...this.sessions.keys()].map((id) => this.close(id, 'shutdown')));
  }

  private reapIdle(): void {
    const now = performance.now();
    for (const session of this.sessions.values()) {
      if (!session.busy && now - session.lastActive > this.options.sessionTimeoutMs) {
        void this.close(session.id, 'idle');
        this.options.onReaped?.(session);
      }
    }
  }
}
