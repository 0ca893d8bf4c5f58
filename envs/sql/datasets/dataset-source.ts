import { DatasetError } from './dataset-error.js';

/**
 * Where questions and databases come from: the bundled dataset, a Spider or BIRD directory, or
 * a directory in the bundled (Spider) layout.
 */
export type DatasetSource = 'bundled' | { kind: 'spider'; dir: string } | { kind: 'bird'; dir: string } | string;

/**
 * Parse the command-line form of a source: `bundled`, `spider:DIR`, `bird:DIR`, or a directory.
 *
 * @example
 * ```ts
 * parseDatasetSource('spider:../spider'); // { kind: 'spider', dir: '../spider' }
 * ```
 */
export function parseDatasetSource(text: string): DatasetSource {
  const trimmed = text.trim();
  if (trimmed === '') throw new DatasetError('empty dataset: use bundled, spider:DIR, bird:DIR or a directory');
  if (trimmed === 'bundled') return 'bundled';
  const match = /^(spider|bird):(.+)$/i.exec(trimmed);
  if (match) return { kind: match[1]!.toLowerCase() as 'spider' | 'bird', dir: match[2]! };
  return trimmed;
}

/**
 * A short human name of a source, used as the dataset's `name`.
 *
 * @example
 * ```ts
 * describeDatasetSource({ kind: 'bird', dir: '../bird' }); // 'bird:../bird'
 * ```
 */
export function describeDatasetSource(source: DatasetSource): string {
  if (source === 'bundled') return 'bundled';
  if (typeof source === 'string') return source;
  return `${source.kind}:${source.dir}`;
}
