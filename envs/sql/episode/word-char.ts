/** What a word of a question or a conversation is made of, for whole-word matches. */

/**
 * Whether `c` is a letter or a digit of any script.
 *
 * @example
 * ```ts
 * isWordChar('é'); // true
 * isWordChar("'"); // false
 * ```
 */
export const isWordChar = (c: string | undefined): boolean => c !== undefined && /[\p{L}\p{N}]/u.test(c);
