import { parseTolerantJson, stripCodeFence } from '../../../src/text/tolerant-json.js';

/** A table read from an answer: rows of raw cells (normalised later by the comparison). */
export type AnswerTable = unknown[][];

/** Most candidate readings kept for one answer (text can be read several ways). */
const MAX_CANDIDATES = 12;

/**
 * The tables an `answer(value)` may mean. An answer is often ambiguous — `"1, 2, 3"` is a
 * column of three numbers, one row of three, or (as `1,234`-style text) one number — so the judge
 * accepts it when ANY reading matches the gold result. Readings: scalars; lists (as a column and
 * as a row); lists of rows; lists of objects; `{columns, rows}`; and text as JSON, a Markdown
 * table, CSV/TSV lines, a comma- or newline-separated list, or one value. An empty answer has no
 * reading.
 *
 * @example
 * ```ts
 * answerCandidates('1, 2, 3'); // [[[1],[2],[3]], [[1, 2, 3]], [['1, 2, 3']]] (as raw cells)
 * answerCandidates(42);        // [[[42]]]
 * ```
 */
export function answerCandidates(value: unknown): AnswerTable[] {
  const out: AnswerTable[] = [];
  collect(value, out, 0);
  return out.slice(0, MAX_CANDIDATES);
}

function collect(value: unknown, out: AnswerTable[], depth: number): void {
  if (depth > 4) return;
  if (value === undefined) return;
  if (value === null || typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') {
    out.push([[value]]);
    return;
  }
  if (typeof value === 'string') {
    collectText(value, out, depth);
    return;
  }
  if (Array.isArray(value)) {
    collectList(value, out);
    return;
  }
  if (typeof value === 'object') {
    const record = value as Record<string, unknown>;
    if (Array.isArray(record.rows)) {
      collectList(record.rows, out);
      return;
    }
    const entries = Object.values(record);
    if (entries.length === 1) collect(entries[0], out, depth + 1);
    out.push([entries]);
  }
}

function collectList(items: unknown[], out: AnswerTable[]): void {
  if (items.length === 0) {
    out.push([]);
    return;
  }
  const isScalar = (x: unknown) => x === null || typeof x !== 'object';
  if (items.every(isScalar)) {
    out.push(items.map((x) => [x]));
    out.push([items]);
    return;
  }
  out.push(items.map((item) => (Array.isArray(item) ? item : item !== null && typeof item === 'object' ? Object.values(item) : [item])));
}

function collectText(raw: string, out: AnswerTable[], depth: number): void {
  const text = cleanAnswerText(raw);
  // Cleaning can eat part of a real value ("Timbaland, Jr." loses its full stop), so the exact
  // text is a reading too, ahead of the others so the candidate cap never drops it.
  if (text === '') return;
  const exact = raw.trim();
  if (exact !== text) out.push([[exact]]);
  if (/^[[{]/.test(text)) {
    const parsed = parseTolerantJson(text);
    if (parsed.ok && typeof parsed.value !== 'string') collect(parsed.value, out, depth + 1);
  }
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '');
  const tableLines = lines.filter((l) => l.includes('|'));
  if (tableLines.length >= 2 && tableLines.length === lines.length) {
    const rows = tableLines.filter((l) => !/^[\s|:-]+$/.test(l)).map(splitMarkdownRow);
    out.push(rows.slice(1), rows);
  } else if (lines.length > 1) {
    const items = lines.map(stripBullet);
    const delimiter = items.every((l) => l.includes('\t')) ? '\t' : items.every((l) => l.includes(',')) ? ',' : undefined;
    if (delimiter) {
      const rows = items.map((l) => splitDelimited(l, delimiter));
      out.push(rows.slice(1), rows);
    }
    out.push(items.map((l) => [l]));
  } else {
    const separator = text.includes(';') ? ';' : text.includes(',') ? ',' : undefined;
    if (separator) {
      const items = splitDelimited(text, separator).filter((s) => s !== '');
      if (items.length > 1) {
        out.push(items.map((s) => [s]));
        out.push([items]);
      }
    }
    const andList = text.split(/\s*,\s*|\s+and\s+/i);
    if (andList.length > 1 && /\band\b/i.test(text)) out.push(andList.map((s) => [s]));
  }
  out.push([[text]]);
}

/**
 * Strip what wraps an answer: code fences, an `Answer:` / `Final answer:` / `The answer is`
 * prefix, one trailing full stop, surrounding whitespace.
 *
 * @example
 * ```ts
 * cleanAnswerText('Answer: **Paris**.'); // 'Paris'
 * ```
 */
export function cleanAnswerText(raw: string): string {
  let text = raw.trim();
  const fenced = stripCodeFence(text);
  if (fenced !== undefined && text.startsWith('```')) text = fenced;
  text = text.replace(/^(?:the\s+)?(?:final\s+)?answer(?:\s+is\b|\s*[:=])\s*/i, '');
  if (/[^\d]\.$/.test(text)) text = text.slice(0, -1);
  text = text.replace(/^\*\*([\s\S]*)\*\*$/, '$1').trim();
  if (/[^\d]\.$/.test(text)) text = text.slice(0, -1);
  return text.trim();
}

function stripBullet(line: string): string {
  return line.replace(/^(?:[-*•]|\d+[.)])\s+/, '');
}

function splitMarkdownRow(line: string): string[] {
  return line
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split('|')
    .map((c) => c.trim());
}

/** Split one CSV line, honouring double-quoted fields. */
function splitDelimited(line: string, delimiter: string): string[] {
  const cells: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        current += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else current += ch;
    } else if (ch === '"' && current.trim() === '') {
      quoted = true;
      current = '';
    } else if (ch === delimiter) {
      cells.push(current.trim());
      current = '';
    } else current += ch;
  }
  cells.push(current.trim());
  return cells;
}
