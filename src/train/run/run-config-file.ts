/**
 * The resolved config a run started with, kept in its run directory (`config.json`), so the run
 * can be evaluated or inspected later without the file and `--set` flags that made it.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../checkpoint/durable-fs.js';
import type { TrainConfig } from '../config/schema.js';

/** The file name of a run's config inside its run directory. */
export const RUN_CONFIG_FILE = 'config.json';

/**
 * Writes `config` to `<runDir>/config.json`, atomically (a crash leaves the old file or the new
 * one, never half of one).
 *
 * @example
 * ```ts
 * await writeRunConfig('runs/demo', config);
 * ```
 */
export async function writeRunConfig(runDir: string, config: TrainConfig): Promise<void> {
  await writeFileAtomic(join(runDir, RUN_CONFIG_FILE), `${JSON.stringify(config, null, 2)}\n`);
}

/**
 * The parsed `<runDir>/config.json`, or undefined when the run directory has none (a run that
 * has not started, or one written before runs kept their config).
 *
 * @example
 * ```ts
 * const raw = await readRunConfig('runs/demo'); // resolveTrainConfig(raw) validates it
 * ```
 */
export async function readRunConfig(runDir: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(join(runDir, RUN_CONFIG_FILE), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  return JSON.parse(text) as unknown;
}
