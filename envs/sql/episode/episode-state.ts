import type { SqlQuestion } from '../datasets/sql-question.js';
import type { GoldAnswer } from '../judge/judge-answer.js';
import { capObservationText, type SqlObservation } from '../observation/sql-observation.js';
import type { GoldProfile } from '../reward/potential.js';
import { memoGoldProfile } from './result-memo.js';
import { sqlLiterals } from './sql-literals.js';

/**
 * Everything one episode has accumulated: the question and its database, what has been shown,
 * which actions and results were already seen (for the `repeat` and `new_info` rewards), the
 * potential Φ of the latest successful query, and whether the episode has ended.
 */
export class EpisodeState {
  step = 0;
  /** Φ of the latest successful query result (0 before any). */
  phi = 0;
  terminated = false;
  truncated = false;
  isCorrect: boolean | undefined = undefined;
  /** A query of this episode returned the gold result (reported at the end; never shown to the agent). */
  goldResultSeen = false;
  /** The SQL of the latest `query` call that ran. */
  lastQuery: string | undefined = undefined;
  /** The answer given is the latest query's SQL (see `sameSql`); false until an answer is given. */
  answerRepeatsQuery = false;
  /** A query of this episode wrote every literal value of the gold SQL (see `writesLiterals`), whether it ran or not. */
  goldLiteralsWritten = false;
  /** The latest query failed or found nothing (no rows, or one row of zeros and NULLs). */
  lastQueryFailed = false;
  /** A query followed a query that failed or found nothing. */
  retried = false;
  /** A query that followed a failed or empty one returned the gold result. */
  recovered = false;
  result = '';
  error = '';
  readonly history: string[] = [];
  /** Rendered descriptions by table, in the order described. */
  private readonly described = new Map<string, string>();
  /** Keys of tables and results already shown (`describe:t`, `sample:t`, `result:<hash>`). */
  private readonly seen = new Set<string>();
  /** Keys of actions already taken. */
  private readonly actions = new Set<string>();
  private goldProfileValue: GoldProfile | undefined;
  private goldLiteralsValue: string[] | undefined;

  constructor(
    readonly question: SqlQuestion,
    /** The gold SQL and its full result: for the judge and Φ, never shown to the agent. */
    readonly gold: GoldAnswer,
    readonly dbPath: string,
    readonly tables: readonly string[],
    readonly stepBudget: number,
    /** Each table's column names (`'id, name'`), in the order of `tables`, when the env lists them; else empty. */
    readonly columns: readonly string[] = [],
  ) {}

  /** The gold result profiled for Φ, built on the first query of the episode and kept. */
  get goldProfile(): GoldProfile {
    return (this.goldProfileValue ??= memoGoldProfile(this.gold.rows));
  }

  /** The gold SQL's literal values (see `sqlLiterals`), read on the first query of the episode and kept. */
  get goldLiterals(): readonly string[] {
    return (this.goldLiteralsValue ??= sqlLiterals(this.gold.sql));
  }

  get done(): boolean {
    return this.terminated || this.truncated;
  }

  get budgetRemaining(): number {
    return Math.max(0, this.stepBudget - this.step);
  }

  /** Record an action key; true when the same action was taken before in this episode. */
  markAction(key: string): boolean {
    const repeated = this.actions.has(key);
    this.actions.add(key);
    return repeated;
  }

  /** How many distinct tables and results have been shown (the novelty potential's count). */
  get seenCount(): number {
    return this.seen.size;
  }

  /** Record that something was shown; true the first time. */
  markSeen(key: string): boolean {
    if (this.seen.has(key)) return false;
    this.seen.add(key);
    return true;
  }

  addDescription(table: string, text: string): void {
    if (!this.described.has(table)) this.described.set(table, text);
  }

  observation(): SqlObservation {
    return {
      question: this.question.question,
      evidence: this.question.evidence ?? '',
      dbId: this.question.dbId,
      tables: [...this.tables],
      columns: [...this.columns],
      schema: capObservationText([...this.described.values()].join('\n\n')),
      result: capObservationText(this.result),
      error: this.error,
      step: this.step,
      budgetRemaining: this.budgetRemaining,
      history: [...this.history],
    };
  }
}
