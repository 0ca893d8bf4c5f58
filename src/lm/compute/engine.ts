import type { LoraAdapter } from '../lora/adapter.js';
import type { LoraConfig } from '../lora/config.js';
import type { LanguageModel } from '../model/language-model.js';
import { buildScoringGraph, buildStepGraph, type BuiltGraph, type GradientTarget } from '../graph/graphs.js';
import { onnxTensor, Runtime, type OnnxHostTensor, type OnnxSession, type ProviderChoice } from '../graph/onnx.js';
import type { FloatTensor } from '../tensor.js';

/** Options of {@link ModelEngine.create}. */
export interface EngineOptions {
  /** A runtime to compile sessions in (shared with the caller, who closes it). */
  readonly runtime?: Runtime;
  /** Execution provider when the engine makes its own runtime (default 'cpu'). */
  readonly provider?: ProviderChoice;
  /** Threads per op when the engine makes its own runtime. */
  readonly intraOpThreads?: number;
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
 * try { const { session } = await engine.prefill(); } finally { await engine.close(); }
 */
export class ModelEngine {
  private readonly compiled = new Map<string, Promise<CompiledGraph>>();
  private readonly baseFeeds: Readonly<Record<string, OnnxHostTensor>>;

  private constructor(
    readonly model: LanguageModel,
    readonly runtime: Runtime,
    private readonly ownsRuntime: boolean,
  ) {
    const feeds: Record<string, OnnxHostTensor> = {};
    for (const [name, w] of model.weights) feeds[name] = asOnnx(w);
    this.baseFeeds = feeds;
  }

  /** Creates an engine for `model`. */
  static async create(model: LanguageModel, options: EngineOptions = {}): Promise<ModelEngine> {
    if (options.runtime) return new ModelEngine(model, options.runtime, false);
    const runtime = await Runtime.create({
      provider: options.provider ?? 'cpu',
      ...(options.intraOpThreads ? { intraOpThreads: options.intraOpThreads } : {}),
    });
    return new ModelEngine(model, runtime, true);
  }

  /** The scoring graph (log-probs, optionally gradients). */
  scoring(gradients: GradientTarget, lora?: LoraConfig): Promise<CompiledGraph> {
    return this.compile(`scoring:${gradients}:${loraKey(lora)}`, () => buildScoringGraph(this.model.config, { gradients, ...(lora ? { lora } : {}) }));
  }

  /**
   * The scoring graph with per-position entropies of the next-token distribution (and, with
   * gradients, entropy weights in the differentiated objective). Compiled only when asked for:
   * it holds extra vocabulary-sized buffers per token.
   */
  entropyScoring(gradients: GradientTarget, lora?: LoraConfig): Promise<CompiledGraph> {
    return this.compile(`entropy-scoring:${gradients}:${loraKey(lora)}`, () => buildScoringGraph(this.model.config, { gradients, entropy: true, ...(lora ? { lora } : {}) }));
  }

  /** The prefill graph (no KV cache in, cache out). */
  prefill(lora?: LoraConfig): Promise<CompiledGraph> {
    return this.compile(`prefill:${loraKey(lora)}`, () => buildStepGraph(this.model.config, { withPast: false, ...(lora ? { lora } : {}) }));
  }

  /** The decode graph (KV cache in and out). */
  decode(lora?: LoraConfig): Promise<CompiledGraph> {
    return this.compile(`decode:${loraKey(lora)}`, () => buildStepGraph(this.model.config, { withPast: true, ...(lora ? { lora } : {}) }));
  }

  /**
   * Weight feeds of a compiled graph: base weights, overridden by `overrides` (e.g. parameters a
   * trainer keeps elsewhere), plus the adapter's A/B matrices when the graph has LoRA inputs.
   */
  weightFeeds(built: BuiltGraph, adapter?: LoraAdapter, overrides?: ReadonlyMap<string, FloatTensor>): Record<string, OnnxHostTensor> {
    const feeds: Record<string, OnnxHostTensor> = {};
    for (const name of built.baseInputs) {
      const override = overrides?.get(name);
      feeds[name] = override ? asOnnx(override) : this.baseFeeds[name]!;
    }
    for (const name of built.loraInputs) {
      const w = adapter?.weights.get(name);
      if (!w) throw new Error(`the graph expects LoRA weight "${name}" but no matching adapter was given`);
      feeds[name] = asOnnx(w);
    }
    return feeds;
  }

  /** Releases the runtime and its sessions if the engine created it; a borrowed runtime stays open. */
  async close(): Promise<void> {
    this.compiled.clear();
    // Sessions live in the runtime's cache; a borrowed runtime may share them with other engines.
    if (this.ownsRuntime) await this.runtime.close();
  }

  private compile(key: string, build: () => BuiltGraph): Promise<CompiledGraph> {
    let entry = this.compiled.get(key);
    if (!entry) {
      entry = (async () => {
        const built = build();
        const session = await this.runtime.session(built.graph, { key: `${this.model.dir}|${key}` });
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
