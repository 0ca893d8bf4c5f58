/**
 * The scoring graph extended with the entropy of the full next-token distribution at every
 * position, and (with gradients) the gradient of `Σ token_weights·logprobs +
 * Σ entropy_weights·entropy` — what an entropy bonus in a policy-gradient loss needs.
 *
 * It is built on top of {@link buildScoringGraph} (same inputs, same `logprobs` output) by
 * finding the log-softmax over the vocabulary that `tokenLogProbs` computes and appending
 * H = −Σ_v exp(ls_v)·ls_v to it; nothing of the transformer is duplicated.
 */
import type { LoraConfig } from '../lora/config.js';
import type { ModelConfig } from '../model/config.js';
import { GRAPH_IO, buildScoringGraph, type BuiltGraph, type GradientTarget } from '../graph/graphs.js';
import { grad, type Tensor } from '../graph/onnx.js';

/** Names of the extra inputs and outputs of the entropy scoring graph. */
export const ENTROPY_IO = {
  /** Output [B, T]: entropy (nats) of the distribution that scores `target_ids[b][t]`. */
  entropy: 'entropy',
  /** Input [B, T] (gradient graphs only): weight of each position's entropy in the objective. */
  entropyWeights: 'entropy_weights',
} as const;

/** The tensor an output was renamed from (`Graph.output` adds an Identity). */
function unrenamed(t: Tensor): Tensor {
  let x = t;
  while (x.producer?.opType === 'Identity' && x.producer.inputs[0]) x = x.producer.inputs[0];
  return x;
}

/** The [B, T, V] log-softmax a `tokenLogProbs` result was gathered from. */
function vocabularyLogSoftmax(logprobs: Tensor): Tensor {
  const squeeze = logprobs.producer;
  const gathered = squeeze?.opType === 'Squeeze' ? squeeze.inputs[0] : undefined;
  const gather = gathered?.producer;
  const logSoftmax = gather?.opType === 'GatherElements' ? gather.inputs[0] : undefined;
  if (!logSoftmax || logSoftmax.producer?.opType !== 'LogSoftmax') {
    throw new Error('buildEntropyScoringGraph: the scoring graph no longer ends in Squeeze(GatherElements(LogSoftmax(logits))); update entropy-graph.ts');
  }
  return logSoftmax;
}

/**
 * The scoring graph with an `entropy` output [B, T]. With `gradients`, it also takes
 * `token_weights` and `entropy_weights` [B, T] and outputs `objective =
 * Σ token_weights·logprobs + Σ entropy_weights·entropy` and its gradient `grad.<name>` for each
 * trained parameter.
 *
 * @example
 * const built = buildEntropyScoringGraph(cfg, { gradients: 'lora', lora });
 */
export function buildEntropyScoringGraph(config: ModelConfig, options: { lora?: LoraConfig; gradients?: GradientTarget } = {}): BuiltGraph {
  const gradients = options.gradients ?? 'none';
  const built = buildScoringGraph(config, options.lora ? { lora: options.lora, gradients: 'none' } : { gradients: 'none' });
  const g = built.graph;
  const output = g.outputs.find((t) => t.name === GRAPH_IO.logprobs);
  if (!output) throw new Error('buildEntropyScoringGraph: the scoring graph has no logprobs output');
  const logprobs = unrenamed(output);
  const ls = vocabularyLogSoftmax(logprobs);
  // Σ_v p_v·ls_v as a batched dot product ([B,T,1,V]·[B,T,V,1]): one vocabulary-sized buffer
  // (p) on top of the log-softmax instead of two (p and p·ls).
  const entropy = ls.exp().unsqueeze([-2]).matmul(ls.unsqueeze([-1])).squeeze([-2, -1]).neg();
  g.output(entropy, ENTROPY_IO.entropy);
  if (gradients === 'none') return built;

  const tokenWeights = g.input(GRAPH_IO.tokenWeights, 'float32', ['batch', 'seq']);
  const entropyWeights = g.input(ENTROPY_IO.entropyWeights, 'float32', ['batch', 'seq']);
  const objective = logprobs.mul(tokenWeights).sum().add(entropy.mul(entropyWeights).sum());
  g.output(objective, GRAPH_IO.objective);
  const gradientOf = gradients === 'lora' ? built.loraInputs : built.baseInputs;
  const byName = new Map(g.inputs.map((t) => [t.name, t]));
  const params = gradientOf.map((n) => byName.get(n)!);
  const grads = grad(objective, params);
  gradientOf.forEach((name, i) => g.output(grads.get(params[i]!)!, GRAPH_IO.gradOf(name)));
  return { ...built, gradientOf };
}
