/**
 * One fused training step as a single ONNX session: forward, backward, optional global-norm
 * clipping and the optimizer update. Parameters and optimizer state stay resident between steps:
 * on CPU in two preallocated buffer sets used alternately (outputs are written into the set not
 * being read), on GPU providers as device tensors fed straight back (no host round trip).
 */
import ort from 'onnxruntime-node';
import { grad } from '../autodiff/grad.js';
import { toTypedArray, type DType, type HostArray } from '../dtype.js';
import { GraphError } from '../graph/errors.js';
import type { Graph } from '../graph/graph.js';
import { isStatic } from '../graph/shape.js';
import type { Tensor } from '../graph/tensor.js';
import { markResident, type Feeds, type OrtTensor } from '../runtime/host-tensor.js';
import type { Runtime } from '../runtime/runtime.js';
import type { OnnxSession } from '../runtime/session.js';
import { clipByGlobalNorm } from './clip.js';
import type { Optimizer } from './optimizer.js';

/** What to train. */
export interface TrainStepSpec {
  /** The graph holding the forward pass; the step adds backward and update nodes to it. */
  readonly graph: Graph;
  /** Scalar loss. */
  readonly loss: Tensor;
  /** Trainable parameters: graph inputs with static shapes. */
  readonly params: readonly Tensor[];
  readonly optimizer: Optimizer;
  /** Clip gradients to this global L2 norm (off when omitted). */
  readonly clipNorm?: number;
  /** Initial parameter values by input name. */
  readonly initial: Readonly<Record<string, HostArray>>;
  /** Extra tensors to output each step (e.g. per-token log-probs), by output name. */
  readonly extraOutputs?: Readonly<Record<string, Tensor>>;
}

/** Result of one step. */
export interface StepResult {
  readonly loss: number;
  /** Global gradient norm before clipping (when clipping is on). */
  readonly gradNorm?: number;
  /** The requested extra outputs. */
  readonly extra: Readonly<Record<string, OrtTensor>>;
}

/**
 * What a compiled step graph expects and produces: parameter and state input names, extra
 * outputs, and initial values.
 */
interface TrainStepLayout {
  readonly dtype: DType;
  readonly paramNames: readonly string[];
  /** Parameters and optimizer-state tensors, each fed as `name` and produced as `name.next`. */
  readonly stateNames: readonly string[];
  readonly extraNames: readonly string[];
  readonly hasNorm: boolean;
  readonly initial: Readonly<Record<string, { readonly dims: readonly number[]; readonly data: HostArray }>>;
}

const STEP = '__step';
const LR = '__lr';
/** Output name of the next value of a parameter or state tensor. */
export const nextName = (name: string): string => `${name}.next`;

/** Append backward, clipping and the optimizer update to `spec.graph` and describe the result. */
function buildTrainStep(spec: TrainStepSpec): { graph: Graph; layout: TrainStepLayout } {
  const { graph: g, loss, params, optimizer } = spec;
  const dtype = params[0]?.dtype;
  if (!dtype) throw new GraphError('TrainStep: no parameters');
  const step = g.input(STEP, dtype, []);
  const lr = g.input(LR, dtype, []);
  const grads = grad(loss, params);
  let gs = params.map((p) => grads.get(p)!);
  let norm: Tensor | undefined;
  if (spec.clipNorm !== undefined) ({ grads: gs, norm } = clipByGlobalNorm(gs, spec.clipNorm));

  const initial: Record<string, { dims: readonly number[]; data: HostArray }> = {};
  const stateNames: string[] = [];
  g.output(loss, 'loss');
  if (norm) g.output(norm, 'grad_norm');
  params.forEach((p, i) => {
    if (p.kind !== 'input' || !isStatic(p.shape)) throw new GraphError(`TrainStep: parameter ${p.name} must be a graph input with a static shape`);
    const data = spec.initial[p.name];
    if (!data) throw new GraphError(`TrainStep: no initial value for parameter ${p.name}`);
    const dims = p.shape;
    const state = optimizer.stateNames.map((s) => g.input(`${p.name}.${s}`, p.dtype, dims));
    const out = optimizer.update({ param: p, grad: gs[i]!, state, step, lr });
    g.output(out.param, nextName(p.name));
    initial[p.name] = { dims, data: toTypedArray(p.dtype, data as ArrayLike<number>) };
    stateNames.push(p.name);
    out.state.forEach((t, k) => {
      g.output(t, nextName(state[k]!.name));
      initial[state[k]!.name] = { dims, data: toTypedArray(p.dtype, new Array<number>(data.length).fill(0)) };
      stateNames.push(state[k]!.name);
    });
  });
  const extraNames = Object.entries(spec.extraOutputs ?? {}).map(([name, t]) => g.output(t, name).name);
  return { graph: g, layout: { dtype, paramNames: params.map((p) => p.name), stateNames, extraNames, hasNorm: norm !== undefined, initial } };
}

/**
 * @example
 * ```ts
 * const ts = await TrainStep.create(runtime, { graph, loss, params, optimizer: adamw(), initial });
 * const { loss } = await ts.step({ ids, targets }, 1e-3);
 * const weights = await ts.parameters();
 * ts.close();
 * ```
 */
export class TrainStep {
  private state: Map<string, OrtTensor>;
  private spare: Map<string, OrtTensor> | undefined;
  private steps = 0;
  private readonly onDevice: boolean;
  /** Milliseconds spent copying device-resident tensors back to the host. */
  downloadMs = 0;

  private constructor(
    private readonly runtime: Runtime,
    private readonly session: OnnxSession,
    private readonly layout: TrainStepLayout,
  ) {
    this.onDevice = session.provider !== 'cpu';
    const tensors = (fill: boolean) =>
      new Map(layout.stateNames.map((k) => {
        const { dims, data } = layout.initial[k]!;
        const t = new ort.Tensor(layout.dtype, (fill ? data.slice() : data.slice().fill(0 as never)) as Float32Array, dims);
        return [k, this.onDevice ? t : markResident(t)] as const;
      }));
    this.state = tensors(true);
    // CPU: a second buffer set to write the next state into, swapped after every step.
    this.spare = this.onDevice ? undefined : tensors(false);
  }

  /** Build the step graph, compile it on `runtime`, and load the initial state. */
  static async create(runtime: Runtime, spec: TrainStepSpec): Promise<TrainStep> {
    const { graph, layout } = buildTrainStep(spec);
    const onDevice = runtime.provider !== 'cpu';
    const session = await runtime.session(graph, onDevice ? { keepOnDevice: layout.stateNames.map(nextName) } : {});
    return new TrainStep(runtime, session, layout);
  }

  /** Steps taken so far. */
  get stepCount(): number { return this.steps; }

  /** Run one step on a batch with learning rate `lr`. */
  async step(batch: Feeds, lr: number): Promise<StepResult> {
    const scalar = (v: number): OrtTensor => new ort.Tensor(this.layout.dtype, toTypedArray(this.layout.dtype, [v]) as Float32Array, []);
    const feeds: Record<string, OrtTensor | Feeds[string]> = { ...batch, [STEP]: scalar(this.steps + 1), [LR]: scalar(lr) };
    for (const [k, t] of this.state) feeds[k] = t;
    const into = this.spare ? Object.fromEntries([...this.spare].map(([k, t]) => [nextName(k), t])) : undefined;
    const out = await this.session.run(feeds, into ? { into } : {});
    const fresh = new Map(this.layout.stateNames.map((k) => [k, into ? this.spare!.get(k)! : out[nextName(k)]!]));
    if (this.spare) this.spare = this.state;
    else for (const t of this.state.values()) t.dispose();
    this.state = fresh;
    this.steps++;
    const extra = Object.fromEntries(this.layout.extraNames.map((n) => [n, out[n]!]));
    return { loss: Number(out['loss']!.data[0]), ...(this.layout.hasNorm ? { gradNorm: Number(out['grad_norm']!.data[0]) } : {}), extra };
  }

  /** Current parameter values copied to host memory, by name. */
  async parameters(): Promise<Record<string, HostArray>> {
    const result: Record<string, HostArray> = {};
    const t0 = performance.now();
    if (this.onDevice) Object.assign(result, await this.runtime.download(Object.fromEntries(this.layout.paramNames.map((n) => [n, this.state.get(n)!]))));
    else for (const name of this.layout.paramNames) result[name] = (this.state.get(name)!.data as HostArray).slice();
    this.downloadMs += performance.now() - t0;
    return result;
  }

  /** Session counters (runs, time, host bytes fed/fetched). */
  get stats(): OnnxSession['stats'] { return this.session.stats; }

  /** Release device tensors. The session belongs to the runtime, which closes it. */
  close(): void {
    if (this.onDevice) for (const t of this.state.values()) t.dispose();
    this.state.clear();
  }
}
