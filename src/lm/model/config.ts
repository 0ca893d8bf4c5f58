import { ModelConfigError } from '../errors.js';

/** Architectures of the Llama family this SDK builds. */
export type ModelArch = 'llama' | 'qwen2' | 'qwen3';

/**
 * RoPE frequency scaling. `default` is plain RoPE; the others follow the `rope_type`
 * values of Hugging Face configs.
 */
export type RopeScaling =
  | { type: 'default' }
  | { type: 'linear'; factor: number }
  | { type: 'llama3'; factor: number; lowFreqFactor: number; highFreqFactor: number; originalMaxPositions: number }
  | { type: 'yarn'; factor: number; originalMaxPositions: number; betaFast: number; betaSlow: number; attentionFactor: number };

/**
 * Normalised model configuration: every field the graphs need, whichever way config.json
 * spelled it (old top-level `rope_theta` or new `rope_parameters`, implicit Qwen2 biases,
 * Qwen3's explicit `head_dim`).
 */
export interface ModelConfig {
  readonly arch: ModelArch;
  readonly vocabSize: number;
  readonly hiddenSize: number;
  readonly intermediateSize: number;
  readonly numLayers: number;
  readonly numHeads: number;
  /** Key/value heads (grouped-query attention); equals `numHeads` for plain multi-head attention. */
  readonly numKvHeads: number;
  readonly headDim: number;
  readonly rmsNormEps: number;
  readonly ropeTheta: number;
  readonly ropeScaling: RopeScaling;
  readonly maxPositions: number;
  readonly tieWordEmbeddings: boolean;
  /** Biases on q_proj, k_proj, v_proj (always on for Qwen2). */
  readonly qkvBias: boolean;
  /** Bias on o_proj (Llama/Qwen3 `attention_bias`; never for Qwen2). */
  readonly oBias: boolean;
  /** Qwen3's per-head RMSNorm of queries and keys before RoPE. */
  readonly qkNorm: boolean;
  readonly bosTokenId?: number;
  readonly eosTokenIds: readonly number[];
  /** The raw config.json, for fields this SDK does not interpret. */
  readonly raw: Readonly<Record<string, unknown>>;
}

const MODEL_TYPES: Record<string, ModelArch> = { llama: 'llama', qwen2: 'qwen2', qwen3: 'qwen3', mistral: 'llama' };

/**
 * Parses a Hugging Face `config.json` object of a Llama/Qwen2/Qwen2.5/Qwen3 model.
 *
 * @example
 * const cfg = parseModelConfig(JSON.parse(fs.readFileSync('config.json', 'utf8')));
 * cfg.numKvHeads; // 8 for Qwen3-0.6B
 */
export function parseModelConfig(raw: Record<string, unknown>): ModelConfig {
  const modelType = String(raw['model_type'] ?? '');
  const arch = MODEL_TYPES[modelType];
  if (!arch) {
    throw new ModelConfigError(`config.json: model_type "${modelType}" is not supported; supported: ${Object.keys(MODEL_TYPES).join(', ')}`);
  }
  const int = (key: string, fallback?: number): number => {
    const value = raw[key] ?? fallback;
    if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0) {
      throw new ModelConfigError(`config.json: "${key}" must be a positive integer, got ${JSON.stringify(raw[key])}`);
    }
    return value;
  };
  const hiddenSize = int('hidden_size');
  const numHeads = int('num_attention_heads');
  const numKvHeads = int('num_key_value_heads', numHeads);
  if (numHeads % numKvHeads !== 0) {
    throw new ModelConfigError(`config.json: num_attention_heads (${numHeads}) must be a multiple of num_key_value_heads (${numKvHeads})`);
  }
  const headDim = raw['head_dim'] === undefined || raw['head_dim'] === null ? hiddenSize / numHeads : int('head_dim');
  if (!Number.isInteger(headDim) || headDim % 2 !== 0) {
    throw new ModelConfigError(`config.json: head dimension ${headDim} must be an even integer (RoPE rotates pairs)`);
  }
  const act = raw['hidden_act'] ?? 'silu';
  if (act !== 'silu') throw new ModelConfigError(`config.json: hidden_act "${String(act)}" is not supported; only "silu" (SwiGLU)`);
  if (raw['mlp_bias'] === true) throw new ModelConfigError('config.json: mlp_bias=true is not supported');

  const ropeParameters = (raw['rope_parameters'] ?? undefined) as Record<string, unknown> | undefined;
  const ropeTheta = Number(ropeParameters?.['rope_theta'] ?? raw['rope_theta'] ?? 10000);
  const maxPositions = int('max_position_embeddings', 32768);
  const attentionBias = raw['attention_bias'] === true;
  const eos = raw['eos_token_id'];
  return {
    arch,
    vocabSize: int('vocab_size'),
    hiddenSize,
    intermediateSize: int('intermediate_size'),
    numLayers: int('num_hidden_layers'),
    numHeads,
    numKvHeads,
    headDim,
    rmsNormEps: Number(raw['rms_norm_eps'] ?? 1e-6),
    ropeTheta,
    ropeScaling: parseRopeScaling((raw['rope_scaling'] ?? ropeParameters) as Record<string, unknown> | null | undefined, maxPositions),
    maxPositions,
    tieWordEmbeddings: raw['tie_word_embeddings'] === true,
    qkvBias: arch === 'qwen2' ? true : attentionBias,
    oBias: arch === 'qwen2' ? false : attentionBias,
    qkNorm: arch === 'qwen3',
    ...(typeof raw['bos_token_id'] === 'number' ? { bosTokenId: raw['bos_token_id'] } : {}),
    eosTokenIds: Array.isArray(eos) ? eos.filter((x): x is number => typeof x === 'number') : typeof eos === 'number' ? [eos] : [],
    raw,
  };
}

/**
 * Reads the RoPE scaling block (`rope_scaling` in older configs, `rope_parameters` in newer).
 *
 * @example
 * parseRopeScaling({ rope_type: 'linear', factor: 2 }, 4096); // { type: 'linear', factor: 2 }
 */
export function parseRopeScaling(block: Record<string, unknown> | null | undefined, maxPositions: number): RopeScaling {
  if (!block) return { type: 'default' };
  const type = String(block['rope_type'] ?? block['type'] ?? 'default');
  const num = (key: string, fallback: number): number => {
    const v = block[key];
    return typeof v === 'number' ? v : fallback;
  };
  switch (type) {
    case 'default':
      return { type: 'default' };
    case 'linear':
      return { type: 'linear', factor: num('factor', 1) };
    case 'llama3':
      return {
        type: 'llama3',
        factor: num('factor', 8),
        lowFreqFactor: num('low_freq_factor', 1),
        highFreqFactor: num('high_freq_factor', 4),
        originalMaxPositions: num('original_max_position_embeddings', 8192),
      };
    case 'yarn': {
      const factor = num('factor', 1);
      return {
        type: 'yarn',
        factor,
        originalMaxPositions: num('original_max_position_embeddings', maxPositions),
        betaFast: num('beta_fast', 32),
        betaSlow: num('beta_slow', 1),
        attentionFactor: num('attention_factor', factor <= 1 ? 1 : 0.1 * Math.log(factor) + 1),
      };
    }
    default:
      throw new ModelConfigError(`config.json: rope scaling type "${type}" is not supported; supported: default, linear, llama3, yarn`);
  }
}

/**
 * Serialises a config back to Hugging Face `config.json` form (used for the tiny models).
 *
 * @example
 * fs.writeFileSync('config.json', JSON.stringify(toHfConfig(cfg), null, 2));
 */
export function toHfConfig(config: Omit<ModelConfig, 'raw'>): Record<string, unknown> {
  const archName = { llama: 'LlamaForCausalLM', qwen2: 'Qwen2ForCausalLM', qwen3: 'Qwen3ForCausalLM' }[config.arch];
  return {
    architectures: [archName],
    model_type: config.arch,
    vocab_size: config.vocabSize,
    hidden_size: config.hiddenSize,
    intermediate_size: config.intermediateSize,
    num_hidden_layers: config.numLayers,
    num_attention_heads: config.numHeads,
    num_key_value_heads: config.numKvHeads,
    head_dim: config.headDim,
    hidden_act: 'silu',
    rms_norm_eps: config.rmsNormEps,
    rope_theta: config.ropeTheta,
    rope_scaling: config.ropeScaling.type === 'default' ? null : ropeScalingToHf(config.ropeScaling),
    max_position_embeddings: config.maxPositions,
    tie_word_embeddings: config.tieWordEmbeddings,
    ...(config.arch === 'qwen2' ? {} : { attention_bias: config.qkvBias }),
    ...(config.bosTokenId !== undefined ? { bos_token_id: config.bosTokenId } : {}),
    eos_token_id: config.eosTokenIds.length === 1 ? config.eosTokenIds[0] : [...config.eosTokenIds],
    torch_dtype: 'float32',
    use_cache: true,
  };
}

function ropeScalingToHf(s: RopeScaling): Record<string, unknown> {
  switch (s.type) {
    case 'linear':
      return { rope_type: 'linear', factor: s.factor };
    case 'llama3':
      return { rope_type: 'llama3', factor: s.factor, low_freq_factor: s.lowFreqFactor, high_freq_factor: s.highFreqFactor, original_max_position_embeddings: s.originalMaxPositions };
    case 'yarn':
      return { rope_type: 'yarn', factor: s.factor, original_max_position_embeddings: s.originalMaxPositions, beta_fast: s.betaFast, beta_slow: s.betaSlow, attention_factor: s.attentionFactor };
    case 'default':
      return { rope_type: 'default' };
  }
}
