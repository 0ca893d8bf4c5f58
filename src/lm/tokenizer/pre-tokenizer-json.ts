import { BYTE_LEVEL_PATTERN } from './byte-level.js';
import { rustWhitespacePattern } from './rust-whitespace.js';

/**
 * Pre-tokenizers of `tokenizer.json` files, rewritten so that the JavaScript tokenizers library
 * cuts text into the pieces Hugging Face's Rust library cuts (see `rustWhitespacePattern`).
 */

type Json = Record<string, unknown>;

function rewritePreTokenizer(node: unknown): unknown {
  if (typeof node !== 'object' || node === null) return node;
  const p = node as Json;
  if (p['type'] === 'Sequence' && Array.isArray(p['pretokenizers'])) {
    return { ...p, pretokenizers: (p['pretokenizers'] as unknown[]).map(rewritePreTokenizer) };
  }
  if (p['type'] === 'Split' && typeof p['pattern'] === 'object' && p['pattern'] !== null) {
    const pattern = p['pattern'] as Json;
    if (typeof pattern['Regex'] === 'string') return { ...p, pattern: { Regex: rustWhitespacePattern(pattern['Regex']) } };
  }
  // ByteLevel with its built-in regex = that regex as an isolated Split, then ByteLevel without
  // one. Only when no prefix space is added: ByteLevel adds it before splitting.
  if (p['type'] === 'ByteLevel' && p['use_regex'] !== false && p['add_prefix_space'] !== true) {
    return {
      type: 'Sequence',
      pretokenizers: [
        { type: 'Split', pattern: { Regex: rustWhitespacePattern(BYTE_LEVEL_PATTERN) }, behavior: 'Isolated', invert: false },
        { ...p, use_regex: false },
      ],
    };
  }
  return node;
}

/**
 * A copy of a `tokenizer.json` object whose pre-tokenizer patterns match whitespace as the
 * Rust library does (see {@link rustWhitespacePattern}); the input is not modified.
 *
 * @example
 * new HfTokenizer(withRustWhitespace(tokenizerJson), config);
 */
export function withRustWhitespace(tokenizerJson: Readonly<Record<string, unknown>>): Record<string, unknown> {
  if (!('pre_tokenizer' in tokenizerJson)) return { ...tokenizerJson };
  return { ...tokenizerJson, pre_tokenizer: rewritePreTokenizer(tokenizerJson['pre_tokenizer']) };
}
