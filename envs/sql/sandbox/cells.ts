import type { SqlCell } from './query-result.js';

const MIN_SAFE_BIGINT = BigInt(Number.MIN_SAFE_INTEGER);
const MAX_SAFE_BIGINT = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * Turn a value read from SQLite (integers as BigInts, or as numbers when known to be within
 * ±2^53) into a cell that survives JSON, MessagePack and structured clone unchanged: integers
 * within ±2^53 become numbers, larger ones their decimal string; ±Infinity becomes
 * "Infinity"/"-Infinity"; blobs become SQLite's literal `x'…'`.
 *
 * @example
 * ```ts
 * toSqlCell(42n);                    // 42
 * toSqlCell(2n ** 64n);              // '18446744073709551616'
 * toSqlCell(Buffer.from([1, 255]));  // "x'01ff'"
 * ```
 */
export function toSqlCell(value: unknown): SqlCell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  if (typeof value === 'bigint') {
    return value >= MIN_SAFE_BIGINT && value <= MAX_SAFE_BIGINT ? Number(value) : value.toString();
  }
  if (value instanceof Uint8Array) {
    return `x'${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex')}'`;
  }
  return String(value);
}

/**
 * Approximate bytes a cell costs once rendered, used for the result-size cap. Blobs are sized
 * before conversion (two hex digits per byte) so that a huge blob is refused without rendering it.
 *
 * @example
 * ```ts
 * renderedCellBytes('abc'); // 5
 * ```
 */
export function renderedCellBytes(value: unknown): number {
  if (typeof value === 'string') return value.length + 2;
  if (value instanceof Uint8Array) return value.byteLength * 2 + 3;
  return 8;
}

/**
 * Cut a text cell to `maxChars` characters, marking the cut with "…"; other cells pass through.
 *
 * @example
 * ```ts
 * cutCell('abcdef', 3); // { cell: 'abc…', cut: true }
 * ```
 */
export function cutCell(cell: SqlCell, maxChars: number): { cell: SqlCell; cut: boolean } {
  if (typeof cell !== 'string' || cell.length <= maxChars) return { cell, cut: false };
  return { cell: `${cell.slice(0, maxChars)}…`, cut: true };
}

/**
 * A raw SQLite value as an agent should read it: rendered with {@link toSqlCell}, text and blobs
 * cut to `maxChars` (numbers, even big integers rendered as strings, are never cut).
 *
 * @example
 * ```ts
 * displayCell('a long text', 4); // { cell: 'a lo…', cut: true }
 * displayCell(2n ** 64n, 4);     // { cell: '18446744073709551616', cut: false }
 * ```
 */
export function displayCell(raw: unknown, maxChars: number): { cell: SqlCell; cut: boolean } {
  const cell = toSqlCell(raw);
  if (typeof raw !== 'string' && !(raw instanceof Uint8Array)) return { cell, cut: false };
  return cutCell(cell, maxChars);
}
