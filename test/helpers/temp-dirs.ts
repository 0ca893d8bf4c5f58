/**
 * Temporary directories for one test file, every one removed after the file's tests. Call
 * `useTempDirs(prefix)` at the top level of the file; the function it returns makes a fresh
 * directory wherever a test or hook needs one.
 *
 * @example
 * ```ts
 * const tempDir = useTempDirs('sqlenv-ckpt-');
 * it('writes a checkpoint', async () => { const store = new CheckpointStore(tempDir()); … });
 * ```
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

export function useTempDirs(prefix: string): () => string {
  const made: string[] = [];
  afterAll(() => {
    for (const dir of made) rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    made.push(dir);
    return dir;
  };
}
