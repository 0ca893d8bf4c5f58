/**
 * The root of the ONNX layer's errors (graph building, shapes, sessions, execution providers).
 *
 * @example
 * ```ts
 * try { await Runtime.create({ provider: 'cuda' }); } catch (e) { if (e instanceof OnnxError) console.error(e.message); }
 * ```
 */
import { SqlenvError } from '../base/sqlenv-error.js';

export class OnnxError extends SqlenvError {}
