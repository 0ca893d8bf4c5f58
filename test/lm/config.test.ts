import { describe, expect, it } from 'vitest';
import { ModelConfigError, parseModelConfig } from '../../src/lm/index.js';
import { toHfConfig } from '../../src/lm/model/config.js';
import { modelParameters } from '../../src/lm/model/parameters.js';
import { ropeInverseFrequencies, ropeTablesAt } from '../../src/lm/model/rope.js';

// Field subsets as published Qwen checkpoints write them (values shortened).
const qwen25 = {
  architectures: ['Qwen2ForCausalLM'], model_type: 'qwen2', hidden_size: 896, intermediate_size: 4864,
  num_hidden_layers: 24, num_attention_heads: 14, num_key_value_heads: 2, rms_norm_eps: 1e-6,
  rope_theta: 1000000.0, max_position_embeddings: 32768, vocab_size: 151936, tie_word_embeddings: true,
  hidden_act: 'silu', bos_token_id: 151643, eos_token_id: 151643, rope_scaling: null,
};
const qwen3 = {
  architectures: ['Qwen3ForCausalLM'], model_type: 'qwen3', hidden_size: 1024, intermediate_size: 3072,
  num_hidden_layers: 28, num_attention_heads: 16, num_key_value_heads: 8, head_dim: 128, attention_bias: false,
  rms_norm_eps: 1e-6, rope_theta: 1000000, max_position_embeddings: 40960, vocab_size: 151936,
  tie_word_embeddings: true, hidden_act: 'silu', eos_token_id: 151645,
};

describe('parseModelConfig', () => {
  it('reads Qwen2.5: implicit q/k/v biases, head_dim from hidden/heads, GQA', () => {
    const c = parseModelConfig(qwen25);
    expect(c).toMatchObject({ arch: 'qwen2', headDim: 64, numKvHeads: 2, qkvBias: true, oBias: false, qkNorm: false, ropeTheta: 1e6, tieWordEmbeddings: true });
    expect(c.ropeScaling).toEqual({ type: 'default' });
    const names = modelParameters(c).map((p) => p.name);
    expect(names).toContain('model.layers.0.self_attn.q_proj.bias');
    expect(names).not.toContain('model.layers.0.self_attn.o_proj.bias');
    expect(names).not.toContain('lm_head.weight');
  });

  it('reads Qwen3: explicit head_dim (≠ hidden/heads), q/k norms, no biases', () => {
    const c = parseModelConfig(qwen3);
    expect(c).toMatchObject({ arch: 'qwen3', headDim: 128, qkvBias: false, qkNorm: true, eosTokenIds: [151645] });
    const q = modelParameters(c).find((p) => p.name === 'model.layers.0.self_attn.q_proj.weight');
    expect(q?.shape).toEqual([16 * 128, 1024]);
    expect(modelParameters(c).find((p) => p.name === 'model.layers.27.self_attn.k_norm.weight')?.shape).toEqual([128]);
  });

  it('reads rope_parameters (newer configs) and scaling variants', () => {
    const c = parseModelConfig({ ...qwen3, rope_theta: undefined, rope_parameters: { rope_type: 'default', rope_theta: 5e5 } });
    expect(c.ropeTheta).toBe(5e5);
    const y = parseModelConfig({ ...qwen3, rope_scaling: { rope_type: 'yarn', factor: 4, original_max_position_embeddings: 32768 } });
    expect(y.ropeScaling).toMatchObject({ type: 'yarn', factor: 4, originalMaxPositions: 32768 });
    const l = parseModelConfig({ ...qwen25, model_type: 'llama', rope_scaling: { type: 'linear', factor: 2 }, tie_word_embeddings: false });
    expect(l.ropeScaling).toEqual({ type: 'linear', factor: 2 });
    expect(modelParameters(l).map((p) => p.name)).toContain('lm_head.weight');
  });

  it('rejects unsupported models with a message naming the field', () => {
    expect(() => parseModelConfig({ ...qwen3, model_type: 'gpt2' })).toThrow(ModelConfigError);
    expect(() => parseModelConfig({ ...qwen3, num_key_value_heads: 5 })).toThrow(/multiple of num_key_value_heads/);
    expect(() => parseModelConfig({ ...qwen3, rope_scaling: { rope_type: 'longrope' } })).toThrow(/longrope/);
  });

  it('round-trips through toHfConfig', () => {
    const c = parseModelConfig(qwen3);
    const back = parseModelConfig(toHfConfig(c));
    const { raw: _a, ...x } = c;
    const { raw: _b, ...y } = back;
    expect(y).toEqual(x);
  });
});

describe('RoPE', () => {
  it('computes default, linear and llama3 frequencies', () => {
    expect([...ropeInverseFrequencies(4, 10000, { type: 'default' })]).toEqual([1, 0.01]);
    expect([...ropeInverseFrequencies(4, 10000, { type: 'linear', factor: 2 })]).toEqual([0.5, 0.005]);
    const l3 = ropeInverseFrequencies(128, 500000, { type: 'llama3', factor: 8, lowFreqFactor: 1, highFreqFactor: 4, originalMaxPositions: 8192 });
    const base = ropeInverseFrequencies(128, 500000, { type: 'default' });
    expect(l3[0]).toBe(base[0]); // high frequencies untouched
    expect(l3[63]).toBeCloseTo(base[63]! / 8, 12); // low frequencies divided by the factor
  });

  it('lays tables out as cat(freqs, freqs)', () => {
    const { cos, sin } = ropeTablesAt([0, 2], new Float64Array([1, 0.5]), 1);
    expect([...cos.slice(0, 4)]).toEqual([1, 1, 1, 1]);
    expect(sin[4]).toBeCloseTo(Math.sin(2), 6);
    expect(sin[6]).toBeCloseTo(Math.sin(2), 6);
    expect(sin[5]).toBeCloseTo(Math.sin(1), 6);
  });
});
