/**
 * The contract between the trainer and a model backend. The trainer never sees logits or
 * graphs: it asks the backend to sample, to score token sequences, and to back-propagate a
 * weighted sum of token log-probabilities (the loss math lives in `math/policy-loss.ts`, which
 * hands back ∂loss/∂logprob per token). The language-model layer fulfils this for ONNX
 * transformers; tests fulfil it with a small exact model.
 */
import type { Rng } from '../../base/rng.js';
import type { AdamWOptions, PolicyOptimizer } from '../optim/policy-optimizer.js';
import type { NextTokenGuide } from '../../lm/compute/decoding-guide.js';

/** One chat message, in the role/content shape chat templates take. */
export interface PolicyChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string;
}

/** A tool offered to the model: name, description and a JSON Schema of its arguments. */
export interface PolicyTool {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  /**
   * JSON Schema of the tool's result, rendered as the tool's `return` field (the layout of
   * transformers' `get_json_schema`, which TRL uses for Python tools); absent: not rendered.
   */
  returns?: Record<string, unknown>;
}

/**
 * Turns a conversation into tokens incrementally, so that a multi-turn episode is one token
 * sequence whose assistant tokens are trained on and whose tool-response tokens are masked.
 */
export interface ChatCodec {
  /** Tokens of the system/user opening, ending with the assistant generation prompt. */
  encodeStart(messages: readonly PolicyChatMessage[], tools: readonly PolicyTool[]): number[];
  /**
   * Tokens that follow an assistant turn: the tool response(s) rendered as the chat template
   * renders them, then the next assistant generation prompt. When the turn was cut by the
   * token limit (`turnClosed` false) the end-of-turn token is emitted first.
   */
  encodeToolResponses(responses: readonly string[], turnClosed?: boolean): number[];
  /** Text of generated tokens (special tokens dropped). */
  decode(tokens: readonly number[]): string;
  /**
   * The tokens of an assistant turn whose text is given (used to build SFT trajectories),
   * including the end-of-turn token the model must learn to emit.
   */
  encodeAssistantTurn(text: string): number[];
}

/** A generation request: continue `prompt` by at most `maxNewTokens` tokens. */
export interface GenerateRequest {
  prompt: readonly number[];
  maxNewTokens: number;
  /** Sampling temperature; 0 means greedy. */
  temperature: number;
  topP: number;
  /** Keep what the next turn needs to continue this generation ({@link GenerateResult.cache}); backends may ignore it. */
  keepCache?: boolean;
  /** The cache of this episode's previous turn, which `prompt` continues; backends without caches ignore it. */
  continueFrom?: GenerationCache;
  /** Nudges the next token from the text this request has generated so far (guided decoding: made by the task's `decodingGuide` for this turn); backends may ignore it. */
  guide?: NextTokenGuide;
}

/**
 * What a backend kept of a generation so that the episode's next turn — the same tokens and a
 * tool's reply — continues it instead of reading the whole conversation again (the LM backend's
 * `PromptCache`). Opaque to the trainer, and valid only until the weights change: within one rollout.
 */
export interface GenerationCache {
  /** The tokens it covers. */
  readonly tokens: readonly number[];
}

/** What was generated, with the sampling-time log-probability of each generated token. */
export interface GenerateResult {
  tokens: number[];
  /**
   * log q(token): the log-probability under the distribution actually sampled — log-softmax(logits / T)
   * at the request's temperature T (T = 1 when greedy), after the guide's biases, renormalised over
   * what top-p keeps. Without guide and top-p it is what `score` at `temperature` T returns.
   */
  logprobs: number[];
  /** `stop`: the end-of-turn token was produced (and is included in `tokens`); `length`: cut at maxNewTokens. */
  finishReason: 'stop' | 'length';
  /** With `keepCache`, when the backend keeps caches. */
  cache?: GenerationCache;
}

/** Per-position scores of a token sequence: index t scores token t given tokens 0..t−1 (index 0 is 0). */
export interface TokenScores {
  logprobs: Float32Array;
  /** Entropy of the predictive distribution at each position; present when asked for. */
  entropies?: Float32Array;
}

/** Options of {@link TrainablePolicy.score}. */
export interface ScoreOptions {
  reference?: boolean;
  entropy?: boolean;
  /**
   * Score the distribution sampled at this temperature, log-softmax(logits / T), and its entropy
   * (default 1). A policy gradient over samples drawn at T differentiates log π_T, as TRL does.
   */
  temperature?: number;
  /**
   * How many leading tokens of each sequence are its prompt: a backend may compute a prompt that
   * several sequences share once (a GRPO group's K samples). The scores must not change.
   */
  promptLengths?: readonly number[];
  /**
   * With `promptLengths`: only the tokens after each prompt are wanted; the prompt's entries
   * [1, promptLength) are 0 (a loss that masks the prompt needs no more).
   */
  completionOnly?: boolean;
}

/** Options of {@link TrainablePolicy.backward}. */
export interface BackwardOptions {
  /**
   * Return the pass's scores (with entropies when `entropy`). `weightedOnly`: only the entries
   * with a non-zero log-prob weight are wanted; a backend may leave the others 0 and skip their
   * LM head (the gradient is the same either way).
   */
  scores?: { entropy?: boolean; weightedOnly?: boolean };
  promptLengths?: readonly number[];
  completionOnly?: boolean;
  temperature?: number;
}

/** A trained tensor's value on the host (row-major float32), as checkpoints store it. */
export interface ParameterValue {
  readonly shape: readonly number[];
  readonly data: Float32Array;
}

/**
 * A policy the trainer can optimise. Implementations own their sessions and weights and must
 * release them in `dispose()`.
 *
 * @example
 * ```ts
 * const [out] = await policy.generate([{ prompt, maxNewTokens: 32, temperature: 1, topP: 1 }], rng);
 * const [scores] = await policy.score([[...prompt, ...out.tokens]]);
 * const optimizer = await policy.createOptimizer({ beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay: 0 });
 * await policy.backward([[...prompt, ...out.tokens]], [weights]); // accumulates into the optimizer
 * await optimizer.step(1e-4, 1);
 * ```
 */
export interface TrainablePolicy {
  readonly codec: ChatCodec;
  /** Samples continuations for a batch of prompts (batched by the backend as it sees fit). */
  generate(requests: readonly GenerateRequest[], rng: Rng): Promise<GenerateResult[]>;
  /**
   * Scores sequences under the current weights, or under the reference policy when
   * `reference` is true (LoRA: adapters switched off; full fine-tuning: the weights frozen by
   * {@link TrainablePolicy.freezeReference}).
   */
  score(sequences: readonly (readonly number[])[], options?: ScoreOptions): Promise<TokenScores[]>;
  /**
   * Adds to the current optimizer's gradient accumulators (see {@link createOptimizer}) the
   * gradient of Σ_i Σ_t logprobWeights[i][t]·log p(token_t) (+ Σ entropyWeights[i][t]·H_t when
   * given); throws when no optimizer was created. With `options.scores` a backend may also return
   * the scores its pass computed (what `score` would return under the same weights, with
   * entropies when `scores.entropy`); one that returns nothing leaves the caller to do without.
   * `promptLengths` and `completionOnly` as in {@link ScoreOptions}: shared prompts may be computed
   * once (the gradient must not change), and the returned scores may leave the prompts' entries 0.
   * `temperature` as in {@link ScoreOptions}: the log-probs (and entropies) differentiated are at T.
   */
  backward(
    sequences: readonly (readonly number[])[],
    logprobWeights: readonly Float64Array[],
    entropyWeights?: readonly Float64Array[],
    options?: BackwardOptions,
  ): Promise<TokenScores[] | void>;
  /**
   * AdamW over the trained tensors (LoRA adapters, or all weights), with fresh moments; it
   * replaces the previous optimizer. The backend keeps parameters, moments and gradients where
   * it computes (the ONNX policy: resident in its runtime).
   */
  createOptimizer(options: AdamWOptions): Promise<PolicyOptimizer>;
  /** Number of trained values. */
  parameterCount(): number;
  /** Host copies of the trained tensors by name (for checkpoints and saved models). */
  readParameters(): Promise<Map<string, ParameterValue>>;
  /** Overwrites the trained tensors (from a checkpoint); throws when one is missing or mis-sized. */
  loadParameters(values: ReadonlyMap<string, { readonly data: Float32Array }>): Promise<void>;
  /** Makes the current weights the reference policy for KL (a no-op for LoRA, whose reference is adapters-off). */
  freezeReference(): Promise<void>;
  /** Releases sessions and buffers. Idempotent. */
  dispose(): Promise<void>;
}
