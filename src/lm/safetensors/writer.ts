import { open } from 'node:fs/promises';
import { SafetensorsError } from '../errors.js';
import { elementCount, type FloatTensor } from '../tensor.js';
import { bytesPerElement, encodeFloats, type FloatDtype } from './dtype.js';

/** Options of {@link writeSafetensors}. */
export interface WriteSafetensorsOptions {
  /** Stored dtype of every tensor (default `'F32'`). */
  dtype?: FloatDtype;
  /** String map stored as the header's `__metadata__` (e.g. `{ format: 'pt' }`). */
  metadata?: Record<string, string>;
}

/**
 * Writes float32 tensors to a safetensors file, converting each to `dtype` on the way.
 * Tensors are written one at a time, so peak extra memory is one tensor's bytes.
 *
 * @example
 * await writeSafetensors('grad.safetensors', new Map([['w', floatTensor([2], new Float32Array([1, 2]))]]));
 */
export async function writeSafetensors(
  path: string,
  tensors: ReadonlyMap<string, FloatTensor>,
  options: WriteSafetensorsOptions = {},
): Promise<void> {
  const dtype = options.dtype ?? 'F32';
  const header: Record<string, unknown> = {};
  if (options.metadata) header['__metadata__'] = options.metadata;
  let offset = 0;
  for (const [name, tensor] of tensors) {
    if (tensor.data.length !== elementCount(tensor.shape)) {
      throw new SafetensorsError(`cannot write "${name}": ${tensor.data.length} values for shape [${tensor.shape.join(', ')}]`);
    }
    const length = tensor.data.length * bytesPerElement(dtype);
    header[name] = { dtype, shape: tensor.shape, data_offsets: [offset, offset + length] };
    offset += length;
  }
  // The format asks for the header to be padded with spaces so the data starts 8-byte aligned.
  let headerText = JSON.stringify(header);
  headerText += ' '.repeat((8 - (Buffer.byteLength(headerText) % 8)) % 8);
  const headerBytes = Buffer.from(headerText, 'utf8');
  const prefix = Buffer.alloc(8);
  prefix.writeBigUInt64LE(BigInt(headerBytes.length), 0);

  const handle = await open(path, 'w');
  try {
    await handle.write(prefix);
    await handle.write(headerBytes);
    for (const tensor of tensors.values()) {
      await handle.write(encodeFloats(tensor.data, dtype));
    }
  } finally {
    await handle.close();
  }
}
