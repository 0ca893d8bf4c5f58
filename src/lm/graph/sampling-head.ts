import { ops, type Graph, type Tensor } from './onnx.js';

/** Names of the sampling head's inputs and outputs (see {@link appendSamplingHead}). */
export const SAMPLING_IO = {
  /** Input [B]: one uniform number in [0, 1) a row, drawn on the host from the call's seeded RNG. */
  uniform: 'sample_uniform',
  /** Input [1]: 1 / temperature. */
  inverseTemperature: 'sample_inverse_temperature',
  /** Output [B] int64: the token drawn at the temperature. */
  token: 'sampled_token',
  /** Output [B]: its log-probability at the temperature, log-softmax(logits / T)[token] (what a trainer scores). */
  logprob: 'sampled_logprob',
  /** Output [B] int64: the most likely token (greedy decoding). */
  greedyToken: 'greedy_token',
  /** Output [B]: its log-probability at temperature 1. */
  greedyLogprob: 'greedy_logprob',
} as const;

/**
 * Appends next-token sampling to a step graph whose `logits` are [B, V], so that a run on a GPU
 * returns four numbers a row instead of the whole vocabulary's logits (at Qwen3's 151,936 tokens,
 * 9.7 MB a decode step for 16 rows, and a host loop over them that took about as long as the step).
 *
 * The draw is the inverse CDF that `sampleToken` walks on the host: the first token whose running
 * sum of exp((logit − max) / T) reaches u · total. In float32, so not bit-identical to the host's
 * float64 walk: the same distribution, not the same tokens for the same u. The running sum is taken
 * in two levels — sums of blocks of ⌈√V⌉ tokens, then within the chosen block — because
 * onnxruntime's WebGPU CumSum is quadratic in the length of its axis (every prefix summed anew):
 * about 2·V·√V additions a row here instead of V²/2.
 *
 * @example
 * const logits = lmHead(cfg, weights, last); // [B, V]
 * appendSamplingHead(g, logits, cfg.vocabSize);
 */
export function appendSamplingHead(g: Graph, logits: Tensor, vocabSize: number): void {
  const V = vocabSize;
  const uniform = g.input(SAMPLING_IO.uniform, 'float32', ['batch']);
  const inverseTemperature = g.input(SAMPLING_IO.inverseTemperature, 'float32', [1]);
  const max = ops.reduceMax(logits, [-1], true);
  const shifted = logits.sub(max);
  // log-softmax(x)[token] from x − max(x) and Σ exp(x − max(x)): the largest term is exp(0) = 1.
  const logprobOf = (centred: Tensor, exps: Tensor, token: Tensor): Tensor =>
    ops.gatherElements(centred, token, 1).sub(ops.log(ops.reduceSum(exps, [-1], true))).squeeze([1]);

  const greedy = ops.argMax(logits, -1, true); // [B, 1]
  g.output(greedy.squeeze([1]), SAMPLING_IO.greedyToken);
  g.output(logprobOf(shifted, ops.exp(shifted), greedy), SAMPLING_IO.greedyLogprob);

  // Unnormalised probabilities at the temperature; the largest is exp(0) = 1.
  const scaled = shifted.mul(inverseTemperature); // [B, V]
  const weights = ops.exp(scaled); // [B, V]
  const C = Math.ceil(Math.sqrt(V));
  const R = Math.ceil(V / C);
  const pad = R * C - V;
  // Zero weights fill the last block: Slice·0 gives [B, pad] zeros without knowing B.
  const padded = pad > 0 ? ops.concat([weights, ops.slice(weights, [1], [0], [pad]).mul(0)], 1) : weights;
  const blocks = padded.reshape([-1, R, C]); // [B, R, C]
  const blockSums = ops.reduceSum(blocks, [2]); // [B, R]
  const blockRunning = ops.cumSum(blockSums, 1); // [B, R]
  const total = ops.slice(blockRunning, [1], [R - 1], [R]); // [B, 1]
  const target = uniform.unsqueeze([1]).mul(total); // [B, 1]
  // How many entries of a running sum stay below the target: the index of the first that reaches it.
  const countBelow = (running: Tensor): Tensor => ops.reduceSum(ops.cast(ops.less(running, target), 'float32'), [1], true);
  const block = ops.cast(ops.minimum(countBelow(blockRunning), R - 1), 'int64'); // [B, 1]
  const before = ops.gatherElements(blockRunning, block, 1).sub(ops.gatherElements(blockSums, block, 1)); // [B, 1]
  const inBlock = ops.gatherElements(blocks, ops.expand(block.unsqueeze([2]), [1, 1, C]), 1).squeeze([1]); // [B, C]
  const within = ops.minimum(countBelow(ops.cumSum(inBlock, 1).add(before)), C - 1);
  // Rounding can leave the target past a block's last real token: clamp into the vocabulary.
  const token = ops.cast(ops.minimum(ops.cast(block, 'float32').mul(C).add(within), V - 1), 'int64'); // [B, 1]
  g.output(token.squeeze([1]), SAMPLING_IO.token);
  g.output(logprobOf(scaled, weights, token), SAMPLING_IO.logprob);
}
