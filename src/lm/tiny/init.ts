import { Rng } from '../../base/rng.js';
import type { ModelConfig } from '../model/config.js';
import { modelParameters } from '../model/parameters.js';
import { elementCount, floatTensor, type FloatTensor } from '../tensor.js';

/** Standard deviation of weight initialisation (the `initializer_range` of HF configs). */
export const INIT_STD = 0.02;

/**
 * Random parameters for a model of this configuration, fully determined by `seed`.
 * Projections and embeddings are N(0, std²) (default 0.02, as in Hugging Face); norm weights are
 * 1 + N(0, 0.1²) and biases N(0, 0.02²) rather than exact ones and zeros, so that every
 * parameter visibly changes the output (which gradient checks against a reference need).
 *
 * @example
 * const weights = randomParameters(cfg, 42); // std 0.02
 */
export function randomParameters(config: ModelConfig, seed: number, std: number = INIT_STD): Map<string, FloatTensor> {
  const rng = new Rng(seed);
  const weights = new Map<string, FloatTensor>();
  for (const spec of modelParameters(config)) {
    const data = new Float32Array(elementCount(spec.shape));
    const [mean, sigma] = spec.role === 'norm' ? [1, 0.1] : [0, std];
    for (let i = 0; i < data.length; i++) data[i] = mean + sigma * rng.normal();
    weights.set(spec.name, floatTensor(spec.shape, data));
  }
  return weights;
}
