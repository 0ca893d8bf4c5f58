/**
 * The widest SIMD extension this CPU offers for float32 math, as the name its kernels go by. CPU
 * kernels (onnxruntime's MLAS, PyTorch's) pick their code path by it, so two machines of the same
 * vendor can differ by 2× in matrix products: every timing should name it beside the CPU model.
 */
import { readFileSync } from 'node:fs';
import { arch } from 'node:os';

/**
 * `'AVX-512'`, `'AVX2'`, `'AVX'`, `'SSE4.2'`, `'NEON'` (64-bit ARM), or `'unknown'` where the
 * flags cannot be read.
 *
 * @example
 * ```ts
 * `${cpus()[0]!.model} (${cpuVectorExtension()})`; // 'AMD EPYC (AVX-512)'
 * ```
 */
export function cpuVectorExtension(cpuinfo?: string): string {
  if (cpuinfo === undefined && arch() === 'arm64') return 'NEON';
  let text = cpuinfo;
  if (text === undefined) {
    try {
      text = readFileSync('/proc/cpuinfo', 'utf8');
    } catch {
      return 'unknown';
    }
  }
  const flagsLine = /^flags\s*:(.*)$/m.exec(text);
  if (!flagsLine) return /^Features\s*:.*\b(asimd|neon)\b/m.test(text) ? 'NEON' : 'unknown';
  const flags = new Set(flagsLine[1]!.trim().split(/\s+/));
  if (flags.has('avx512f')) return 'AVX-512';
  if (flags.has('avx2')) return 'AVX2';
  if (flags.has('avx')) return 'AVX';
  if (flags.has('sse4_2')) return 'SSE4.2';
  return 'unknown';
}
