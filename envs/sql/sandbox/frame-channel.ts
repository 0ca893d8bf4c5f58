import { Packr } from 'msgpackr';
import { readSync, writeSync } from 'node:fs';

/**
 * MessagePack as both ends of a query process's pipe use it: plain maps and arrays only (no
 * records or extensions). Each end owns one: msgpackr's encoder reuses an internal buffer.
 *
 * @example
 * ```ts
 * const packr = createPackr();
 * packr.unpack(packr.pack({ a: [1, 'x', null] })); // { a: [1, 'x', null] }
 * ```
 */
export function createPackr(): Packr {
  return new Packr({ useRecords: false, mapsAsObjects: true, moreTypes: false, structuredClone: false });
}

/**
 * One frame: the MessagePack body's length as 4 little-endian bytes, then the body. The body is
 * copied out of the encoder's reused buffer, so the frame stays valid however long the write takes.
 *
 * @example
 * ```ts
 * socket.write(encodeFrame(packr, { type: 'ready' }));
 * ```
 */
export function encodeFrame(packr: Packr, message: unknown): Buffer {
  const body = packr.pack(message);
  const frame = Buffer.allocUnsafe(4 + body.length);
  frame.writeUInt32LE(body.length, 0);
  body.copy(frame, 4);
  return frame;
}

/**
 * Splits a byte stream of {@link encodeFrame} frames back into bodies. Chunks are kept as they
 * arrive and joined once per frame, so a large result costs one copy, not one per chunk.
 *
 * @example
 * ```ts
 * const decoder = new FrameDecoder((body) => console.log(packr.unpack(body)));
 * socket.on('data', (chunk: Buffer) => decoder.push(chunk));
 * ```
 */
export class FrameDecoder {
  private chunks: Buffer[] = [];
  private buffered = 0;

  constructor(private readonly onFrame: (body: Buffer) => void) {}

  /** Add bytes read from the stream; calls `onFrame` for each frame they complete. */
  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    while (this.buffered >= 4) {
      if (this.chunks[0]!.length < 4) this.chunks = [Buffer.concat(this.chunks, this.buffered)];
      const size = this.chunks[0]!.readUInt32LE(0);
      if (this.buffered < 4 + size) return;
      const joined = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.buffered);
      const rest = joined.subarray(4 + size);
      this.chunks = rest.length > 0 ? [rest] : [];
      this.buffered = rest.length;
      this.onFrame(joined.subarray(4, 4 + size));
    }
  }
}

/**
 * Reads {@link encodeFrame} frames from a file descriptor with blocking reads. A query process
 * has nothing to do between requests, so waiting in `read(2)` instead of the event loop saves a
 * wake-up through libuv and the stream machinery on every request.
 *
 * @example
 * ```ts
 * const reader = new BlockingFrameReader(3);
 * for (let body = reader.next(); body; body = reader.next()) handle(body);
 * ```
 */
export class BlockingFrameReader {
  private buffer = Buffer.allocUnsafe(64 * 1024);
  private start = 0;
  private end = 0;

  constructor(private readonly fd: number) {}

  /**
   * The next frame's body, or undefined at end of stream. Throws what `readSync` throws: EAGAIN
   * when the descriptor turns out to be non-blocking (then {@link unread} holds the bytes read so far).
   */
  next(): Buffer | undefined {
    for (;;) {
      const available = this.end - this.start;
      if (available >= 4) {
        const size = this.buffer.readUInt32LE(this.start);
        if (available >= 4 + size) {
          const body = Buffer.from(this.buffer.subarray(this.start + 4, this.start + 4 + size));
          this.start += 4 + size;
          return body;
        }
        this.makeRoom(4 + size);
      } else {
        this.makeRoom(4);
      }
      const n = readSync(this.fd, this.buffer, this.end, this.buffer.length - this.end, null);
      if (n === 0) return undefined;
      this.end += n;
    }
  }

  /** Bytes read but not yet returned as a frame. */
  unread(): Buffer {
    return Buffer.from(this.buffer.subarray(this.start, this.end));
  }

  /** Move the unread bytes to the front, growing the buffer so that `frameBytes` fit. */
  private makeRoom(frameBytes: number): void {
    if (this.start + frameBytes <= this.buffer.length && this.end < this.buffer.length) return;
    const unread = this.buffer.subarray(this.start, this.end);
    const target = frameBytes > this.buffer.length ? Buffer.allocUnsafe(Math.max(frameBytes, 2 * this.buffer.length)) : this.buffer;
    unread.copy(target, 0);
    this.buffer = target;
    this.end = unread.length;
    this.start = 0;
  }
}

/**
 * Write all of `bytes` to a blocking file descriptor (a blocking write may still return short).
 *
 * @example
 * ```ts
 * writeFullySync(3, encodeFrame(packr, { type: 'ready' }));
 * ```
 */
export function writeFullySync(fd: number, bytes: Buffer): void {
  for (let offset = 0; offset < bytes.length; ) offset += writeSync(fd, bytes, offset, bytes.length - offset);
}
