import { describe, expect, it } from 'vitest';
import { buildScoringGraph, buildStepGraph, type BuiltGraph } from '../../src/lm/graph/graphs.js';
import { parseModelConfig } from '../../src/lm/model/config.js';
import type { LoraConfig } from '../../src/lm/lora/config.js';

// Qwen3-style: q/k norms, tied embeddings (the LM head reads the embedding matrix).
const config = parseModelConfig({
  architectures: ['Qwen3ForCausalLM'],
  model_type: 'qwen3',
  vocab_size: 96,
  hidden_size: 32,
  intermediate_size: 48,
  num_hidden_layers: 2,
  num_attention_heads: 4,
  num_key_value_heads: 2,
  head_dim: 8,
  rms_norm_eps: 1e-6,
  rope_theta: 10000,
  max_position_embeddings: 128,
  tie_word_embeddings: true,
});
const lora: LoraConfig = { rank: 4, alpha: 8, targetModules: ['q_proj', 'k_proj', 'v_proj', 'o_proj', 'gate_proj', 'up_proj', 'down_proj'] };

/** Nodes that read a weight input (base or LoRA) through a Transpose. */
function transposedWeights(built: BuiltGraph): string[] {
  const weights = new Set([...built.baseInputs, ...built.loraInputs]);
  return built.graph.nodes.filter((n) => n.opType === 'Transpose' && n.inputs.some((t) => t !== undefined && weights.has(t.name))).map((n) => n.inputs[0]!.name);
}

describe('how LM graphs multiply by their [out, in] weights', () => {
  // onnxruntime folds MatMul(x, Transpose(W)) into one product on CPU and CUDA but not on WebGPU,
  // where every such Transpose copies its weight at every run (27 ms for Qwen3's LM head on an H100),
  // while WebGPU's MatMul beats its Gemm at many rows: decode steps read weights as stored (Gemm,
  // transB), passes over whole sequences multiply by the transposed weight.
  const decodeGraphs: [string, () => BuiltGraph][] = [
    ['decode', () => buildStepGraph(config, { withPast: true })],
    ['decode with the sampling head', () => buildStepGraph(config, { withPast: true, sampler: true })],
    ['decode after a group prefix, LoRA', () => buildStepGraph(config, { withPast: true, withPrefix: 'per-group', lora })],
  ];
  for (const [name, build] of decodeGraphs) {
    it(`${name}: no weight goes through a Transpose, every projection and the LM head is a Gemm`, () => {
      const built = build();
      expect(transposedWeights(built)).toEqual([]);
      const gemms = built.graph.nodes.filter((n) => n.opType === 'Gemm').length;
      const adapters = built.loraInputs.length; // one Gemm per LoRA matrix
      expect(gemms).toBe(7 * config.numLayers + 1 + adapters);
    });
  }

  const sequenceGraphs: [string, () => BuiltGraph][] = [
    ['prefill', () => buildStepGraph(config, { withPast: false })],
    ['scoring', () => buildScoringGraph(config)],
    ['training, LoRA with entropy', () => buildScoringGraph(config, { gradients: 'lora', lora, entropy: true })],
  ];
  for (const [name, build] of sequenceGraphs) {
    it(`${name}: the projections multiply by transposed weights`, () => {
      const built = build();
      expect(new Set(transposedWeights(built))).toEqual(new Set([...built.loraInputs, ...built.baseInputs.filter((n) => /_proj\.weight$/.test(n)), ...(name === 'prefill' ? [] : ['model.embed_tokens.weight'])]));
    });
  }
});

describe('a scoring graph with head positions', () => {
  it('computes the LM head of the listed positions only: [N] targets, weights and log-probs', () => {
    const built = buildScoringGraph(config, { past: 'per-group', gradients: 'base', accumulate: true, headPositions: true });
    const input = (name: string) => built.graph.inputs.find((t) => t.name === name);
    expect(input('head_positions')?.shape).toEqual(['positions']);
    expect(input('target_ids')?.shape).toEqual(['positions']);
    expect(input('token_weights')?.shape).toEqual(['positions']);
    expect(built.graph.outputs.find((t) => t.name === 'logprobs')?.shape).toEqual(['positions']);
    // The head's product reads the gathered rows, not the [B, T] hidden states.
    const head = built.graph.nodes.find((n) => n.opType === 'Gemm' && n.inputs.some((t) => t?.name === 'model.embed_tokens.weight'));
    const gathered = built.graph.nodes.find((n) => n.outputs.includes(head!.inputs[0]!));
    expect(gathered?.opType).toBe('Gather');
    expect(gathered?.inputs[1]?.name).toBe('head_positions');
  });
});
