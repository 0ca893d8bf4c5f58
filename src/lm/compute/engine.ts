import type { LoraAdapter } from '../lora/adapter.js';
import type { LoraConfig } from '../lora/config.js';
import type { LanguageModel } from '../model/language-model.js';
import { GRAPH_IO, type BuiltGraph } from '../graph/graphs.js';
import { accumulates, buildGraph, graphKey, graphThreads, type GraphSpec, type GraphThreads } from './graph-spec.js';
import { accumulatorName, nextName, onnxTensor, Runtime, type OnnxHostTensor, type OnnxSession, type OrtTensor, type ProviderChoice } from '../graph/onnx.js';
import type { FloatTensor } from '../tensor.js';
import { LmError } from '../errors.js';

/** Options of {@link ModelEngine.create}. */
export interface EngineOptions {
  /** A runtime to compile sessions in (shared with the caller, who closes it). */
  readonly runtime?: Runtime;
  /** Execution provider when the engine makes its own runtime (default 'cpu'). */
  readonly provider?: ProviderChoice;
  /** Threads per op when the engine makes its own runtime. */
  readonly intraOpThreads?: number;
  /**
   * Threads per op of the scoring graphs (log-probs, with or without gradients), where they differ
   * from `intraOpThreads`: training steps gain from more cores, while decoding a few rows at a time
   * does not. A fixed count gives the same bits run after run; another count may differ in the
   * last bits (onnxruntime splits the inner dimension of small matrix products across threads).
   */
  readonly scoringThreads?: number;
  /**
   * Threads per op of the shared-prompt prefix graphs (one row: a group's common prompt, computed
   * once for all its rows; `shared-prompts.ts`), where they differ from `scoringThreads`. A small
   * model's single prompt row is too little work to split: on the tiny model (hidden 128) one
   * thread made an SFT step 5–10% faster than two.
   */
  readonly promptThreads?: number;
}

/**
 * Which weights a run reads: the model's base weights, replaced by `overrides` (host tensors,
 * e.g. full-tuning parameters kept outside a resident optimizer) and by `resident` (tensors
 * already resident in the engine's runtime, e.g. a `ResidentOptimizer`'s parameters, by base or
 * LoRA name), plus the adapter's matrices when the graph has LoRA inputs.
 */
export interface WeightSource {
  readonly adapter?: LoraAdapter;
  readonly overrides?: ReadonlyMap<string, FloatTensor>;
  readonly resident?: ReadonlyMap<string, OrtTensor>;
}

/** A compiled graph and the list of weights it reads. */
export interface CompiledGraph {
  readonly session: OnnxSession;
  readonly built: BuiltGraph;
}

/**
 * Compiles and caches the graphs of one model (scoring with or without gradients, prefill,
 * decode; with or without LoRA) and feeds them the model's weights. The engine owns its
 * runtime unless one was passed in; `close()` releases what it owns.
 *
 * @example
 * const engine = await ModelEngine.create(model);
 * try { const { session } = await engine.graph({ kind: 'prefill', sampler: false }); } finally { await engine.close(); }
 */
export class ModelEngine {
  private readonly compiled = new Map<string, Promise<CompiledGraph>>();
  /**
   * Host weight buffers bound to the runtime, each once: on CPU a resident wrapper of the buffer
   * (no copy; in-place writes are seen), on GPU providers a device copy.
   */
  private bound = new WeakMap<Float32Array, OrtTensor>();

  /** Threads per op of each thread setting (undefined: the runtime's own). */
  private readonly threads: Readonly<Record<GraphThreads, number | undefined>>;

  private constructor(
    private base: LanguageModel,
    readonly runtime: Runtime,
    private readonly ownsRuntime: boolean,
    scoringThreads: number | undefined,
    promptThreads: number | undefined,
  ) {
    this.threads = { runtime: undefined, scoring: scoringThreads, prompt: promptThreads ?? scoringThreads };
  }

  /** The model whose base weights the graphs read where no other source replaces them. */
  get model(): LanguageModel {
    return this.base;
  }

  /**
   * Read base weights from `model` from now on (the same architecture: its compiled graphs stay):
   * how a full-tuning policy makes its current parameters the reference model.
   */
  replaceBaseWeights(model: LanguageModel): void {
    if (model.config !== this.base.config) throw new LmError('replaceBaseWeights needs a model of the same configuration object; load it with the engine\'s model.config');
    this.base = model;
  }

  /** Creates an engine for `model`. */
  static async create(model: LanguageModel, options: EngineOptions = {}): Promise<ModelEngine> {
    if (options.runtime) return new ModelEngine(model, options.runtime, false, options.scoringThreads, options.promptThreads);
    const runtime = await Runtime.create({
      provider: options.provider ?? 'cpu',
      ...(options.intraOpThreads ? { intraOpThreads: options.intraOpThreads } : {}),
    });
    return new ModelEngine(model, runtime, true, options.scoringThreads, options.promptThreads);
  }

  /**
   * The compiled graph a spec names (see {@link GraphSpec}), with or without LoRA inputs; compiled
   * once per engine and spec. Accumulating graphs keep their accumulators resident (on GPU
   * providers they never come back to the host); generation graphs keep their KV cache resident.
   */
  graph(spec: GraphSpec, lora?: LoraConfig): Promise<CompiledGraph> {
    const key = graphKey(spec, lora);
    let entry = this.compiled.get(key);
    if (!entry) {
      entry = (async () => {
        const built = buildGraph(this.model.config, spec, lora);
        const keepOnDevice = spec.kind === 'prefill' || spec.kind === 'decode' ? this.cacheOutputs() : accumulates(spec) ? built.gradientOf.map((n) => nextName(accumulatorName(n))) : undefined;
        const threads = this.threads[graphThreads(spec)];
        const session = await this.runtime.session(built.graph, { key: `${this.model.dir}|${key}`, ...(keepOnDevice ? { keepOnDevice } : {}), ...(threads ? { intraOpThreads: threads } : {}) });
        return { session, built };
      })();
      this.compiled.set(key, entry);
      entry.catch(() => this.compiled.delete(key));
    }
    return entry;
  }

  /**
   * Weight feeds of a compiled graph (see {@link WeightSource}). Every host buffer is bound to the
   * runtime once and reused by later runs, so a run feeds no weight bytes: the weights cross to
   * a GPU once per buffer (once per optimizer step for a trainer's parameters), not per run.
   */
  async weightFeeds(built: BuiltGraph, source: WeightSource = {}): Promise<Record<string, OrtTensor>> {
    const feeds: Record<string, OrtTensor> = {};
    const unbound: Record<string, OnnxHostTensor> = {};
    const host = (name: string, t: FloatTensor): void => {
      const b = this.bound.get(t.data);
      if (b) feeds[name] = b;
      else unbound[name] = asOnnx(t);
    };
    for (const name of built.baseInputs) {
      const resident = source.resident?.get(name);
      if (resident) feeds[name] = resident;
      else host(name, source.overrides?.get(name) ?? this.model.weight(name));
    }
    for (const name of built.loraInputs) {
      const resident = source.resident?.get(name);
      if (resident) {
        feeds[name] = resident;
        continue;
      }
      const w = source.adapter?.weights.get(name);
      if (!w) throw new LmError(`the graph expects LoRA weight "${name}" but no matching adapter was given`);
      host(name, w);
    }
    if (Object.keys(unbound).length > 0) {
      const uploaded = await this.runtime.upload(unbound);
      for (const [name, t] of Object.entries(uploaded)) {
        this.bound.set(unbound[name]!.data as Float32Array, t);
        feeds[name] = t;
      }
    }
    return feeds;
  }

  /**
   * Forget the bound copies of host weights. Needed on GPU providers after host weight buffers
   * were written in place (on CPU the bound tensors read the buffers themselves).
   */
  rebind(): void {
    this.bound = new WeakMap();
  }

  /** Releases the runtime and its sessions if the engine created it; a borrowed runtime stays open. */
  async close(): Promise<void> {
    this.compiled.clear();
    // Sessions live in the runtime's cache; a borrowed runtime may share them with other engines.
    if (this.ownsRuntime) await this.runtime.close();
  }

  private cacheOutputs(): string[] {
    return Array.from({ length: this.model.config.numLayers }, (_, l) => [GRAPH_IO.presentKey(l), GRAPH_IO.presentValue(l)]).flat();
  }
}

function asOnnx(t: FloatTensor): OnnxHostTensor {
  return onnxTensor('float32', t.shape, t.data);
}
