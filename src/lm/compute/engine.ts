import type { LoraAdapter } from '../lora/adapter.js';
import type { LoraConfig } from '../lora/config.js';
import type { LanguageModel } from '../model/language-model.js';
import { buildScoringGraph, buildStepGraph, GRAPH_IO, type BuiltGraph, type GradientTarget } from '../graph/graphs.js';
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

/** What a training graph does with entropies: nothing, report them, or differentiate them too. */
export type TrainingEntropy = 'none' | 'output' | 'objective';

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
 * try { const { session } = await engine.prefill(); } finally { await engine.close(); }
 */
export class ModelEngine {
  private readonly compiled = new Map<string, Promise<CompiledGraph>>();
  /**
   * Host weight buffers bound to the runtime, each once: on CPU a resident wrapper of the buffer
   * (no copy; in-place writes are seen), on GPU providers a device copy.
   */
  private bound = new WeakMap<Float32Array, OrtTensor>();

  private constructor(
    readonly model: LanguageModel,
    readonly runtime: Runtime,
    private readonly ownsRuntime: boolean,
    private readonly scoringThreads: number | undefined,
    private readonly promptThreads: number | undefined = scoringThreads,
  ) {}

  /** Creates an engine for `model`. */
  static async create(model: LanguageModel, options: EngineOptions = {}): Promise<ModelEngine> {
    if (options.runtime) return new ModelEngine(model, options.runtime, false, options.scoringThreads, options.promptThreads);
    const runtime = await Runtime.create({
      provider: options.provider ?? 'cpu',
      ...(options.intraOpThreads ? { intraOpThreads: options.intraOpThreads } : {}),
    });
    return new ModelEngine(model, runtime, true, options.scoringThreads, options.promptThreads);
  }

  /** The scoring graph (log-probs, optionally gradients). */
  scoring(gradients: GradientTarget, lora?: LoraConfig): Promise<CompiledGraph> {
    return this.compileScoring(`scoring:${gradients}:${loraKey(lora)}`, () => buildScoringGraph(this.model.config, { gradients, ...(lora ? { lora } : {}) }));
  }

  /**
   * The scoring graph with per-position entropies of the next-token distribution (and, with
   * gradients, entropy weights in the differentiated objective). Compiled only when asked for:
   * it holds extra vocabulary-sized buffers per token.
   */
  entropyScoring(gradients: GradientTarget, lora?: LoraConfig): Promise<CompiledGraph> {
    return this.compileScoring(`entropy-scoring:${gradients}:${loraKey(lora)}`, () => buildScoringGraph(this.model.config, { gradients, entropy: true, ...(lora ? { lora } : {}) }));
  }

  /**
   * The training graph: the scoring graph whose gradients are added to a `ResidentOptimizer`'s
   * accumulators instead of being returned (see `buildScoringGraph`'s `accumulate`). `entropy`:
   * `'objective'` differentiates an entropy term too, `'output'` only reports the entropies,
   * `'none'` computes none.
   */
  training(target: Exclude<GradientTarget, 'none'>, entropy: TrainingEntropy, lora?: LoraConfig): Promise<CompiledGraph> {
    // The accumulators stay resident: on GPU providers they never come back to the host.
    return this.compileScoring(
      `training:${target}:${entropy}:${loraKey(lora)}`,
      () => buildScoringGraph(this.model.config, { gradients: target, entropy: entropy !== 'none', entropyGradient: entropy === 'objective', accumulate: true, ...(lora ? { lora } : {}) }),
      (built) => built.gradientOf.map((n) => nextName(accumulatorName(n))),
    );
  }

  /** The prefix graph of shared prompts (see `shared-prompts.ts`): scores and keys/values of the prompt positions. */
  promptPrefix(entropy: boolean, lora?: LoraConfig): Promise<CompiledGraph> {
    return this.compileScoring(`prompt-prefix:${entropy}:${loraKey(lora)}`, () => buildScoringGraph(this.model.config, { present: true, entropy, ...(lora ? { lora } : {}) }), undefined, this.promptThreads);
  }

  /**
   * The continuation graph of shared prompts: scores of positions that follow a KV cache (with
   * `perGroup`, one cache per group of consecutive rows of one size; see `buildScoringGraph`).
   */
  promptSuffix(entropy: boolean, lora?: LoraConfig, perGroup = false): Promise<CompiledGraph> {
    return this.compileScoring(`prompt-suffix:${entropy}:${perGroup}:${loraKey(lora)}`, () => buildScoringGraph(this.model.config, { past: perGroup ? 'per-group' : true, entropy, ...(lora ? { lora } : {}) }));
  }

  /**
   * The continuation training graph: accumulates parameter gradients, returns the gradients of its
   * past keys/values. With `headPositions` its LM head reads only the positions fed as `head_positions`.
   */
  promptSuffixTraining(target: Exclude<GradientTarget, 'none'>, entropy: boolean, lora?: LoraConfig, perGroup = false, headPositions = false): Promise<CompiledGraph> {
    return this.compileScoring(
      `prompt-suffix-training:${target}:${entropy}:${perGroup}:${headPositions}:${loraKey(lora)}`,
      () => buildScoringGraph(this.model.config, { past: perGroup ? 'per-group' : true, gradients: target, entropy, entropyGradient: false, accumulate: true, headPositions, ...(lora ? { lora } : {}) }),
      (built) => built.gradientOf.map((n) => nextName(accumulatorName(n))),
    );
  }

  /** The prefix training graph: accumulates the gradients of the prefix's objective plus Σ keys/values · seeds. */
  promptPrefixTraining(target: Exclude<GradientTarget, 'none'>, entropy: boolean, lora?: LoraConfig): Promise<CompiledGraph> {
    return this.compileScoring(
      `prompt-prefix-training:${target}:${entropy}:${loraKey(lora)}`,
      () => buildScoringGraph(this.model.config, { present: true, gradients: target, entropy, entropyGradient: false, accumulate: true, ...(lora ? { lora } : {}) }),
      (built) => built.gradientOf.map((n) => nextName(accumulatorName(n))),
      this.promptThreads,
    );
  }

  /** The headless prefix training graph: accumulates only the gradient of Σ keys/values · seeds (no LM head). */
  promptPrefixBackward(target: Exclude<GradientTarget, 'none'>, lora?: LoraConfig): Promise<CompiledGraph> {
    return this.compileScoring(
      `prompt-prefix-backward:${target}:${loraKey(lora)}`,
      () => buildScoringGraph(this.model.config, { present: true, headless: true, gradients: target, accumulate: true, ...(lora ? { lora } : {}) }),
      (built) => built.gradientOf.map((n) => nextName(accumulatorName(n))),
      this.promptThreads,
    );
  }

  /** The prefill graph (no KV cache in, cache out; the cache stays resident). With `sampler`, it draws the next token itself. */
  prefill(lora?: LoraConfig, sampler = false): Promise<CompiledGraph> {
    return this.compile(`prefill:${sampler}:${loraKey(lora)}`, () => buildStepGraph(this.model.config, { withPast: false, sampler, ...(lora ? { lora } : {}) }), () => this.cacheOutputs());
  }

  /** The decode graph (KV cache in and out, resident between steps). With `sampler`, it draws the next token itself. */
  decode(lora?: LoraConfig, sampler = false): Promise<CompiledGraph> {
    return this.compile(`decode:${sampler}:${loraKey(lora)}`, () => buildStepGraph(this.model.config, { withPast: true, sampler, ...(lora ? { lora } : {}) }), () => this.cacheOutputs());
  }

  /** The decode graph after a prompt's cache (`prefix.N.*`, the same every step; see `buildStepGraph`). */
  decodeAfterPrefix(lora?: LoraConfig): Promise<CompiledGraph> {
    return this.compile(`decode-prefix:${loraKey(lora)}`, () => buildStepGraph(this.model.config, { withPast: true, withPrefix: true, ...(lora ? { lora } : {}) }), () => this.cacheOutputs());
  }

  /** The decode graph after prompt caches shared by groups of consecutive rows (`withPrefix: 'per-group'`). */
  decodeAfterGroupPrefix(lora?: LoraConfig): Promise<CompiledGraph> {
    return this.compile(`decode-group-prefix:${loraKey(lora)}`, () => buildStepGraph(this.model.config, { withPast: true, withPrefix: 'per-group', ...(lora ? { lora } : {}) }), () => this.cacheOutputs());
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

  private compileScoring(key: string, build: () => BuiltGraph, kept?: (built: BuiltGraph) => readonly string[], threads = this.scoringThreads): Promise<CompiledGraph> {
    return this.compile(key, build, kept, threads);
  }

  private compile(key: string, build: () => BuiltGraph, kept?: (built: BuiltGraph) => readonly string[], intraOpThreads?: number): Promise<CompiledGraph> {
    let entry = this.compiled.get(key);
    if (!entry) {
      entry = (async () => {
        const built = build();
        const keepOnDevice = kept?.(built);
        const session = await this.runtime.session(built.graph, { key: `${this.model.dir}|${key}`, ...(keepOnDevice ? { keepOnDevice } : {}), ...(intraOpThreads ? { intraOpThreads } : {}) });
        return { session, built };
      })();
      this.compiled.set(key, entry);
      entry.catch(() => this.compiled.delete(key));
    }
    return entry;
  }
}

function asOnnx(t: FloatTensor): OnnxHostTensor {
  return onnxTensor('float32', t.shape, t.data);
}

function loraKey(lora: LoraConfig | undefined): string {
  return lora ? `r${lora.rank}a${lora.alpha}:${lora.targetModules.join(',')}:${lora.layers?.join(',') ?? 'all'}` : 'base';
}
