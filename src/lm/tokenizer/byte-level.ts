import { rustWhitespacePattern } from './rust-whitespace.js';

/**
 * The byte-level alphabet of GPT-2-style BPE: every byte maps to one printable Unicode
 * character, so that any UTF-8 text becomes a string of "visible" symbols (a space becomes
 * `Ġ`, a newline `Ċ`). Tokenizers that declare a `ByteLevel` pre-tokenizer and decoder expect
 * exactly this table.
 */

function buildByteToChar(): string[] {
  const table: string[] = new Array<string>(256);
  const printable = (b: number): boolean => (b >= 0x21 && b <= 0x7e) || (b >= 0xa1 && b <= 0xac) || (b >= 0xae && b <= 0xff);
  let next = 0;
  for (let b = 0; b < 256; b++) {
    table[b] = String.fromCodePoint(printable(b) ? b : 256 + next++);
  }
  return table;
}

/** `BYTE_TO_CHAR[b]` is the symbol of byte `b`. */
export const BYTE_TO_CHAR: readonly string[] = Object.freeze(buildByteToChar());

/**
 * Maps the UTF-8 bytes of `text` to byte-level symbols.
 *
 * @example
 * toByteLevel(' hi'); // 'Ġhi'
 */
export function toByteLevel(text: string): string {
  let out = '';
  for (const b of Buffer.from(text, 'utf8')) out += BYTE_TO_CHAR[b];
  return out;
}

/**
 * The GPT-2 pre-tokenization pattern (contractions, letter runs, digit runs, punctuation
 * runs, whitespace), which the `ByteLevel` pre-tokenizer applies with `use_regex: true`, in
 * the Rust library's regex syntax.
 */
export const BYTE_LEVEL_PATTERN = "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)|\\s+";

/**
 * {@link BYTE_LEVEL_PATTERN} compiled for JavaScript, with `\s` meaning what it means in the
 * Rust library (Unicode White_Space), so the trainer cuts words where transformers does.
 */
export const BYTE_LEVEL_SPLIT = new RegExp(rustWhitespacePattern(BYTE_LEVEL_PATTERN), 'gu');

/**
 * Splits text into the pieces BPE merges never cross.
 *
 * @example
 * preTokenize('SELECT name FROM t'); // ['SELECT', ' name', ' FROM', ' t']
 */
export function preTokenize(text: string): string[] {
  return text.match(BYTE_LEVEL_SPLIT) ?? [];
}
