/**
 * Makes the JavaScript tokenizers library split text where Hugging Face's Rust `tokenizers`
 * (what transformers runs) splits it.
 *
 * Pre-tokenizer patterns lean on `\s`, and the two regex engines disagree about it: in
 * JavaScript `\s` matches U+FEFF (the byte-order mark) and not U+0085 (NEXT LINE); in the
 * Rust/Oniguruma engines `\s` is Unicode's White_Space property, which is the other way round.
 * A string with a BOM or a NEL next to spaces is therefore cut into different pieces, and BPE
 * gives different ids (found by test/lm/transformers-parity.test.ts). The fix rewrites each
 * pattern's `\s`/`\S` into explicit White_Space classes before the JavaScript library compiles
 * it (see `withRustWhitespace`, and `BYTE_LEVEL_SPLIT` for this package's own trainer).
 */

/** Unicode White_Space (what Rust's and Oniguruma's `\s` match), as class contents. */
const WHITE_SPACE = '\t\n\u000b\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000';

/**
 * Rewrites `\s` and `\S` in a regex source to explicit Unicode White_Space classes. Inside a
 * character class `\s` becomes the class contents; a `\S` inside a class has no such spelling
 * and is left as it is (no tokenizer we know of writes one).
 *
 * @example
 * rustWhitespacePattern('\\s+(?!\\S)'); // '[\t\n…\u3000]+(?![^\t\n…\u3000])'
 */
export function rustWhitespacePattern(source: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const ch = source[i]!;
    if (ch === '\\' && i + 1 < source.length) {
      const next = source[i + 1]!;
      i++;
      if (next === 's') out += inClass ? WHITE_SPACE : `[${WHITE_SPACE}]`;
      else if (next === 'S' && !inClass) out += `[^${WHITE_SPACE}]`;
      else out += ch + next;
      continue;
    }
    if (ch === '[' && !inClass) inClass = true;
    else if (ch === ']' && inClass) inClass = false;
    out += ch;
  }
  return out;
}
