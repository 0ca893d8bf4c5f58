import { existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageRoot } from './package-root.js';
import { SqlenvError } from './sqlenv-error.js';

/**
 * The path of a compiled JavaScript entry point for a worker thread or child process.
 *
 * Worker threads on Node 20 do not inherit TypeScript loaders (tsx, vitest), so workers always
 * run compiled JavaScript. Called from compiled code, the script sits beside the caller; called
 * from TypeScript sources (tests, tsx), the same relative path is looked up under `dist/` at the
 * package root, which `npm run build` (and therefore `npm test`) produces.
 *
 * @example
 * ```ts
 * const script = workerScriptPath(import.meta.url, './query-worker.js');
 * fork(script);
 * ```
 */
export function workerScriptPath(callerUrl: string, relativeJs: string): string {
  const callerDir = dirname(fileURLToPath(callerUrl));
  const beside = resolve(callerDir, relativeJs);
  if (existsSync(beside)) return beside;
  const root = packageRoot();
  const compiled = join(root, 'dist', relative(root, beside));
  if (existsSync(compiled)) return compiled;
  throw new SqlenvError(
    `worker script ${relativeJs} not found beside ${callerDir} nor at ${compiled}. ` +
      'Run `npm run build` first: worker threads and child processes run the compiled JavaScript.',
  );
}
