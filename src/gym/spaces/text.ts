import type { JSONSchema } from './space.js';
import { Space } from './space.js';

/** Gymnasium's default `Text` alphabet: ASCII letters and digits. */
export const DEFAULT_TEXT_CHARSET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** The characters `sample()` draws from when the charset is `'any'`: printable ASCII. */
const PRINTABLE_ASCII = Array.from({ length: 0x7f - 0x20 }, (_, i) => String.fromCharCode(0x20 + i)).join('');

/** Options of {@link Text}. */
export interface TextOptions {
  /** Longest member, in Unicode code points. */
  maxLength: number;
  /** Shortest member (default 1, as Gymnasium; use 0 to allow the empty string). */
  minLength?: number;
  /** Allowed characters, or `'any'` to accept every string (default {@link DEFAULT_TEXT_CHARSET}). */
  charset?: string | 'any';
  seed?: number;
}

/** Restricts {@link Text.sample}: a fixed length and/or which charset characters may appear. */
export interface TextMask {
  length?: number;
  /** One entry per charset character (not available with `charset: 'any'`). */
  charsetMask?: readonly (boolean | number)[];
}

/**
 * Strings of bounded length over a character set, as Gymnasium's `Text`. Lengths count Unicode
 * code points, as JSON Schema's `minLength`/`maxLength` do.
 *
 * With `charset: 'any'` every string of the right length is a member (what language-model
 * observations and actions need); `sample()` then draws printable ASCII.
 *
 * @example
 * ```ts
 * const word = new Text({ maxLength: 5, charset: 'abc' });
 * word.sample();            // e.g. 'cab'
 * word.contains('abd');     // false: 'd' is not in the charset
 * new Text({ maxLength: 4096, minLength: 0, charset: 'any' }).contains(''); // true
 * ```
 */
export class Text extends Space<string, TextMask> {
  readonly maxLength: number;
  readonly minLength: number;
  readonly charset: string | 'any';
  private readonly characters: readonly string[];
  private readonly allowed: ReadonlySet<string> | undefined;

  constructor(options: TextOptions) {
    super(options.seed);
    this.maxLength = options.maxLength;
    this.minLength = options.minLength ?? 1;
    this.charset = options.charset ?? DEFAULT_TEXT_CHARSET;
    if (!Number.isSafeInteger(this.maxLength) || !Number.isSafeInteger(this.minLength) || this.minLength < 0 || this.minLength > this.maxLength) {
      throw new RangeError(`Text needs integers 0 <= minLength <= maxLength, got minLength ${this.minLength} and maxLength ${this.maxLength}`);
    }
    if (this.charset === 'any') {
      this.characters = [...PRINTABLE_ASCII];
      this.allowed = undefined;
    } else {
      this.characters = [...new Set(this.charset)];
      if (this.characters.length === 0 && this.minLength > 0) throw new RangeError('Text with an empty charset can only hold the empty string (minLength 0)');
      this.allowed = new Set(this.characters);
    }
  }

  sample(mask?: TextMask): string {
    const length = mask?.length ?? this.minLength + this.rng.int(this.maxLength - this.minLength + 1);
    if (!Number.isSafeInteger(length) || length < this.minLength || length > this.maxLength) {
      throw new RangeError(`Text mask length ${length} is outside [${this.minLength}, ${this.maxLength}]`);
    }
    let pool = this.characters;
    if (mask?.charsetMask) {
      if (this.charset === 'any') throw new RangeError("Text charsetMask needs an explicit charset, not 'any'");
      if (mask.charsetMask.length !== this.characters.length) {
        throw new RangeError(`Text charsetMask must have one entry per charset character (${this.characters.length})`);
      }
      pool = this.characters.filter((_, i) => mask.charsetMask![i]);
    }
    if (pool.length === 0) {
      if (length === 0 || this.minLength === 0) return '';
      throw new RangeError('Text mask allows no characters but the length must be positive');
    }
    let out = '';
    for (let i = 0; i < length; i++) out += this.rng.choice(pool);
    return out;
  }

  contains(x: unknown): x is string {
    if (typeof x !== 'string') return false;
    const chars = [...x];
    if (chars.length < this.minLength || chars.length > this.maxLength) return false;
    return this.allowed === undefined || chars.every((c) => this.allowed!.has(c));
  }

  equals(other: Space<unknown, unknown>): boolean {
    return (
      other instanceof Text &&
      other.maxLength === this.maxLength &&
      other.minLength === this.minLength &&
      (other.charset === this.charset ||
        (other.charset !== 'any' && this.charset !== 'any' && sameCharacters(other.characters, this.characters)))
    );
  }

  toJSONSchema(): JSONSchema {
    const schema: JSONSchema = { type: 'string', minLength: this.minLength, maxLength: this.maxLength, 'x-space': 'Text', 'x-charset': this.charset };
    if (this.charset !== 'any' && this.characters.every((c) => c.length === 1)) {
      schema.pattern = `^[${this.characters.map(regexEscape).join('')}]*$`;
    }
    return schema;
  }

  override toString(): string {
    return `Text(${this.minLength}, ${this.maxLength}, charset=${this.charset === 'any' ? 'any' : JSON.stringify(this.charset.slice(0, 16))})`;
  }
}

function sameCharacters(a: readonly string[], b: readonly string[]): boolean {
  const set = new Set(a);
  return a.length === b.length && b.every((c) => set.has(c));
}

/** A BMP character as a `\uXXXX` escape: safe inside any regex character class. */
function regexEscape(c: string): string {
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
}
