/**
 * Runs question templates against a built database and keeps the drafts whose gold SQL passes
 * the quality gates: it executes, its answer is small and informative, a "top k" ordering has
 * no tie at its cut, the question text holds no SQL, and neither the question nor the SQL
 * repeats one already kept.
 */
import type Database from 'better-sqlite3';
import { Rng } from '../../../src/base/rng.js';
import { goldResultProblem } from '../../lib/gold-quality.js';
import { normalizeQuestion, sqlInQuestion } from '../../lib/question-lint.js';
import { stableHash } from '../stable-hash.js';
import type { DbView } from './db-view.js';
import type { Difficulty, QuestionDraft, QuestionTemplate } from './template.js';
import { DataError } from '../../lib/data-error.js';

/** A question whose gold SQL has been run and accepted. */
export interface AcceptedQuestion {
  readonly question: string;
  readonly query: string;
  readonly dbId: string;
  readonly difficulty: Difficulty;
  readonly tables: readonly string[];
  readonly template: string;
  /** The gold result rows, kept for the build report and tests. */
  readonly answer: readonly (readonly unknown[])[];
}

/** Counts of drafts dropped, by reason, for the build log. */
export type RejectionCounts = Map<string, number>;

/** Texts and queries already used, shared across databases so questions never repeat. */
export interface SeenSet {
  readonly questions: Set<string>;
  readonly queries: Set<string>;
}

/** Default number of questions one template may contribute per database. */
export const DEFAULT_PER_DATABASE = 4;

/**
 * Instantiate every template on one database.
 *
 * @example
 * ```ts
 * const kept = instantiateTemplates(view, conn, templates, 2024, { questions: new Set(), queries: new Set() }, new Map());
 * ```
 */
export function instantiateTemplates(
  view: DbView, conn: Database.Database, templates: readonly QuestionTemplate[], seed: number,
  seen: SeenSet, rejected: RejectionCounts,
): AcceptedQuestion[] {
  const out: AcceptedQuestion[] = [];
  const reject = (reason: string) => rejected.set(reason, (rejected.get(reason) ?? 0) + 1);
  for (const template of templates) {
    const rng = new Rng(stableHash(`${seed}:${view.id}:${template.id}`));
    const drafts = rng.shuffle(template.drafts(view, rng));
    const quota = template.perDatabase ?? DEFAULT_PER_DATABASE;
    let kept = 0;
    for (const draft of drafts) {
      if (kept >= quota) break;
      const problem = draftProblem(draft, conn, seen);
      if (problem) { reject(`${template.difficulty}:${problem}`); continue; }
      const answer = run(conn, draft.query);
      seen.questions.add(normalizeQuestion(draft.question));
      seen.queries.add(`${view.id}\u0000${draft.query}`);
      out.push({
        question: draft.question, query: draft.query, dbId: view.id, difficulty: template.difficulty,
        tables: [...new Set(draft.tables)], template: template.id, answer,
      });
      kept++;
    }
  }
  return out;

  function draftProblem(draft: QuestionDraft, db: Database.Database, used: SeenSet): string | undefined {
    if (used.queries.has(`${view.id}\u0000${draft.query}`)) return 'duplicate query';
    if (used.questions.has(normalizeQuestion(draft.question))) return 'duplicate question';
    const leaks = sqlInQuestion(draft.question);
    if (leaks.length) throw new DataError(`template question contains SQL (${leaks.join(', ')}): ${draft.question}`);
    const rows = run(db, draft.query);
    const bad = goldResultProblem(rows);
    if (bad) return bad;
    if (draft.tie) {
      const probe = run(db, draft.tie.probe);
      const firstValues = probe.slice(0, draft.tie.k + 1).map((r) => r[0]);
      if (new Set(firstValues).size < firstValues.length) return 'tie at cut';
    }
    return undefined;
  }
}

/** A template produced SQL that SQLite rejects: a bug in the template, never a data property. */
export class TemplateSqlError extends DataError {
  override readonly name = 'TemplateSqlError';
}

function run(conn: Database.Database, sql: string): unknown[][] {
  try {
    return conn.prepare(sql).raw(true).all() as unknown[][];
  } catch (err) {
    throw new TemplateSqlError(`gold SQL failed (${(err as Error).message}); fix the template that wrote: ${sql}`);
  }
}
