/**
 * `sqlenv data stats --dataset bundled|spider:DIR|DIR [--split NAME ...] [--json]`: prints a
 * dataset's databases (tables, rows), questions per split and the difficulty mix.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { computeDatasetStats, formatDatasetStats } from '../../data/lib/dataset-stats.js';
import { bundledRoot } from '../../data/lib/spider-layout.js';
import { parseCommandArgs } from './command-args.js';
import { CliUsageError } from './cli-error.js';

const USAGE = `usage: sqlenv data stats [--dataset bundled|spider:DIR|DIR] [--split NAME ...] [--json]

Prints the databases (tables and rows), the questions per split and each split's difficulty
mix of a dataset in Spider's layout (database/<db_id>/<db_id>.sqlite, <split>.json).
The default dataset is the bundled one.`;

/**
 * Where a `--dataset` argument points: `bundled`, `spider:DIR`, or a directory.
 *
 * @example
 * ```ts
 * datasetRoot('bundled');          // '<package>/data/bundled'
 * datasetRoot('spider:~/spider');  // '/home/me/spider'
 * ```
 */
export function datasetRoot(spec: string): string {
  if (spec === 'bundled') return bundledRoot();
  if (spec.startsWith('bird:')) {
    throw new CliUsageError('data stats reads datasets in Spider\'s layout; BIRD is laid out differently — load it with loadDataset({ kind: "bird", dir }) instead');
  }
  const dir = resolve(spec.startsWith('spider:') ? spec.slice('spider:'.length) : spec);
  if (!existsSync(dir)) throw new CliUsageError(`dataset directory ${dir} does not exist; pass --dataset bundled, spider:DIR or a directory in Spider's layout`);
  return dir;
}

/** Entry point of `sqlenv data`. */
export async function run(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (!sub || sub === '--help' || sub === '-h') {
    console.log(USAGE);
    return sub ? 0 : 1;
  }
  if (sub !== 'stats') {
    console.error(`sqlenv data: unknown subcommand "${sub}"\n\n${USAGE}`);
    return 2;
  }
  const parsed = parseCommandArgs('data', USAGE, {
    args: rest,
    options: {
      dataset: { type: 'string', default: 'bundled' },
      split: { type: 'string', multiple: true },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (!parsed.ok) return parsed.exitCode;
  const { values } = parsed.args;
  let root: string;
  try {
    root = datasetRoot(values.dataset);
  } catch (err) {
    console.error(`sqlenv data stats: ${(err as Error).message}`);
    return 2;
  }
  const stats = computeDatasetStats(root, values.split);
  console.log(values.json ? JSON.stringify(stats) : formatDatasetStats(stats));
  return 0;
}
