/**
 * The root of the command line's errors, and its usage errors (a missing or malformed flag).
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
