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
export class RemoteEnvError extends Error {
  override readonly name = 'RemoteEnvError';

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
