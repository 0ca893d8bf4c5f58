import { SqlenvError } from '../base/sqlenv-error.js';

/**
 * A forgiving JSON reader for text written by language models.
 *
 * Models emit almost-JSON: trailing commas, single quotes, unquoted keys, Python literals,
 * code fences, a closing brace too many or too few. Rejecting those calls is what starved the
 * seed project's GRPO run of reward, so this reader repairs them and reports each repair, so
 * callers can count (or, in strict modes, refuse) them.
 */

import { setEntry } from './set-entry.js';

/** The outcome of {@link parseTolerantJson}. */
export type TolerantJsonResult =
  | { ok: true; value: unknown; repairs: string[] }
  | { ok: false; error: string };

/**
 * Parse JSON-like text, repairing the mistakes models commonly make.
 *
 * Repairs: code fences, text around the JSON, trailing commas, missing commas, single-quoted
 * strings, unquoted keys, Python/JS literals (`None`, `True`, `False`, `undefined`), comments,
 * raw newlines inside strings, and unclosed strings, braces and brackets. Strict JSON parses
 * with no repairs.
 *
 * @example
 * ```ts
 * parseTolerantJson("{'name': 'describe', arguments: {table_name: 'singer',}");
 * // → { ok: true, value: { name: 'describe', arguments: { table_name: 'singer' } },
 * //     repairs: ['single-quoted string', 'unquoted key', 'trailing comma', 'closed unclosed object'] }
 * ```
 */
export function parseTolerantJson(text: string): TolerantJsonResult {
  if (typeof text !== 'string') return { ok: false, error: `expected text, got ${typeof text}` };
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, error: 'empty text: expected a JSON value' };
  try {
    return { ok: true, value: JSON.parse(trimmed), repairs: [] };
  } catch {
    // fall through to the repairing reader
  }
  const repairs: string[] = [];
  let body = trimmed;
  const fenced = stripCodeFence(body);
  if (fenced !== undefined) {
    body = fenced;
    repairs.push('removed code fence');
  }
  const start = body.search(/[{[]/);
  if (start < 0) {
    // Only a scalar can be meant; accept it when it is a lone literal such as 'text' or None.
    const reader = new LenientReader(body, repairs);
    const scalar = reader.tryScalarDocument();
    if (scalar.ok) return { ok: true, value: scalar.value, repairs };
    return { ok: false, error: 'no JSON object or array found (expected text such as {"name": ..., "arguments": {...}})' };
  }
  if (start > 0) {
    const before = body.slice(0, start).trim();
    if (before !== '' && !isOpeningQuoteOnly(before)) repairs.push('ignored text before JSON');
    body = body.slice(start);
  }
  const reader = new LenientReader(body, repairs);
  try {
    const value = reader.readValue();
    reader.skipSpaceAndComments();
    if (!reader.atEnd()) repairs.push('ignored text after JSON');
    return { ok: true, value, repairs: dedupe(repairs) };
  } catch (err) {
    return { ok: false, error: err instanceof JsonSyntaxError ? err.message : String(err) };
  }
}

/** The body of a Markdown code fence (```json … ```), or undefined when `text` has none. */
export function stripCodeFence(text: string): string | undefined {
  const match = /```[A-Za-z0-9_-]*[ \t]*\r?\n?([\s\S]*?)(?:```|$)/.exec(text);
  if (!match || match[1] === undefined) return undefined;
  return match[1].trim();
}

function isOpeningQuoteOnly(text: string): boolean {
  return /^["'`]+$/.test(text);
}

function dedupe(items: string[]): string[] {
  return [...new Set(items)];
}

class JsonSyntaxError extends SqlenvError {}

const LITERALS: Record<string, unknown> = {
  true: true,
  false: false,
  null: null,
  True: true,
  False: false,
  None: null,
  undefined: null,
  NULL: null,
};

/** A recursive-descent reader that accepts JSON plus the repairs listed on parseTolerantJson. */
class LenientReader {
  private pos = 0;
  private depth = 0;

  constructor(
    private readonly text: string,
    private readonly repairs: string[],
  ) {}

  atEnd(): boolean {
    return this.pos >= this.text.length;
  }

  tryScalarDocument(): { ok: true; value: unknown } | { ok: false } {
    try {
      this.skipSpaceAndComments();
      const ch = this.text[this.pos];
      if (ch !== '"' && ch !== "'") {
        const word = this.text.slice(this.pos).trim();
        if (word in LITERALS) return { ok: true, value: LITERALS[word] };
        return { ok: false };
      }
      const value = this.readString();
      this.skipSpaceAndComments();
      return this.atEnd() ? { ok: true, value } : { ok: false };
    } catch {
      return { ok: false };
    }
  }

  readValue(): unknown {
    this.skipSpaceAndComments();
    if (this.atEnd()) throw new JsonSyntaxError('unexpected end of text: expected a value');
    const ch = this.text[this.pos]!;
    if (ch === '{') return this.readObject();
    if (ch === '[') return this.readArray();
    if (ch === '"' || ch === "'" || ch === '`') return this.readString();
    if (ch === '-' || ch === '+' || ch === '.' || (ch >= '0' && ch <= '9')) return this.readNumber();
    const word = this.readWord();
    if (word === '') throw new JsonSyntaxError(`unexpected character ${JSON.stringify(ch)} at position ${this.pos}`);
    if (word in LITERALS) {
      if (word !== 'true' && word !== 'false' && word !== 'null') this.repairs.push(`literal ${word}`);
      return LITERALS[word];
    }
    this.repairs.push('unquoted string');
    return word;
  }

  skipSpaceAndComments(): void {
    for (;;) {
      while (this.pos < this.text.length && /\s/.test(this.text[this.pos]!)) this.pos++;
      if (this.text.startsWith('//', this.pos) || (this.text[this.pos] === '#' && this.depth > 0)) {
        const end = this.text.indexOf('\n', this.pos);
        this.pos = end < 0 ? this.text.length : end + 1;
        this.repairs.push('removed comment');
        continue;
      }
      if (this.text.startsWith('/*', this.pos)) {
        const end = this.text.indexOf('*/', this.pos + 2);
        this.pos = end < 0 ? this.text.length : end + 2;
        this.repairs.push('removed comment');
        continue;
      }
      return;
    }
  }

  private enter(): void {
    // Guards the JS stack against adversarial nesting such as 100k '[' characters.
    if (++this.depth > 200) throw new JsonSyntaxError('JSON nested deeper than 200 levels');
  }

  /**
   * Reads what may stand between the entries of an object or array, repairing the same way for
   * both: end of input closes the container, a mismatched closer ends it too, and a comma
   * directly before the closer is dropped.
   * @returns `'end'` when the container is finished, `'comma'` after a comma, `'entry'` when an entry starts here.
   */
  private readDelimiter(closer: '}' | ']', kind: 'object' | 'array'): 'end' | 'comma' | 'entry' {
    this.skipSpaceAndComments();
    if (this.atEnd()) {
      this.repairs.push(`closed unclosed ${kind}`);
      return 'end';
    }
    const ch = this.text[this.pos]!;
    if (ch === closer) {
      this.pos++;
      return 'end';
    }
    if (ch === '}' || ch === ']') {
      // A mismatched closer: treat it as the end of this container.
      this.repairs.push('mismatched bracket');
      this.pos++;
      return 'end';
    }
    if (ch === ',') {
      this.pos++;
      this.skipSpaceAndComments();
      if (this.text[this.pos] === closer || this.atEnd()) this.repairs.push('trailing comma');
      return 'comma';
    }
    return 'entry';
  }

  private readObject(): Record<string, unknown> {
    this.enter();
    this.pos++; // '{'
    const out: Record<string, unknown> = {};
    let expectEntry = true;
    for (;;) {
      const next = this.readDelimiter('}', 'object');
      if (next === 'end') break;
      if (next === 'comma') {
        expectEntry = true;
        continue;
      }
      if (!expectEntry) this.repairs.push('inserted missing comma');
      const key = this.readKey();
      this.skipSpaceAndComments();
      if (this.text[this.pos] === ':' || this.text[this.pos] === '=') {
        if (this.text[this.pos] === '=') this.repairs.push('= instead of :');
        this.pos++;
      } else {
        throw new JsonSyntaxError(`expected ":" after key ${JSON.stringify(key)} at position ${this.pos}`);
      }
      this.skipSpaceAndComments();
      if (this.atEnd() || this.text[this.pos] === '}' || this.text[this.pos] === ',') {
        throw new JsonSyntaxError(`missing value for key ${JSON.stringify(key)}`);
      }
      setEntry(out, key, this.readValue());
      expectEntry = false;
    }
    this.depth--;
    return out;
  }

  private readArray(): unknown[] {
    this.enter();
    this.pos++; // '['
    const out: unknown[] = [];
    let expectItem = true;
    for (;;) {
      const next = this.readDelimiter(']', 'array');
      if (next === 'end') break;
      if (next === 'comma') {
        expectItem = true;
        continue;
      }
      if (!expectItem) this.repairs.push('inserted missing comma');
      out.push(this.readValue());
      expectItem = false;
    }
    this.depth--;
    return out;
  }

  private readKey(): string {
    const ch = this.text[this.pos];
    if (ch === '"' || ch === "'" || ch === '`') return this.readString();
    const word = this.readWord();
    if (word === '') throw new JsonSyntaxError(`expected a key at position ${this.pos}`);
    this.repairs.push('unquoted key');
    return word;
  }

  private readWord(): string {
    const match = /^[A-Za-z_$][\w$.-]*/.exec(this.text.slice(this.pos, this.pos + 256));
    if (!match) return '';
    this.pos += match[0].length;
    return match[0];
  }

  private readNumber(): number {
    const match = /^[+-]?(?:\d[\d_]*)?(?:\.\d*)?(?:[eE][+-]?\d+)?/.exec(this.text.slice(this.pos, this.pos + 64));
    const raw = match?.[0] ?? '';
    const value = Number(raw.replace(/_/g, ''));
    if (raw === '' || raw === '-' || raw === '+' || raw === '.' || !Number.isFinite(value)) {
      throw new JsonSyntaxError(`bad number at position ${this.pos}`);
    }
    if (!/^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(raw)) this.repairs.push('non-standard number');
    this.pos += raw.length;
    return value;
  }

  private readString(): string {
    const quote = this.text[this.pos]!;
    if (quote === "'") this.repairs.push('single-quoted string');
    if (quote === '`') this.repairs.push('backtick-quoted string');
    this.pos++;
    let out = '';
    for (;;) {
      if (this.atEnd()) {
        this.repairs.push('closed unclosed string');
        return out;
      }
      const ch = this.text[this.pos]!;
      if (ch === quote) {
        this.pos++;
        return out;
      }
      if (ch === '\\') {
        out += this.readEscape();
        continue;
      }
      if (ch === '\n' || ch === '\r' || ch === '\t') this.repairs.push('raw control character in string');
      out += ch;
      this.pos++;
    }
  }

  private readEscape(): string {
    const next = this.text[this.pos + 1];
    this.pos += 2;
    switch (next) {
      case 'n':
        return '\n';
      case 't':
        return '\t';
      case 'r':
        return '\r';
      case 'b':
        return '\b';
      case 'f':
        return '\f';
      case 'u': {
        const hex = this.text.slice(this.pos, this.pos + 4);
        if (/^[0-9a-fA-F]{4}$/.test(hex)) {
          this.pos += 4;
          return String.fromCharCode(parseInt(hex, 16));
        }
        this.repairs.push('bad unicode escape');
        return 'u';
      }
      case undefined:
        return '';
      default:
        // \" \\ \/ and the non-JSON \' all mean the character itself.
        if (next !== '"' && next !== '\\' && next !== '/') this.repairs.push('non-standard escape');
        return next;
    }
  }
}
