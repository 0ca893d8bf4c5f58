import { describe, expect, it } from 'vitest';
import { ProtocolError } from '../../../src/remote/protocol/error-codes.js';
import { toPlainValue, WireCodec } from '../../../src/remote/protocol/codec.js';

describe('toPlainValue', () => {
  it('turns typed arrays, bigints, maps, dates and errors into JSON types and drops undefined', () => {
    const when = new Date('2026-01-02T03:04:05.000Z');
    expect(
      toPlainValue({ a: new Float32Array([1, 2]), b: undefined, c: 3n, d: new Map([['k', 1]]), e: when, f: new Error('x'), g: [undefined, NaN] }),
    ).toEqual({ a: [1, 2], c: 3, d: { k: 1 }, e: '2026-01-02T03:04:05.000Z', f: { name: 'Error', message: 'x' }, g: [null, null] });
  });
});

describe('WireCodec', () => {
  const codec = new WireCodec();
  const message = { type: 'observation', data: { observation: { rows: [[1, 'a', null]] }, reward: 0.5, done: false, info: { nested: { x: [1.25] } } } };

  it.each(['json', 'msgpack'] as const)('round-trips a message in %s', (encoding) => {
    expect(codec.decode(codec.encode(message, encoding), encoding)).toEqual(message);
  });

  it('writes standard MessagePack maps (no msgpackr records) so other decoders read it', () => {
    const bytes = codec.encode({ a: 1 }, 'msgpack') as Buffer;
    expect([...bytes]).toEqual([0x81, 0xa1, 0x61, 0x01]);
  });

  it('answers undecodable input with INVALID_JSON', () => {
    expect(() => codec.decode('{oops', 'json')).toThrow(ProtocolError);
    expect(() => codec.decode(Buffer.from([0xc1]), 'msgpack')).toThrow(/Malformed MessagePack/);
    expect(() => codec.decode(Buffer.alloc(0), 'msgpack')).toThrow(/empty message/);
  });
});

describe('WireCodec: hostile input', () => {
  const codec = new WireCodec();

  it('refuses MessagePack nested too deeply for its recursive decoder with the cause, and keeps decoding', () => {
    const deep = Buffer.concat([Buffer.alloc(100_000, 0x91), Buffer.from([0xc0])]); // [[[…null…]]]
    expect(() => codec.decode(deep, 'msgpack')).toThrow(/nested too deeply to decode/);
    expect(codec.decode(codec.encode({ a: 1 }, 'msgpack'), 'msgpack')).toEqual({ a: 1 });
  });

  it('keeps a "__proto__" key as data on the way out, never as a prototype', () => {
    const value = JSON.parse('{"__proto__": {"polluted": true}}') as Record<string, unknown>;
    const plain = toPlainValue(value) as Record<string, unknown>;
    expect(Object.keys(plain)).toEqual(['__proto__']);
    expect((plain as { polluted?: boolean }).polluted).toBeUndefined();
    expect(codec.encode(value, 'json')).toBe('{"__proto__":{"polluted":true}}');
  });
});
