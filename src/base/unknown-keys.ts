import { closestMatches } from './edit-distance.js';

/**
 * The keys of `options` that are not in `known`, each quoted with the closest known name, for
 * errors that refuse a misspelt option instead of ignoring it.
 *
 * @example
 * ```ts
 * unknownKeys({ stepbudget: 5 }, ['stepBudget', 'split']); // ['"stepbudget" (did you mean "stepBudget"?)']
 * ```
 */
export function unknownKeys(options: object, known: readonly string[]): string[] {
  return Object.keys(options)
    .filter((k) => !known.includes(k))
    .map((k) => `"${k}" (did you mean "${closestMatches(k, known, 1)[0]}"?)`);
}
