import { LoraError } from '../errors.js';
import { PROJECTIONS, layerParam, projectionModule, type ProjectionName } from '../model/parameters.js';

/** Which projections get low-rank adapters, and their size. */
export interface LoraConfig {
  /** Rank r of each adapter. */
  readonly rank: number;
  /** Scaling numerator: the adapter output is multiplied by `alpha / rank`. */
  readonly alpha: number;
  /** Projections to adapt (PEFT `target_modules`), e.g. `['q_proj', 'v_proj']`. */
  readonly targetModules: readonly ProjectionName[];
  /** Layers to adapt (PEFT `layers_to_transform`); all layers when absent. */
  readonly layers?: readonly number[];
}

/** One adapted projection: where it sits and its PEFT parameter names. */
export interface LoraSite {
  readonly layer: number;
  readonly projection: ProjectionName;
  /** HF name of the adapted base weight, e.g. `model.layers.0.self_attn.q_proj.weight`. */
  readonly baseWeight: string;
  /** PEFT name of A ([r, in]), e.g. `base_model.model.model.layers.0.self_attn.q_proj.lora_A.weight`. */
  readonly aName: string;
  /** PEFT name of B ([out, r]). */
  readonly bName: string;
}

/** The prefix PEFT puts before the wrapped model's parameter names. */
export const PEFT_PREFIX = 'base_model.model.';

/**
 * The adapted projections of a model with `numLayers` layers, in layer then projection order.
 *
 * @example
 * loraSites({ rank: 8, alpha: 16, targetModules: ['q_proj'] }, 2).map((s) => s.aName);
 * // ['base_model.model.model.layers.0.self_attn.q_proj.lora_A.weight', '...layers.1...']
 */
export function loraSites(config: LoraConfig, numLayers: number): LoraSite[] {
  validateLoraConfig(config, numLayers);
  const layers = config.layers ?? Array.from({ length: numLayers }, (_, i) => i);
  const sites: LoraSite[] = [];
  for (const layer of layers) {
    for (const projection of PROJECTIONS) {
      if (!config.targetModules.includes(projection)) continue;
      const module = layerParam(layer, projectionModule(projection));
      sites.push({
        layer,
        projection,
        baseWeight: `${module}.weight`,
        aName: `${PEFT_PREFIX}${module}.lora_A.weight`,
        bName: `${PEFT_PREFIX}${module}.lora_B.weight`,
      });
    }
  }
  return sites;
}

/**
 * Checks rank, alpha, target names and layer indices; throws {@link LoraError} naming the fix.
 *
 * @example
 * validateLoraConfig({ rank: 8, alpha: 16, targetModules: ['q_proj'] }, 24);
 */
export function validateLoraConfig(config: LoraConfig, numLayers: number): void {
  if (!Number.isInteger(config.rank) || config.rank <= 0) throw new LoraError(`LoRA rank must be a positive integer, got ${config.rank}`);
  if (!(config.alpha > 0)) throw new LoraError(`LoRA alpha must be positive, got ${config.alpha}`);
  if (config.targetModules.length === 0) throw new LoraError(`LoRA targetModules is empty; choose from ${PROJECTIONS.join(', ')}`);
  for (const m of config.targetModules) {
    if (!PROJECTIONS.includes(m)) throw new LoraError(`LoRA target "${m}" is not a projection; choose from ${PROJECTIONS.join(', ')}`);
  }
  for (const l of config.layers ?? []) {
    if (!Number.isInteger(l) || l < 0 || l >= numLayers) throw new LoraError(`LoRA layer ${l} does not exist; the model has layers 0..${numLayers - 1}`);
  }
}
