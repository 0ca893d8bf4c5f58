import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Rng } from '../../base/rng.js';
import { LoraError } from '../errors.js';
import type { ModelConfig } from '../model/config.js';
import { PROJECTIONS, projectionShape, type ProjectionName } from '../model/parameters.js';
import { SafetensorsFile } from '../safetensors/reader.js';
import { writeSafetensors } from '../safetensors/writer.js';
import { floatTensor, type FloatTensor } from '../tensor.js';
import { loraSites, type LoraConfig, type LoraSite } from './config.js';

/** File name of PEFT's adapter configuration. */
export const ADAPTER_CONFIG_FILE = 'adapter_config.json';
/** File name of PEFT's adapter weights. */
export const ADAPTER_WEIGHTS_FILE = 'adapter_model.safetensors';

/** Options of {@link LoraAdapter.create}. */
export interface LoraInitOptions {
  readonly seed?: number;
  /**
   * `zeros` (default, as PEFT): B starts at zero so the adapted model equals the base model.
   * `random`: B is random too (tests of merging need a non-trivial adapter).
   */
  readonly initB?: 'zeros' | 'random';
}

/**
 * Low-rank adapters for a model: for each adapted projection, `W x` becomes
 * `W x + (alpha / r) · B A x`. Weights are held in host memory under PEFT names; the base
 * model stays frozen. Save and load use PEFT's `adapter_config.json` and
 * `adapter_model.safetensors`, so adapters move to and from Python unchanged.
 *
 * @example
 * const adapter = LoraAdapter.create(model.config, { rank: 8, alpha: 16, targetModules: ['q_proj', 'v_proj'] });
 * await adapter.save('./run/adapter');
 */
export class LoraAdapter {
  /** Adapted projections with their parameter names. */
  readonly sites: readonly LoraSite[];

  private constructor(
    readonly config: LoraConfig,
    readonly modelConfig: ModelConfig,
    /** A and B matrices by PEFT name. Trainers update these arrays in place. */
    readonly weights: Map<string, FloatTensor>,
  ) {
    this.sites = loraSites(config, modelConfig.numLayers);
  }

  /** The factor applied to every adapter's output. */
  get scale(): number {
    return this.config.alpha / this.config.rank;
  }

  /** New adapters: A uniform in ±1/√in (PEFT's Kaiming default), B zeros unless asked otherwise. */
  static create(modelConfig: ModelConfig, config: LoraConfig, options: LoraInitOptions = {}): LoraAdapter {
    const rng = new Rng(options.seed ?? 0);
    const weights = new Map<string, FloatTensor>();
    for (const site of loraSites(config, modelConfig.numLayers)) {
      const [out, inFeatures] = projectionShape(modelConfig, site.projection);
      const bound = 1 / Math.sqrt(inFeatures);
      const a = new Float32Array(config.rank * inFeatures).map(() => (2 * rng.float() - 1) * bound);
      const b = new Float32Array(out * config.rank);
      if (options.initB === 'random') b.forEach((_, i) => (b[i] = (2 * rng.float() - 1) * bound));
      weights.set(site.aName, floatTensor([config.rank, inFeatures], a));
      weights.set(site.bName, floatTensor([out, config.rank], b));
    }
    return new LoraAdapter(config, modelConfig, weights);
  }

  /** Loads a PEFT adapter directory for a model of `modelConfig`. */
  static async load(dir: string, modelConfig: ModelConfig): Promise<LoraAdapter> {
    const configPath = join(dir, ADAPTER_CONFIG_FILE);
    if (!existsSync(configPath)) throw new LoraError(`${dir}: ${ADAPTER_CONFIG_FILE} not found; is this a PEFT LoRA adapter directory?`);
    const raw = JSON.parse(await readFile(configPath, 'utf8')) as Record<string, unknown>;
    if (raw['peft_type'] !== undefined && raw['peft_type'] !== 'LORA') throw new LoraError(`${dir}: peft_type ${String(raw['peft_type'])} is not LORA`);
    const targets = raw['target_modules'];
    const targetModules = (Array.isArray(targets) ? targets : typeof targets === 'string' ? [targets] : []) as string[];
    const unknown = targetModules.filter((t) => !(PROJECTIONS as readonly string[]).includes(t));
    if (unknown.length > 0) throw new LoraError(`${dir}: target_modules ${unknown.join(', ')} are not supported projections (${PROJECTIONS.join(', ')})`);
    const layers = raw['layers_to_transform'];
    const config: LoraConfig = {
      rank: Number(raw['r']),
      alpha: Number(raw['lora_alpha']),
      targetModules: targetModules as ProjectionName[],
      ...(Array.isArray(layers) ? { layers: layers as number[] } : typeof layers === 'number' ? { layers: [layers] } : {}),
    };
    const file = await SafetensorsFile.open(join(dir, ADAPTER_WEIGHTS_FILE));
    try {
      const weights = new Map<string, FloatTensor>();
      for (const site of loraSites(config, modelConfig.numLayers)) {
        const [out, inFeatures] = projectionShape(modelConfig, site.projection);
        for (const [name, shape] of [[site.aName, [config.rank, inFeatures]], [site.bName, [out, config.rank]]] as const) {
          if (!file.entry(name)) throw new LoraError(`${dir}: adapter weights lack "${name}" which adapter_config.json implies`);
          const t = await file.read(name);
          if (t.shape.join() !== shape.join()) {
            throw new LoraError(`${dir}: "${name}" has shape [${t.shape.join(', ')}], expected [${shape.join(', ')}] for this base model`);
          }
          weights.set(name, t);
        }
      }
      return new LoraAdapter(config, modelConfig, weights);
    } finally {
      await file.close();
    }
  }

  /** Writes `adapter_config.json` and `adapter_model.safetensors` (F32) to `dir`. */
  async save(dir: string, options: { baseModel?: string } = {}): Promise<void> {
    await mkdir(dir, { recursive: true });
    const adapterConfig = {
      peft_type: 'LORA',
      task_type: 'CAUSAL_LM',
      base_model_name_or_path: options.baseModel ?? null,
      r: this.config.rank,
      lora_alpha: this.config.alpha,
      lora_dropout: 0,
      target_modules: [...this.config.targetModules],
      layers_to_transform: this.config.layers ? [...this.config.layers] : null,
      bias: 'none',
      fan_in_fan_out: false,
      use_rslora: false,
      inference_mode: true,
      modules_to_save: null,
    };
    await writeFile(join(dir, ADAPTER_CONFIG_FILE), JSON.stringify(adapterConfig, null, 2));
    await writeSafetensors(join(dir, ADAPTER_WEIGHTS_FILE), this.weights, { metadata: { format: 'pt' } });
  }

  /** The adapter of one projection of one layer, if adapted. */
  site(layer: number, projection: ProjectionName): LoraSite | undefined {
    return this.sites.find((s) => s.layer === layer && s.projection === projection);
  }

  /**
   * Base weights with every adapter folded in (`W + scale · B A`), for fast inference. Only
   * adapted weights are copied; the rest are shared with `base`.
   */
  merge(base: ReadonlyMap<string, FloatTensor>): Map<string, FloatTensor> {
    const merged = new Map(base);
    for (const site of this.sites) {
      const w = base.get(site.baseWeight);
      if (!w) throw new LoraError(`cannot merge: the base model has no "${site.baseWeight}"`);
      merged.set(site.baseWeight, floatTensor(w.shape, addLowRank(w, this.weights.get(site.bName)!, this.weights.get(site.aName)!, this.scale)));
    }
    return merged;
  }
}

/**
 * `W + scale · B A` for W [out, in], B [out, r], A [r, in].
 *
 * @example
 * addLowRank(w, b, a, 2); // Float32Array of out·in values
 */
export function addLowRank(w: FloatTensor, b: FloatTensor, a: FloatTensor, scale: number): Float32Array {
  const [out, inFeatures] = w.shape as [number, number];
  const rank = a.shape[0]!;
  const result = Float32Array.from(w.data);
  for (let o = 0; o < out; o++) {
    for (let k = 0; k < rank; k++) {
      const coefficient = scale * b.data[o * rank + k]!;
      if (coefficient === 0) continue;
      const row = k * inFeatures;
      const target = o * inFeatures;
      for (let i = 0; i < inFeatures; i++) result[target + i]! += coefficient * a.data[row + i]!;
    }
  }
  return result;
}
