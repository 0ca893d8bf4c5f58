import type { LoraAdapter } from '../lora/adapter.js';
import type { TrainedWeights } from './graph-spec.js';
import type { OrtTensor, ResidentOptimizer } from '../graph/onnx.js';
import type { FloatTensor } from '../tensor.js';
import { temperatureOf, type RopeCache, type ScoringTemperature } from './batch.js';
import type { ModelEngine } from './engine.js';
import { differentiate, type AccumulatedResult, type ScoresWanted } from './scoring.js';

/** What one {@link PolicyTrainer.step} did. */
export interface TrainerStepReport {
  /** Global L2 norm of the accumulated gradients before clipping (NaN when one is not finite). */
  readonly gradNorm: number;
  /** Parameters whose gradient holds NaN/Inf; when non-empty the update was skipped. */
  readonly nonFinite: string[];
}

/** AdamW's state: the step count and the first and second moments per parameter name. */
export interface AdamWMoments {
  readonly step: number;
  readonly m: Map<string, Float32Array>;
  readonly v: Map<string, Float32Array>;
}

/**
 * The one training path of a {@link Policy}: gradients of `Σ w·log p` (+ an entropy term) are
 * summed into resident accumulators micro-batch by micro-batch, and `step` clips by global norm,
 * guards against non-finite gradients and applies the update rule (AdamW) — all as ONNX graphs,
 * with parameters, moments and accumulators resident in the runtime between steps. The policy's
 * generation and scoring read the same resident parameters, so after a step nothing is copied:
 * on CPU the policy's parameter views point at the new buffers; on GPU providers the device
 * tensors are fed as they are and host copies are made only by {@link readParameters}.
 *
 * Made by `Policy.createTrainer`; one per policy at a time.
 *
 * @example
 * const trainer = await policy.createTrainer({ weightDecay: 0 });
 * await trainer.accumulate([[1, 2, 3]], [[0, -1, -1]]); // token-aligned weights, entry 0 ignored
 * const { gradNorm } = await trainer.step(1e-3, 1);
 */
export class PolicyTrainer {
  private closed = false;

  /** @internal Use `Policy.createTrainer`. */
  constructor(
    private readonly engine: ModelEngine,
    private readonly rope: RopeCache,
    private readonly target: TrainedWeights,
    private readonly adapter: LoraAdapter | undefined,
    /** The policy's host views of the trained parameters, re-pointed after each CPU step. */
    private readonly views: Map<string, FloatTensor>,
    private readonly optimizer: ResidentOptimizer,
    private readonly onClose: () => void,
  ) {}

  /** Updates applied so far. */
  get stepCount(): number { return this.optimizer.stepCount; }

  /** The resident tensors of the trained parameters, by name (what the policy's runs feed). */
  resident(): ReadonlyMap<string, OrtTensor> {
    return new Map(this.optimizer.names.map((n) => [n, this.optimizer.parameter(n)] as const));
  }

  /**
   * Add the gradient of `Σ weights · logprobs` (+ `Σ entropyWeights · entropies`) over
   * `sequences` to the accumulators (layout as `Policy.backward`). Returns the objective, and with
   * `scores` the pass's log-probs (and entropies when `scores.entropy`). With `promptLengths` rows
   * that share a prompt compute it once, forward and backward (exact; see `shared-prompts.ts`).
   * `temperature` T differentiates log-softmax(logits / T) (default 1; see `Policy.logprobs`).
   */
  async accumulate(
    sequences: readonly (readonly number[])[],
    weights: readonly ArrayLike<number>[],
    options: { entropyWeights?: readonly ArrayLike<number>[]; scores?: ScoresWanted; promptLengths?: readonly number[]; completionOnly?: boolean } & ScoringTemperature = {},
  ): Promise<AccumulatedResult> {
    this.check();
    return differentiate(this.engine, this.rope, sequences, weights, {
      target: this.target,
      into: this.optimizer,
      ...temperatureOf(options),
      ...(this.adapter ? { adapter: this.adapter } : {}),
      ...(options.entropyWeights ? { entropyWeights: options.entropyWeights } : {}),
      ...(options.scores ? { scores: options.scores } : {}),
      ...(options.promptLengths ? { promptLengths: options.promptLengths, completionOnly: options.completionOnly ?? false } : {}),
    });
  }

  /** Discard accumulated gradients. */
  zeroGrad(): void {
    this.check();
    this.optimizer.zeroGrad();
  }

  /**
   * Clip to global norm `maxGradNorm` (≤ 0: off), apply one update at learning rate `lr`, zero
   * the accumulators. A non-finite gradient skips the update and is named in `nonFinite`.
   */
  async step(lr: number, maxGradNorm: number): Promise<TrainerStepReport> {
    this.check();
    const report = await this.optimizer.step(lr, maxGradNorm);
    await this.refreshViews();
    return { gradNorm: report.gradNorm, nonFinite: [...report.nonFinite] };
  }

  /** Host copies of the trained parameters. */
  async readParameters(): Promise<Map<string, FloatTensor>> {
    const out = new Map<string, FloatTensor>();
    for (const name of this.optimizer.names) out.set(name, { shape: this.views.get(name)!.shape, data: (await this.optimizer.read(name)).slice() });
    return out;
  }

  /** Host copies of the gradients accumulated since the last step or `zeroGrad` (for checks). */
  async readGradients(): Promise<Map<string, FloatTensor>> {
    const out = new Map<string, FloatTensor>();
    for (const name of this.optimizer.names) out.set(name, { shape: this.views.get(name)!.shape, data: await this.optimizer.readGradient(name) });
    return out;
  }

  /** Overwrite trained parameters (e.g. from a checkpoint); throws on an unknown name or size. */
  async loadParameters(values: ReadonlyMap<string, ArrayLike<number>>): Promise<void> {
    this.check();
    this.optimizer.setParameters(values);
    await this.refreshViews();
  }

  /** Host copies of the AdamW moments and the step count (what a checkpoint stores). */
  async exportState(): Promise<AdamWMoments> {
    const s = await this.optimizer.exportState();
    return { step: s.step, m: new Map(s.state.get('m')), v: new Map(s.state.get('v')) };
  }

  /** Restore a state from {@link exportState}; throws when a tensor is missing or mis-sized. */
  importState(state: AdamWMoments): void {
    this.check();
    this.optimizer.importState({ step: state.step, state: new Map([['m', state.m], ['v', state.v]]) });
  }

  /** Release the resident tensors; the policy goes back to its host views (made current first). */
  async close(): Promise<void> {
    if (this.closed) return;
    const values = await this.readParameters();
    for (const [name, t] of values) this.views.set(name, t);
    this.closed = true;
    this.optimizer.close();
    this.engine.rebind();
    this.onClose();
  }

  /**
   * CPU: point the policy's host views at the trainer's resident buffers (no copy; writes to a
   * view are seen by the next run). GPU providers: the views keep their last host values.
   * @internal Called by `Policy.createTrainer` and after every step.
   */
  async refreshViews(): Promise<void> {
    if (this.engine.runtime.provider !== 'cpu') return;
    for (const name of this.optimizer.names) this.views.set(name, { shape: this.views.get(name)!.shape, data: await this.optimizer.read(name) });
  }

  private check(): void {
    if (this.closed) throw new RangeError('PolicyTrainer used after close()');
  }
}
