import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { bundledDataDir } from './bundled-data-dir.js';
import { DatasetError } from './dataset-error.js';
import type { DatasetSource } from './dataset-source.js';

/** Where one split of a dataset lives on disk. */
export interface DatasetLayout {
  /** Field names follow this format's question files. */
  format: 'spider' | 'bird';
  /** The JSON question file of the split. */
  questionFile: string;
  /** The folder holding `<db_id>/<db_id>.sqlite`. */
  databaseDir: string;
}

/** Spider's file names for its splits, tried after `<split>.json`. */
const SPIDER_SPLIT_FILES: Record<string, string[]> = {
  train: ['train_spider.json'],
  dev: ['dev.json'],
  validation: ['dev.json'],
  test: ['test.json'],
};

/**
 * Locate a split in the Spider (and bundled) layout: `<dir>/<split>.json` (Spider's
 * `train_spider.json` for `train`), databases in `<dir>/database/`.
 *
 * @throws DatasetError naming the splits and folders that do exist.
 * @example
 * ```ts
 * resolveSpiderLayout('../spider', 'train'); // { questionFile: '…/train_spider.json', databaseDir: '…/database', … }
 * ```
 */
export function resolveSpiderLayout(dir: string, split: string): DatasetLayout {
  const root = requireDirectory(dir, 'Spider-layout dataset');
  const candidates = [...new Set([`${split}.json`, ...(SPIDER_SPLIT_FILES[split] ?? [])])].map((f) => join(root, f));
  const questionFile = candidates.find(isFile);
  if (!questionFile) {
    throw new DatasetError(
      `no split "${split}" in ${root} (looked for ${candidates.map((c) => basename(c)).join(', ')}). ` +
        `Splits here: ${listSplits(root).join(', ') || '(none: no question .json files)'}.`,
    );
  }
  const databaseDir = join(root, 'database');
  if (!isDirectory(databaseDir)) {
    throw new DatasetError(
      `no database/ folder in ${root}: Spider's layout keeps databases as database/<db_id>/<db_id>.sqlite. ` +
        `Found: ${listEntries(root).join(', ') || '(empty)'}.`,
    );
  }
  return { format: 'spider', questionFile, databaseDir };
}

/**
 * Locate a split in BIRD's layout, given either the BIRD root or the split's own folder:
 * questions in `<split>.json` (or `<split>/<split>.json`), databases in `<split>_databases/`
 * (or `<split>/<split>_databases/`, or `database/`).
 *
 * @throws DatasetError naming the splits and folders that do exist.
 * @example
 * ```ts
 * resolveBirdLayout('../bird', 'dev'); // { questionFile: '…/dev/dev.json', databaseDir: '…/dev/dev_databases', … }
 * ```
 */
export function resolveBirdLayout(dir: string, split: string): DatasetLayout {
  const root = requireDirectory(dir, 'BIRD dataset');
  const bases = [root, join(root, split)];
  const questionCandidates = bases.map((b) => join(b, `${split}.json`));
  const questionFile = questionCandidates.find(isFile);
  if (!questionFile) {
    throw new DatasetError(
      `no split "${split}" in ${root} (looked for ${questionCandidates.join(', ')}). ` +
        `Splits here: ${birdSplits(root).join(', ') || '(none)'}.`,
    );
  }
  const databaseCandidates = bases.flatMap((b) => [join(b, `${split}_databases`), join(b, 'database')]);
  const databaseDir = databaseCandidates.find(isDirectory);
  if (!databaseDir) {
    throw new DatasetError(
      `no databases for split "${split}" in ${root} (looked for ${databaseCandidates.join(', ')}): BIRD keeps them ` +
        `as ${split}_databases/<db_id>/<db_id>.sqlite. Found: ${listEntries(root).join(', ') || '(empty)'}.`,
    );
  }
  return { format: 'bird', questionFile, databaseDir };
}

/**
 * `<databaseDir>/<dbId>/<dbId>.sqlite`.
 *
 * @example
 * ```ts
 * databaseFile('/data/spider/database', 'concert_singer'); // '/data/spider/database/concert_singer/concert_singer.sqlite'
 * ```
 */
export function databaseFile(databaseDir: string, dbId: string): string {
  return join(databaseDir, dbId, `${dbId}.sqlite`);
}

/**
 * Database ids present in a database folder (sub-folders holding `<id>.sqlite`), sorted.
 *
 * @example
 * ```ts
 * listDatabases('/data/spider/database'); // ['academic', 'activity_1', …]
 * ```
 */
export function listDatabases(databaseDir: string): string[] {
  return listEntries(databaseDir).filter((id) => isFile(databaseFile(databaseDir, id)));
}

/** JSON files of a dataset folder that are not question files (Spider's `train_spider` is listed as `train`). */
const NOT_SPLITS = new Set(['build-info', 'train_spider']);

/** Split names of a folder: its question files (`*.json` other than schema and build files), plus `train` for Spider's file. */
function listSplits(root: string): string[] {
  const files = listEntries(root).filter((f) => f.endsWith('.json') && !/tables/i.test(f) && isFile(join(root, f)));
  const splits = files.map((f) => f.slice(0, -'.json'.length));
  if (splits.includes('train_spider') && !splits.includes('train')) splits.push('train');
  return splits.filter((s) => !NOT_SPLITS.has(s)).sort();
}

/** BIRD's splits: question files at its root and split folders holding `<split>/<split>.json`. */
function birdSplits(root: string): string[] {
  const folders = listEntries(root).filter((e) => !NOT_SPLITS.has(e) && isFile(join(root, e, `${e}.json`)));
  return [...new Set([...listSplits(root), ...folders])].sort();
}

/**
 * The splits a dataset offers: its question files in the Spider (and bundled) layout — Spider's
 * `train_spider.json` as `train` — or BIRD's split folders and files.
 *
 * @example
 * ```ts
 * availableSplits('bundled'); // ['eval', 'eval_unseen_db', 'smoke', 'train', …]
 * ```
 */
export function availableSplits(source: DatasetSource): string[] {
  if (typeof source === 'object' && source.kind === 'bird') {
    return birdSplits(requireDirectory(source.dir, 'BIRD dataset'));
  }
  const dir = source === 'bundled' ? bundledDataDir() : typeof source === 'string' ? source : source.dir;
  return listSplits(requireDirectory(dir, 'Spider-layout dataset'));
}

function requireDirectory(dir: string, what: string): string {
  const root = resolve(dir);
  if (!isDirectory(root)) throw new DatasetError(`${what} directory not found: ${root}`);
  return root;
}

function listEntries(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
}

function isFile(path: string): boolean {
  return existsSync(path) && statSync(path).isFile();
}

function isDirectory(path: string): boolean {
  return existsSync(path) && statSync(path).isDirectory();
}
