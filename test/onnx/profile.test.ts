import { describe, expect, it } from 'vitest';
import { summarizeOnnxProfile, type OnnxProfileEvent } from '../../src/onnx/index.js';
import { cpuVectorExtension } from '../../src/base/cpu-features.js';

const node = (name: string, op: string, dur: number, shape?: number[]): OnnxProfileEvent => ({
  cat: 'Node', name: `${name}_kernel_time`, dur, args: { op_name: op, ...(shape ? { output_type_shape: [{ float: shape }] } : {}) },
});
const run: OnnxProfileEvent = { cat: 'Session', name: 'model_run', dur: 0 };

describe('summarizeOnnxProfile', () => {
  // Two runs; the first (warm-up) is slower and is skipped.
  const events: OnnxProfileEvent[] = [
    { cat: 'Session', name: 'session_initialization', dur: 5000 },
    node('mm1', 'MatMul', 9000, [2, 3]), node('add', 'Add', 1000), node('fence_before', 'X', 0), run,
    node('mm1', 'MatMul', 3000, [2, 3]), node('mm2', 'MatMul', 1000), node('add', 'Add', 2000), { cat: 'Node', name: 'mm1_fence_after', dur: 7 }, run,
  ];

  it('sums kernel time per operator and per node, per run, most expensive first', () => {
    const s = summarizeOnnxProfile(events, { skipRuns: 1 });
    expect(s.runs).toBe(1);
    expect(s.kernelMs).toBeCloseTo(6);
    expect(s.byOp.map((o) => [o.name, o.ms, o.calls])).toEqual([['MatMul', 4, 2], ['Add', 2, 1]]);
    expect(s.byOp[0]!.share).toBeCloseTo(4 / 6);
    expect(s.byNode[0]).toMatchObject({ name: 'mm1', op: 'MatMul', ms: 3, shape: [2, 3] });
  });

  it('averages over every run when none is skipped', () => {
    const s = summarizeOnnxProfile(events);
    expect(s.runs).toBe(2);
    expect(s.byOp.find((o) => o.name === 'MatMul')!.ms).toBeCloseTo((9 + 3 + 1) / 2);
  });
});

describe('cpuVectorExtension', () => {
  it('names the widest float extension in the flags', () => {
    expect(cpuVectorExtension('processor\t: 0\nflags\t\t: fpu sse4_2 avx avx2 fma avx512f avx512bw\n')).toBe('AVX-512');
    expect(cpuVectorExtension('flags\t\t: fpu sse4_2 avx avx2 fma\n')).toBe('AVX2');
    expect(cpuVectorExtension('flags\t\t: fpu sse4_2\n')).toBe('SSE4.2');
    expect(cpuVectorExtension('Features\t: fp asimd evtstrm\n')).toBe('NEON');
    expect(cpuVectorExtension('nothing useful')).toBe('unknown');
  });
});
