import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SqlEnvError } from '../sql-env-error.js';

/**
 * `<package root>/data/bundled`, found by walking up from this module to the sqlenv
 * package.json — the same from sources (tests, tsx) and from the compiled `dist/` tree.
 *
 * @example
 * ```ts
 * bundledDataDir(); // '/…/node_modules/sqlenv/data/bundled'
 * ```
 */
export function bundledDataDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && isSqlenvManifest(manifest)) return join(dir, 'data', 'bundled');
    const parent = dirname(dir);
    if (parent === dir) throw new SqlEnvError(`sqlenv package.json not found above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
}

function isSqlenvManifest(path: string): boolean {
  try {
    return (JSON.parse(readFileSync(path, 'utf8')) as { name?: unknown }).name === 'sqlenv';
  } catch {
    return false;
  }
}
