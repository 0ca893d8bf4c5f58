import { join } from 'node:path';
import { packageRoot } from '../../../src/base/package-root.js';

/**
 * `<package root>/data/bundled` — the same from sources (tests, tsx) and from the compiled
 * `dist/` tree.
 *
 * @example
 * ```ts
 * bundledDataDir(); // '/…/node_modules/sqlenv/data/bundled'
 * ```
 */
export function bundledDataDir(): string {
  return join(packageRoot(), 'data', 'bundled');
}
