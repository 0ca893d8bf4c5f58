import { buildScoringGraph, buildStepGraph, type BuiltGraph, type GradientTarget, type ScoringGraphOptions } from '../graph/graphs.js';
import type { LoraConfig } from '../lora/config.js';
import type { ModelConfig } from '../model/config.js';

/** A parameter set that gradients are taken with respect to: the base weights or the LoRA adapter. */
export type TrainedWeights = Exclude<GradientTarget, 'none'>;

/** What a training graph does with entropies: nothing, report them, or differentiate them too. */
export type TrainingEntropy = 'none' | 'output' | 'objective';

/**
 * Which ONNX graph of a model to compile, named by what it computes. Every graph the compute
 * core runs is one of these kinds; {@link graphKey} names a spec for the engine's cache and
 * {@link buildGraph} builds it.
 *
 * - `score`: per-token log-probs of whole sequences; with `gradients`, also the gradient of
 *   `Σ w·log p` (+ the entropy term when `entropy`) returned as outputs.
 * - `train`: the same pass with gradients added to an optimizer's resident accumulators.
 * - `prompt-prefix` / `prompt-suffix` (and their `-train` forms, and the headless
 *   `prompt-prefix-backward`): the two halves of a batch whose rows share a prompt
 *   (see `shared-prompts.ts`).
 * - `prefill` / `decode`: generation steps; `decode.prefix` says how the prompt's cache is read
 *   (grown with the rest, fed once as a fixed prefix per row, or one prefix per group of rows).
 */
export type GraphSpec =
  | { readonly kind: 'score'; readonly gradients: GradientTarget; readonly entropy: boolean }
  | { readonly kind: 'train'; readonly target: TrainedWeights; readonly entropy: TrainingEntropy }
  | { readonly kind: 'prompt-prefix'; readonly entropy: boolean }
  | { readonly kind: 'prompt-suffix'; readonly entropy: boolean; readonly perGroup: boolean }
  | { readonly kind: 'prompt-prefix-train'; readonly target: TrainedWeights; readonly entropy: boolean }
  | { readonly kind: 'prompt-suffix-train'; readonly target: TrainedWeights; readonly entropy: boolean; readonly perGroup: boolean; readonly headPositions: boolean }
  | { readonly kind: 'prompt-prefix-backward'; readonly target: TrainedWeights }
  | { readonly kind: 'prefill'; readonly sampler: boolean }
  | { readonly kind: 'decode'; readonly sampler: boolean; readonly prefix: DecodePrefix };

/** How a decode step reads the prompt's keys/values: in its growing cache, as a fixed prefix per row, or one prefix per group of consecutive rows. */
export type DecodePrefix = 'none' | 'per-row' | 'per-group';

/** Which thread setting a graph runs with (see `EngineOptions`). */
export type GraphThreads = 'runtime' | 'scoring' | 'prompt';

/**
 * A stable cache key of a spec and its LoRA configuration: equal for equal specs whatever the
 * order their fields were written in.
 *
 * @example
 * graphKey({ kind: 'score', gradients: 'none', entropy: true }); // 'score:entropy=true,gradients=none:base'
 */
export function graphKey(spec: GraphSpec, lora?: LoraConfig): string {
  const fields = Object.entries(spec)
    .filter(([name]) => name !== 'kind')
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, value]) => `${name}=${String(value)}`)
    .join(',');
  return `${spec.kind}:${fields}:${loraKey(lora)}`;
}

/**
 * Builds the ONNX graph a spec names.
 *
 * @example
 * const built = buildGraph(model.config, { kind: 'decode', sampler: false, prefix: 'per-row' });
 */
export function buildGraph(config: ModelConfig, spec: GraphSpec, lora?: LoraConfig): BuiltGraph {
  const withLora = lora ? { lora } : {};
  if (spec.kind === 'prefill') return buildStepGraph(config, { withPast: false, sampler: spec.sampler, ...withLora });
  if (spec.kind === 'decode') {
    const withPrefix = spec.prefix === 'none' ? {} : { withPrefix: spec.prefix === 'per-group' ? ('per-group' as const) : true };
    return buildStepGraph(config, { withPast: true, ...withPrefix, sampler: spec.sampler, ...withLora });
  }
  return buildScoringGraph(config, { ...scoringOptions(spec), ...withLora });
}

/** Whether a spec's graph adds its gradients to resident accumulators (and so keeps their outputs on the device). */
export function accumulates(spec: GraphSpec): boolean {
  return spec.kind === 'train' || spec.kind === 'prompt-prefix-train' || spec.kind === 'prompt-suffix-train' || spec.kind === 'prompt-prefix-backward';
}

/**
 * The thread setting a spec's graph runs with: generation steps use the runtime's own, a shared
 * prompt's single-row prefix its own (splitting one row across threads costs more than it gains),
 * every other scoring pass the scoring setting.
 */
export function graphThreads(spec: GraphSpec): GraphThreads {
  if (spec.kind === 'prefill' || spec.kind === 'decode') return 'runtime';
  if (spec.kind === 'prompt-prefix' || spec.kind === 'prompt-prefix-train' || spec.kind === 'prompt-prefix-backward') return 'prompt';
  return 'scoring';
}

function scoringOptions(spec: Exclude<GraphSpec, { kind: 'prefill' | 'decode' }>): ScoringGraphOptions {
  const past = (perGroup: boolean) => (perGroup ? ('per-group' as const) : true);
  switch (spec.kind) {
    case 'score':
      return { gradients: spec.gradients, entropy: spec.entropy };
    case 'train':
      return { gradients: spec.target, entropy: spec.entropy !== 'none', entropyGradient: spec.entropy === 'objective', accumulate: true };
    case 'prompt-prefix':
      return { present: true, entropy: spec.entropy };
    case 'prompt-suffix':
      return { past: past(spec.perGroup), entropy: spec.entropy };
    case 'prompt-prefix-train':
      return { present: true, gradients: spec.target, entropy: spec.entropy, entropyGradient: false, accumulate: true };
    case 'prompt-suffix-train':
      return { past: past(spec.perGroup), gradients: spec.target, entropy: spec.entropy, entropyGradient: false, accumulate: true, headPositions: spec.headPositions };
    case 'prompt-prefix-backward':
      return { present: true, headless: true, gradients: spec.target, accumulate: true };
  }
}

function loraKey(lora: LoraConfig | undefined): string {
  return lora ? `r${lora.rank}a${lora.alpha}:${lora.targetModules.join(',')}:${lora.layers?.join(',') ?? 'all'}` : 'base';
}
