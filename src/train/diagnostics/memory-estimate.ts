/**
 * A rough memory estimate for training a transformer policy, printed before a run starts so a
 * user sees an out-of-memory coming instead of waiting for it.
 */

/** Shape facts the estimate needs. */
export interface MemoryEstimateInput {
  /** Parameters of the base model. */
  parameters: number;
  /** Trainable parameters (LoRA adapters, or all parameters for full tuning). */
  trainableParameters: number;
  layers: number;
  hidden: number;
  vocab: number;
  /** Sequences per backward pass (episodes per micro-batch). */
  batch: number;
  /** Tokens per sequence. */
  sequenceLength: number;
  /** Bytes per weight element as the runtime holds them (4 for float32). */
  bytesPerWeight?: number;
}

/** The estimate, in bytes, by component. */
export interface MemoryEstimate {
  weights: number;
  /**
   * The resident optimizer's tensors for the trainable parameters: their values, AdamW's two
   * moments and the gradient accumulators, each in two buffers (written alternately on CPU; on GPU
   * providers the next values are allocated before the old ones are freed).
   */
  optimizer: number;
  /** Activations kept for the backward pass (incl. logits over the vocabulary). */
  activations: number;
  total: number;
}

/**
 * Weights + the resident optimizer (8 float32 copies of the trainable parameters) + activations
 * (≈ 16 hidden-sized float32 vectors per layer per token, plus two vocabulary-sized logit
 * buffers per token).
 *
 * @example
 * ```ts
 * const e = estimateTrainingMemory({ parameters: 596e6, trainableParameters: 5e6, layers: 28, hidden: 1024, vocab: 151936, batch: 8, sequenceLength: 1024 });
 * (e.total / 2 ** 30).toFixed(1); // GiB
 * ```
 */
export function estimateTrainingMemory(input: MemoryEstimateInput): MemoryEstimate {
  const bw = input.bytesPerWeight ?? 4;
  const weights = input.parameters * bw;
  const optimizer = input.trainableParameters * 4 * 8;
  const tokens = input.batch * input.sequenceLength;
  const activations = tokens * (input.layers * input.hidden * 16 + input.vocab * 2) * 4;
  return { weights, optimizer, activations, total: weights + optimizer + activations };
}

/**
 * Bytes as GiB/MiB text.
 *
 * @example
 * ```ts
 * formatBytes(3 * 2 ** 30); // '3.00 GiB'
 * ```
 */
export function formatBytes(bytes: number): string {
  return bytes >= 2 ** 30 ? `${(bytes / 2 ** 30).toFixed(2)} GiB` : `${(bytes / 2 ** 20).toFixed(1)} MiB`;
}
