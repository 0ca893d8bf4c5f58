import { readFileSync } from 'node:fs';
import { DatasetError } from './dataset-error.js';
import type { SkippedQuestion, SqlQuestion } from './sql-question.js';

/** Field names of a question file's entries. */
interface QuestionFields {
  sql: string;
  /** A field holding the dataset's own question id, if any. */
  questionId?: string;
}

const FIELDS: Record<'spider' | 'bird', QuestionFields> = {
  spider: { sql: 'query' },
  bird: { sql: 'SQL', questionId: 'question_id' },
};

/**
 * Read a question file (a JSON array) into questions. Extra fields (Spider's token lists, its
 * parsed `sql` tree) are ignored, so slimmed files load; entries missing a question, SQL or
 * db_id are reported in `skipped`, not thrown.
 *
 * @throws DatasetError when the file is not readable JSON or not an array.
 * @example
 * ```ts
 * const { questions, skipped } = readQuestionFile('dev.json', 'spider', 'dev');
 * ```
 */
export function readQuestionFile(
  path: string,
  format: 'spider' | 'bird',
  split: string,
): { questions: SqlQuestion[]; skipped: SkippedQuestion[] } {
  let entries: unknown;
  try {
    entries = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new DatasetError(`cannot read question file ${path}: ${(e as Error).message}`);
  }
  if (!Array.isArray(entries)) {
    throw new DatasetError(`question file ${path} must hold a JSON array of {question, query, db_id} entries`);
  }
  return parseQuestionEntries(entries, format, split);
}

/**
 * Parse question entries already read from JSON. Pure: the same entries give the same ids.
 *
 * @example
 * ```ts
 * parseQuestionEntries([{ question: 'How many?', query: 'SELECT 1', db_id: 'x' }], 'spider', 'dev');
 * // { questions: [{ id: 'dev-0000', … }], skipped: [] }
 * ```
 */
export function parseQuestionEntries(
  entries: readonly unknown[],
  format: 'spider' | 'bird',
  split: string,
): { questions: SqlQuestion[]; skipped: SkippedQuestion[] } {
  const fields = FIELDS[format];
  const width = Math.max(4, String(entries.length - 1).length);
  const questions: SqlQuestion[] = [];
  const skipped: SkippedQuestion[] = [];
  const seen = new Set<string>();
  entries.forEach((entry, index) => {
    const record = (entry !== null && typeof entry === 'object' ? entry : {}) as Record<string, unknown>;
    let id = questionId(record, fields, split, index, width);
    // Ids must stay unique even if a file repeats its own ids.
    if (seen.has(id)) id = `${split}-${String(index).padStart(width, '0')}`;
    seen.add(id);
    const question = record.question;
    const goldSql = record[fields.sql] ?? record.query ?? record.SQL;
    const dbId = record.db_id;
    const missing = [
      typeof question === 'string' && question.trim() !== '' ? undefined : 'question',
      typeof goldSql === 'string' && goldSql.trim() !== '' ? undefined : fields.sql,
      typeof dbId === 'string' && dbId.trim() !== '' ? undefined : 'db_id',
    ].filter((f): f is string => f !== undefined);
    if (missing.length > 0) {
      skipped.push({ id, reason: `entry ${index} has no ${missing.map((m) => `"${m}"`).join(', ')}` });
      return;
    }
    const parsed: SqlQuestion = { id, question: question as string, goldSql: goldSql as string, dbId: dbId as string };
    if (typeof record.difficulty === 'string') parsed.difficulty = record.difficulty;
    if (typeof record.hardness === 'string' && parsed.difficulty === undefined) parsed.difficulty = record.hardness;
    if (typeof record.evidence === 'string' && record.evidence.trim() !== '') parsed.evidence = record.evidence;
    if (Array.isArray(record.tables) && record.tables.every((t) => typeof t === 'string')) {
      parsed.tables = [...(record.tables as string[])];
    }
    questions.push(parsed);
  });
  return { questions, skipped };
}

function questionId(
  record: Record<string, unknown>,
  fields: QuestionFields,
  split: string,
  index: number,
  width: number,
): string {
  if (typeof record.id === 'string' && record.id.trim() !== '') return record.id;
  const own = fields.questionId === undefined ? undefined : record[fields.questionId];
  if (typeof own === 'number' || (typeof own === 'string' && own !== '')) return `${split}-${own}`;
  return `${split}-${String(index).padStart(width, '0')}`;
}
