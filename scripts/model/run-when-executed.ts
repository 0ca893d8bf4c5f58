/**
 * Runs a script's `main` when its file is executed directly (`node dist/scripts/model/x.js`),
 * not when a test imports it: the exit code becomes the process's, and an error is printed as
 * one line, without a stack trace.
 */
import { pathToFileURL } from 'node:url';

/**
 * @example
 * ```ts
 * runWhenExecuted(import.meta.url, main);
 * ```
 */
export function runWhenExecuted(moduleUrl: string, main: (argv: string[]) => Promise<number>): void {
  if (!process.argv[1] || moduleUrl !== pathToFileURL(process.argv[1]).href) return;
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      console.error(err instanceof Error ? err.message : String(err));
      process.exitCode = 1;
    },
  );
}
