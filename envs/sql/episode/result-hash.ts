/**
 * A 64-bit fingerprint of a query result (its column names and every row), for the novelty
 * reward: equal results give equal hashes, different ones different hashes with overwhelming
 * probability. It lives only in memory, as the `result:<hash>` key of one episode's seen set.
 *
 * The result is read as a stream of 32-bit words with an unambiguous encoding (the column names
 * as a first row; a tag and the length before every row; a header word before every cell with
 * its kind and, for text, its length, followed by its characters two to a word; numbers by
 * value: small integers in the header, others by their IEEE bits, -0 as 0), with no
 * intermediate strings, and the stream goes through two independent 32-bit hashes
 * (MurmurHash3's and xxHash32's rounds, different seeds) concatenated. Not cryptographic:
 * results come from the agent's own queries, and a collision would only withhold one small
 * novelty bonus.
 *
 * @example
 * ```ts
 * hashResult(['id', 'name'], [[1, 'Ann'], [2, null]]); // 16 hex digits
 * ```
 */
export function hashResult(columns: readonly string[], rows: readonly (readonly unknown[])[]): string {
  let a = SEED_A;
  let b = SEED_B;
  let n = 0;
  for (let r = -1; r < rows.length; r++) {
    const row: readonly unknown[] = r < 0 ? columns : rows[r]!;
    a = roundA(a, ROW_WORD);
    b = roundB(b, ROW_WORD);
    a = roundA(a, row.length | 0); // an array's length fits 32 bits
    b = roundB(b, row.length | 0);
    n += 2;
    for (let j = 0; j < row.length; j++) {
      let v = r < 0 ? String(row[j]) : row[j];
      let w: number;
      if (typeof v === 'number') {
        // -0 is 0 here (the same cell): -0 | 0 === 0, and 0 === -0.
        if ((v | 0) === v && v >= -SMALL && v < SMALL) w = ((v | 0) << 2) | KIND_INT;
        else if (v !== v) w = NAN_WORD;
        else {
          f64[0] = v;
          a = roundA(roundA(a, FLOAT_WORD), u32[0]!);
          b = roundB(roundB(b, FLOAT_WORD), u32[0]!);
          w = u32[1]!;
          n += 2;
        }
      } else if (typeof v === 'string') w = -1;
      else if (v === null) w = NULL_WORD;
      else if (v === undefined) w = UNDEFINED_WORD;
      else {
        // Not from the sandbox (its cells are null, numbers and text): its type and value as text.
        a = roundA(a, OTHER_WORD);
        b = roundB(b, OTHER_WORD);
        n++;
        v = `${typeof v}:${typeof v === 'object' ? stableJson(v) : String(v)}`;
        w = -1;
      }
      if (typeof v !== 'string') {
        a = roundA(a, w);
        b = roundB(b, w);
        n++;
        continue;
      }
      const len = v.length;
      if (len < SMALL) {
        w = (len << 2) | KIND_TEXT;
        a = roundA(a, w);
        b = roundB(b, w);
        n++;
      } else {
        a = roundA(roundA(roundA(a, LONG_TEXT_WORD), len | 0), (len / 2 ** 32) | 0);
        b = roundB(roundB(roundB(b, LONG_TEXT_WORD), len | 0), (len / 2 ** 32) | 0);
        n += 3;
      }
      for (let i = 0; i < len; i += 2) {
        w = i + 1 < len ? v.charCodeAt(i) | (v.charCodeAt(i + 1) << 16) : v.charCodeAt(i);
        a = roundA(a, w);
        b = roundB(b, w);
      }
      n += (len + 1) >>> 1;
    }
  }
  return hex(fmix32(a ^ n)) + hex(avalanche32(b ^ n));
}

// Cell headers: a kind in the low 2 bits, and a small integer or a text's length in the other 30.
const KIND_INT = 1;
const KIND_TEXT = 2;
const KIND_OTHER = 3;
/** Numbers that fit a header: -2^29 ≤ x < 2^29 (and so does any V8 string's length). */
const SMALL = 2 ** 29;
const NULL_WORD = (0 << 2) | KIND_OTHER;
const FLOAT_WORD = (1 << 2) | KIND_OTHER; // then its two IEEE words
const NAN_WORD = (2 << 2) | KIND_OTHER;
const UNDEFINED_WORD = (3 << 2) | KIND_OTHER;
const OTHER_WORD = (4 << 2) | KIND_OTHER; // then a text: its type and value
const LONG_TEXT_WORD = (5 << 2) | KIND_OTHER; // then the length in two words, then the characters
/** Before every row, then its length as a full word. */
const ROW_WORD = 0x524f5753;

const SEED_A = 0x9747b28c | 0;
const SEED_B = 0x165667b1;

const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);

/** One round of MurmurHash3_x86_32. */
function roundA(h: number, w: number): number {
  let k = Math.imul(w, 0xcc9e2d51);
  k = (k << 15) | (k >>> 17);
  k = Math.imul(k, 0x1b873593);
  h ^= k;
  h = (h << 13) | (h >>> 19);
  return (Math.imul(h, 5) + 0xe6546b64) | 0;
}

/** One round of xxHash32. */
function roundB(h: number, w: number): number {
  h = (h + Math.imul(w, 0x85ebca77)) | 0;
  h = (h << 13) | (h >>> 19);
  return Math.imul(h, 0x9e3779b1);
}

function stableJson(v: object): string {
  if (ArrayBuffer.isView(v)) return `${v.constructor.name}:${Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('hex')}`;
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
}

/** MurmurHash3's finaliser. */
function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/** xxHash32's finaliser. */
function avalanche32(h: number): number {
  h ^= h >>> 15;
  h = Math.imul(h, 0x85ebca77);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae3d);
  return h ^ (h >>> 16);
}

function hex(h: number): string {
  return (h >>> 0).toString(16).padStart(8, '0');
}
