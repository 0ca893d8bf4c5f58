/**
 * Reading onnxruntime's per-node profile: where a session's time went, by operator type and by
 * node. Sessions write the profile when created with `profile` (or `SQLENV_ONNX_PROFILE`) set.
 */
import { readFileSync } from 'node:fs';

/** Time spent in one operator type or one node, summed over the profiled runs. */
export interface ProfileCost {
  /** Operator type (`MatMul`, `FusedMatMul`, …) or node name. */
  readonly name: string;
  /** Operator type of the node (equal to `name` for per-operator rows). */
  readonly op: string;
  /** Milliseconds per run. */
  readonly ms: number;
  /** Share of all kernel time, 0..1. */
  readonly share: number;
  /** Kernel launches per run. */
  readonly calls: number;
  /** Output shape of the node's first output, where the profile records it. */
  readonly shape?: readonly number[];
}

/** A profile summed over its runs. */
export interface ProfileSummary {
  /** Runs the profile covers (`model_run` events). */
  readonly runs: number;
  /** Kernel milliseconds per run, all nodes. */
  readonly kernelMs: number;
  /** Per operator type, most expensive first. */
  readonly byOp: readonly ProfileCost[];
  /** Per node, most expensive first. */
  readonly byNode: readonly ProfileCost[];
}

/** One event of onnxruntime's Chrome-trace profile (the fields read here). */
export interface OnnxProfileEvent {
  readonly cat: string;
  readonly name: string;
  readonly dur: number;
  readonly args?: { readonly op_name?: string; readonly output_type_shape?: readonly Record<string, readonly number[]>[] };
}

/**
 * Sum a profile's kernel times per operator type and per node. `skipRuns` drops the first runs
 * (warm-up: first-run allocations and thread-pool start).
 *
 * @example
 * ```ts
 * const s = summarizeOnnxProfile(JSON.parse(readFileSync(file, 'utf8')), { skipRuns: 1 });
 * s.byOp[0]; // { name: 'FusedMatMul', op: 'FusedMatMul', ms: 48.1, share: 0.51, calls: 18 }
 * ```
 */
export function summarizeOnnxProfile(events: readonly OnnxProfileEvent[], opts: { skipRuns?: number } = {}): ProfileSummary {
  const skip = opts.skipRuns ?? 0;
  const ops = new Map<string, { us: number; n: number }>();
  const nodes = new Map<string, { op: string; us: number; n: number; shape?: readonly number[] }>();
  let run = -1;
  let total = 0;
  for (const e of events) {
    // Node events come before their run's `model_run` event closes it: a run's nodes are those
    // after the previous `model_run`.
    if (e.cat === 'Session' && e.name === 'model_run') { run++; continue; }
    if (e.cat !== 'Node' || !e.name.endsWith('_kernel_time') || run + 1 < skip) continue;
    const op = e.args?.op_name ?? '?';
    const node = e.name.slice(0, -'_kernel_time'.length);
    const o = ops.get(op) ?? { us: 0, n: 0 };
    o.us += e.dur;
    o.n++;
    ops.set(op, o);
    const shape = e.args?.output_type_shape?.[0];
    const n = nodes.get(node) ?? { op, us: 0, n: 0, ...(shape ? { shape: Object.values(shape)[0] } : {}) };
    n.us += e.dur;
    n.n++;
    nodes.set(node, n);
    total += e.dur;
  }
  const runs = Math.max(1, run + 1 - skip);
  const rows = (m: Map<string, { op?: string; us: number; n: number; shape?: readonly number[] }>, perOp: boolean): ProfileCost[] =>
    [...m]
      .map(([name, v]) => ({ name, op: perOp ? name : v.op!, ms: v.us / runs / 1000, share: total > 0 ? v.us / total : 0, calls: v.n / runs, ...(v.shape ? { shape: v.shape } : {}) }))
      .sort((a, b) => b.ms - a.ms);
  return { runs, kernelMs: total / runs / 1000, byOp: rows(ops, true), byNode: rows(nodes, false) };
}

/**
 * {@link summarizeOnnxProfile} of a profile file written by a session.
 *
 * @example
 * ```ts
 * const s = readOnnxProfile('/tmp/prof/onnxruntime_profile__2026-12-07.json', { skipRuns: 1 });
 * ```
 */
export function readOnnxProfile(file: string, opts: { skipRuns?: number } = {}): ProfileSummary {
  return summarizeOnnxProfile(JSON.parse(readFileSync(file, 'utf8')) as OnnxProfileEvent[], opts);
}
