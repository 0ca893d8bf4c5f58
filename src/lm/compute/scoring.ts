import type { LoraAdapter } from '../lora/adapter.js';
import type { FloatTensor } from '../tensor.js';
import { GRAPH_IO } from '../graph/graphs.js';
import type { TrainedWeights } from './graph-spec.js';
import { accumulatorName, nextName, onnxTensor, type OnnxHostTensor, type ResidentOptimizer } from '../graph/onnx.js';
import { attentionBias, checkTokenIds, headFeeds, packLeft, positionsFromMask, type RopeCache, type ScoringTemperature } from './batch.js';
import type { ModelEngine, WeightSource } from './engine.js';
import { accumulateSharedPrompts, planSharedPrompts, scoreSharedPrompts, type PromptPlan } from './shared-prompts.js';

/**
 * Scores of one batch, token-aligned (the convention of `lm` and `train` alike): per sequence of
 * n tokens, n entries, entry t = log p(ids[t] | ids[..t−1]); entry 0 has no context and is 0.
 */
export interface ScoreResult {
  readonly logprobs: Float32Array[];
  /**
   * When asked for: per sequence, entry t = the entropy (nats) of the full distribution that
   * token t was drawn from, p(· | ids[..t−1]) (aligned with `logprobs`; entry 0 is 0).
   */
  readonly entropies?: Float32Array[];
}

/** Scores plus gradients of `Σ weights · logprobs` (+ `Σ entropyWeights · entropies` when given). */
export interface GradientResult extends ScoreResult {
  /** `Σ_b Σ_t weights[b][t] · logprobs[b][t]` (+ the entropy term). */
  readonly objective: number;
  /** Gradient of the objective for each trained parameter, by parameter name. */
  readonly gradients: Map<string, FloatTensor>;
}

/** Host-side inputs of the scoring graph for one batch. */
function scoringFeeds(sequences: readonly (readonly number[])[], padId: number, rope: RopeCache, headDim: number, vocabSize: number, temperature: number | undefined): { feeds: Record<string, OnnxHostTensor>; padding: readonly number[]; length: number } {
  for (const s of sequences) {
    if (s.length < 2) throw new RangeError('each sequence needs at least 2 tokens to score (a context token and a target)');
    checkTokenIds(s, vocabSize);
  }
  const packed = packLeft(sequences, padId);
  const { batchSize: B, length: T } = packed;
  const targets = new BigInt64Array(B * T).fill(BigInt(padId));
  for (let b = 0; b < B; b++) for (let t = 0; t + 1 < T; t++) targets[b * T + t] = packed.ids[b * T + t + 1]!;
  const { cos, sin } = rope.tables(positionsFromMask(packed.mask, B, T));
  return {
    feeds: {
      [GRAPH_IO.inputIds]: onnxTensor('int64', [B, T], packed.ids),
      ...headFeeds(targets, B, T, temperature),
      [GRAPH_IO.cos]: onnxTensor('float32', [B, T, headDim], cos),
      [GRAPH_IO.sin]: onnxTensor('float32', [B, T, headDim], sin),
      [GRAPH_IO.attentionBias]: onnxTensor('float32', [B, 1, T, T], attentionBias(packed.mask, B, T, 0)),
    },
    padding: packed.padding,
    length: T,
  };
}

/**
 * Per-sequence, token-aligned rows of a [B, T] output. The graph's position p scores the token at
 * p + 1 (its target), so the row of a sequence is 0 followed by its real positions' values.
 */
function unpack(values: Float32Array, sequences: readonly (readonly number[])[], padding: readonly number[], T: number): Float32Array[] {
  return sequences.map((seq, b) => {
    const row = new Float32Array(seq.length);
    row.set(values.subarray(b * T + padding[b]!, b * T + padding[b]! + seq.length - 1), 1);
    return row;
  });
}

/**
 * Per-token log-probabilities of token sequences (different lengths allowed), and with
 * `entropy: true` the entropy of every position's full next-token distribution.
 *
 * @example
 * const { logprobs } = await scoreSequences(engine, rope, [[1, 2, 3]]);
 * const { entropies } = await scoreSequences(engine, rope, [[1, 2, 3]], { entropy: true });
 */
export async function scoreSequences(
  engine: ModelEngine,
  rope: RopeCache,
  sequences: readonly (readonly number[])[],
  options: WeightSource & ScoringTemperature & { entropy?: boolean; promptLengths?: readonly number[]; completionOnly?: boolean } = {},
): Promise<ScoreResult> {
  const entropy = options.entropy ?? false;
  const { promptLengths, completionOnly, ...unshared } = options;
  const plan = sharingPlan(engine, sequences, promptLengths);
  if (plan) {
    const logprobs = new Array<Float32Array>(sequences.length);
    const entropies = entropy ? new Array<Float32Array>(sequences.length) : undefined;
    if (plan.alone.length > 0) {
      const alone = await scoreSequences(engine, rope, plan.alone.map((b) => sequences[b]!), unshared);
      plan.alone.forEach((b, i) => {
        logprobs[b] = alone.logprobs[i]!;
        if (entropies) entropies[b] = alone.entropies![i]!;
      });
    }
    await scoreSharedPrompts(engine, rope, sequences, plan.groups, { ...unshared, completionOnly: completionOnly ?? false }, { logprobs, ...(entropies ? { entropies } : {}) });
    if (completionOnly) zeroPrompts([logprobs, ...(entropies ? [entropies] : [])], promptLengths!);
    return { logprobs, ...(entropies ? { entropies } : {}) };
  }
  const { session, built } = await engine.graph({ kind: 'score', gradients: 'none', entropy }, options.adapter?.config);
  const { feeds, padding, length } = scoringFeeds(sequences, engine.model.generationDefaults.padTokenId, rope, engine.model.config.headDim, engine.model.config.vocabSize, options.temperature);
  const outputs = entropy ? [GRAPH_IO.logprobs, GRAPH_IO.entropy] : [GRAPH_IO.logprobs];
  const out = await session.run({ ...feeds, ...(await engine.weightFeeds(built, options)) }, { outputs });
  return {
    logprobs: unpack(out[GRAPH_IO.logprobs]!.data as Float32Array, sequences, padding, length),
    ...(entropy ? { entropies: unpack(out[GRAPH_IO.entropy]!.data as Float32Array, sequences, padding, length) } : {}),
  };
}

/**
 * Token-aligned weight rows (entry t weighs token t; entry 0 is ignored: token 0 is not scored)
 * laid out like the graph's [B, T] left-padded positions, where position p scores token p + 1.
 */
function packWeights(name: string, sequences: readonly (readonly number[])[], weights: readonly ArrayLike<number>[], padding: readonly number[], T: number): Float32Array {
  if (weights.length !== sequences.length) throw new RangeError(`got ${weights.length} ${name} rows for ${sequences.length} sequences`);
  const packed = new Float32Array(sequences.length * T);
  sequences.forEach((seq, b) => {
    const w = weights[b]!;
    if (w.length !== seq.length) throw new RangeError(`sequence ${b} has ${seq.length} tokens but ${w.length} ${name} (one per token; entry 0 is ignored)`);
    for (let t = 1; t < w.length; t++) packed[b * T + padding[b]! + t - 1] = w[t]!;
  });
  return packed;
}

/** Scoring feeds plus the packed token (and entropy) weights of a gradient run. */
function weightedFeeds(engine: ModelEngine, rope: RopeCache, sequences: readonly (readonly number[])[], weights: readonly ArrayLike<number>[], entropyWeights: readonly ArrayLike<number>[] | undefined, temperature: number | undefined): { feeds: Record<string, OnnxHostTensor>; padding: readonly number[]; length: number } {
  if (weights.length !== sequences.length) throw new RangeError(`got ${weights.length} weight rows for ${sequences.length} sequences`);
  const { feeds, padding, length: T } = scoringFeeds(sequences, engine.model.generationDefaults.padTokenId, rope, engine.model.config.headDim, engine.model.config.vocabSize, temperature);
  feeds[GRAPH_IO.tokenWeights] = onnxTensor('float32', [sequences.length, T], packWeights('weights', sequences, weights, padding, T));
  if (entropyWeights) feeds[GRAPH_IO.entropyWeights] = onnxTensor('float32', [sequences.length, T], packWeights('entropy weights', sequences, entropyWeights, padding, T));
  return { feeds, padding, length: T };
}

/** Options of {@link differentiate}. */
export interface DifferentiateOptions extends WeightSource, ScoringTemperature {
  /** The parameters differentiated: the base weights or the adapter. */
  readonly target: TrainedWeights;
  /** ∂loss/∂entropy per token (layout of the weights): the entropy of each position's next-token distribution joins the objective. */
  readonly entropyWeights?: readonly ArrayLike<number>[];
  /**
   * Add the gradients to this optimizer's resident accumulators instead of returning them (the
   * training path: they never leave the session; `optimizer.step` then clips and updates). The
   * trained parameters are then read from the optimizer, the rest from the weight source.
   */
  readonly into?: ResidentOptimizer;
  /** With `into`: also return the pass's scores (log-probs, and entropies when asked). */
  readonly scores?: ScoresWanted;
  /** With `into`, on CPU: each row's prompt length; rows with the same prompt compute it once, forward and backward (exact; see `shared-prompts.ts`). */
  readonly promptLengths?: readonly number[];
  /** With `promptLengths`: the prompts' score entries [1, promptLength) are 0 and cost no LM head. */
  readonly completionOnly?: boolean;
}

/** What {@link differentiate} returns when it accumulates: the objective, and the scores when asked for. */
export type AccumulatedResult = { readonly objective: number } & Partial<ScoreResult>;

/**
 * The one gradient path of the compute core: the gradient of `Σ weights · logprobs`
 * (+ `Σ entropyWeights · entropies`) with respect to the base weights (`target: 'base'`) or the
 * adapter (`'lora'`). `weights[b]` is token-aligned like the log-probs: one entry per token of
 * sequence b (length n, entry 0 ignored); zeros mask tokens out of the loss. Without `into` it
 * returns the log-probs, the objective and the gradients on the host (`Policy.backward`); with
 * `into` it adds the gradients to the optimizer's accumulators (`PolicyTrainer.accumulate`) and
 * returns the objective, plus with `scores` the pass's log-probs (and entropies), laid out as
 * {@link scoreSequences} returns them.
 *
 * @example
 * const r = await differentiate(engine, rope, [[1, 2, 3]], [[0, -1, -1]], { target: 'base' }); // gradient of the NLL
 * await differentiate(engine, rope, [[1, 2, 3]], [[0, -1, -1]], { target: 'base', into: optimizer });
 */
export async function differentiate(engine: ModelEngine, rope: RopeCache, sequences: readonly (readonly number[])[], weights: readonly ArrayLike<number>[], options: DifferentiateOptions & { readonly into: ResidentOptimizer }): Promise<AccumulatedResult>;
export async function differentiate(engine: ModelEngine, rope: RopeCache, sequences: readonly (readonly number[])[], weights: readonly ArrayLike<number>[], options: DifferentiateOptions & { readonly into?: undefined }): Promise<GradientResult>;
export async function differentiate(
  engine: ModelEngine,
  rope: RopeCache,
  sequences: readonly (readonly number[])[],
  weights: readonly ArrayLike<number>[],
  options: DifferentiateOptions,
): Promise<AccumulatedResult | GradientResult> {
  if (options.target === 'lora' && !options.adapter) throw new RangeError("target 'lora' needs an adapter");
  if (weights.length !== sequences.length) throw new RangeError(`got ${weights.length} weight rows for ${sequences.length} sequences`);
  const optimizer = options.into;
  if (optimizer) {
    const plan = sharedPlan(engine, sequences, options);
    if (plan) return accumulateShared(engine, rope, sequences, weights, optimizer, plan, options);
  }
  const { feeds, padding, length: T } = weightedFeeds(engine, rope, sequences, weights, options.entropyWeights, options.temperature);
  const rows = (name: string, out: Readonly<Record<string, { readonly data: unknown }>>): Float32Array[] => unpack(out[name]!.data as Float32Array, sequences, padding, T);
  if (!optimizer) {
    const withEntropy = options.entropyWeights !== undefined;
    const { session, built } = await engine.graph({ kind: 'score', gradients: options.target, entropy: withEntropy }, options.adapter?.config);
    const out = await session.run({ ...feeds, ...(await engine.weightFeeds(built, options)) });
    const gradients = new Map<string, FloatTensor>();
    for (const name of built.gradientOf) {
      const source = options.target === 'lora' ? options.adapter!.weights.get(name)! : (options.overrides?.get(name) ?? engine.model.weight(name));
      gradients.set(name, { shape: source.shape, data: out[GRAPH_IO.gradOf(name)]!.data as Float32Array });
    }
    return {
      logprobs: rows(GRAPH_IO.logprobs, out),
      ...(withEntropy ? { entropies: rows(GRAPH_IO.entropy, out) } : {}),
      objective: (out[GRAPH_IO.objective]!.data as Float32Array)[0]!,
      gradients,
    };
  }
  const entropy = options.entropyWeights !== undefined ? 'objective' : options.scores?.entropy ? 'output' : 'none';
  const { session, built } = await engine.graph({ kind: 'train', target: options.target, entropy }, options.adapter?.config);
  const resident = new Map(optimizer.names.map((n) => [n, optimizer.parameter(n)] as const));
  const accumulation = optimizer.accumulation();
  // The pass computes the log-probs (and entropies) anyway: asking for them costs a copy, not a pass.
  const scored = options.scores ? [GRAPH_IO.logprobs, ...(options.scores.entropy ? [GRAPH_IO.entropy] : [])] : [];
  const outputs = [GRAPH_IO.objective, ...scored, ...built.gradientOf.map((n) => nextName(accumulatorName(n)))];
  const out = await session.run(
    { ...feeds, ...accumulation.feeds, ...(await engine.weightFeeds(built, { ...options, resident })) },
    { outputs, ...(accumulation.into ? { into: accumulation.into } : {}) },
  );
  optimizer.accumulated(out);
  const objective = (out[GRAPH_IO.objective]!.data as Float32Array)[0]!;
  if (!options.scores) return { objective };
  return { objective, logprobs: rows(GRAPH_IO.logprobs, out), ...(options.scores.entropy ? { entropies: rows(GRAPH_IO.entropy, out) } : {}) };
}

/** An accumulating pass's shared-prompt plan; an entropy bonus keeps the unshared path (its weights would need the prompt's entropies too). */
function sharedPlan(engine: ModelEngine, sequences: readonly (readonly number[])[], options: DifferentiateOptions): PromptPlan | undefined {
  return options.entropyWeights ? undefined : sharingPlan(engine, sequences, options.promptLengths);
}

/** An accumulating pass whose rows share prompts: the rows alone through {@link differentiate}, the groups through `shared-prompts.ts`. */
async function accumulateShared(
  engine: ModelEngine,
  rope: RopeCache,
  sequences: readonly (readonly number[])[],
  weights: readonly ArrayLike<number>[],
  optimizer: ResidentOptimizer,
  plan: PromptPlan,
  options: DifferentiateOptions,
): Promise<AccumulatedResult> {
  const { promptLengths, completionOnly, ...unshared } = options;
  const wanted = options.scores;
  const into = wanted ? { logprobs: new Array<Float32Array>(sequences.length), ...(wanted.entropy ? { entropies: new Array<Float32Array>(sequences.length) } : {}) } : undefined;
  let objective = 0;
  if (plan.alone.length > 0) {
    const alone = await differentiate(engine, rope, plan.alone.map((b) => sequences[b]!), plan.alone.map((b) => weights[b]!), { ...unshared, into: optimizer });
    objective += alone.objective;
    plan.alone.forEach((b, i) => {
      if (into) into.logprobs[b] = alone.logprobs![i]!;
      if (into?.entropies) into.entropies[b] = alone.entropies![i]!;
    });
  }
  const weightedOnly = !wanted || wanted.weightedOnly === true;
  objective += await accumulateSharedPrompts(engine, rope, sequences, weights, plan.groups, optimizer, { ...unshared, entropy: wanted?.entropy ?? false, completionOnly: completionOnly ?? false, weightedOnly }, into);
  if (into && completionOnly) zeroPrompts([into.logprobs, ...(into.entropies ? [into.entropies] : [])], promptLengths!);
  // Rows computed alone had a full head: their unweighted entries go too, so every row reads alike.
  if (into && wanted?.weightedOnly) zeroUnweighted([into.logprobs, ...(into.entropies ? [into.entropies] : [])], weights);
  return { objective, ...(into ?? {}) };
}

/** `weightedOnly`: every row's entries without a weight are 0, whichever path scored it. */
function zeroUnweighted(rows: readonly Float32Array[][], weights: readonly ArrayLike<number>[]): void {
  for (const scores of rows) {
    scores.forEach((row, b) => {
      const w = weights[b]!;
      for (let t = 0; t < row.length; t++) if (w[t] === 0) row[t] = 0;
    });
  }
}

/** `completionOnly`: every row's prompt entries [1, promptLength) are 0, whichever path scored it. */
function zeroPrompts(rows: readonly Float32Array[][], promptLengths: readonly number[]): void {
  for (const scores of rows) scores.forEach((row, b) => row.fill(0, 1, Math.max(1, promptLengths[b]!)));
}

/**
 * The shared-prompt plan of a batch (see `shared-prompts.ts`), or undefined when nothing is
 * shared: no prompt lengths given, no two rows with the same prompt, or a GPU provider (the
 * prompt's keys/values are copied to the rows on the host).
 */
function sharingPlan(engine: ModelEngine, sequences: readonly (readonly number[])[], promptLengths: readonly number[] | undefined): PromptPlan | undefined {
  if (!promptLengths || engine.runtime.provider !== 'cpu') return undefined;
  for (const s of sequences) {
    if (s.length < 2) throw new RangeError('each sequence needs at least 2 tokens to score (a context token and a target)');
    checkTokenIds(s, engine.model.config.vocabSize);
  }
  const plan = planSharedPrompts(sequences, promptLengths);
  return plan.groups.length > 0 ? plan : undefined;
}

/** Which scores a training pass should hand back besides accumulating: the log-probs, and the entropies when `entropy`. */
export interface ScoresWanted {
  readonly entropy?: boolean;
  /**
   * Only the positions with a non-zero weight are wanted (a loss that reads the tokens it weighs,
   * as SFT's does): with shared prompts the continuations' LM head then runs on those positions
   * alone, and every other entry is 0. A pass that returns no scores always runs it so.
   */
  readonly weightedOnly?: boolean;
}
