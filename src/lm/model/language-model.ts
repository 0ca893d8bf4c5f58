import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ModelConfigError } from '../errors.js';
import { Checkpoint } from '../safetensors/checkpoint.js';
import type { FloatTensor } from '../tensor.js';
import { Tokenizer } from '../tokenizer/tokenizer.js';
import { parseModelConfig, type ModelConfig } from './config.js';
import { modelParameters, type ParameterSpec } from './parameters.js';

/** Sampling defaults of a model directory's `generation_config.json`. */
export interface GenerationDefaults {
  readonly temperature?: number;
  readonly topP?: number;
  readonly topK?: number;
  /** Token ids that end generation (config, generation config and tokenizer stop tokens merged). */
  readonly stopTokenIds: readonly number[];
  readonly padTokenId: number;
}

/**
 * A loaded model: its configuration, tokenizer, generation defaults and float32 weights
 * under their Hugging Face names. Compute (log-probs, gradients, generation) happens in
 * graphs built from it; see `Policy` and `generate`.
 *
 * @example
 * const model = await loadModel('./Qwen3-0.6B');
 * model.config.numLayers; // 28
 */
export class LanguageModel {
  constructor(
    /** The directory it was loaded from. */
    readonly dir: string,
    readonly config: ModelConfig,
    readonly tokenizer: Tokenizer,
    readonly generationDefaults: GenerationDefaults,
    /** Base weights by HF name (`lm_head.weight` absent when tied). Treat as read-only. */
    readonly weights: ReadonlyMap<string, FloatTensor>,
  ) {}

  /** The parameter layout of this model, in checkpoint order. */
  parameterSpecs(): ParameterSpec[] {
    return modelParameters(this.config);
  }

  /** Weight by HF name; throws when absent. */
  weight(name: string): FloatTensor {
    const w = this.weights.get(name);
    if (!w) throw new ModelConfigError(`${this.dir}: the model has no parameter "${name}"`);
    return w;
  }

  /** Total number of parameters. */
  parameterCount(): number {
    let n = 0;
    for (const w of this.weights.values()) n += w.data.length;
    return n;
  }
}

/**
 * Loads a Hugging Face model directory (config.json, safetensors weights, tokenizer.json,
 * tokenizer_config.json or chat_template.jinja, generation_config.json). The tiny models
 * the SDK creates load through exactly this path.
 *
 * @example
 * const model = await loadModel('./my-model');
 * const ids = model.tokenizer.encode('SELECT 1');
 */
export async function loadModel(dir: string): Promise<LanguageModel> {
  const configPath = join(dir, 'config.json');
  if (!existsSync(configPath)) throw new ModelConfigError(`${dir}: config.json not found; is this a Hugging Face model directory?`);
  const config = parseModelConfig(JSON.parse(await readFile(configPath, 'utf8')) as Record<string, unknown>);
  const tokenizer = await Tokenizer.fromDir(dir);
  if (tokenizer.vocabSize > config.vocabSize) {
    throw new ModelConfigError(`${dir}: the tokenizer has ${tokenizer.vocabSize} tokens but config.json vocab_size is ${config.vocabSize}`);
  }
  const generationPath = join(dir, 'generation_config.json');
  const generation = existsSync(generationPath) ? (JSON.parse(await readFile(generationPath, 'utf8')) as Record<string, unknown>) : {};
  const ids = (v: unknown): number[] => (Array.isArray(v) ? v.filter((x): x is number => typeof x === 'number') : typeof v === 'number' ? [v] : []);
  const stops = new Set([...ids(generation['eos_token_id']), ...config.eosTokenIds, ...tokenizer.stopTokenIds]);
  const num = (key: string): number | undefined => (typeof generation[key] === 'number' ? (generation[key] as number) : undefined);
  const temperature = num('temperature');
  const topP = num('top_p');
  const topK = num('top_k');
  const defaults: GenerationDefaults = {
    ...(temperature !== undefined ? { temperature } : {}),
    ...(topP !== undefined ? { topP } : {}),
    ...(topK !== undefined ? { topK } : {}),
    stopTokenIds: [...stops],
    padTokenId: num('pad_token_id') ?? tokenizer.padTokenId,
  };

  const checkpoint = await Checkpoint.open(dir);
  try {
    const weights = new Map<string, FloatTensor>();
    for (const spec of modelParameters(config)) {
      if (!checkpoint.has(spec.name)) {
        throw new ModelConfigError(`${dir}: the checkpoint lacks "${spec.name}" which config.json implies; the config and weights do not match`);
      }
      const tensor = await checkpoint.read(spec.name);
      if (tensor.shape.length !== spec.shape.length || tensor.shape.some((d, i) => d !== spec.shape[i])) {
        throw new ModelConfigError(`${dir}: "${spec.name}" has shape [${tensor.shape.join(', ')}] but config.json implies [${spec.shape.join(', ')}]`);
      }
      weights.set(spec.name, tensor);
    }
    return new LanguageModel(dir, config, tokenizer, defaults, weights);
  } finally {
    await checkpoint.close();
  }
}
