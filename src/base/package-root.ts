import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SqlenvError } from './sqlenv-error.js';

/**
 * Directory of the installed `sqlenv` package (the one holding its package.json), found by
 * walking up from this module. The same from TypeScript sources (tests, tsx) and from the
 * compiled `dist/` tree: every bundled file (data, models, worker scripts) is found from here.
 *
 * @example
 * ```ts
 * join(packageRoot(), 'data', 'bundled');
 * ```
 */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && isSqlenvManifest(manifest)) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new SqlenvError(`could not find the sqlenv package root (its package.json) above ${fileURLToPath(import.meta.url)}`);
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
