/**
 * Element types of safetensors files and the pure conversions between their bytes and
 * float32 values. All conversions are little-endian, as the format prescribes.
 */
import { floatToHalfBits, halfBitsToFloat } from '../../base/half-float.js';

/** Floating-point dtypes this SDK reads and writes. */
export type FloatDtype = 'F32' | 'F16' | 'BF16';

/** Every dtype name the safetensors format defines (only {@link FloatDtype} convert to floats). */
export type SafetensorsDtype = FloatDtype | 'F64' | 'I64' | 'I32' | 'I16' | 'I8' | 'U8' | 'BOOL' | 'U16' | 'U32' | 'U64';

const BYTES_PER_ELEMENT: Record<SafetensorsDtype, number> = {
  F64: 8, F32: 4, F16: 2, BF16: 2, I64: 8, I32: 4, I16: 2, I8: 1, U8: 1, BOOL: 1, U16: 2, U32: 4, U64: 8,
};

/**
 * Size in bytes of one element of `dtype`.
 *
 * @example
 * bytesPerElement('BF16'); // 2
 */
export function bytesPerElement(dtype: SafetensorsDtype): number {
  return BYTES_PER_ELEMENT[dtype];
}

/**
 * Whether `name` is a dtype the safetensors format defines.
 *
 * @example
 * isSafetensorsDtype('F16'); // true
 */
export function isSafetensorsDtype(name: string): name is SafetensorsDtype {
  return Object.prototype.hasOwnProperty.call(BYTES_PER_ELEMENT, name);
}

const scratch = new DataView(new ArrayBuffer(4));

/**
 * Converts a bfloat16 bit pattern to a float32 value (exact: bf16 is the top half of f32).
 *
 * @example
 * bf16BitsToFloat(0x3f80); // 1
 */
export function bf16BitsToFloat(b: number): number {
  scratch.setUint32(0, (b & 0xffff) << 16, true);
  return scratch.getFloat32(0, true);
}

/**
 * Rounds a float32 value to the nearest bfloat16 bit pattern (ties to even; NaN stays NaN).
 *
 * @example
 * floatToBf16Bits(1); // 0x3f80
 */
export function floatToBf16Bits(value: number): number {
  scratch.setFloat32(0, value, true);
  const x = scratch.getUint32(0, true);
  if ((x & 0x7fffffff) > 0x7f800000) return ((x >>> 16) | 0x40) & 0xffff;
  const rounded = x + 0x7fff + ((x >>> 16) & 1);
  return (rounded >>> 16) & 0xffff;
}

/**
 * Decodes little-endian bytes of a float dtype into float32 values.
 *
 * @example
 * decodeFloats(new Uint8Array([0x00, 0x3c]), 'F16'); // Float32Array [1]
 */
export function decodeFloats(bytes: Uint8Array, dtype: FloatDtype): Float32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const n = bytes.byteLength / bytesPerElement(dtype);
  const out = new Float32Array(n);
  if (dtype === 'F32') {
    for (let i = 0; i < n; i++) out[i] = view.getFloat32(i * 4, true);
  } else if (dtype === 'F16') {
    for (let i = 0; i < n; i++) out[i] = halfBitsToFloat(view.getUint16(i * 2, true));
  } else {
    // bf16 → f32 is a 16-bit shift; writing the bits through an Int32 view avoids a DataView per element.
    const bits = new Uint32Array(out.buffer);
    for (let i = 0; i < n; i++) bits[i] = view.getUint16(i * 2, true) << 16;
  }
  return out;
}

/**
 * Encodes float32 values as little-endian bytes of a float dtype (rounding to nearest even).
 *
 * @example
 * encodeFloats(new Float32Array([1]), 'BF16'); // Uint8Array [0x80, 0x3f]
 */
export function encodeFloats(values: Float32Array, dtype: FloatDtype): Uint8Array {
  const out = new Uint8Array(values.length * bytesPerElement(dtype));
  const view = new DataView(out.buffer);
  if (dtype === 'F32') {
    for (let i = 0; i < values.length; i++) view.setFloat32(i * 4, values[i]!, true);
  } else if (dtype === 'F16') {
    for (let i = 0; i < values.length; i++) view.setUint16(i * 2, floatToHalfBits(values[i]!), true);
  } else {
    for (let i = 0; i < values.length; i++) view.setUint16(i * 2, floatToBf16Bits(values[i]!), true);
  }
  return out;
}
