/**
 * The command line's errors, and how any error reaches the user: one line that says what went
 * wrong and what to do instead, never a stack trace (unless `SQLENV_DEBUG` is set).
 *
 * @example
 * ```ts
 * throw new CliUsageError('--port needs an integer ≥ 0, got "x"');
 * ```
 */
import { SqlenvError } from '../base/sqlenv-error.js';

export class CliError extends SqlenvError {}

/** A flag or argument the command cannot use; the message says what it expects. */
export class CliUsageError extends CliError {}

/** What Node's system errors carry besides their message (`listen EADDRINUSE …`, `open ENOENT …`). */
interface SystemErrorFields {
  code?: unknown;
  syscall?: unknown;
  path?: unknown;
  address?: unknown;
  port?: unknown;
}

/**
 * The one line `sqlenv COMMAND` prints for an error that ended it: the project's own errors
 * (whose messages already say what to do) as they are, Node's system errors that a user causes
 * (a port in use, a missing file) with their fix, anything else with how to get its stack trace.
 * With `SQLENV_DEBUG` set in `env`, the stack trace instead.
 *
 * @example
 * ```ts
 * cliErrorLine('serve', Object.assign(new Error('listen EADDRINUSE'), { code: 'EADDRINUSE', syscall: 'listen', address: '127.0.0.1', port: 8000 }));
 * // 'sqlenv serve: port 8000 on 127.0.0.1 is already in use: stop what holds it, or pass another --port (0 picks a free one)'
 * ```
 */
export function cliErrorLine(command: string, err: unknown, env: NodeJS.ProcessEnv = process.env): string {
  const prefix = `sqlenv ${command}: `;
  if (env['SQLENV_DEBUG'] && err instanceof Error && err.stack) return prefix + err.stack;
  if (err instanceof SqlenvError) return prefix + oneLine(err.message);
  const message = err instanceof Error ? err.message : String(err);
  const fix = err instanceof Error ? systemErrorFix(err as Error & SystemErrorFields) : undefined;
  return prefix + (fix ?? `${oneLine(message)} (unexpected: rerun with SQLENV_DEBUG=1 for the stack trace, and report it)`);
}

/** The message of a system error a user can fix, with the fix; undefined for other errors. */
function systemErrorFix(err: Error & SystemErrorFields): string | undefined {
  const where = typeof err.port === 'number' ? `port ${err.port}${typeof err.address === 'string' ? ` on ${err.address}` : ''}` : 'the port';
  switch (err.code) {
    case 'EADDRINUSE':
      return `${where} is already in use: stop what holds it, or pass another --port (0 picks a free one)`;
    case 'EACCES':
      if (err.syscall === 'listen') return `no permission to listen on ${where}: pass a --port above 1023 (0 picks a free one)`;
      return typeof err.path === 'string' ? `no permission to read or write ${err.path}: check its permissions, or choose another path` : undefined;
    case 'EADDRNOTAVAIL':
      return `${typeof err.address === 'string' ? err.address : 'the address'} is not an address of this machine: pass --host 127.0.0.1 (this machine only) or 0.0.0.0 (every interface)`;
    case 'ENOENT':
      return typeof err.path === 'string' ? `${err.path} does not exist: check the path` : undefined;
    case 'EISDIR':
      return typeof err.path === 'string' ? `${err.path} is a directory: pass a file` : undefined;
    default:
      return undefined;
  }
}

function oneLine(text: string): string {
  return text.trim().replace(/\s*\n\s*/g, ' ');
}
