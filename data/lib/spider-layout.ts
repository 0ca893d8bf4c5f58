/**
 * The on-disk layout of the bundled dataset (Spider's): `database/<db_id>/<db_id>.sqlite`,
 * one `<split>.json` per split, and `tables.json`. Shared by the generator, the stats command
 * and the tests so the paths are spelled once.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DataError } from './data-error.js';

/** One question as stored in a split file. */
export interface SpiderQuestionEntry {
  question: string;
  query: string;
  db_id: string;
  difficulty: 'easy' | 'medium' | 'hard' | 'extra';
  tables: string[];
  /** The generator template the question came from (bundled data only). */
  template?: string;
}

/** The split files every bundled build writes. */
export const BUNDLED_SPLITS = ['train', 'validation', 'validation_unseen_db', 'eval', 'eval_unseen_db', 'smoke'] as const;

/** What `build-info.json` records about a bundled build, to tell whether a rebuild can be byte-identical. */
export interface BuildInfo {
  seed: number;
  /** The SQLite library version that wrote the files (page layout may differ across versions). */
  sqlite_version: string;
  databases: number;
  questions: number;
}

/**
 * Path of the build record of a bundled build (not a split).
 *
 * @example
 * ```ts
 * buildInfoPath('data/bundled'); // 'data/bundled/build-info.json'
 * ```
 */
export function buildInfoPath(root: string): string {
  return join(root, 'build-info.json');
}

/** A dataset file is missing or malformed. */
export class DatasetLayoutError extends DataError {
  override readonly name = 'DatasetLayoutError';
}

/**
 * Path of a database file inside a dataset root.
 *
 * @example
 * ```ts
 * databasePath('data/bundled', 'concerts'); // 'data/bundled/database/concerts/concerts.sqlite'
 * ```
 */
export function databasePath(root: string, dbId: string): string {
  return join(root, 'database', dbId, `${dbId}.sqlite`);
}

/**
 * Path of a split file inside a dataset root.
 *
 * @example
 * ```ts
 * splitPath('data/bundled', 'train'); // 'data/bundled/train.json'
 * ```
 */
export function splitPath(root: string, split: string): string {
  return join(root, `${split}.json`);
}

/**
 * Read a split file.
 *
 * @example
 * ```ts
 * readSplit(bundledRoot(), 'smoke').length; // about 30
 * ```
 */
export function readSplit(root: string, split: string): SpiderQuestionEntry[] {
  const file = splitPath(root, split);
  if (!existsSync(file)) {
    throw new DatasetLayoutError(`no split "${split}" at ${file}; splits are <root>/<split>.json (run \`npm run data:build\` for the bundled data)`);
  }
  const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
  if (!Array.isArray(parsed)) throw new DatasetLayoutError(`${file} must hold a JSON array of questions`);
  return parsed as SpiderQuestionEntry[];
}

/**
 * The bundled dataset's root: `data/bundled` in the package, found by walking up from this
 * module to the directory holding sqlenv's package.json (works from sources and from dist/).
 *
 * @example
 * ```ts
 * bundledRoot(); // '/…/node_modules/sqlenv/data/bundled'
 * ```
 */
export function bundledRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'sqlenv') {
      return join(dir, 'data', 'bundled');
    }
    const up = resolve(dir, '..');
    if (up === dir) throw new DatasetLayoutError('cannot find the sqlenv package root above ' + fileURLToPath(import.meta.url));
    dir = up;
  }
}
