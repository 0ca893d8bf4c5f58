/**
 * File-system helpers for crash-safe writes: data is flushed to disk before it is made visible
 * by a rename, and the directory entry of the rename is flushed too, so after a crash a reader
 * sees either the old state or the complete new one.
 */
import { open, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * fsync an existing file or directory by path.
 *
 * @example
 * ```ts
 * await fsyncPath('run/checkpoints'); // make a rename inside it durable
 * ```
 */
export async function fsyncPath(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Replaces `path` atomically with `content`: write `path.tmp-PID`, fsync it, rename over `path`,
 * fsync the directory.
 *
 * @example
 * ```ts
 * await writeFileAtomic('run/checkpoints/latest.json', JSON.stringify({ step: 10 }));
 * ```
 */
export async function writeFileAtomic(path: string, content: string | Uint8Array): Promise<void> {
  const tmp = `${path}.tmp-${process.pid}`;
  await writeFile(tmp, content);
  await fsyncPath(tmp);
  await rename(tmp, path);
  await fsyncPath(dirname(path));
}
