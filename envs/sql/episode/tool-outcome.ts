import type { SqlActionError } from '../actions/action-types.js';
import type { ActionRepair } from '../actions/action-types.js';
import type { SqlFeedback } from '../feedback/sql-feedback.js';
import type { SqlResultData } from './result-data.js';

/** What running one tool call produced. */
export type ToolOutcome =
  | {
      ok: true;
      /** The text shown as the observation's `result`. */
      text: string;
      /** One-line summary for the history, e.g. `7 columns, 6 rows`. */
      summary: string;
      /** Key of what was shown, for the `new_info` reward; none for `answer`, which shows nothing new. */
      infoKey?: string;
      /** The table a `describe` showed, added to the observation's schema. */
      describedTable?: string;
      /** A successful query's result as data (the rows its text table shows), for `info.result`. */
      resultData?: SqlResultData;
      /** A successful query's full rows, for the progress potential. */
      queryRows?: readonly (readonly unknown[])[];
      /** Whether a query's rows are the gold result (as the judge would score them as an SQL answer). */
      matchesGold?: boolean;
      /** A query found nothing: no rows, or one row of zeros and NULLs (`foundNothing`). */
      foundNothing?: boolean;
      /** Set by `answer`. */
      verdict?: { correct: boolean; reason: string };
      /** Repairs made while running (a table name matched case-insensitively). */
      repairs?: ActionRepair[];
      /** What a query that found nothing compared with values no row holds (its text is in `text`). */
      feedback?: SqlFeedback[];
    }
  | {
      ok: false;
      error: SqlActionError;
      /** An `answer` whose SQL failed still ends the episode, as a wrong answer. */
      verdict?: { correct: boolean; reason: string };
      repairs?: ActionRepair[];
      /** The unknown table or column the error names, with what exists (its text is in `error.message`). */
      feedback?: SqlFeedback[];
    };
