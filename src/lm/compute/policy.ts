import type { LoraAdapter } from '../lora/adapter.js';
import { LanguageModel } from '../model/language-model.js';
import { floatTensor, type FloatTensor } from '../tensor.js';
import { RopeCache, temperatureOf, type ScoringTemperature } from './batch.js';
import { ModelEngine, type EngineOptions } from './engine.js';
import { generateTokens, type GenerateOptions, type Generation } from './generate.js';
import { ResidentOptimizer, adamw, type AdamWConfig, type OrtTensor } from '../graph/onnx.js';
import { PolicyTrainer } from './policy-trainer.js';
import { differentiate, scoreSequences, type GradientResult, type ScoreResult } from './scoring.js';

/** What a policy trains. */
export type PolicyTraining = 'lora' | 'full' | 'none';

/** Options of {@link Policy.create}. */
export interface PolicyOptions extends EngineOptions {
  /** LoRA adapters on the frozen base model; they are what trains. */
  readonly adapter?: LoraAdapter;
  /**
   * What `backward` differentiates: `'lora'` (default with an adapter), `'full'` (default
   * without: every base weight, on a private copy so the loaded model stays the reference), or
   * `'none'` (inference only: no copy, `backward` refuses).
   */
  readonly train?: PolicyTraining;
}

/** A prompt: text (encoded as-is; apply the chat template first) or token ids. */
export type Prompt = string | readonly number[];

/**
 * A trainable language-model policy: per-token log-probs, gradients of any loss written as
 * per-token weights on those log-probs, and sampling, all on the ONNX graphs of one model.
 * The reference model of KL penalties is the same policy with adapters (or full-tuning
 * updates) switched off: `logprobs(seqs, { reference: true })`. Owns its engine; call `close()`.
 *
 * @example
 * const policy = await Policy.create(model, { adapter: LoraAdapter.create(model.config, { rank: 8, alpha: 16, targetModules: ['q_proj', 'v_proj'] }) });
 * const gens = await policy.generate([prompt], { maxTokens: 64, temperature: 1, seed: 1 });
 * const { gradients } = await policy.backward([[...gens[0].promptTokenIds, ...gens[0].tokenIds]], [weights]);
 * await policy.close();
 */
export class Policy {
  private readonly rope: RopeCache;
  private trainer: PolicyTrainer | undefined;

  private constructor(
    private readonly engine: ModelEngine,
    readonly adapter: LoraAdapter | undefined,
    readonly train: PolicyTraining,
    private readonly fullParameters: Map<string, FloatTensor> | undefined,
  ) {
    this.rope = new RopeCache(engine.model.config);
  }

  /** The model: its configuration, tokenizer, and the base weights that `reference: true` scores with. */
  get model(): LanguageModel {
    return this.engine.model;
  }

  /** Builds a policy over a loaded model. */
  static async create(model: LanguageModel, options: PolicyOptions = {}): Promise<Policy> {
    const train = options.train ?? (options.adapter ? 'lora' : 'full');
    if (train === 'lora' && !options.adapter) throw new RangeError("train: 'lora' needs an adapter (LoraAdapter.create or LoraAdapter.load)");
    const full =
      train === 'full'
        ? new Map([...model.weights].map(([name, w]) => [name, floatTensor(w.shape, Float32Array.from(w.data))] as const))
        : undefined;
    return new Policy(await ModelEngine.create(model, options), options.adapter, train, full);
  }

  /**
   * The parameters `backward` differentiates, by name (PEFT names for LoRA, HF names for full
   * tuning). Without a trainer, writes into these arrays are seen by the next call (call
   * `weightsChanged()` after writing on a GPU provider). With a {@link createTrainer} trainer
   * the values live in the trainer: on CPU these views follow its steps; on GPU providers read
   * them with `trainer.readParameters()`.
   */
  trainableParameters(): Map<string, FloatTensor> {
    if (this.train === 'none') return new Map();
    return this.train === 'lora' ? this.adapter!.weights : this.fullParameters!;
  }

  /**
   * Per-token log-probs of each sequence, token-aligned: entry t is log p(seq[t] | seq[..t−1]),
   * entry 0 is 0 (the first token has no context).
   * `reference: true` scores with the frozen base model (adapters off, full-tuning updates ignored).
   * `temperature` T scores log-softmax(logits / T), the distribution sampling at T draws from (default 1).
   */
  async logprobs(sequences: readonly (readonly number[])[], options: { reference?: boolean } & ScoringTemperature = {}): Promise<Float32Array[]> {
    const result = await scoreSequences(this.engine, this.rope, sequences, { ...this.computeOptions(options.reference ?? false), ...temperatureOf(options) });
    return result.logprobs;
  }

  /**
   * Log-probs as {@link logprobs} does, plus with `entropy: true` the entropy of the full
   * distribution each token was drawn from (entry t: H(p(· | seq[..t−1])), entry 0 is 0).
   * `promptLengths[b]`: how many leading tokens of sequence b are its prompt; rows with the same
   * prompt compute it once (on CPU), with the same scores to float rounding; with `completionOnly`
   * the prompts' entries [1, promptLength) are 0 and cost no LM head.
   */
  async score(sequences: readonly (readonly number[])[], options: { reference?: boolean; entropy?: boolean; promptLengths?: readonly number[]; completionOnly?: boolean } & ScoringTemperature = {}): Promise<ScoreResult> {
    return scoreSequences(this.engine, this.rope, sequences, {
      ...this.computeOptions(options.reference ?? false),
      ...temperatureOf(options),
      entropy: options.entropy ?? false,
      ...(options.promptLengths ? { promptLengths: options.promptLengths, completionOnly: options.completionOnly ?? false } : {}),
    });
  }

  /**
   * Log-probs and the gradient of `Σ weights · logprobs` for the trainable parameters. Pass
   * `weights[b][t] = ∂loss/∂logprob[b][t]` (token-aligned, length n, entry 0 ignored; zero for
   * masked tokens) to get ∂loss/∂θ; e.g. −1 on
   * every completion token gives the gradient of the negative log-likelihood. With
   * `entropyWeights` (∂loss/∂entropy, same layout) the entropy of each position's next-token
   * distribution joins the objective, as an entropy bonus needs. `temperature` as in {@link logprobs}.
   */
  async backward(sequences: readonly (readonly number[])[], weights: readonly ArrayLike<number>[], options: { entropyWeights?: readonly ArrayLike<number>[] } & ScoringTemperature = {}): Promise<GradientResult> {
    if (this.train === 'none') throw new RangeError("this policy was created with train: 'none'; create it with train 'lora' or 'full' to get gradients");
    return differentiate(this.engine, this.rope, sequences, weights, {
      target: this.train === 'lora' ? 'lora' : 'base',
      ...this.computeOptions(false),
      ...temperatureOf(options),
      ...(options.entropyWeights ? { entropyWeights: options.entropyWeights } : {}),
    });
  }

  /** Samples completions with the current parameters (KV cache, batched). */
  async generate(prompts: readonly Prompt[], options: GenerateOptions = {}): Promise<Generation[]> {
    const ids = prompts.map((p) => (typeof p === 'string' ? this.model.tokenizer.encode(p) : p));
    return generateTokens(this.engine, this.rope, ids, { ...this.computeOptions(false), ...options });
  }

  /**
   * The policy's training path: AdamW (with `config`'s hyper-parameters) over the trainable
   * parameters, resident in the runtime with its moments and gradient accumulators (see
   * {@link PolicyTrainer}). From now on generation and scoring read the trainer's parameters.
   * Creating a trainer closes the previous one (fresh moments).
   *
   * @example
   * const trainer = await policy.createTrainer({ beta1: 0.9, beta2: 0.999, weightDecay: 0 });
   */
  async createTrainer(config: AdamWConfig = {}): Promise<PolicyTrainer> {
    if (this.train === 'none') throw new RangeError("this policy was created with train: 'none'; create it with train 'lora' or 'full' to train it");
    await this.trainer?.close();
    const views = this.trainableParameters();
    const specs = [...views].map(([name, t]) => ({ name, dims: t.shape, data: t.data }));
    const optimizer = await ResidentOptimizer.create(this.engine.runtime, specs, adamw(config));
    const trainer = new PolicyTrainer(this.engine, this.rope, this.train === 'lora' ? 'lora' : 'base', this.adapter, views, optimizer, () => {
      if (this.trainer === trainer) this.trainer = undefined;
    });
    this.trainer = trainer;
    await trainer.refreshViews();
    return trainer;
  }

  /**
   * Make the current parameters the reference model (what `reference: true` scores with). Full
   * tuning: the base weights the graphs read become a copy of the trained parameters; the trainer,
   * its moments and the compiled graphs stay. LoRA: nothing to do (the reference is adapters off).
   *
   * @example
   * await policy.freezeReference(); // the KL reference is now the current policy
   */
  async freezeReference(): Promise<void> {
    if (this.train !== 'full') return;
    const current = this.trainer ? await this.trainer.readParameters() : new Map([...this.fullParameters!].map(([name, t]) => [name, floatTensor(t.shape, t.data.slice())] as const));
    const model = this.engine.model;
    const weights = new Map(model.weights);
    for (const [name, t] of current) weights.set(name, t);
    this.engine.replaceBaseWeights(new LanguageModel(model.dir, model.config, model.tokenizer, model.generationDefaults, weights));
  }

  /** The trainer made by {@link createTrainer}, while it is open. */
  get activeTrainer(): PolicyTrainer | undefined {
    return this.trainer;
  }

  /** Say that host weight buffers were written in place (needed on GPU providers, where weights are bound once per buffer). */
  weightsChanged(): void {
    this.engine.rebind();
  }

  /** Releases the policy's trainer and sessions. */
  async close(): Promise<void> {
    await this.trainer?.close();
    await this.engine.close();
  }

  private computeOptions(reference: boolean): { adapter?: LoraAdapter; overrides?: ReadonlyMap<string, FloatTensor>; resident?: ReadonlyMap<string, OrtTensor> } {
    if (reference) return {};
    return {
      ...(this.adapter ? { adapter: this.adapter } : {}),
      ...(this.fullParameters ? { overrides: this.fullParameters } : {}),
      ...(this.trainer ? { resident: this.trainer.resident() } : {}),
    };
  }
}

/**
 * One-off generation: builds a policy for `model`, samples, and releases it. For repeated calls
 * (training loops) create a {@link Policy} once and call its `generate`.
 *
 * @example
 * const [g] = await generate(model, [model.tokenizer.applyChatTemplate(messages, { tools, addGenerationPrompt: true })], { maxTokens: 128 });
 */
export async function generate(model: LanguageModel, prompts: readonly Prompt[], options: GenerateOptions & EngineOptions = {}): Promise<Generation[]> {
  const policy = await Policy.create(model, { ...options, train: 'none' });
  try {
    return await policy.generate(prompts, options);
  } finally {
    await policy.close();
  }
}
