/**
 * Text-to-SQL datasets: the bundled set, Spider and BIRD, loaded into {@link SqlDataset}s whose
 * gold SQL has been executed (and cached) through the SQL sandbox.
 */
export { loadDataset, type LoadDatasetOptions } from './load-dataset.js';
export { SqlDataset, type SqlDatasetParts } from './sql-dataset.js';
export type { SqlQuestion, GoldResult, SkippedQuestion } from './sql-question.js';
export { DatasetError } from './dataset-error.js';
export { parseDatasetSource, describeDatasetSource, type DatasetSource } from './dataset-source.js';
export { bundledDataDir } from './bundled-data-dir.js';
export { resolveSpiderLayout, resolveBirdLayout, listDatabases, databaseFile, availableSplits, type DatasetLayout } from './dataset-layout.js';
export { parseQuestionEntries, readQuestionFile } from './question-file.js';
export { tablesInSql } from '../sandbox/tables-in-sql.js';
export { runGoldQueries, toGoldResult } from './gold-queries.js';
