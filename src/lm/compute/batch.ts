import { GRAPH_IO } from '../graph/graphs.js';
import { onnxTensor, type OnnxHostTensor } from '../graph/onnx.js';
import type { ModelConfig } from '../model/config.js';
import { ropeAttentionFactor, ropeInverseFrequencies, ropeTablesAt } from '../model/rope.js';

/** Additive mask value for disallowed attention: large but finite, so fully masked rows stay NaN-free. */
export const MASKED = -1e9;

/** Sequences of different lengths packed into one left-padded [B, S] block. */
export interface PackedBatch {
  readonly batchSize: number;
  readonly length: number;
  /** Token ids, row-major [B, S]; padding holds `padId`. */
  readonly ids: BigInt64Array;
  /** 1 for real tokens, 0 for padding, [B, S]. */
  readonly mask: Uint8Array;
  /** Padding added at the start of each row. */
  readonly padding: readonly number[];
}

/** How a scoring pass reads the model's distribution. */
export interface ScoringTemperature {
  /**
   * Score log-probs (and entropies) at this temperature: log-softmax(logits / T). Default 1, the
   * model's own distribution; a policy gradient over samples drawn at T uses T here (as TRL does).
   */
  readonly temperature?: number;
}

/**
 * `{ temperature }` when the options name one, else nothing (for spreading into options objects
 * under exactOptionalPropertyTypes).
 *
 * @example
 * scoreSequences(engine, rope, seqs, { ...temperatureOf(options) });
 */
export function temperatureOf(options: ScoringTemperature): ScoringTemperature {
  return options.temperature === undefined ? {} : { temperature: options.temperature };
}

/**
 * The LM head's inputs of a scoring batch: each position's target (`target_ids` [B, S]) and
 * `logit_scale` (1 / temperature). Graphs without a head take neither.
 *
 * @example
 * const feeds = headFeeds(targets, 2, 5, 0.85);
 */
export function headFeeds(targets: BigInt64Array, batchSize: number, length: number, temperature = 1): Record<string, OnnxHostTensor> {
  if (!(temperature > 0) || !Number.isFinite(temperature)) {
    throw new RangeError(`scoring temperature must be a positive finite number (got ${temperature}); greedy decoding samples at 0 but its tokens are scored at 1`);
  }
  return {
    [GRAPH_IO.targetIds]: onnxTensor('int64', [batchSize, length], targets),
    [GRAPH_IO.logitScale]: onnxTensor('float32', [1], new Float32Array([1 / temperature])),
  };
}

/**
 * Throws a RangeError naming the first token id outside `[0, vocabSize)`.
 *
 * @example
 * checkTokenIds([1, 2, 3], 1000);
 */
export function checkTokenIds(tokens: readonly number[], vocabSize: number): void {
  for (const t of tokens) {
    if (!Number.isInteger(t) || t < 0 || t >= vocabSize) {
      throw new RangeError(`token id ${t} is outside the model's vocabulary [0, ${vocabSize})`);
    }
  }
}

/**
 * Left-pads sequences to a common length, so every row's newest token is in the last column
 * (what generation needs) and positions can be counted from the mask.
 *
 * @example
 * packLeft([[5, 6, 7], [8]], 0).padding; // [0, 2]
 */
export function packLeft(sequences: readonly (readonly number[])[], padId: number): PackedBatch {
  const batchSize = sequences.length;
  const length = Math.max(1, ...sequences.map((s) => s.length));
  const ids = new BigInt64Array(batchSize * length).fill(BigInt(padId));
  const mask = new Uint8Array(batchSize * length);
  const padding: number[] = [];
  sequences.forEach((seq, b) => {
    const pad = length - seq.length;
    padding.push(pad);
    seq.forEach((token, i) => {
      ids[b * length + pad + i] = BigInt(token);
      mask[b * length + pad + i] = 1;
    });
  });
  return { batchSize, length, ids, mask, padding };
}

/**
 * Position of each token: the number of real tokens before it in its row (padding gets 0).
 * `mask` is [B, S]; returns [B, S].
 *
 * @example
 * positionsFromMask(new Uint8Array([0, 1, 1]), 1, 3); // [0, 0, 1]
 */
export function positionsFromMask(mask: Uint8Array, batchSize: number, length: number): Int32Array {
  const positions = new Int32Array(batchSize * length);
  for (let b = 0; b < batchSize; b++) {
    let seen = 0;
    for (let s = 0; s < length; s++) {
      positions[b * length + s] = mask[b * length + s] ? seen++ : 0;
    }
  }
  return positions;
}

/**
 * Row `rowOf[b]` of a row-major [n, width] array for every b: a [rowOf.length, width] array
 * (e.g. one prompt's KV cache copied to each row that continues it).
 *
 * @example
 * gatherRows(new Float32Array([1, 2, 3, 4]), [1, 1, 0], 2); // [3, 4, 3, 4, 1, 2]
 */
export function gatherRows<T extends Float32Array | BigInt64Array | Uint8Array>(data: T, rowOf: readonly number[], width: number): T {
  const out = new (data.constructor as new (n: number) => T)(rowOf.length * width);
  rowOf.forEach((r, b) => out.set(data.subarray(r * width, (r + 1) * width) as never, b * width));
  return out;
}

/**
 * Additive attention mask [B, 1, T, S] for T new queries that follow `pastLength` cached
 * positions: query t may see key s when s ≤ pastLength + t (causal) and key s is not padding.
 *
 * @example
 * attentionBias(new Uint8Array([1, 1]), 1, 2, 0); // [0, -1e9, 0, 0]
 */
export function attentionBias(mask: Uint8Array, batchSize: number, newTokens: number, pastLength: number): Float32Array {
  const total = pastLength + newTokens;
  const bias = new Float32Array(batchSize * newTokens * total);
  for (let b = 0; b < batchSize; b++) {
    for (let t = 0; t < newTokens; t++) {
      const row = (b * newTokens + t) * total;
      for (let s = 0; s < total; s++) {
        bias[row + s] = s <= pastLength + t && mask[b * total + s] ? 0 : MASKED;
      }
    }
  }
  return bias;
}

/**
 * RoPE tables of a model's head dimension for a [B, T] block of positions (inverse
 * frequencies and scaling are computed once per model).
 *
 * @example
 * const { cos, sin } = new RopeCache(model.config).tables([0, 1, 2]);
 */
export class RopeCache {
  private readonly inverseFrequencies: Float64Array;
  private readonly attentionFactor: number;

  constructor(config: ModelConfig) {
    this.inverseFrequencies = ropeInverseFrequencies(config.headDim, config.ropeTheta, config.ropeScaling);
    this.attentionFactor = ropeAttentionFactor(config.ropeScaling);
  }

  /** `cos`, `sin` as [B, T, D] for the given row-major positions. */
  tables(positions: ArrayLike<number>): { cos: Float32Array; sin: Float32Array } {
    return ropeTablesAt(positions, this.inverseFrequencies, this.attentionFactor);
  }
}
