/**
 * IEEE half precision (float16) ⇄ float32, bit-exact: the one conversion safetensors files
 * (F16 tensors) and ONNX tensors (float16 data) both use.
 */

const scratch = new DataView(new ArrayBuffer(4));

/**
 * Converts an IEEE half-precision bit pattern to a float32 value (exact).
 *
 * @example
 * halfBitsToFloat(0x3c00); // 1
 */
export function halfBitsToFloat(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exponent = (h >> 10) & 0x1f;
  const mantissa = h & 0x3ff;
  if (exponent === 0) return sign * mantissa * 2 ** -24;
  if (exponent === 0x1f) return mantissa === 0 ? sign * Infinity : NaN;
  return sign * (1 + mantissa / 1024) * 2 ** (exponent - 15);
}

/**
 * Rounds a float32 value to the nearest half-precision bit pattern (ties to even; overflow
 * to ±Infinity, as PyTorch's `.half()` does).
 *
 * @example
 * floatToHalfBits(1); // 0x3c00
 */
export function floatToHalfBits(value: number): number {
  scratch.setFloat32(0, value, true);
  const x = scratch.getUint32(0, true);
  const sign = (x >>> 16) & 0x8000;
  const exponent = (x >>> 23) & 0xff;
  let mantissa = x & 0x7fffff;
  if (exponent === 0xff) return sign | 0x7c00 | (mantissa ? 0x200 : 0);
  const e = exponent - 127 + 15;
  if (e >= 0x1f) return sign | 0x7c00;
  if (e <= 0) {
    // Subnormal half: shift the implicit leading one into the mantissa, then round.
    if (e < -10) return sign;
    mantissa |= 0x800000;
    const shift = 14 - e;
    const halfMantissa = mantissa >> shift;
    const remainder = mantissa & ((1 << shift) - 1);
    const halfway = 1 << (shift - 1);
    const roundUp = remainder > halfway || (remainder === halfway && (halfMantissa & 1) === 1);
    return sign | (halfMantissa + (roundUp ? 1 : 0));
  }
  const halfMantissa = mantissa >> 13;
  const remainder = mantissa & 0x1fff;
  const roundUp = remainder > 0x1000 || (remainder === 0x1000 && (halfMantissa & 1) === 1);
  // A carry out of the mantissa correctly bumps the exponent (and may reach Infinity).
  return (sign | (e << 10) | halfMantissa) + (roundUp ? 1 : 0);
}
