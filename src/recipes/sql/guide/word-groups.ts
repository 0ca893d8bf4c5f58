/**
 * Strings grouped by their first character. A guide is asked about every token of the vocabulary at each
 * step where it speaks, so the test "does this token start one of these strings" looks at one group only.
 */

/** Strings grouped by their first character. */
export type WordGroups = ReadonlyMap<string, readonly string[]>;

/**
 * Groups `strings` by their first character (empty strings are left out).
 *
 * @example
 * ```ts
 * startsOneOf(byFirstChar(['port', 'chef']), 'po'); // true
 * ```
 */
export function byFirstChar(strings: Iterable<string>): WordGroups {
  const out = new Map<string, string[]>();
  for (const s of strings) {
    if (s.length === 0) continue;
    const list = out.get(s[0]!);
    if (list) list.push(s);
    else out.set(s[0]!, [s]);
  }
  return out;
}

/** Whether `text` is a prefix of one of the grouped strings. */
export function startsOneOf(groups: WordGroups, text: string): boolean {
  return groups.get(text[0]!)?.some((s) => s.startsWith(text)) ?? false;
}

/**
 * Every prefix of every string (the strings included): "does this text start one of them" as one set lookup, for
 * checks that run over a whole vocabulary with one fixed list of words.
 *
 * @example
 * ```ts
 * prefixSet(['port']).has('po'); // true
 * ```
 */
export function prefixSet(strings: Iterable<string>): ReadonlySet<string> {
  const out = new Set<string>();
  for (const s of strings) for (let n = 1; n <= s.length; n++) out.add(s.slice(0, n));
  return out;
}

/**
 * Whether token text `t` goes on with `rest` (a text the guide wants written next), or finishes it and goes beyond.
 *
 * @example
 * ```ts
 * continuesText('FROM t"', 'FR'); // true
 * continuesText('FROM t"', 'FROM t"}}'); // true
 * ```
 */
export const continuesText = (rest: string, t: string): boolean => rest.startsWith(t) || t.startsWith(rest);
