import type { LoraConfig } from '../lora/config.js';
import { loraSites } from '../lora/config.js';
import type { ModelConfig } from '../model/config.js';
import { modelParameters, projectionShape, type ProjectionName } from '../model/parameters.js';
import { buildDecoder, lmHead, type DecoderWeights, type LayerCache } from './decoder.js';
import type { LoraTensors } from './layers.js';
import { appendSamplingHead } from './sampling-head.js';
import { Graph, appendGradientAccumulation, grad, logProbsAndEntropy, ops, tokenLogProbs, type Tensor } from './onnx.js';
import { LmError } from '../errors.js';

/** Names of the non-weight inputs and outputs of the graphs, shared with the host code feeding them. */
export const GRAPH_IO = {
  inputIds: 'input_ids',
  targetIds: 'target_ids',
  /**
   * Input [1] of every scoring graph with an LM head: 1 / T, multiplying the logits before the
   * log-softmax, so log-probs and entropies are those of the distribution sampled at temperature
   * T (1 for the model's own). Fed beside `target_ids`; graphs without a head take neither.
   */
  logitScale: 'logit_scale',
  cos: 'rope_cos',
  sin: 'rope_sin',
  attentionBias: 'attention_bias',
  tokenWeights: 'token_weights',
  /**
   * Input [N] (int64) of scoring graphs built with `headPositions`: the flat indices b·T + t of the
   * positions whose log-probs the LM head computes; `target_ids`, `token_weights` and the
   * log-prob (and entropy) outputs are then [N], in this order.
   */
  headPositions: 'head_positions',
  /** Input [B, T] of entropy scoring graphs with gradients: each position's entropy weight. */
  entropyWeights: 'entropy_weights',
  logprobs: 'logprobs',
  /** Output [B, T] of entropy scoring graphs: entropy (nats) of the distribution scoring `target_ids`. */
  entropy: 'entropy',
  objective: 'objective',
  logits: 'logits',
  pastKey: (layer: number): string => `past.${layer}.key`,
  pastValue: (layer: number): string => `past.${layer}.value`,
  presentKey: (layer: number): string => `present.${layer}.key`,
  presentValue: (layer: number): string => `present.${layer}.value`,
  /** Inputs of decode-after-prefix graphs: a prompt's keys/values, the same at every step. */
  prefixKey: (layer: number): string => `prefix.${layer}.key`,
  prefixValue: (layer: number): string => `prefix.${layer}.value`,
  gradOf: (param: string): string => `grad.${param}`,
  /** Input of prefix training graphs: ∂loss/∂(an output), e.g. `seed.present.0.key`. */
  seedOf: (output: string): string => `seed.${output}`,
} as const;

/** Which parameters a scoring graph differentiates. */
export type GradientTarget = 'none' | 'base' | 'lora';

/** A built graph and the weight inputs it expects (names in feed order). */
export interface BuiltGraph {
  readonly graph: Graph;
  /** HF names of base-weight inputs. */
  readonly baseInputs: readonly string[];
  /** PEFT names of LoRA inputs (empty without LoRA). */
  readonly loraInputs: readonly string[];
  /** Parameters whose gradients are outputs (`grad.<name>`), in output order. */
  readonly gradientOf: readonly string[];
}

function declareWeights(g: Graph, config: ModelConfig, lora: LoraConfig | undefined): { weights: DecoderWeights; base: string[]; loraNames: string[]; tensors: Map<string, Tensor> } {
  const tensors = new Map<string, Tensor>();
  const base: string[] = [];
  for (const spec of modelParameters(config)) {
    tensors.set(spec.name, g.input(spec.name, 'float32', spec.shape));
    base.push(spec.name);
  }
  const adapters = new Map<string, LoraTensors>();
  const loraNames: string[] = [];
  if (lora) {
    for (const site of loraSites(lora, config.numLayers)) {
      const [out, inFeatures] = projectionShape(config, site.projection);
      const a = g.input(site.aName, 'float32', [lora.rank, inFeatures]);
      const b = g.input(site.bName, 'float32', [out, lora.rank]);
      tensors.set(site.aName, a);
      tensors.set(site.bName, b);
      loraNames.push(site.aName, site.bName);
      adapters.set(`${site.layer}:${site.projection}`, { a, b, scale: lora.alpha / lora.rank });
    }
  }
  const weights: DecoderWeights = {
    weight: (name) => {
      const t = tensors.get(name);
      if (!t) throw new LmError(`graph has no weight input "${name}"`);
      return t;
    },
    lora: (layer: number, projection: ProjectionName) => adapters.get(`${layer}:${projection}`),
  };
  return { weights, base, loraNames, tensors };
}

/** Options of {@link buildScoringGraph}. */
export interface ScoringGraphOptions {
  readonly lora?: LoraConfig;
  readonly gradients?: GradientTarget;
  readonly entropy?: boolean;
  readonly entropyGradient?: boolean;
  readonly accumulate?: boolean;
  /**
   * Continue a KV cache of P earlier positions (`past.N.key`/`past.N.value` [B, K, P, D];
   * `attention_bias` is then [B, 1, T, P + T]); with gradients, also output the gradient with
   * respect to every past tensor (`grad.past.N.key`, …). `'per-group'`: the past is one cache per
   * group of consecutive rows, [U, K, P, D] (rows b of group ⌊b / (B / U)⌋, groups of one size),
   * read by the group's rows at once (`groupSharedAttention`); its gradients are then per group,
   * summed over the group's rows by the graph.
   */
  readonly past?: boolean | 'per-group';
  /**
   * Output the keys/values of the positions (`present.N.*` [B, K, T, D]); with gradients, take
   * `seed.present.N.*` (same shapes) and differentiate `objective + Σ present·seed`, so that the
   * continuations' gradients with respect to these keys/values flow into the weights.
   */
  readonly present?: boolean;
  /**
   * With `present` and gradients: no LM head at all (no `target_ids`, `token_weights`, log-probs
   * or objective output), only the gradient of Σ present·seed — the prefix backward of shared
   * prompts when the prompt tokens carry no weight.
   */
  readonly headless?: boolean;
  /**
   * The LM head reads only the positions listed in `head_positions` (see `GRAPH_IO.headPositions`):
   * a training pass whose loss weighs a few of its positions (SFT's assistant tokens, not the tool
   * results or the padding between them) skips the vocabulary-sized product and log-softmax of the
   * rest, forward and backward. The decoder still runs every position: the listed ones attend to them.
   */
  readonly headPositions?: boolean;
}

/** Σ_l Σ present_l·seed_l over the keys and values of every layer, with the `seed.present.N.*` inputs. */
function presentSeedTerm(g: Graph, config: ModelConfig, present: readonly LayerCache[]): Tensor {
  const seed = (name: string) => g.input(GRAPH_IO.seedOf(name), 'float32', ['batch', config.numKvHeads, 'seq', config.headDim]);
  return present.flatMap((c, l) => [c.key.mul(seed(GRAPH_IO.presentKey(l))).sum(), c.value.mul(seed(GRAPH_IO.presentValue(l))).sum()]).reduce((a, b) => a.add(b));
}

/**
 * The scoring (training) graph: per-token log-probabilities of `target_ids` given `input_ids`
 * ([B, T] each, int64), with RoPE tables `rope_cos`/`rope_sin` [B, T, D],
 * `attention_bias` [B, 1, T, T] and `logit_scale` [1] (1 / temperature: the logits are scaled
 * before the log-softmax). With gradients, it also takes `token_weights` [B, T] and
 * outputs `objective = Σ token_weights · logprobs` and its gradient with respect to each
 * trained parameter as `grad.<name>` — a vector–Jacobian product, so any loss that is a
 * function of the log-probs can be trained by passing dLoss/dlogprobs as the weights.
 * With `entropy: true` it also outputs `entropy` [B, T], the entropy of each position's full
 * next-token distribution, and (with gradients) takes `entropy_weights` [B, T]: the objective
 * becomes `Σ token_weights · logprobs + Σ entropy_weights · entropy` (an entropy bonus).
 * With `entropyGradient: false` the entropy is only an output: the objective is the log-prob
 * term alone and there is no `entropy_weights` input (a training pass that also reports entropies).
 * With `accumulate: true` the gradients are not outputs of their own: each is added to a resident
 * accumulator (`gradacc.<name>` in, `gradacc.<name>.next` out; see `ResidentOptimizer`), which is
 * how the trainer sums micro-batches without the gradients leaving the session.
 *
 * @example
 * const built = buildScoringGraph(cfg, { gradients: 'base' });
 */
export function buildScoringGraph(config: ModelConfig, options: ScoringGraphOptions = {}): BuiltGraph {
  const gradients = options.gradients ?? 'none';
  const perGroup = options.past === 'per-group';
  const g = new Graph(`${config.arch}_scoring${options.entropy ? '_entropy' : ''}${options.past ? `_past${perGroup ? '_grouped' : ''}` : ''}${options.present ? '_present' : ''}${options.headPositions ? '_head_positions' : ''}`);
  const inputIds = g.input(GRAPH_IO.inputIds, 'int64', ['batch', 'seq']);
  const cos = g.input(GRAPH_IO.cos, 'float32', ['batch', 'seq', config.headDim]);
  const sin = g.input(GRAPH_IO.sin, 'float32', ['batch', 'seq', config.headDim]);
  const attentionBias = g.input(GRAPH_IO.attentionBias, 'float32', ['batch', 1, 'seq', options.past ? 'total' : 'seq']);
  const past: LayerCache[] | undefined = options.past
    ? Array.from({ length: config.numLayers }, (_, l) => ({
        key: g.input(GRAPH_IO.pastKey(l), 'float32', [perGroup ? 'groups' : 'batch', config.numKvHeads, 'past', config.headDim]),
        value: g.input(GRAPH_IO.pastValue(l), 'float32', [perGroup ? 'groups' : 'batch', config.numKvHeads, 'past', config.headDim]),
      }))
    : undefined;
  const { weights, base, loraNames, tensors } = declareWeights(g, config, options.lora);

  // A per-group past is attended as a fixed prefix block (not concatenated row by row).
  const cacheInputs = past ? (perGroup ? { prefix: past, prefixPerGroup: true } : { past }) : {};
  const { hidden, present } = buildDecoder(config, weights, { inputIds, cos, sin, attentionBias, ...cacheInputs });
  if (options.present) {
    present.forEach((c, l) => {
      g.output(c.key, GRAPH_IO.presentKey(l));
      g.output(c.value, GRAPH_IO.presentValue(l));
    });
  }
  if (options.headless) {
    // Only the keys/values matter: no LM head, no log-probs, the objective is Σ present·seed.
    if (!options.present || gradients === 'none') throw new LmError('a headless scoring graph needs present outputs and gradients');
    const gradientOf = gradients === 'lora' ? loraNames : base;
    const params = gradientOf.map((n) => tensors.get(n)!);
    const grads = grad(presentSeedTerm(g, config, present), params);
    if (options.accumulate) appendGradientAccumulation(g, gradientOf.map((name, i) => [name, grads.get(params[i]!)!] as const));
    else gradientOf.forEach((name, i) => g.output(grads.get(params[i]!)!, GRAPH_IO.gradOf(name)));
    return { graph: g, baseInputs: base, loraInputs: loraNames, gradientOf };
  }
  // With head positions every per-position input and output of the head is [N] instead of [B, T].
  const positionDims = options.headPositions ? ['positions'] : ['batch', 'seq'];
  const headInput = options.headPositions ? ops.gather(hidden.reshape([-1, config.hiddenSize]), g.input(GRAPH_IO.headPositions, 'int64', ['positions']), 0) : hidden;
  const targetIds = g.input(GRAPH_IO.targetIds, 'int64', positionDims);
  // Scored at the sampling temperature, as the policy gradient of the tempered policy needs (and TRL does).
  const logits = lmHead(config, weights, headInput).mul(g.input(GRAPH_IO.logitScale, 'float32', [1]));
  // The entropy costs one more vocabulary-sized buffer, so only entropy graphs compute it.
  const { logprobs, entropy } = options.entropy ? logProbsAndEntropy(logits, targetIds) : { logprobs: tokenLogProbs(logits, targetIds), entropy: undefined };
  g.output(logprobs, GRAPH_IO.logprobs);
  if (entropy) g.output(entropy, GRAPH_IO.entropy);

  let gradientOf: string[] = [];
  if (gradients !== 'none') {
    const tokenWeights = g.input(GRAPH_IO.tokenWeights, 'float32', positionDims);
    gradientOf = gradients === 'lora' ? loraNames : base;
    const params = gradientOf.map((n) => tensors.get(n)!);
    // A continuation graph also differentiates its past keys/values (to be summed into the prefix's).
    const pastTensors = (past ?? []).flatMap((c) => [c.key, c.value]);
    // A prefix graph adds Σ present·seed (the continuations' ∂loss/∂keys, ∂loss/∂values) to what it differentiates.
    const seedTerm = options.present ? presentSeedTerm(g, config, present) : undefined;
    let grads: Map<Tensor, Tensor>;
    if (entropy && options.entropyGradient !== false) {
      // Objective Σ token_weights·logprobs + Σ entropy_weights·entropy: an entropy bonus's gradient.
      const entropyWeights = g.input(GRAPH_IO.entropyWeights, 'float32', positionDims);
      const objective = logprobs.mul(tokenWeights).sum().add(entropy.mul(entropyWeights).sum());
      g.output(objective, GRAPH_IO.objective);
      grads = grad(seedTerm ? objective.add(seedTerm) : objective, [...params, ...pastTensors]);
    } else if (seedTerm) {
      const objective = logprobs.mul(tokenWeights).sum();
      g.output(objective, GRAPH_IO.objective);
      grads = grad(objective.add(seedTerm), [...params, ...pastTensors]);
    } else {
      g.output(logprobs.mul(tokenWeights).sum(), GRAPH_IO.objective);
      grads = grad(logprobs, [...params, ...pastTensors], { seed: tokenWeights });
    }
    if (options.accumulate) appendGradientAccumulation(g, gradientOf.map((name, i) => [name, grads.get(params[i]!)!] as const));
    else gradientOf.forEach((name, i) => g.output(grads.get(params[i]!)!, GRAPH_IO.gradOf(name)));
    (past ?? []).forEach((c, l) => {
      g.output(grads.get(c.key)!, GRAPH_IO.gradOf(GRAPH_IO.pastKey(l)));
      g.output(grads.get(c.value)!, GRAPH_IO.gradOf(GRAPH_IO.pastValue(l)));
    });
  }
  return { graph: g, baseInputs: base, loraInputs: loraNames, gradientOf };
}

/**
 * The generation step graph: runs `input_ids` [B, T] after an optional KV cache of P earlier
 * positions (`past.N.key`/`past.N.value`, [B, K, P, D]) and returns the logits of the last
 * position (`logits` [B, V]) and the extended cache (`present.N.*`, [B, K, P+T, D]). Without a
 * past it is the prefill graph; with one and T = 1 it is the decode graph. With `withPrefix` it
 * also attends to `prefix.N.key`/`prefix.N.value` [B, K, Q, D] before the past (`attention_bias`
 * then spans Q + P + T keys): a prompt's cache fed as it is to every step, while `present`
 * carries only the past and new positions. With `withPrefix: 'per-group'` the prefix is one cache
 * per group of consecutive rows, [U, K, Q, D] (rows b of group ⌊b / (B / U)⌋; every group the same
 * size): a prompt's cache read once per step by all the samples that continue it. With `sampler`
 * the graph draws the next token itself and outputs it with its log-probability instead of the
 * logits (`appendSamplingHead`): what GPU providers run, so the logits never leave the device.
 *
 * @example
 * const prefill = buildStepGraph(cfg, { withPast: false });
 * const decode = buildStepGraph(cfg, { withPast: true });
 */
export function buildStepGraph(config: ModelConfig, options: { withPast: boolean; withPrefix?: boolean | 'per-group'; lora?: LoraConfig; sampler?: boolean }): BuiltGraph {
  const perGroup = options.withPrefix === 'per-group';
  const g = new Graph(`${config.arch}_${options.withPast ? 'decode' : 'prefill'}${options.withPrefix ? `_prefix${perGroup ? '_grouped' : ''}` : ''}${options.sampler ? '_sampler' : ''}`);
  const inputIds = g.input(GRAPH_IO.inputIds, 'int64', ['batch', 'seq']);
  const cos = g.input(GRAPH_IO.cos, 'float32', ['batch', 'seq', config.headDim]);
  const sin = g.input(GRAPH_IO.sin, 'float32', ['batch', 'seq', config.headDim]);
  const attentionBias = g.input(GRAPH_IO.attentionBias, 'float32', ['batch', 1, 'seq', 'total']);
  const past: LayerCache[] | undefined = options.withPast
    ? Array.from({ length: config.numLayers }, (_, l) => ({
        key: g.input(GRAPH_IO.pastKey(l), 'float32', ['batch', config.numKvHeads, 'past', config.headDim]),
        value: g.input(GRAPH_IO.pastValue(l), 'float32', ['batch', config.numKvHeads, 'past', config.headDim]),
      }))
    : undefined;
  const prefix: LayerCache[] | undefined = options.withPrefix
    ? Array.from({ length: config.numLayers }, (_, l) => ({
        key: g.input(GRAPH_IO.prefixKey(l), 'float32', [perGroup ? 'groups' : 'batch', config.numKvHeads, 'prefix', config.headDim]),
        value: g.input(GRAPH_IO.prefixValue(l), 'float32', [perGroup ? 'groups' : 'batch', config.numKvHeads, 'prefix', config.headDim]),
      }))
    : undefined;
  const { weights, base, loraNames } = declareWeights(g, config, options.lora);
  // A decode step runs one new token a row: few rows.
  const { hidden, present } = buildDecoder(config, weights, { inputIds, cos, sin, attentionBias, fewRows: options.withPast, ...(past ? { past } : {}), ...(prefix ? { prefix, prefixPerGroup: perGroup } : {}) });
  // Left padding puts every sequence's newest token in the last column.
  const last = hidden.slice(1, -1, Number.MAX_SAFE_INTEGER).squeeze([1]);
  const logits = lmHead(config, weights, last);
  if (options.sampler) appendSamplingHead(g, logits, config.vocabSize);
  else g.output(logits, GRAPH_IO.logits);
  present.forEach((c, l) => {
    g.output(c.key, GRAPH_IO.presentKey(l));
    g.output(c.value, GRAPH_IO.presentValue(l));
  });
  return { graph: g, baseInputs: base, loraInputs: loraNames, gradientOf: [] };
}
