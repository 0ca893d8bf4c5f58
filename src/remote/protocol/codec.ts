import { Packr } from 'msgpackr';
import { setEntry } from '../../text/set-entry.js';
import { ProtocolError } from './error-codes.js';
import { RemoteError } from '../remote-error.js';

/** How messages are encoded: JSON text or MessagePack bytes. */
export type WireEncoding = 'json' | 'msgpack';

/**
 * Encodes and decodes protocol messages in JSON or standard MessagePack. One codec per owner
 * (server or client): msgpackr's encoder keeps a reusable buffer, so it is not shared globally.
 *
 * Values are first made plain (typed arrays → arrays, bigint → number, `undefined` dropped,
 * errors → `{name, message}`) so that both encodings carry the same data and Python's
 * `msgpack`/`json` read them without extensions.
 *
 * @example
 * ```ts
 * const codec = new WireCodec();
 * const bytes = codec.encode({ type: 'state' }, 'msgpack');
 * codec.decode(bytes, 'msgpack'); // { type: 'state' }
 * ```
 */
export class WireCodec {
  // Records and structured clones are msgpackr extensions other decoders cannot read.
  private readonly packr = new Packr({ useRecords: false, mapsAsObjects: true, variableMapSize: true, moreTypes: false, structuredClone: false });

  /** Encode `value`: a string for JSON, a Buffer for MessagePack. */
  encode(value: unknown, encoding: WireEncoding): string | Buffer {
    const plain = toPlainValue(value);
    return encoding === 'json' ? JSON.stringify(plain) : this.packr.pack(plain);
  }

  /** Decode a message; throws `ProtocolError('INVALID_JSON')` (OpenEnv's code for any undecodable body). */
  decode(data: string | Uint8Array, encoding: WireEncoding): unknown {
    try {
      if (encoding === 'json') {
        const text = typeof data === 'string' ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('utf8');
        return JSON.parse(text) as unknown;
      }
      const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
      if (bytes.byteLength === 0) throw new RemoteError('empty message');
      const value = this.packr.unpack(bytes) as unknown;
      // msgpackr decodes the reserved byte 0xC1 and unknown extensions to placeholder objects.
      if (typeof value === 'object' && value !== null && !isPlainContainer(value)) throw new RemoteError('reserved or extension type');
      return value;
    } catch (err) {
      const what = encoding === 'json' ? 'JSON' : 'MessagePack';
      // msgpackr's decoder recurses: thousands of nested containers overflow the stack (JSON.parse does not).
      const cause = err instanceof RangeError ? 'nested too deeply to decode (keep messages under a few hundred levels)' : (err as Error).message;
      throw new ProtocolError('INVALID_JSON', `Malformed ${what} message: ${cause}. Send one ${what} object per message.`);
    }
  }
}

function isPlainContainer(value: object): boolean {
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === Array.prototype || proto === null;
}

/**
 * A copy of `value` made only of JSON types, so the two encodings agree.
 *
 * @example
 * ```ts
 * toPlainValue({ a: new Float32Array([1, 2]), b: undefined }); // { a: [1, 2] }
 * ```
 */
export function toPlainValue(value: unknown): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'bigint') return Number(value);
  if (value === undefined || typeof value === 'function' || typeof value === 'symbol') return undefined;
  if (Array.isArray(value)) return value.map((v) => toPlainValue(v) ?? null);
  if (ArrayBuffer.isView(value) && !(value instanceof DataView)) {
    return Array.from(value as unknown as ArrayLike<number | bigint>, (v) => toPlainValue(v));
  }
  if (value instanceof Error) return { name: value.name, message: value.message };
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Map) return toPlainValue(Object.fromEntries(value));
  if (value instanceof Set) return toPlainValue([...value]);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    const plain = toPlainValue(v);
    if (plain !== undefined) setEntry(out, k, plain);
  }
  return out;
}
