import { parseTolerantJson } from '../../../src/text/tolerant-json.js';
import { setEntry } from '../../../src/text/set-entry.js';

/**
 * Arguments written as `f(a, k=v)`: positional values in order and named ones. A class, so the
 * action parser can tell them apart from a JSON object a model sent.
 *
 * @example
 * ```ts
 * new FunctionArguments(['singer'], { n: 3 }); // sample("singer", n=3)
 * ```
 */
export class FunctionArguments {
  constructor(
    readonly positional: unknown[],
    readonly named: Record<string, unknown>,
  ) {}
}

/**
 * Read the inside of `f(...)`: `k=v` / `k: v` pairs and positional values, split at top-level
 * commas. Values are JSON-ish literals (quoted strings, numbers, lists, None) or bare words.
 * With no `k=` at all the whole text is one value, so `query(SELECT a, b FROM t)` keeps its commas.
 *
 * @example
 * ```ts
 * readFunctionArguments('"singer", n=3'); // FunctionArguments { positional: ['singer'], named: { n: 3 } }
 * ```
 */
export function readFunctionArguments(inner: string): FunctionArguments {
  const parts = splitTopLevel(inner);
  const hasNamed = parts.some((p) => /^\s*[A-Za-z_]\w*\s*(?:=(?!=)|:(?!:))/.test(p));
  if (!hasNamed) {
    const whole = inner.trim();
    if (whole === '') return new FunctionArguments([], {});
    if (parts.length > 1 && parts.every((p) => isLiteral(p.trim()) || /^[A-Za-z_][\w.]*$/.test(p.trim()))) return new FunctionArguments(parts.map((p) => readLiteral(p.trim())), {});
    return new FunctionArguments([readLiteral(whole)], {});
  }
  const named: Record<string, unknown> = {};
  const positional: unknown[] = [];
  for (const part of parts) {
    const match = /^\s*([A-Za-z_]\w*)\s*(?:=|:)\s*([\s\S]*)$/.exec(part);
    if (match) setEntry(named, match[1]!, readLiteral(match[2]!.trim()));
    else if (part.trim() !== '') positional.push(readLiteral(part.trim()));
  }
  return new FunctionArguments(positional, named);
}

function isLiteral(text: string): boolean {
  return /^(?:"[\s\S]*"|'[\s\S]*'|[+-]?\d+(?:\.\d+)?|None|null|True|False|true|false)$/.test(text);
}

function readLiteral(text: string): unknown {
  if (text === '') return '';
  if (/^["'`[{]/.test(text) || /^(?:None|null|True|False|true|false|[+-]?\d+(?:\.\d+)?)$/.test(text)) {
    const parsed = parseTolerantJson(text);
    if (parsed.ok) return parsed.value;
  }
  return text;
}

/**
 * Split at `separator` outside quotes and brackets.
 *
 * @example
 * ```ts
 * splitTopLevel('"a, b", f(1, 2), 3'); // ['"a, b"', ' f(1, 2)', ' 3']
 * ```
 */
export function splitTopLevel(text: string, separator = ','): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote: string | undefined;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quote) {
      if (ch === '\\') i++;
      else if (ch === quote) quote = undefined;
      continue;
    }
    if (ch === '"' || ch === "'" || ch === '`') quote = ch;
    else if (ch === '(' || ch === '[' || ch === '{') depth++;
    else if (ch === ')' || ch === ']' || ch === '}') depth--;
    else if (ch === separator && depth === 0) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}
