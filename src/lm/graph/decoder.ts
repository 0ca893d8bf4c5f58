import type { ModelConfig } from '../model/config.js';
import { layerParam, projectionModule, type ProjectionName } from '../model/parameters.js';
import { blockAttention, causalBlocks, causalQueryBlocks, groupedQueryAttention, groupSharedAttention, loraLinear, repeatForRows, swiGlu, type LoraTensors } from './layers.js';
import { embedding, linear, ops, rmsNorm, rope, type Dim, type Tensor } from './onnx.js';

/** Key and value cache of one layer, each [B, K, S, D]. */
export interface LayerCache {
  readonly key: Tensor;
  readonly value: Tensor;
}

/** Graph tensors a decoder pass reads. */
export interface DecoderInputs {
  /** Token ids, int64 [B, T]. */
  readonly inputIds: Tensor;
  /** RoPE tables for the new positions, [B, T, D]. */
  readonly cos: Tensor;
  readonly sin: Tensor;
  /** Additive attention mask, [B, 1, T, S]. */
  readonly attentionBias: Tensor;
  /** Cached keys/values of earlier positions, one per layer (absent for a first pass). */
  readonly past?: readonly LayerCache[];
  /**
   * Keys/values of positions before `past` that every step attends to but that are not part of
   * `present` (a prompt's cache, fed unchanged to every decode step instead of being copied along).
   */
  readonly prefix?: readonly LayerCache[];
  /**
   * The `prefix` holds one cache per group of consecutive rows ([U, K, Q, D], rows b of group
   * ⌊b / (B / U)⌋) instead of one per row: the K samples of a GRPO group read their prompt's cache
   * once per step (see `groupSharedAttention`).
   */
  readonly prefixPerGroup?: boolean;
  /**
   * The pass runs a few rows (a decode step, T = 1): the projections read their weights as stored
   * (`Gemm`), which on WebGPU saves a copy of every weight per run; passes over whole sequences
   * multiply by the transposed weight, which WebGPU's MatMul kernel runs faster at many rows (see
   * `linear`). The same numbers either way; on CPU onnxruntime fuses both into one product.
   * It also picks how a `prefix` is attended: a few rows concatenate their scores with the
   * prefix's (reading a per-group prefix once per group), whole sequences concatenate its keys.
   */
  readonly fewRows?: boolean;
  /**
   * Blocks of queries for a pass over whole sequences with no cache (prefill, prompt prefixes,
   * scoring without prompt sharing), each attending to the keys up to its own last query: see
   * `causalQueryBlocks`. Default {@link DEFAULT_QUERY_BLOCKS}; 1 attends in one block.
   */
  readonly queryBlocks?: number;
}

/**
 * Query blocks of a whole-sequence pass: four skip 3/8 of the scores (a block of n skips the
 * keys after it). At the trainer's prompt lengths (hundreds of tokens) the attention of the
 * prompt passes dominates; at a few tokens the extra blocks cost a few small ops.
 */
export const DEFAULT_QUERY_BLOCKS = 4;

/** Where the decoder finds its weights: graph tensors by Hugging Face parameter name. */
export interface DecoderWeights {
  /** The tensor of a base parameter (e.g. `model.layers.0.mlp.up_proj.weight`). */
  weight(name: string): Tensor;
  /** The LoRA adapter of a projection of a layer, if any. */
  lora?(layer: number, projection: ProjectionName): LoraTensors | undefined;
}

/** What a decoder pass produces. */
export interface DecoderOutputs {
  /** Final-norm hidden states, [B, T, E]. */
  readonly hidden: Tensor;
  /** Keys/values of past and new positions, one per layer, [B, K, S, D]. */
  readonly present: LayerCache[];
}

/**
 * The Llama/Qwen2/Qwen3 decoder stack: embeddings, then per layer pre-norm attention (with
 * Qwen2 biases or Qwen3 q/k norms as the config says, RoPE, grouped-query attention, KV
 * cache) and pre-norm SwiGLU MLP with residuals, then the final RMSNorm.
 *
 * @example
 * const { hidden } = buildDecoder(cfg, weights, { inputIds, cos, sin, attentionBias });
 */
export function buildDecoder(config: ModelConfig, weights: DecoderWeights, inputs: DecoderInputs): DecoderOutputs {
  const { numHeads: H, numKvHeads: K, headDim: D } = config;
  const cos = inputs.cos.unsqueeze([1]);
  const sin = inputs.sin.unsqueeze([1]);
  // The residual stream is kept as rows, [B·T, E], so that a projection can be a 2-D Gemm that
  // reads its [out, in] weight as stored (`fewRows`). Only attention needs [B, T, ·, D].
  const product = inputs.fewRows ? 'gemm' : 'matmul';
  const [batch, seq] = inputs.inputIds.shape as [Dim, Dim];
  const rows = ops.shapeOf(inputs.inputIds);
  const batchSize = ops.slice(rows, [0], [0], [1]);
  const headsShape = (heads: number): Tensor => ops.concat([rows, inputs.inputIds.graph.int64s([heads, D])], 0);
  const queryHeads = headsShape(H);
  const kvHeads = headsShape(K);
  const asHeads = (t: Tensor, shape: Tensor, heads: number): Tensor => ops.reshapeTo(t, shape, [batch, seq, heads, D]);
  let x = embedding(weights.weight('model.embed_tokens.weight'), inputs.inputIds).reshape([-1, config.hiddenSize]);
  // Whole sequences with no cache attend in causal query blocks, planned once for every layer.
  const blocks = inputs.queryBlocks ?? DEFAULT_QUERY_BLOCKS;
  const plan = !inputs.prefix && !inputs.past && !inputs.fewRows && blocks > 1 ? causalBlocks(inputs.attentionBias, blocks) : undefined;
  const present: LayerCache[] = [];
  for (let l = 0; l < config.numLayers; l++) {
    const w = (suffix: string): Tensor => weights.weight(layerParam(l, suffix));
    const proj = (input: Tensor, projection: ProjectionName, biased: boolean): Tensor => {
      const module = projectionModule(projection);
      return loraLinear(input, w(`${module}.weight`), biased ? w(`${module}.bias`) : undefined, weights.lora?.(l, projection), product);
    };

    const h = rmsNorm(x, w('input_layernorm.weight'), config.rmsNormEps);
    // [B·T, heads·D] → [B, T, heads, D]; per-head norms act here, before the transpose.
    let q = asHeads(proj(h, 'q_proj', config.qkvBias), queryHeads, H);
    let k = asHeads(proj(h, 'k_proj', config.qkvBias), kvHeads, K);
    const v = asHeads(proj(h, 'v_proj', config.qkvBias), kvHeads, K).transpose([0, 2, 1, 3]);
    if (config.qkNorm) {
      q = rmsNorm(q, w('self_attn.q_norm.weight'), config.rmsNormEps);
      k = rmsNorm(k, w('self_attn.k_norm.weight'), config.rmsNormEps);
    }
    q = rope(q.transpose([0, 2, 1, 3]), cos, sin);
    k = rope(k.transpose([0, 2, 1, 3]), cos, sin);
    const past = inputs.past?.[l];
    const keys = past ? ops.concat([past.key, k], 2) : k;
    const values = past ? ops.concat([past.value, v], 2) : v;
    present.push({ key: keys, value: values });

    const prefix = inputs.prefix?.[l];
    const dims = { numHeads: H, numKvHeads: K, headDim: D };
    let attended: Tensor;
    if (prefix && !inputs.fewRows) {
      // Whole sequences after a prefix (the continuations of shared prompts): T × (Q + S) scores
      // per query head dwarf the prefix's Q keys, so the keys are concatenated, not the scores.
      const rowsOf = (t: Tensor): Tensor => (inputs.prefixPerGroup ? repeatForRows(t, batchSize) : t);
      attended = groupedQueryAttention(q, ops.concat([rowsOf(prefix.key), keys], 2), ops.concat([rowsOf(prefix.value), values], 2), inputs.attentionBias, dims);
    } else if (prefix && inputs.prefixPerGroup) {
      attended = groupSharedAttention(q, prefix, [{ key: keys, value: values }], inputs.attentionBias, dims);
    } else if (plan) {
      attended = causalQueryBlocks(q, keys, values, plan, dims);
    } else {
      attended = blockAttention(q, [...(prefix ? [prefix] : []), { key: keys, value: values }], inputs.attentionBias, dims);
    }
    const merged = attended.transpose([0, 2, 1, 3]).reshape([-1, H * D]);
    x = x.add(proj(merged, 'o_proj', config.oBias));

    const h2 = rmsNorm(x, w('post_attention_layernorm.weight'), config.rmsNormEps);
    const lora = weights.lora;
    x = x.add(
      swiGlu(h2, w('mlp.gate_proj.weight'), w('mlp.up_proj.weight'), w('mlp.down_proj.weight'), {
        ...(lora?.(l, 'gate_proj') ? { gate: lora(l, 'gate_proj')! } : {}),
        ...(lora?.(l, 'up_proj') ? { up: lora(l, 'up_proj')! } : {}),
        ...(lora?.(l, 'down_proj') ? { down: lora(l, 'down_proj')! } : {}),
      }, product),
    );
  }
  const hidden = rmsNorm(x, weights.weight('model.norm.weight'), config.rmsNormEps);
  const hiddenShape = ops.concat([rows, inputs.inputIds.graph.int64s([config.hiddenSize])], 0);
  return { hidden: ops.reshapeTo(hidden, hiddenShape, [batch, seq, config.hiddenSize]), present };
}

/**
 * Logits from hidden states: `hidden · lm_headᵀ`, with the embedding matrix when tied.
 *
 * @example
 * const logits = lmHead(cfg, weights, hidden); // [B, T, V]
 */
export function lmHead(config: ModelConfig, weights: DecoderWeights, hidden: Tensor): Tensor {
  const head = weights.weight(config.tieWordEmbeddings ? 'model.embed_tokens.weight' : 'lm_head.weight');
  // A step graph's last positions ([B, E]) are a few rows: read the largest weight as stored (see
  // `linear`; 27 ms of copying per run at Qwen3's vocabulary). Scoring's [B, T, E] are many.
  return linear(hidden, head, undefined, { outIn: true, product: hidden.rank === 2 ? 'gemm' : 'matmul' });
}
