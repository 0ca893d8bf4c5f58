/**
 * The contract between question templates and the instantiator: a template looks at a
 * database (through a {@link DbView}) and proposes drafts; the instantiator runs each draft's
 * gold SQL and keeps only the ones whose answers pass the quality gates.
 */
import type { Rng } from '../../../src/base/rng.js';
import type { DbView } from './db-view.js';

/** Spider's difficulty tiers. */
export type Difficulty = 'easy' | 'medium' | 'hard' | 'extra';

/** The tiers in increasing order of difficulty. */
export const DIFFICULTIES: readonly Difficulty[] = ['easy', 'medium', 'hard', 'extra'];

/** A proposed question before its gold SQL has been checked against the database. */
export interface QuestionDraft {
  readonly question: string;
  readonly query: string;
  /** Tables the gold SQL reads. */
  readonly tables: readonly string[];
  /**
   * For "top k" questions: a query returning the ordering value of the first k+1 rows; the
   * draft is dropped when rows k and k+1 tie, because then the gold answer would be arbitrary.
   */
  readonly tie?: { readonly probe: string; readonly k: number };
}

/** A family of questions with one SQL structure and several phrasings. */
export interface QuestionTemplate {
  /** Stable id, e.g. `easy/count-by-category`; part of each question's seed. */
  readonly id: string;
  readonly difficulty: Difficulty;
  /** How many questions of this template one database may keep (default 4). */
  readonly perDatabase?: number;
  drafts(view: DbView, rng: Rng): QuestionDraft[];
}
