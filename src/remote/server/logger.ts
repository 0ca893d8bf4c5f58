/**
 * Structured logging for the server: one JSON object per line per event, so logs can be
 * grepped and shipped without parsing prose.
 */
export interface ServerLogger {
  /** Record one event, e.g. `log('session_open', { session_id, transport: 'ws' })`. */
  log(event: string, fields?: Record<string, unknown>): void;
}

/**
 * A logger writing one JSON line per event (`{"time", "level", "event", ...fields}`).
 *
 * @example
 * ```ts
 * const logger = jsonLineLogger((line) => process.stderr.write(line));
 * logger.log('listening', { port: 8000 });
 * ```
 */
export function jsonLineLogger(write: (line: string) => void = (line) => process.stderr.write(line)): ServerLogger {
  return {
    log(event, fields = {}) {
      const level = event.endsWith('_error') || event === 'error' ? 'error' : 'info';
      write(`${JSON.stringify({ time: new Date().toISOString(), level, event, ...fields })}\n`);
    },
  };
}

/**
 * A logger that drops everything (tests, embedding).
 *
 * @example
 * ```ts
 * createServer({ envId: 'GuessNumber-v0', logger: silentLogger });
 * ```
 */
export const silentLogger: ServerLogger = Object.freeze({ log() {} });
