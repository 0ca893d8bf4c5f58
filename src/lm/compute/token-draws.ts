import type { Rng } from '../../base/rng.js';
import { GRAPH_IO } from '../graph/graphs.js';
import { onnxTensor, type OnnxHostTensor, type OrtTensor } from '../graph/onnx.js';
import { SAMPLING_IO } from '../graph/sampling-head.js';
import type { RowGuidance } from './row-guidance.js';
import type { SamplingOptions, TokenSampler } from './sampling.js';

/** What a generation run gives the next draw: logits to sample on the host, or the tokens the graph drew. */
export type Drawn = Float32Array | DeviceDraws;

/** Tokens drawn inside the graph (`appendSamplingHead`), one a row, with their log-probabilities. */
export interface DeviceDraws {
  readonly tokens: BigInt64Array;
  readonly logprobs: Float32Array;
}

/** One drawn token and its log-probability under the distribution it was drawn from. */
export interface DrawnToken {
  readonly token: number;
  readonly logprob: number;
}

/**
 * Where the next token of each row is drawn: on the host from the logits a run returns, or in the
 * graph itself. The decode loop feeds {@link feeds} to every run, reads its outputs with
 * {@link read}, and asks {@link draw} for each unfinished row, in row order.
 */
export interface TokenDraws {
  /** The inputs a run's draw needs (`finished(b)`: whether row b is done). */
  feeds(finished: (b: number) => boolean): Record<string, OnnxHostTensor>;
  /** What a run's outputs give the next draw. */
  read(out: Readonly<Record<string, OrtTensor | OnnxHostTensor>>): Drawn;
  /** Row `b`'s token from a run's draws, for a batch of `batchSize` rows. */
  draw(drawn: Drawn, b: number, batchSize: number): DrawnToken;
}

/**
 * Host sampling: the logits come back and each row is drawn in float64 (`TokenSampler`), after
 * its guide's nudges when a guide is given.
 *
 * @example
 * const draws = new HostSampling(new TokenSampler(vocabSize), { temperature: 1 }, new Rng(0));
 */
export class HostSampling implements TokenDraws {
  constructor(
    private readonly sampler: TokenSampler,
    private readonly options: SamplingOptions,
    private readonly rng: Rng,
    private readonly guidance?: RowGuidance,
  ) {}

  feeds(): Record<string, OnnxHostTensor> {
    return {};
  }

  read(out: Readonly<Record<string, OrtTensor | OnnxHostTensor>>): Drawn {
    return out[GRAPH_IO.logits]!.data as Float32Array;
  }

  draw(drawn: Drawn, b: number, batchSize: number): DrawnToken {
    const logits = drawn as Float32Array;
    const width = logits.length / batchSize;
    const row = logits.subarray(b * width, (b + 1) * width);
    return this.sampler.draw(this.guidance ? this.guidance.nudged(b, row) : row, this.options, this.rng);
  }
}

/**
 * Device sampling: each run draws the next tokens itself from one uniform number per unfinished
 * row (in row order, the host walk's order; none at temperature 0, where the greedy outputs are
 * read), so only a token and a log-probability a row cross back.
 *
 * @example
 * const draws = new DeviceSampling(1, new Rng(0), 4);
 */
export class DeviceSampling implements TokenDraws {
  constructor(
    private readonly temperature: number,
    private readonly rng: Rng,
    private readonly batchSize: number,
  ) {}

  feeds(finished: (b: number) => boolean): Record<string, OnnxHostTensor> {
    const u = new Float32Array(this.batchSize);
    if (this.temperature > 0) for (let b = 0; b < this.batchSize; b++) u[b] = finished(b) ? 0 : this.rng.float();
    return {
      [SAMPLING_IO.uniform]: onnxTensor('float32', [this.batchSize], u),
      [SAMPLING_IO.inverseTemperature]: onnxTensor('float32', [1], new Float32Array([this.temperature > 0 ? 1 / this.temperature : 1])),
    };
  }

  read(out: Readonly<Record<string, OrtTensor | OnnxHostTensor>>): Drawn {
    const greedy = this.temperature <= 0;
    return {
      tokens: out[greedy ? SAMPLING_IO.greedyToken : SAMPLING_IO.token]!.data as BigInt64Array,
      logprobs: out[greedy ? SAMPLING_IO.greedyLogprob : SAMPLING_IO.logprob]!.data as Float32Array,
    };
  }

  draw(drawn: Drawn, b: number): DrawnToken {
    const d = drawn as DeviceDraws;
    return { token: Number(d.tokens[b]!), logprob: d.logprobs[b]! };
  }
}
