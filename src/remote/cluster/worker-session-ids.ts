/**
 * Session ids under `sqlenv serve --workers N` name the worker that owns them (`w<index>-<uuid>`),
 * so any worker can tell where an HTTP session lives without shared state.
 */

/**
 * The prefix of the session ids worker `index` opens.
 *
 * @example
 * ```ts
 * workerSessionPrefix(2); // 'w2-'
 * ```
 */
export function workerSessionPrefix(index: number): string {
  if (!Number.isSafeInteger(index) || index < 0) throw new RangeError(`a worker index is an integer ≥ 0, got ${index}`);
  return `w${index}-`;
}

/**
 * The index of the worker that opened session `id`, or `undefined` for ids no worker made
 * (e.g. from a single-process server): those are answered wherever they arrive.
 *
 * @example
 * ```ts
 * workerOfSession('w2-4f1c…'); // 2
 * workerOfSession('4f1c…');    // undefined
 * ```
 */
export function workerOfSession(id: string): number | undefined {
  const match = /^w(\d{1,6})-/.exec(id);
  return match ? Number(match[1]) : undefined;
}
