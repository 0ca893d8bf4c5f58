import { RemoteError } from '../remote-error.js';

/**
 * An error answered by a remote env server (an `error` frame or a non-2xx HTTP answer), or a
 * failure to reach it (`code: 'CONNECTION_ERROR'`).
 *
 * @example
 * ```ts
 * try { await env.step(action); } catch (e) {
 *   if (e instanceof RemoteEnvError && e.code === 'CAPACITY_REACHED') await backOff();
 * }
 * ```
 */
export class RemoteEnvError extends RemoteError {
  override readonly name: string = 'RemoteEnvError';

  constructor(
    /** The server's error code (`VALIDATION_ERROR`, `SESSION_ERROR`, …) or `CONNECTION_ERROR`. */
    readonly code: string,
    message: string,
    /** The whole error payload (e.g. `errors`, `active_sessions`, `detail`). */
    readonly data: Record<string, unknown> = {},
    /** The HTTP status, for the HTTP transport. */
    readonly status?: number,
  ) {
    super(`${code}: ${message}`);
  }
}

/**
 * The server of a session went away (unreachable, restarted, shutting down) while an episode
 * was running: that episode is over. Every call but `reset()` keeps throwing it; `reset()`
 * starts a new episode on a server that is up. `code` is `'SESSION_LOST'`; `cause` is the
 * error that revealed it (`CONNECTION_ERROR`, or `SESSION_ERROR` with `reason: 'unknown_session'`).
 *
 * @example
 * ```ts
 * try { await env.step(action); } catch (e) {
 *   if (e instanceof SessionLostError) await env.reset(); // the lost episode is dropped, not retried
 * }
 * ```
 */
export class SessionLostError extends RemoteEnvError {
  override readonly name = 'SessionLostError';

  constructor(
    /** The server that held the session. */
    readonly url: string,
    override readonly cause: RemoteEnvError,
  ) {
    super(
      'SESSION_LOST',
      `The session on ${url} was lost mid-episode (${cause.message}); this episode is over: call reset() to start a new one on a server that is up.`,
      { url, cause_code: cause.code, ...(cause.data.reason !== undefined ? { cause_reason: cause.data.reason } : {}) },
      cause.status,
    );
  }
}
