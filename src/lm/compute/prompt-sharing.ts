/** Prompt sharing in generation: rows with the same prompt (a GRPO group's samples) prefill it once. */

/**
 * The distinct prompts of a batch and, for every row, the index of its prompt; undefined when
 * all prompts differ (nothing to share).
 *
 * @example
 * sharedRows([[1, 2], [3], [1, 2]]); // { prompts: [[1, 2], [3]], rowOf: [0, 1, 0] }
 */
export function sharedRows(prompts: readonly (readonly number[])[]): { prompts: (readonly number[])[]; rowOf: number[] } | undefined {
  const index = new Map<string, number>();
  const distinct: (readonly number[])[] = [];
  const rowOf = prompts.map((p) => {
    const key = p.join(',');
    let i = index.get(key);
    if (i === undefined) {
      i = distinct.length;
      index.set(key, i);
      distinct.push(p);
    }
    return i;
  });
  return distinct.length < prompts.length ? { prompts: distinct, rowOf } : undefined;
}

/**
 * Whether rows form runs of one size in group order: rowOf = [0, 0, …, 1, 1, …, U − 1, …].
 *
 * @example
 * consecutiveGroups([0, 0, 1, 1], 2); // true
 */
export function consecutiveGroups(rowOf: readonly number[], groups: number): boolean {
  const size = rowOf.length / groups;
  return Number.isInteger(size) && rowOf.every((u, b) => u === Math.floor(b / size));
}
