/**
 * A 32-bit FNV-1a hash of a string, used to derive independent seeds for each database,
 * table and question template from names, so adding one does not shift the others' streams.
 *
 * @example
 * ```ts
 * stableHash('concerts:singer'); // always the same non-negative integer
 * ```
 */
export function stableHash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}
