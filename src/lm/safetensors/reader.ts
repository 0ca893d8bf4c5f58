import { open, type FileHandle } from 'node:fs/promises';
import { SafetensorsError } from '../errors.js';
import { floatTensor, elementCount, type FloatTensor } from '../tensor.js';
import { bytesPerElement, decodeFloats, isSafetensorsDtype, type SafetensorsDtype } from './dtype.js';

/** Where one tensor lies in a safetensors file, as its JSON header describes it. */
export interface TensorEntry {
  readonly name: string;
  readonly dtype: SafetensorsDtype;
  readonly shape: readonly number[];
  /** Absolute byte offset of the first element in the file. */
  readonly byteOffset: number;
  readonly byteLength: number;
}

/** Largest header we accept: the format's own limit is 100 MB. */
const MAX_HEADER_BYTES = 100 * 1024 * 1024;

/**
 * An open safetensors file. Only the header is read on open; each tensor is read on demand
 * with one positioned read of its own byte range, so multi-GB checkpoints never need a
 * whole-file copy in memory. The owner must call {@link SafetensorsFile.close}.
 *
 * @example
 * const file = await SafetensorsFile.open('model.safetensors');
 * try { const w = await file.read('model.embed_tokens.weight'); } finally { await file.close(); }
 */
export class SafetensorsFile {
  private constructor(
    readonly path: string,
    private readonly handle: FileHandle,
    private readonly entries: ReadonlyMap<string, TensorEntry>,
    /** The free-form `__metadata__` string map of the header. */
    readonly metadata: Readonly<Record<string, string>>,
  ) {}

  /** Opens `path` and parses its header; throws {@link SafetensorsError} if it is malformed. */
  static async open(path: string): Promise<SafetensorsFile> {
    const handle = await open(path, 'r');
    try {
      const { size } = await handle.stat();
      const lengthBytes = Buffer.alloc(8);
      await readExactly(handle, lengthBytes, 0, path);
      const headerLength = Number(lengthBytes.readBigUInt64LE(0));
      if (headerLength > MAX_HEADER_BYTES || 8 + headerLength > size) {
        throw new SafetensorsError(`${path}: header length ${headerLength} does not fit a file of ${size} bytes; the file is truncated or not safetensors`);
      }
      const headerBytes = Buffer.alloc(headerLength);
      await readExactly(handle, headerBytes, 8, path);
      const { entries, metadata } = parseHeader(headerBytes.toString('utf8'), 8 + headerLength, size, path);
      return new SafetensorsFile(path, handle, entries, metadata);
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  /** Names of all tensors, in header order. */
  names(): string[] {
    return [...this.entries.keys()];
  }

  /** Header entry of `name`, or undefined when absent. */
  entry(name: string): TensorEntry | undefined {
    return this.entries.get(name);
  }

  /** Reads the raw little-endian bytes of one tensor. */
  async readBytes(name: string): Promise<Uint8Array> {
    const entry = this.requireEntry(name);
    const bytes = Buffer.alloc(entry.byteLength);
    await readExactly(this.handle, bytes, entry.byteOffset, this.path);
    return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  /** Reads one floating-point tensor, converted to float32. */
  async read(name: string): Promise<FloatTensor> {
    const entry = this.requireEntry(name);
    if (entry.dtype !== 'F32' && entry.dtype !== 'F16' && entry.dtype !== 'BF16') {
      throw new SafetensorsError(`${this.path}: tensor "${name}" has dtype ${entry.dtype}; only F32, F16 and BF16 convert to float32`);
    }
    return floatTensor(entry.shape, decodeFloats(await this.readBytes(name), entry.dtype));
  }

  /** Releases the file handle (idempotent). */
  async close(): Promise<void> {
    await this.handle.close().catch(() => undefined);
  }

  private requireEntry(name: string): TensorEntry {
    const entry = this.entries.get(name);
    if (!entry) throw new SafetensorsError(`${this.path}: no tensor named "${name}" (it holds ${this.entries.size} tensors)`);
    return entry;
  }
}

async function readExactly(handle: FileHandle, target: Buffer, position: number, path: string): Promise<void> {
  let done = 0;
  while (done < target.length) {
    const { bytesRead } = await handle.read(target, done, target.length - done, position + done);
    if (bytesRead === 0) throw new SafetensorsError(`${path}: unexpected end of file at byte ${position + done}`);
    done += bytesRead;
  }
}

function parseHeader(
  text: string,
  dataStart: number,
  fileSize: number,
  path: string,
): { entries: Map<string, TensorEntry>; metadata: Record<string, string> } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new SafetensorsError(`${path}: header is not valid JSON (${(error as Error).message})`);
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new SafetensorsError(`${path}: header must be a JSON object`);
  }
  const entries = new Map<string, TensorEntry>();
  let metadata: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw as Record<string, unknown>)) {
    if (name === '__metadata__') {
      metadata = (value ?? {}) as Record<string, string>;
      continue;
    }
    const info = value as { dtype?: unknown; shape?: unknown; data_offsets?: unknown };
    if (typeof info.dtype !== 'string' || !isSafetensorsDtype(info.dtype)) {
      throw new SafetensorsError(`${path}: tensor "${name}" has unknown dtype ${JSON.stringify(info.dtype)}`);
    }
    const shape = info.shape;
    const offsets = info.data_offsets;
    if (!Array.isArray(shape) || !shape.every((d) => Number.isInteger(d) && d >= 0)) {
      throw new SafetensorsError(`${path}: tensor "${name}" has an invalid shape ${JSON.stringify(shape)}`);
    }
    if (!Array.isArray(offsets) || offsets.length !== 2 || !offsets.every((o) => Number.isInteger(o))) {
      throw new SafetensorsError(`${path}: tensor "${name}" has invalid data_offsets ${JSON.stringify(offsets)}`);
    }
    const [begin, end] = offsets as [number, number];
    const byteLength = end - begin;
    if (byteLength !== elementCount(shape as number[]) * bytesPerElement(info.dtype)) {
      throw new SafetensorsError(`${path}: tensor "${name}" spans ${byteLength} bytes but shape [${shape.join(', ')}] of ${info.dtype} needs ${elementCount(shape as number[]) * bytesPerElement(info.dtype)}`);
    }
    if (begin < 0 || dataStart + end > fileSize) {
      throw new SafetensorsError(`${path}: tensor "${name}" lies past the end of the file; the download is probably incomplete`);
    }
    entries.set(name, { name, dtype: info.dtype, shape: shape as number[], byteOffset: dataStart + begin, byteLength });
  }
  return { entries, metadata };
}
