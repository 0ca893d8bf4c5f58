import { Dict } from '../../../src/gym/spaces/dict.js';
import { Discrete } from '../../../src/gym/spaces/discrete.js';
import { Sequence } from '../../../src/gym/spaces/sequence.js';
import { Text } from '../../../src/gym/spaces/text.js';

/**
 * What the agent sees after each step. The gold SQL and the gold answer are never part of it.
 *
 * @example
 * ```ts
 * const [obs] = await env.reset({ seed: 0 });
 * console.log(obs.question, obs.tables);     // 'How many singers are there?', ['singer', 'concert', ...]
 * console.log(renderObservation(obs));       // the same, as text for a model
 * ```
 */
export interface SqlObservation {
  /** The question to answer. */
  question: string;
  /** Extra knowledge that comes with the question (BIRD's `evidence`); empty when none. */
  evidence: string;
  /** The database's id. */
  dbId: string;
  /** Every table of the database. */
  tables: string[];
  /**
   * Each table's column names, in the order of `tables` (`'id, name, city'`), when the env lists
   * them (`listColumns: true`); empty otherwise.
   */
  columns: string[];
  /** The tables described so far, as text (columns, keys, row counts), in the order described. */
  schema: string;
  /** The output of the last action: a table, a description, or a confirmation; empty after an error. */
  result: string;
  /** What went wrong in the last action and how to call it correctly; empty when it ran. */
  error: string;
  /** Steps taken in this episode. */
  step: number;
  /** Steps left before the episode is truncated. */
  budgetRemaining: number;
  /** One compact line per action taken, e.g. `1. describe(singer) → 7 columns, 6 rows`. */
  history: string[];
}

/**
 * Longest `schema` or `result` text in an observation. Query limits keep results far below it;
 * longer text (huge limits, very wide tables) is cut with a note, so observations stay in the space.
 */
export const MAX_OBSERVATION_TEXT = 1_000_000;

/**
 * `text` cut to `max` characters with a note saying so.
 *
 * @example
 * ```ts
 * capObservationText('x'.repeat(10), 5); // 'xxxxx\n… (cut: 10 characters in all)'
 * ```
 */
export function capObservationText(text: string, max = MAX_OBSERVATION_TEXT): string {
  if (text.length <= max) return text;
  const note = `\n… (cut: ${text.length.toLocaleString('en-US')} characters in all)`;
  return text.slice(0, Math.max(0, max - note.length)) + note;
}

/**
 * The observation space: a {@link Dict} of the fields of {@link SqlObservation}, so that `checkEnv`
 * and remote clients can validate and rebuild observations.
 *
 * @example
 * ```ts
 * sqlObservationSpace(10).contains(obs); // true for every observation of a 10-step episode
 * ```
 */
export function sqlObservationSpace(stepBudget: number) {
  const text = () => new Text({ maxLength: MAX_OBSERVATION_TEXT, minLength: 0, charset: 'any' });
  const line = () => new Text({ maxLength: 100_000, minLength: 0, charset: 'any' });
  return new Dict({
    question: line(),
    evidence: line(),
    dbId: new Text({ maxLength: 1_000, minLength: 0, charset: 'any' }),
    tables: new Sequence(new Text({ maxLength: 1_000, minLength: 0, charset: 'any' })),
    columns: new Sequence(line()),
    schema: text(),
    result: text(),
    error: line(),
    step: new Discrete(stepBudget + 1),
    budgetRemaining: new Discrete(stepBudget + 1),
    history: new Sequence(line()),
  });
}
