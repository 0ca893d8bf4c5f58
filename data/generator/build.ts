/**
 * `npm run data:build`: rebuild data/bundled from the generator, print a summary, and refresh the
 * generated sections (statistics, schemas) of the data card (data/README.md).
 * Usage: `node dist/data/generator/build.js [--out DIR]`.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { withCardSection } from '../lib/data-card.js';
import { computeDatasetStats, formatDatasetStats } from '../lib/dataset-stats.js';
import { bundledRoot } from '../lib/spider-layout.js';
import { buildDataset, bundledDomains } from './build-dataset.js';
import { UNSEEN_DB_IDS, VALIDATION_UNSEEN_DBS } from './config.js';
import { formatSchemaSummary } from './schema-summary.js';

function main(argv: string[]): number {
  const { values } = parseArgs({ args: argv, options: { out: { type: 'string' } } });
  const outDir = values.out ?? bundledRoot();
  const started = performance.now();
  const report = buildDataset({ outDir });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`built ${report.databases.length} databases and ${report.questions.length} questions into ${outDir} in ${seconds} s`);
  console.log(`splits: ${Object.entries(report.splits).map(([k, v]) => `${k} ${v}`).join(', ')}`);
  const dropped = [...report.rejected.entries()].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${v}`);
  console.log(`drafts dropped by the quality gates: ${dropped.join(', ') || 'none'}`);
  // The data card sits next to the bundled data; keep its statistics equal to the files.
  const card = join(outDir, '..', 'README.md');
  if (outDir === bundledRoot() && existsSync(card)) {
    let text = readFileSync(card, 'utf8');
    text = withCardSection(text, 'stats', formatDatasetStats(computeDatasetStats(outDir)));
    text = withCardSection(text, 'schemas', formatSchemaSummary(bundledDomains(), UNSEEN_DB_IDS, VALIDATION_UNSEEN_DBS.map((d) => d.id)));
    writeFileSync(card, text);
    console.log(`updated the statistics and schemas in ${card}`);
  }
  return 0;
}

process.exitCode = main(process.argv.slice(2));
