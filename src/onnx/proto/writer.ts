/**
 * A minimal protocol-buffers writer: just the wire types ONNX needs (varint, 64-bit, 32-bit,
 * length-delimited). Messages are built bottom-up: a nested message is encoded first and then
 * written as bytes, which keeps the writer free of length back-patching.
 */

const WIRE_VARINT = 0;
const WIRE_I64 = 1;
const WIRE_LEN = 2;
const WIRE_I32 = 5;

const utf8 = new TextEncoder();

/**
 * Accumulates one protobuf message.
 *
 * @example
 * ```ts
 * const w = new ProtoWriter();
 * w.int64(1, 10).string(2, 'sqlenv');
 * const bytes = w.finish();
 * ```
 */
export class ProtoWriter {
  private chunks: Uint8Array[] = [];
  private scratch: number[] = [];

  /** Field `field` as a varint-encoded int32/int64/enum/bool (negative numbers as 10-byte two's complement). */
  int64(field: number, value: number | bigint): this {
    this.tag(field, WIRE_VARINT);
    this.varint(value);
    return this;
  }

  /** Field `field` as a 32-bit float. */
  float(field: number, value: number): this {
    this.tag(field, WIRE_I32);
    const b = new Uint8Array(4);
    new DataView(b.buffer).setFloat32(0, value, true);
    this.push(b);
    return this;
  }

  /** Field `field` as a 64-bit double. */
  double(field: number, value: number): this {
    this.tag(field, WIRE_I64);
    const b = new Uint8Array(8);
    new DataView(b.buffer).setFloat64(0, value, true);
    this.push(b);
    return this;
  }

  /** Field `field` as a UTF-8 string. */
  string(field: number, value: string): this {
    return this.bytes(field, utf8.encode(value));
  }

  /** Field `field` as length-delimited bytes (also used for nested messages). */
  bytes(field: number, value: Uint8Array): this {
    this.tag(field, WIRE_LEN);
    this.varint(value.length);
    this.push(value);
    return this;
  }

  /** Field `field` as a nested message. */
  message(field: number, value: ProtoWriter): this {
    return this.bytes(field, value.finish());
  }

  /** Field `field` as a packed repeated varint. */
  packedInt64(field: number, values: readonly (number | bigint)[]): this {
    const inner = new ProtoWriter();
    for (const v of values) inner.varint(v);
    return this.bytes(field, inner.finish());
  }

  /** Field `field` as a packed repeated float. */
  packedFloat(field: number, values: readonly number[]): this {
    const b = new Uint8Array(values.length * 4);
    const view = new DataView(b.buffer);
    values.forEach((v, i) => view.setFloat32(i * 4, v, true));
    return this.bytes(field, b);
  }

  /** The encoded message. */
  finish(): Uint8Array {
    this.flushScratch();
    const total = this.chunks.reduce((n, c) => n + c.length, 0);
    const out = new Uint8Array(total);
    let at = 0;
    for (const c of this.chunks) {
      out.set(c, at);
      at += c.length;
    }
    this.chunks = [out];
    return out;
  }

  private tag(field: number, wire: number): void {
    this.varint(field * 8 + wire);
  }

  /** Unsigned LEB128; negative values are encoded as their 64-bit two's complement, as protobuf requires. */
  private varint(value: number | bigint): void {
    let v = BigInt.asUintN(64, BigInt(value));
    if (v < 0x80n) {
      this.scratch.push(Number(v));
      return;
    }
    while (v >= 0x80n) {
      this.scratch.push(Number(v & 0x7fn) | 0x80);
      v >>= 7n;
    }
    this.scratch.push(Number(v));
  }

  private push(b: Uint8Array): void {
    this.flushScratch();
    this.chunks.push(b);
  }

  private flushScratch(): void {
    if (this.scratch.length === 0) return;
    this.chunks.push(Uint8Array.from(this.scratch));
    this.scratch = [];
  }
}
