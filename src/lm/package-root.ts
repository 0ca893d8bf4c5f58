import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LmError } from './errors.js';

/**
 * Directory of the installed `sqlenv` package (the one holding its package.json), found by
 * walking up from this module. Works from TypeScript sources and from compiled `dist/`.
 *
 * @example
 * join(packageRoot(), 'data', 'bundled');
 */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      const name = (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name;
      if (name === 'sqlenv') return dir;
    }
    const parent = dirname(dir);
    if (parent === dir) throw new LmError('could not find the sqlenv package root above ' + fileURLToPath(import.meta.url));
    dir = parent;
  }
}
