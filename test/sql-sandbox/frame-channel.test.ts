import { closeSync, openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  BlockingFrameReader,
  createPackr,
  encodeFrame,
  FrameDecoder,
  writeFullySync,
} from '../../envs/sql/sandbox/frame-channel.js';
import { scratchDir } from './fixtures.js';

const scratch = scratchDir();
afterAll(() => scratch.cleanup());

const packr = createPackr();
const messages: unknown[] = [
  { type: 'ready' },
  { id: 1, dbPath: '/data/x.sqlite', sql: "SELECT 'a;b'", limits: { timeoutMs: 2000, maxRows: 20 } },
  {
    type: 'result',
    id: 2,
    result: {
      columns: ['n', 'name', 'n'],
      rowCount: 5,
      rowCountExact: true,
      truncated: false,
      fullRows: [
        [0, 'Björk', null],
        [-1.5, '', 9007199254740991],
        [1e300, "x'00ff'", '18446744073709551616'],
        [-9007199254740991, 2 ** 32 + 1, -(2 ** 31) - 1],
        [5e-324, 0.1, 'é'.repeat(40)],
      ],
    },
  },
  // Larger than a pipe's buffer and than the blocking reader's initial 64 KiB.
  { type: 'result', id: 3, result: { fullRows: Array.from({ length: 3000 }, (_, i) => [i, `row ${i} ${'z'.repeat(100)}`]) } },
];

describe('MessagePack frames', () => {
  it('round-trip plain values exactly: numbers (every double, integers to 2^53), text, null, booleans, nesting', () => {
    for (const message of messages) expect(packr.unpack(encodeFrame(packr, message).subarray(4))).toEqual(message);
  });

  it('a frame stays valid after the encoder is reused', () => {
    const first = encodeFrame(packr, messages[1]);
    encodeFrame(packr, messages[3]);
    expect(packr.unpack(first.subarray(4))).toEqual(messages[1]);
  });

  it('FrameDecoder reassembles frames however the stream is chunked', () => {
    const small = messages.slice(0, 3);
    const cases: [unknown[], number[]][] = [
      [small, [1, 3, 4, 5, 7]],
      [messages, [1000, 65536, 1 << 30]],
    ];
    for (const [sent, chunkSizes] of cases) {
      const stream = Buffer.concat(sent.map((m) => encodeFrame(packr, m)));
      for (const chunkSize of chunkSizes) {
        const got: unknown[] = [];
        const decoder = new FrameDecoder((body) => got.push(packr.unpack(body)));
        for (let i = 0; i < stream.length; i += chunkSize) decoder.push(stream.subarray(i, i + chunkSize));
        expect(got).toEqual(sent);
      }
    }
  });

  it('BlockingFrameReader reads frames from a descriptor until end of stream', () => {
    const path = join(scratch.dir, 'frames.bin');
    const fd = openSync(path, 'w');
    for (const m of [...messages, ...messages]) writeFullySync(fd, encodeFrame(packr, m));
    closeSync(fd);
    const readFd = openSync(path, 'r');
    try {
      const reader = new BlockingFrameReader(readFd);
      const got: unknown[] = [];
      for (let body = reader.next(); body; body = reader.next()) got.push(packr.unpack(body));
      expect(got).toEqual([...messages, ...messages]);
      expect(reader.unread()).toHaveLength(0);
    } finally {
      closeSync(readFd);
    }
  });

  it('BlockingFrameReader keeps a truncated frame as unread bytes', () => {
    const path = join(scratch.dir, 'partial.bin');
    const frame = encodeFrame(packr, messages[2]);
    writeFileSync(path, Buffer.concat([encodeFrame(packr, messages[0]), frame.subarray(0, 10)]));
    const fd = openSync(path, 'r');
    try {
      const reader = new BlockingFrameReader(fd);
      expect(packr.unpack(reader.next()!)).toEqual(messages[0]);
      expect(reader.next()).toBeUndefined();
      expect(reader.unread()).toEqual(frame.subarray(0, 10));
    } finally {
      closeSync(fd);
    }
  });
});
