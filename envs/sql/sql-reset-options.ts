import { unknownKeys } from '../../src/base/unknown-keys.js';
import { InvalidResetOptionsError, type ResetOptionProblem } from '../../src/gym/invalid-reset-options-error.js';

/**
 * `reset()` options of SQLEnv. Each key has a Python spelling too (`question_id`, `db_id`), so a
 * dataset row or a Python client's options work as written.
 */
export interface SqlResetOptions {
  /** Play this question (of `split`, or of the env's split). */
  questionId?: string;
  /** `questionId` as Python spells it. */
  question_id?: string;
  /** Pick among this database's questions. */
  dbId?: string;
  /** `dbId` as Python spells it. */
  db_id?: string;
  /** Play a question of this split of the env's dataset (default: the env's `split`). */
  split?: string;
}

/** {@link SqlResetOptions} with each key in one spelling. */
export interface ResolvedSqlResetOptions {
  questionId?: string;
  dbId?: string;
  split?: string;
}

/** Every key SQLEnv's reset reads (the compiler checks the list against SqlResetOptions). */
const RESET_OPTION_NAMES = Object.keys({
  questionId: 0, question_id: 0, dbId: 0, db_id: 0, split: 0,
} satisfies Record<keyof SqlResetOptions, 0>);

/** Longest value a reset option may hold: ids, database names and splits are short, and a bound keeps the closest-name search cheap. */
const MAX_OPTION_CHARS = 256;

/** The keys that name the same option, the TypeScript spelling first. */
const SPELLINGS = [['questionId', 'question_id'], ['dbId', 'db_id'], ['split']] as const;

/**
 * Check SQLEnv's `reset()` options and bring each key to one spelling: an unknown key, a value
 * that is not a non-empty string, or two spellings of one key with different values is an
 * {@link InvalidResetOptionsError} that says what to pass instead.
 *
 * @example
 * ```ts
 * resolveSqlResetOptions({ question_id: 'smoke-0018', split: 'smoke' }); // { questionId: 'smoke-0018', split: 'smoke' }
 * resolveSqlResetOptions({ spilt: 'eval' }); // throws: unknown reset option "spilt" (did you mean "split"?)
 * ```
 */
export function resolveSqlResetOptions(options: unknown): ResolvedSqlResetOptions {
  if (options === undefined || options === null) return {};
  if (typeof options !== 'object' || Array.isArray(options)) {
    throw new InvalidResetOptionsError([{ option: 'options', message: `SQLEnv's reset options are an object such as { questionId: 'train-0003' }, got ${Array.isArray(options) ? 'a list' : typeof options}` }]);
  }
  const given = options as Record<string, unknown>;
  const problems: ResetOptionProblem[] = [];
  for (const key of Object.keys(given)) {
    if (key === 'seed') {
      problems.push({ option: key, message: 'seed is an argument of reset itself, not an option: reset({ seed: 3 }) (Python: reset(seed=3))' });
    } else if (!RESET_OPTION_NAMES.includes(key)) {
      const [named] = unknownKeys({ [key.slice(0, MAX_OPTION_CHARS)]: 0 }, RESET_OPTION_NAMES);
      problems.push({ option: key, message: `unknown SQLEnv reset option ${named!}; SQLEnv's reset reads ${RESET_OPTION_NAMES.join(', ')}` });
    }
  }
  const resolved: ResolvedSqlResetOptions = {};
  for (const names of SPELLINGS) {
    const values = names.filter((n) => given[n] !== undefined && given[n] !== null).map((n) => [n, given[n]] as const);
    for (const [name, value] of values) {
      if (typeof value !== 'string' || value.trim() === '') {
        problems.push({ option: name, message: `reset option ${name} must be a non-empty string, got ${preview(value)}` });
      } else if (value.length > MAX_OPTION_CHARS) {
        problems.push({ option: name, message: `reset option ${name} is ${value.length} characters long; ids, databases and splits have at most ${MAX_OPTION_CHARS}` });
      }
    }
    const distinct = new Set(values.map(([, v]) => v));
    if (distinct.size > 1) {
      problems.push({ option: names[0], message: `reset options ${values.map(([n, v]) => `${n}=${preview(v)}`).join(' and ')} disagree: pass one of them` });
    }
    const value = values[0]?.[1];
    if (typeof value === 'string' && value.trim() !== '' && value.length <= MAX_OPTION_CHARS) resolved[names[0]] = value;
  }
  if (problems.length > 0) throw new InvalidResetOptionsError(problems);
  return resolved;
}

/** A client's value, short enough for a message (never throws: bigints, cycles). */
function preview(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? typeof value;
  } catch {
    text = typeof value;
  }
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
