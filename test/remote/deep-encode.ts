/**
 * JSON and MessagePack encoders without recursion, for tests that send values nested deeper than
 * `JSON.stringify` or msgpackr's `pack` can serialise (both overflow the stack near 10,000 levels).
 * They write the same bytes a conforming encoder would for null, booleans, numbers (msgpack: float
 * 64 or int), strings, arrays and plain objects.
 */

type Item = { kind: 'value'; value: unknown } | { kind: 'text'; text: string };

/** `JSON.stringify(value)` for deep plain values. */
export function deepJson(value: unknown): string {
  const out: string[] = [];
  const stack: Item[] = [{ kind: 'value', value }];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if (item.kind === 'text') {
      out.push(item.text);
      continue;
    }
    const v = item.value;
    if (Array.isArray(v)) {
      out.push('[');
      stack.push({ kind: 'text', text: ']' });
      for (let i = v.length - 1; i >= 0; i--) {
        stack.push({ kind: 'value', value: v[i] });
        if (i > 0) stack.push({ kind: 'text', text: ',' });
      }
    } else if (v !== null && typeof v === 'object') {
      const entries = Object.entries(v);
      out.push('{');
      stack.push({ kind: 'text', text: '}' });
      for (let i = entries.length - 1; i >= 0; i--) {
        stack.push({ kind: 'value', value: entries[i]![1] });
        stack.push({ kind: 'text', text: `${JSON.stringify(entries[i]![0])}:` });
        if (i > 0) stack.push({ kind: 'text', text: ',' });
      }
    } else {
      out.push(JSON.stringify(v) ?? 'null');
    }
  }
  return out.join('');
}

/** MessagePack bytes of `value` for deep plain values (NaN, ±Infinity and huge numbers as float 64). */
export function deepMsgpack(value: unknown): Buffer {
  const parts: Buffer[] = [];
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (Array.isArray(v)) {
      parts.push(header(0x90, 0xdc, v.length));
      for (let i = v.length - 1; i >= 0; i--) stack.push(v[i]);
    } else if (v !== null && typeof v === 'object') {
      const entries = Object.entries(v);
      parts.push(header(0x80, 0xde, entries.length));
      for (let i = entries.length - 1; i >= 0; i--) {
        stack.push(entries[i]![1]);
        stack.push(entries[i]![0]);
      }
    } else if (typeof v === 'string') {
      const bytes = Buffer.from(v, 'utf8');
      const head = Buffer.alloc(5);
      head[0] = 0xdb;
      head.writeUInt32BE(bytes.length, 1);
      parts.push(head, bytes);
    } else if (typeof v === 'number') {
      const b = Buffer.alloc(9);
      b[0] = 0xcb;
      b.writeDoubleBE(v, 1);
      parts.push(b);
    } else if (typeof v === 'boolean') {
      parts.push(Buffer.from([v ? 0xc3 : 0xc2]));
    } else {
      parts.push(Buffer.from([0xc0]));
    }
  }
  return Buffer.concat(parts);
}

/** A fixarray/fixmap header under 16 items, else the 32-bit form. */
function header(fix: number, long: number, count: number): Buffer {
  if (count < 16) return Buffer.from([fix | count]);
  const b = Buffer.alloc(5);
  b[0] = long + 1; // 0xdd (array 32) / 0xdf (map 32)
  b.writeUInt32BE(count, 1);
  return b;
}
