import { describe, expect, it } from 'vitest';
import { buildScoringGraph, buildStepGraph, type BuiltGraph } from '../../src/lm/graph/graphs.js';
import { buildGraph, graphKey, type GraphSpec } from '../../src/lm/compute/graph-spec.js';
import { parseModelConfig } from '../../src/lm/model/config.js';
import type { LoraConfig } from '../../src/lm/lora/config.js';
import { encodeModel } from '../../src/onnx/proto/model.js';

const config = parseModelConfig({
  architectures: ['Qwen3ForCausalLM'],
  model_type: 'qwen3',
  vocab_size: 64,
  hidden_size: 16,
  intermediate_size: 24,
  num_hidden_layers: 1,
  num_attention_heads: 2,
  num_key_value_heads: 1,
  head_dim: 8,
  rms_norm_eps: 1e-6,
  rope_theta: 10000,
  max_position_embeddings: 64,
  tie_word_embeddings: true,
});
const lora: LoraConfig = { rank: 2, alpha: 4, targetModules: ['q_proj', 'v_proj'] };

const bytes = (built: BuiltGraph): Uint8Array => encodeModel(built.graph).model;

describe('graph specs', () => {
  // Each spec must build exactly the graph the compute core ran before specs named them: the
  // same ONNX bytes, so the same numbers.
  const cases: [GraphSpec, () => BuiltGraph][] = [
    [{ kind: 'score', gradients: 'none', entropy: false }, () => buildScoringGraph(config, { gradients: 'none', lora })],
    [{ kind: 'score', gradients: 'lora', entropy: true }, () => buildScoringGraph(config, { gradients: 'lora', entropy: true, lora })],
    [{ kind: 'train', target: 'lora', entropy: 'output' }, () => buildScoringGraph(config, { gradients: 'lora', entropy: true, entropyGradient: false, accumulate: true, lora })],
    [{ kind: 'train', target: 'lora', entropy: 'objective' }, () => buildScoringGraph(config, { gradients: 'lora', entropy: true, entropyGradient: true, accumulate: true, lora })],
    [{ kind: 'prompt-prefix', entropy: true }, () => buildScoringGraph(config, { present: true, entropy: true, lora })],
    [{ kind: 'prompt-suffix', entropy: false, perGroup: true }, () => buildScoringGraph(config, { past: 'per-group', entropy: false, lora })],
    [{ kind: 'prompt-prefix-train', target: 'lora', entropy: false }, () => buildScoringGraph(config, { present: true, gradients: 'lora', entropy: false, entropyGradient: false, accumulate: true, lora })],
    [{ kind: 'prompt-suffix-train', target: 'lora', entropy: false, perGroup: false, headPositions: true }, () => buildScoringGraph(config, { past: true, gradients: 'lora', entropy: false, entropyGradient: false, accumulate: true, headPositions: true, lora })],
    [{ kind: 'prompt-prefix-backward', target: 'lora' }, () => buildScoringGraph(config, { present: true, headless: true, gradients: 'lora', accumulate: true, lora })],
    [{ kind: 'prefill', sampler: true }, () => buildStepGraph(config, { withPast: false, sampler: true, lora })],
    [{ kind: 'decode', sampler: false, prefix: 'none' }, () => buildStepGraph(config, { withPast: true, lora })],
    [{ kind: 'decode', sampler: false, prefix: 'per-row' }, () => buildStepGraph(config, { withPast: true, withPrefix: true, lora })],
    [{ kind: 'decode', sampler: false, prefix: 'per-group' }, () => buildStepGraph(config, { withPast: true, withPrefix: 'per-group', lora })],
  ];
  for (const [spec, direct] of cases) {
    it(`builds ${graphKey(spec)} as the graph builder's options say`, () => {
      expect(bytes(buildGraph(config, spec, lora))).toEqual(bytes(direct()));
    });
  }

  it('keys a spec by its contents, whatever the order of its fields', () => {
    const a: GraphSpec = { kind: 'decode', sampler: false, prefix: 'per-row' };
    const b: GraphSpec = { prefix: 'per-row', sampler: false, kind: 'decode' };
    expect(graphKey(a)).toBe(graphKey(b));
    expect(graphKey(a)).toBe('decode:prefix=per-row,sampler=false:base');
  });

  it('gives every distinct spec and LoRA configuration its own key', () => {
    const keys = cases.map(([spec]) => graphKey(spec));
    expect(new Set(keys).size).toBe(keys.length);
    const spec: GraphSpec = { kind: 'score', gradients: 'none', entropy: false };
    expect(graphKey(spec, lora)).not.toBe(graphKey(spec));
    expect(graphKey(spec, lora)).not.toBe(graphKey(spec, { ...lora, rank: 4 }));
  });
});
