import type { RopeScaling } from './config.js';

/**
 * Inverse frequencies of rotary position embeddings, one per rotated pair of a head
 * (`headDim / 2` values), after the configured frequency scaling.
 *
 * @example
 * ropeInverseFrequencies(4, 10000, { type: 'default' }); // [1, 0.01]
 */
export function ropeInverseFrequencies(headDim: number, theta: number, scaling: RopeScaling): Float64Array {
  const half = headDim / 2;
  const base = new Float64Array(half);
  for (let i = 0; i < half; i++) base[i] = 1 / theta ** ((2 * i) / headDim);
  switch (scaling.type) {
    case 'default':
      return base;
    case 'linear':
      return base.map((f) => f / scaling.factor);
    case 'llama3': {
      const lowWavelen = scaling.originalMaxPositions / scaling.lowFreqFactor;
      const highWavelen = scaling.originalMaxPositions / scaling.highFreqFactor;
      return base.map((f) => {
        const wavelen = (2 * Math.PI) / f;
        if (wavelen < highWavelen) return f;
        if (wavelen > lowWavelen) return f / scaling.factor;
        // Between the two wavelengths, blend the scaled and unscaled frequency smoothly.
        const smooth = (scaling.originalMaxPositions / wavelen - scaling.lowFreqFactor) / (scaling.highFreqFactor - scaling.lowFreqFactor);
        return (1 - smooth) * (f / scaling.factor) + smooth * f;
      });
    }
    case 'yarn': {
      const correctionDim = (rotations: number): number =>
        (headDim * Math.log(scaling.originalMaxPositions / (rotations * 2 * Math.PI))) / (2 * Math.log(theta));
      const low = Math.max(Math.floor(correctionDim(scaling.betaFast)), 0);
      let high = Math.min(Math.ceil(correctionDim(scaling.betaSlow)), headDim - 1);
      if (low === high) high += 0.001;
      return base.map((f, i) => {
        const ramp = Math.min(1, Math.max(0, (i - low) / (high - low)));
        const extrapolationWeight = 1 - ramp;
        return (f / scaling.factor) * (1 - extrapolationWeight) + f * extrapolationWeight;
      });
    }
  }
}

/**
 * Multiplier YaRN applies to cos and sin (1 for every other scaling).
 *
 * @example
 * ropeAttentionFactor({ type: 'default' }); // 1
 */
export function ropeAttentionFactor(scaling: RopeScaling): number {
  return scaling.type === 'yarn' ? scaling.attentionFactor : 1;
}

/**
 * Cos and sin tables for the given positions, laid out as `[positions.length, headDim]` with
 * the half-split convention of Hugging Face Llama/Qwen (`cat(freqs, freqs)`), so that
 * `rotated = x * cos + rotateHalf(x) * sin`.
 *
 * @example
 * const { cos, sin } = ropeTablesAt([0, 1, 2], ropeInverseFrequencies(64, 1e6, { type: 'default' }), 1);
 */
export function ropeTablesAt(
  positions: ArrayLike<number>,
  inverseFrequencies: Float64Array,
  attentionFactor: number,
): { cos: Float32Array; sin: Float32Array } {
  const half = inverseFrequencies.length;
  const dim = half * 2;
  const cos = new Float32Array(positions.length * dim);
  const sin = new Float32Array(positions.length * dim);
  for (let p = 0; p < positions.length; p++) {
    const position = positions[p]!;
    for (let i = 0; i < half; i++) {
      // Rounded to float32 first, as the reference implementations compute the angle in float32.
      const angle = Math.fround(position * Math.fround(inverseFrequencies[i]!));
      const c = Math.cos(angle) * attentionFactor;
      const s = Math.sin(angle) * attentionFactor;
      cos[p * dim + i] = c;
      cos[p * dim + i + half] = c;
      sin[p * dim + i] = s;
      sin[p * dim + i + half] = s;
    }
  }
  return { cos, sin };
}
