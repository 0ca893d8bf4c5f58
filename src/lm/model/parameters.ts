import type { ModelConfig } from './config.js';

/** What a parameter does, so initialisers and LoRA can treat kinds differently. */
export type ParameterRole = 'embedding' | 'projection' | 'bias' | 'norm';

/** Name, shape and role of one model parameter, named exactly as in HF checkpoints. */
export interface ParameterSpec {
  readonly name: string;
  readonly shape: readonly number[];
  readonly role: ParameterRole;
}

/** The projection modules of a decoder layer that LoRA can target. */
export const PROJECTIONS = ['q_proj', 'k_proj', 'v_proj', 'o_proj', 'gate_proj', 'up_proj', 'down_proj'] as const;
/** One of {@link PROJECTIONS}. */
export type ProjectionName = (typeof PROJECTIONS)[number];

/**
 * Hugging Face name of a decoder-layer parameter.
 *
 * @example
 * layerParam(3, 'self_attn.q_proj.weight'); // 'model.layers.3.self_attn.q_proj.weight'
 */
export function layerParam(layer: number, suffix: string): string {
  return `model.layers.${layer}.${suffix}`;
}

/**
 * Module path (within a layer) of a projection: attention projections live under
 * `self_attn`, MLP ones under `mlp`.
 *
 * @example
 * projectionModule('gate_proj'); // 'mlp.gate_proj'
 */
export function projectionModule(projection: ProjectionName): string {
  return projection === 'gate_proj' || projection === 'up_proj' || projection === 'down_proj' ? `mlp.${projection}` : `self_attn.${projection}`;
}

/**
 * `[out, in]` shape of a projection's weight (PyTorch Linear layout).
 *
 * @example
 * projectionShape(cfg, 'k_proj'); // [numKvHeads * headDim, hiddenSize]
 */
export function projectionShape(config: ModelConfig, projection: ProjectionName): [number, number] {
  const q = config.numHeads * config.headDim;
  const kv = config.numKvHeads * config.headDim;
  switch (projection) {
    case 'q_proj': return [q, config.hiddenSize];
    case 'k_proj':
    case 'v_proj': return [kv, config.hiddenSize];
    case 'o_proj': return [config.hiddenSize, q];
    case 'gate_proj':
    case 'up_proj': return [config.intermediateSize, config.hiddenSize];
    case 'down_proj': return [config.hiddenSize, config.intermediateSize];
  }
}

/**
 * Every parameter of a model of this configuration, in checkpoint order, with HF names.
 * `lm_head.weight` is absent when embeddings are tied.
 *
 * @example
 * modelParameters(cfg).map((p) => p.name); // ['model.embed_tokens.weight', 'model.layers.0.self_attn.q_proj.weight', ...]
 */
export function modelParameters(config: ModelConfig): ParameterSpec[] {
  const specs: ParameterSpec[] = [{ name: 'model.embed_tokens.weight', shape: [config.vocabSize, config.hiddenSize], role: 'embedding' }];
  for (let l = 0; l < config.numLayers; l++) {
    for (const projection of PROJECTIONS) {
      const module = projectionModule(projection);
      const shape = projectionShape(config, projection);
      specs.push({ name: layerParam(l, `${module}.weight`), shape, role: 'projection' });
      const biased = projection === 'o_proj' ? config.oBias : ['q_proj', 'k_proj', 'v_proj'].includes(projection) && config.qkvBias;
      if (biased) specs.push({ name: layerParam(l, `${module}.bias`), shape: [shape[0]], role: 'bias' });
    }
    if (config.qkNorm) {
      specs.push({ name: layerParam(l, 'self_attn.q_norm.weight'), shape: [config.headDim], role: 'norm' });
      specs.push({ name: layerParam(l, 'self_attn.k_norm.weight'), shape: [config.headDim], role: 'norm' });
    }
    specs.push({ name: layerParam(l, 'input_layernorm.weight'), shape: [config.hiddenSize], role: 'norm' });
    specs.push({ name: layerParam(l, 'post_attention_layernorm.weight'), shape: [config.hiddenSize], role: 'norm' });
  }
  specs.push({ name: 'model.norm.weight', shape: [config.hiddenSize], role: 'norm' });
  if (!config.tieWordEmbeddings) specs.push({ name: 'lm_head.weight', shape: [config.vocabSize, config.hiddenSize], role: 'embedding' });
  return specs;
}
