/**
 * The root of the dataset tooling's errors (generation, templates, layouts, data cards).
 *
 * @example
 * ```ts
 * try { buildDataset(options); } catch (e) { if (e instanceof DataError) console.error(e.message); }
 * ```
 */
import { SqlenvError } from '../../src/base/sqlenv-error.js';

export class DataError extends SqlenvError {}
