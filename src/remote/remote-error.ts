/**
 * The root of the remote layer's errors: protocol errors a server answers with, errors a client
 * receives (`RemoteEnvError`), and server misuse (asking a server that is not listening).
 *
 * @example
 * ```ts
 * try { await env.step(action); } catch (e) { if (e instanceof RemoteError) console.error(e.message); }
 * ```
 */
import { SqlenvError } from '../base/sqlenv-error.js';

export class RemoteError extends SqlenvError {}
