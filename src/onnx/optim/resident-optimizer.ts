/**
 * An optimizer whose parameters, optimizer state and gradient accumulators stay resident in
 * onnxruntime between steps. A caller's gradient graph adds its gradients into the accumulators
 * ({@link appendGradientAccumulation}: `gradacc.<p>.next = gradacc.<p> + ∂objective/∂p`, one run
 * per micro-batch). A step runs a norm graph (Σ g² per parameter, the only values that come back),
 * skips the update when one is not finite, and otherwise one apply graph runs the update rule on
 * the clipped gradients and zeroes the accumulators. CPU: every tensor has two preallocated buffers and each
 * run writes into the set it does not read (no allocation per step, the host-side views stay
 * valid until the next step); GPU providers: outputs stay in device memory (`gpu-buffer`) and are
 * fed straight back, so only scalars and the micro-batches cross the bus.
 */
import ort from 'onnxruntime-node';
import { GraphError } from '../graph/errors.js';
import { Graph } from '../graph/graph.js';
import type { Tensor } from '../graph/tensor.js';
import { add, mul } from '../ops/elementwise.js';
import { reduceSumSquare } from '../ops/reduce.js';
import { concat, zerosLike } from '../ops/shape-ops.js';
import { markResident, type OrtTensor } from '../runtime/host-tensor.js';
import type { Runtime } from '../runtime/runtime.js';
import type { OnnxSession } from '../runtime/session.js';
import type { Optimizer } from './optimizer.js';
import { nextName } from './train-step.js';

/** Input name of a parameter's gradient accumulator in a gradient graph. */
export const accumulatorName = (param: string): string => `gradacc.${param}`;

/** One trainable tensor: name, static shape, initial value. */
export interface ResidentParameterSpec {
  readonly name: string;
  readonly dims: readonly number[];
  readonly data: Float32Array;
}

/** Outcome of {@link ResidentOptimizer.step}. */
export interface ResidentStepReport {
  /** Global L2 norm of the accumulated gradients before clipping (NaN when one is not finite). */
  readonly gradNorm: number;
  /** Parameters whose gradient holds NaN or ±Inf; when non-empty the update was skipped. */
  readonly nonFinite: readonly string[];
}

/** Optimizer state of every parameter, as host copies (what checkpoints store). */
export interface ResidentOptimizerState {
  /** Updates applied so far. */
  readonly step: number;
  /** Per state name (e.g. `m`, `v`), per parameter name. */
  readonly state: ReadonlyMap<string, ReadonlyMap<string, Float32Array>>;
}

/**
 * Add gradient accumulation to a graph that computes gradients: for each `[name, gradient]` an
 * input `gradacc.<name>` of the gradient's shape and an output `gradacc.<name>.next` holding
 * their sum. Feed and read them through {@link ResidentOptimizer.accumulation}.
 *
 * @example
 * ```ts
 * appendGradientAccumulation(g, [['w', dw]]);
 * ```
 */
export function appendGradientAccumulation(graph: Graph, gradients: readonly (readonly [string, Tensor])[]): void {
  for (const [name, gradient] of gradients) {
    const acc = graph.input(accumulatorName(name), gradient.dtype, gradient.shape);
    graph.output(add(acc, gradient), nextName(acc.name));
  }
}

const STEP = '__step';
const LR = '__lr';
const SCALE = '__clip_scale';
const SUMSQ = 'grad_sumsq';

/** The norm graph: each accumulator's Σ g² (one pass over the gradients), as a vector. */
function buildNormGraph(params: readonly ResidentParameterSpec[]): Graph {
  const g = new Graph('resident_norm');
  const sums = params.map((p) => reduceSumSquare(g.input(accumulatorName(p.name), 'float32', p.dims)).reshape([1]));
  g.output(concat(sums, 0), SUMSQ);
  return g;
}

/**
 * The apply graph: the update rule over every parameter with the clipped gradient
 * `gradacc · scale`. Inputs: each parameter, its state tensors, its accumulator, and the scalars
 * step, lr and the clip scale. Outputs: the next parameter and state values and zeroed
 * accumulators. (The norm, the scale and the non-finite check are decided between the two runs:
 * the host sees the norm graph's per-parameter Σ g² anyway, and skipping a step is then simply
 * not running this graph, with no `Where` passes over every tensor.)
 */
function buildApplyGraph(params: readonly ResidentParameterSpec[], optimizer: Optimizer): Graph {
  const g = new Graph('resident_apply');
  const step = g.input(STEP, 'float32', []);
  const lr = g.input(LR, 'float32', []);
  const scale = g.input(SCALE, 'float32', []);
  params.forEach((p) => {
    const param = g.input(p.name, 'float32', p.dims);
    const acc = g.input(accumulatorName(p.name), 'float32', p.dims);
    const state = optimizer.stateNames.map((s) => g.input(`${p.name}.${s}`, 'float32', p.dims));
    const out = optimizer.update({ param, grad: mul(acc, scale), state, step, lr });
    g.output(out.param, nextName(p.name));
    out.state.forEach((t, k) => g.output(t, nextName(state[k]!.name)));
    g.output(zerosLike(acc), nextName(acc.name));
  });
  return g;
}

/**
 * @example
 * ```ts
 * const opt = await ResidentOptimizer.create(runtime, [{ name: 'w', dims: [4, 2], data }], adamw({ weightDecay: 0 }));
 * const { feeds, into } = opt.accumulation();
 * opt.accumulated(await gradSession.run({ ...batch, ...feeds, w: opt.parameter('w') }, into ? { into } : {}));
 * const { gradNorm } = await opt.step(1e-3, 1.0);
 * ```
 */
export class ResidentOptimizer {
  private current: Map<string, OrtTensor>;
  private spare: Map<string, OrtTensor> | undefined;
  private steps = 0;
  private accumulatorsZero = true;
  private readonly onDevice: boolean;
  private readonly stateKeys: readonly string[];

  private constructor(
    private readonly runtime: Runtime,
    private readonly session: OnnxSession,
    private readonly normSession: OnnxSession,
    private readonly params: readonly ResidentParameterSpec[],
    private readonly optimizer: Optimizer,
  ) {
    this.onDevice = session.provider !== 'cpu';
    this.stateKeys = params.flatMap((p) => [p.name, accumulatorName(p.name), ...optimizer.stateNames.map((s) => `${p.name}.${s}`)]);
    const set = (withValues: boolean) => {
      const m = new Map<string, OrtTensor>();
      for (const p of params) {
        m.set(p.name, this.host(p.dims, withValues ? p.data.slice() : new Float32Array(p.data.length)));
        m.set(accumulatorName(p.name), this.host(p.dims, new Float32Array(p.data.length)));
        for (const s of optimizer.stateNames) m.set(`${p.name}.${s}`, this.host(p.dims, new Float32Array(p.data.length)));
      }
      return m;
    };
    this.current = set(true);
    // CPU: the second buffer set the next values are written into (swapped after every run).
    this.spare = this.onDevice ? undefined : set(false);
  }

  /** Compile the apply graph on `runtime` and load the parameters (state and accumulators start at zero). */
  static async create(runtime: Runtime, params: readonly ResidentParameterSpec[], optimizer: Optimizer): Promise<ResidentOptimizer> {
    if (params.length === 0) throw new GraphError('ResidentOptimizer: no parameters');
    const graph = buildApplyGraph(params, optimizer);
    const session = await runtime.session(graph, { keepOnDevice: graph.outputs.map((t) => t.name) });
    const normSession = await runtime.session(buildNormGraph(params));
    return new ResidentOptimizer(runtime, session, normSession, params, optimizer);
  }

  /** Updates applied so far (skipped non-finite steps do not count). */
  get stepCount(): number { return this.steps; }

  /** Names of the trained parameters, in order. */
  get names(): readonly string[] { return this.params.map((p) => p.name); }

  /** The resident tensor holding a parameter's current value (feed it to any session of the runtime). */
  parameter(name: string): OrtTensor {
    const t = this.current.get(name);
    if (!t || !this.params.some((p) => p.name === name)) throw new GraphError(`ResidentOptimizer: no parameter named ${name}`);
    return t;
  }

  /**
   * Feeds for one gradient-graph run (the accumulators) and, on CPU, the preallocated tensors its
   * `gradacc.<p>.next` outputs must be written into. Pass the run's outputs to {@link accumulated}.
   */
  accumulation(): { feeds: Record<string, OrtTensor>; into?: Record<string, OrtTensor> } {
    const feeds: Record<string, OrtTensor> = {};
    const into: Record<string, OrtTensor> = {};
    for (const p of this.params) {
      const k = accumulatorName(p.name);
      feeds[k] = this.current.get(k)!;
      if (this.spare) into[nextName(k)] = this.spare.get(k)!;
    }
    return this.spare ? { feeds, into } : { feeds };
  }

  /** Take a gradient run's `gradacc.<p>.next` outputs as the accumulators. */
  accumulated(outputs: Readonly<Record<string, OrtTensor>>): void {
    for (const p of this.params) {
      const k = accumulatorName(p.name);
      const fresh = outputs[nextName(k)];
      if (!fresh) throw new GraphError(`ResidentOptimizer: the gradient run did not output ${nextName(k)}`);
      const old = this.current.get(k)!;
      this.current.set(k, fresh);
      if (this.spare) this.spare.set(k, old);
      else if (old !== fresh) old.dispose();
    }
    this.accumulatorsZero = false;
  }

  /** Discard the accumulated gradients. */
  zeroGrad(): void {
    if (this.accumulatorsZero) return;
    for (const p of this.params) {
      const k = accumulatorName(p.name);
      const t = this.current.get(k)!;
      if (t.location === 'cpu') (t.data as Float32Array).fill(0);
      else {
        // Rare (an update abandoned half way): host zeros, uploaded by the next run.
        t.dispose();
        this.current.set(k, this.host(p.dims, new Float32Array(p.data.length)));
      }
    }
    this.accumulatorsZero = true;
  }

  /**
   * Clip the accumulated gradients to global norm `maxGradNorm` (≤ 0: no clipping), apply one
   * update with learning rate `lr`, and zero the accumulators. When a gradient is not finite the
   * parameters and state keep their values, the step does not count, and `nonFinite` names them.
   */
  async step(lr: number, maxGradNorm: number): Promise<ResidentStepReport> {
    const norms = await this.normSession.run(Object.fromEntries(this.params.map((p) => [accumulatorName(p.name), this.current.get(accumulatorName(p.name))!])));
    const sumsq = norms[SUMSQ]!.data as Float32Array;
    const nonFinite = this.params.filter((_, i) => !Number.isFinite(sumsq[i]!)).map((p) => p.name);
    if (nonFinite.length > 0) {
      // Skip: parameters and moments keep their values, the step does not count.
      this.zeroGrad();
      return { gradNorm: Number.NaN, nonFinite };
    }
    let total = 0;
    for (const v of sumsq) total += v;
    const gradNorm = Math.sqrt(total);
    // torch.nn.utils.clip_grad_norm_'s rule (the one clipByGlobalNorm and clipReference apply).
    const scale = maxGradNorm > 0 ? Math.min(1, maxGradNorm / (gradNorm + 1e-6)) : 1;
    const feeds: Record<string, OrtTensor> = { [STEP]: scalar(this.steps + 1), [LR]: scalar(lr), [SCALE]: scalar(scale) };
    for (const k of this.stateKeys) feeds[k] = this.current.get(k)!;
    const into = this.spare ? Object.fromEntries(this.stateKeys.map((k) => [nextName(k), this.spare!.get(k)!])) : undefined;
    const out = await this.session.run(feeds, into ? { into } : {});
    const fresh = new Map(this.stateKeys.map((k) => [k, out[nextName(k)]!]));
    if (this.spare) this.spare = this.current;
    else for (const t of this.current.values()) t.dispose();
    this.current = fresh;
    this.accumulatorsZero = true;
    this.steps++;
    return { gradNorm, nonFinite };
  }

  /**
   * A parameter's current value on the host. CPU: a view of the resident buffer, valid until the
   * next {@link step} (copy it to keep it); GPU providers: a copy downloaded from the device.
   */
  async read(name: string): Promise<Float32Array> {
    const t = this.parameter(name);
    return t.location === 'cpu' ? (t.data as Float32Array) : this.hostCopy(t);
  }

  /** Host copy of a parameter's accumulated gradient (for checks and diagnostics). */
  async readGradient(name: string): Promise<Float32Array> {
    this.parameter(name);
    const t = this.current.get(accumulatorName(name))!;
    return this.hostCopy(t);
  }

  /** Replace parameter values (e.g. from a checkpoint); state and accumulators are untouched. */
  setParameters(values: ReadonlyMap<string, ArrayLike<number>>): void {
    for (const [name, data] of values) this.overwrite(name, data);
  }

  /** Host copies of the optimizer state (for checkpoints). */
  async exportState(): Promise<ResidentOptimizerState> {
    const state = new Map<string, Map<string, Float32Array>>();
    for (const s of this.optimizer.stateNames) {
      const byParam = new Map<string, Float32Array>();
      for (const p of this.params) {
        const t = this.current.get(`${p.name}.${s}`)!;
        byParam.set(p.name, await this.hostCopy(t));
      }
      state.set(s, byParam);
    }
    return { step: this.steps, state };
  }

  /** Restore a state saved by {@link exportState}; throws when a tensor is missing or mis-sized. */
  importState(saved: ResidentOptimizerState): void {
    for (const s of this.optimizer.stateNames) {
      for (const p of this.params) {
        const data = saved.state.get(s)?.get(p.name);
        if (!data || data.length !== p.data.length) {
          throw new GraphError(`optimizer state "${s}" of "${p.name}" is missing or has the wrong size: was the checkpoint written for another model?`);
        }
      }
    }
    for (const s of this.optimizer.stateNames) for (const p of this.params) this.overwrite(`${p.name}.${s}`, saved.state.get(s)!.get(p.name)!);
    this.steps = saved.step;
  }

  /** Session counters of the apply graph (runs, time, host bytes fed and fetched). */
  get stats(): OnnxSession['stats'] { return this.session.stats; }

  /** Session counters of the norm graph (its output, one Σ g² per parameter, is all that comes back). */
  get normStats(): OnnxSession['stats'] { return this.normSession.stats; }

  /** A host copy of a resident tensor: a copy of the buffer on CPU, a download through the runtime on GPU providers ({@link Runtime.download}). */
  private async hostCopy(t: OrtTensor): Promise<Float32Array> {
    return t.location === 'cpu' ? (t.data as Float32Array).slice() : ((await this.runtime.download({ t }))['t'] as Float32Array);
  }

  /** Release device tensors (the session belongs to the runtime). */
  close(): void {
    if (this.onDevice) for (const t of this.current.values()) t.dispose();
    this.current.clear();
  }

  private overwrite(key: string, data: ArrayLike<number>): void {
    const t = this.current.get(key);
    if (!t) throw new GraphError(`ResidentOptimizer: no parameter or state named ${key}`);
    if (t.size !== data.length) throw new GraphError(`ResidentOptimizer: ${key} has ${t.size} values, got ${data.length}`);
    if (t.location === 'cpu') (t.data as Float32Array).set(data);
    else {
      // A host tensor on a GPU provider: uploaded by the next run that feeds it, then resident.
      t.dispose();
      this.current.set(key, this.host(t.dims, Float32Array.from(data)));
    }
  }

  /** A host tensor; resident on CPU (read in place), on GPU providers uploaded by its first run. */
  private host(dims: readonly number[], data: Float32Array): OrtTensor {
    const t = new ort.Tensor('float32', data, dims);
    return this.onDevice ? t : markResident(t);
  }
}

function scalar(v: number): OrtTensor {
  return new ort.Tensor('float32', new Float32Array([v]), []);
}
