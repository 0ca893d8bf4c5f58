import { GRAPH_IO } from '../graph/graphs.js';
import type { TrainedWeights } from './graph-spec.js';
import { accumulatorName, nextName, onnxTensor, type OnnxHostTensor, type OrtTensor, type ResidentOptimizer } from '../graph/onnx.js';
import { MASKED, attentionBias, gatherRows, headFeeds, packLeft, positionsFromMask, type RopeCache, type ScoringTemperature } from './batch.js';
import type { ModelEngine, WeightSource } from './engine.js';

/**
 * Sequences that begin with the same prompt (a GRPO group's K samples) computed as one prefix and
 * K continuations: the prompt's keys and values are computed once and every continuation attends
 * to them. Exact, not an approximation: a row's scores are those of its whole sequence, and in
 * training the continuations' gradients with respect to the prompt's keys and values are summed
 * and back-propagated through the one prefix pass (Σ_b ∂L_b/∂θ = Σ_b ∂L_b/∂θ|_KV + (Σ_b ∂L_b/∂KV)·∂KV/∂θ).
 *
 * A sequence of prompt length p is split at s = p − 1: the prefix is tokens [0, s) — whose last
 * position scores token s, still shared — and the continuation is tokens [s, n), which starts
 * with the prompt's last token so that it scores every token after the prefix.
 */

/** Rows that share a prefix of `split` tokens (and its next token). */
export interface PromptGroup {
  readonly rows: readonly number[];
  readonly split: number;
}

/** Which rows share a prompt, and those computed alone. */
export interface PromptPlan {
  readonly groups: readonly PromptGroup[];
  readonly alone: readonly number[];
}

/**
 * Groups sequences whose first `promptLengths[b]` tokens are the same (same length, same ids);
 * groups of one, and prompts under 2 tokens, are computed alone.
 *
 * @example
 * planSharedPrompts([[1, 2, 3, 9], [1, 2, 3, 8, 7], [4, 5, 6]], [3, 3, 2]);
 * // { groups: [{ rows: [0, 1], split: 2 }], alone: [2] }
 */
export function planSharedPrompts(sequences: readonly (readonly number[])[], promptLengths: readonly number[]): PromptPlan {
  if (promptLengths.length !== sequences.length) throw new RangeError(`got ${promptLengths.length} prompt lengths for ${sequences.length} sequences`);
  const byPrompt = new Map<string, number[]>();
  const alone: number[] = [];
  sequences.forEach((seq, b) => {
    const p = promptLengths[b]!;
    if (!Number.isInteger(p) || p < 0 || p > seq.length) throw new RangeError(`sequence ${b} has ${seq.length} tokens but a prompt of ${p}`);
    if (p < 2) {
      alone.push(b);
      return;
    }
    const key = `${p}:${seq.slice(0, p).join(',')}`;
    const rows = byPrompt.get(key);
    if (rows) rows.push(b);
    else byPrompt.set(key, [b]);
  });
  const groups: PromptGroup[] = [];
  for (const rows of byPrompt.values()) {
    if (rows.length < 2) alone.push(...rows);
    else groups.push({ rows, split: promptLengths[rows[0]!]! - 1 });
  }
  alone.sort((a, b) => a - b);
  return { groups, alone };
}

/** The prefix batch: one left-padded row per group, its targets (each position scores the next token). */
function prefixBatch(engine: ModelEngine, rope: RopeCache, sequences: readonly (readonly number[])[], groups: readonly PromptGroup[], temperature: number | undefined) {
  const { headDim } = engine.model.config;
  const padId = engine.model.generationDefaults.padTokenId;
  const first = groups.map((g) => sequences[g.rows[0]!]!);
  const packed = packLeft(first.map((s, i) => s.slice(0, groups[i]!.split)), padId);
  const { batchSize: U, length: P } = packed;
  const targets = new BigInt64Array(U * P).fill(BigInt(padId));
  groups.forEach((g, u) => {
    const pad = packed.padding[u]!;
    for (let i = 0; i < g.split; i++) targets[u * P + pad + i] = BigInt(first[u]![i + 1]!);
  });
  const { cos, sin } = rope.tables(positionsFromMask(packed.mask, U, P));
  const feeds: Record<string, OnnxHostTensor> = {
    [GRAPH_IO.inputIds]: onnxTensor('int64', [U, P], packed.ids),
    ...headFeeds(targets, U, P, temperature),
    [GRAPH_IO.cos]: onnxTensor('float32', [U, P, headDim], cos),
    [GRAPH_IO.sin]: onnxTensor('float32', [U, P, headDim], sin),
    [GRAPH_IO.attentionBias]: onnxTensor('float32', [U, 1, P, P], attentionBias(packed.mask, U, P, 0)),
  };
  return { feeds, padding: packed.padding, length: P, mask: packed.mask };
}

/** The continuation batch: every grouped row's tokens from its split on, after its group's prefix. */
function suffixBatch(engine: ModelEngine, rope: RopeCache, sequences: readonly (readonly number[])[], groups: readonly PromptGroup[], prefix: { length: number; mask: Uint8Array }, temperature: number | undefined) {
  const { headDim } = engine.model.config;
  const padId = engine.model.generationDefaults.padTokenId;
  const rows = groups.flatMap((g) => g.rows);
  const rowGroup = groups.flatMap((g, u) => g.rows.map(() => u));
  const splits = groups.flatMap((g) => g.rows.map(() => g.split));
  const packed = packLeft(rows.map((b, r) => sequences[b]!.slice(splits[r])), padId);
  const { batchSize: R, length: T } = packed;
  const P = prefix.length;
  const targets = new BigInt64Array(R * T).fill(BigInt(padId));
  for (let r = 0; r < R; r++) for (let t = 0; t + 1 < T; t++) targets[r * T + t] = packed.ids[r * T + t + 1]!;
  // A continuation token's position counts its prefix: the u-th token after the split sits at split + u.
  const positions = new Int32Array(R * T);
  for (let r = 0; r < R; r++) for (let t = packed.padding[r]!; t < T; t++) positions[r * T + t] = splits[r]! + t - packed.padding[r]!;
  const { cos, sin } = rope.tables(positions);
  // Keys: the prefix's P columns (its real tokens, all before every continuation token), then the continuation's own (causal).
  const S = P + T;
  const bias = new Float32Array(R * T * S);
  for (let r = 0; r < R; r++) {
    const u = rowGroup[r]!;
    for (let t = 0; t < T; t++) {
      const row = (r * T + t) * S;
      for (let c = 0; c < P; c++) bias[row + c] = prefix.mask[u * P + c] ? 0 : MASKED;
      for (let c = 0; c < T; c++) bias[row + P + c] = c <= t && packed.mask[r * T + c] ? 0 : MASKED;
    }
  }
  const feeds: Record<string, OnnxHostTensor> = {
    [GRAPH_IO.inputIds]: onnxTensor('int64', [R, T], packed.ids),
    ...headFeeds(targets, R, T, temperature),
    [GRAPH_IO.cos]: onnxTensor('float32', [R, T, headDim], cos),
    [GRAPH_IO.sin]: onnxTensor('float32', [R, T, headDim], sin),
    [GRAPH_IO.attentionBias]: onnxTensor('float32', [R, 1, T, S], bias),
  };
  return { feeds, rows, rowGroup, splits, padding: packed.padding, length: T };
}

/**
 * The prefix's keys and values as `past.N.*` feeds: copied to every continuation row ([R, K, P, D])
 * for the per-row graph, or as they are, one per group ([U, K, P, D]), without `rowGroup`.
 */
function pastFeeds(out: Record<string, OrtTensor | OnnxHostTensor>, numLayers: number, rowGroup: readonly number[] | undefined): Record<string, OrtTensor | OnnxHostTensor> {
  const feeds: Record<string, OrtTensor | OnnxHostTensor> = {};
  for (let l = 0; l < numLayers; l++) {
    for (const [from, to] of [[GRAPH_IO.presentKey(l), GRAPH_IO.pastKey(l)], [GRAPH_IO.presentValue(l), GRAPH_IO.pastValue(l)]] as const) {
      const t = out[from]!;
      if (!rowGroup) {
        feeds[to] = t;
        continue;
      }
      const [, ...rest] = t.dims;
      feeds[to] = onnxTensor('float32', [rowGroup.length, ...rest], gatherRows(t.data as Float32Array, rowGroup, rest.reduce((a, d) => a * d, 1)));
    }
  }
  return feeds;
}

/** Row b's token-aligned scores from the prefix's and the continuation's outputs (entry 0 is 0). */
function assemble(
  sequences: readonly (readonly number[])[],
  prefix: { values: Float32Array | undefined; padding: readonly number[]; length: number },
  suffix: { values: Float32Array; rows: readonly number[]; rowGroup: readonly number[]; splits: readonly number[]; padding: readonly number[]; length: number },
  into: Float32Array[],
): void {
  suffix.rows.forEach((b, r) => {
    const n = sequences[b]!.length;
    const s = suffix.splits[r]!;
    const u = suffix.rowGroup[r]!;
    const row = new Float32Array(n);
    const p0 = u * prefix.length + prefix.padding[u]!;
    // Without prefix values (completionOnly) the prompt's entries stay 0.
    if (prefix.values) row.set(prefix.values.subarray(p0, p0 + s), 1);
    const q0 = r * suffix.length + suffix.padding[r]!;
    row.set(suffix.values.subarray(q0, q0 + n - s - 1), s + 1);
    into[b] = row;
  });
}

/**
 * Whether the continuation batch's groups (consecutive rows, in group order) all have one size:
 * then the continuation graph reads each group's prefix once (`past: 'per-group'`).
 */
function sameSizeGroups(groups: readonly PromptGroup[]): boolean {
  return groups.every((g) => g.rows.length === groups[0]!.rows.length);
}

/** Sum of the rows of each group: [R, ...] → [U, ...] (the continuations' gradients w.r.t. their shared prefix). */
function sumRows(data: Float32Array, rowGroup: readonly number[], groups: number, width: number): Float32Array {
  const out = new Float32Array(groups * width);
  rowGroup.forEach((u, r) => {
    for (let i = 0; i < width; i++) out[u * width + i]! += data[r * width + i]!;
  });
  return out;
}

/**
 * Scores of the grouped rows of `plan` (log-probs, and entropies when asked), written into
 * `logprobs[b]` / `entropies[b]` for every grouped row b.
 */
export async function scoreSharedPrompts(
  engine: ModelEngine,
  rope: RopeCache,
  sequences: readonly (readonly number[])[],
  groups: readonly PromptGroup[],
  options: WeightSource & ScoringTemperature & { entropy?: boolean; completionOnly?: boolean },
  into: { logprobs: Float32Array[]; entropies?: Float32Array[] },
): Promise<void> {
  const entropy = options.entropy ?? false;
  const lora = options.adapter?.config;
  // completionOnly: the prompt's scores are not wanted, so its pass has no LM head (the prefill graph).
  const promptScored = !options.completionOnly;
  const prefixGraph = await engine.graph(promptScored ? { kind: 'prompt-prefix', entropy } : { kind: 'prefill', sampler: false }, lora);
  const perGroup = sameSizeGroups(groups);
  const suffixGraph = await engine.graph({ kind: 'prompt-suffix', entropy, perGroup }, lora);
  const prefix = prefixBatch(engine, rope, sequences, groups, options.temperature);
  const { numLayers } = engine.model.config;
  const presents = Array.from({ length: numLayers }, (_, l) => [GRAPH_IO.presentKey(l), GRAPH_IO.presentValue(l)]).flat();
  const scored = entropy ? [GRAPH_IO.logprobs, GRAPH_IO.entropy] : [GRAPH_IO.logprobs];
  const pre = await prefixGraph.session.run(
    { ...(promptScored ? prefix.feeds : withoutTargets(prefix.feeds)), ...(await engine.weightFeeds(prefixGraph.built, options)) },
    { outputs: [...(promptScored ? scored : []), ...presents] },
  );
  const prefixValues = (name: string) => (promptScored ? (pre[name]!.data as Float32Array) : undefined);
  const weightFeeds = await engine.weightFeeds(suffixGraph.built, options);
  for (const bucket of lengthBuckets(sequences, groups)) {
    const suffix = suffixBatch(engine, rope, sequences, bucket, prefix, options.temperature);
    const post = await suffixGraph.session.run(
      { ...suffix.feeds, ...pastFeeds(pre, numLayers, perGroup ? undefined : suffix.rowGroup), ...weightFeeds },
      { outputs: scored },
    );
    assemble(sequences, { ...prefix, values: prefixValues(GRAPH_IO.logprobs) }, { ...suffix, values: post[GRAPH_IO.logprobs]!.data as Float32Array }, into.logprobs);
    if (entropy && into.entropies) {
      assemble(sequences, { ...prefix, values: prefixValues(GRAPH_IO.entropy) }, { ...suffix, values: post[GRAPH_IO.entropy]!.data as Float32Array }, into.entropies);
    }
  }
}

/** The prefix feeds without the LM head's inputs (`target_ids`, `logit_scale`), for graphs without one. */
function withoutTargets(feeds: Record<string, OnnxHostTensor>): Record<string, OnnxHostTensor> {
  const { [GRAPH_IO.targetIds]: _targets, [GRAPH_IO.logitScale]: _scale, ...rest } = feeds;
  return rest;
}

/**
 * Adds the gradient of `Σ weights · logprobs` over the grouped rows to `optimizer`'s
 * accumulators in three passes: the prefixes forward (their keys and values), the continuations
 * forward and backward (gradients of the parameters, and of the prefix keys/values per row), and
 * the prefixes forward and backward seeded with the rows' key/value gradients summed per group
 * (plus the prefix tokens' own weights, summed per group; when they are all zero, as for GRPO's
 * masked prompts, that pass has no LM head and the first one gives the prompt positions'
 * scores). Returns the objective, and the scores into `into` when given.
 */
export async function accumulateSharedPrompts(
  engine: ModelEngine,
  rope: RopeCache,
  sequences: readonly (readonly number[])[],
  weights: readonly ArrayLike<number>[],
  groups: readonly PromptGroup[],
  optimizer: ResidentOptimizer,
  options: WeightSource & ScoringTemperature & { target: TrainedWeights; entropy?: boolean; completionOnly?: boolean; weightedOnly?: boolean },
  into?: { logprobs: Float32Array[]; entropies?: Float32Array[] },
): Promise<number> {
  const entropy = (options.entropy ?? false) && into?.entropies !== undefined;
  const lora = options.adapter?.config;
  const { numLayers } = engine.model.config;
  const resident = new Map(optimizer.names.map((n) => [n, optimizer.parameter(n)] as const));
  const source = { ...options, resident };
  const presents = Array.from({ length: numLayers }, (_, l) => [GRAPH_IO.presentKey(l), GRAPH_IO.presentValue(l)]).flat();
  const pasts = Array.from({ length: numLayers }, (_, l) => [GRAPH_IO.pastKey(l), GRAPH_IO.pastValue(l)]).flat();

  const prefix = prefixBatch(engine, rope, sequences, groups, options.temperature);
  const U = groups.length;
  const P = prefix.length;
  // The prompt tokens' own weights, summed over each group (zero in GRPO: prompts are masked).
  const prefixWeights = new Float32Array(U * P);
  groups.forEach((g, u) => {
    const p0 = u * P + prefix.padding[u]!;
    for (const b of g.rows) {
      const w = checkedWeights(weights, sequences, b);
      for (let t = 1; t <= g.split; t++) prefixWeights[p0 + t - 1]! += w[t]!;
    }
  });
  const prefixWeighted = prefixWeights.some((v) => v !== 0);
  const scored = into ? [GRAPH_IO.logprobs, ...(entropy ? [GRAPH_IO.entropy] : [])] : [];

  // 1. The prefixes' keys and values under the trained weights (and, when the prefix backward
  //    will have no LM head, the prompt positions' scores; without scores, no LM head here either).
  const headless = !prefixWeighted;
  const promptScored = headless && into !== undefined && !options.completionOnly;
  const prefixForward = await engine.graph(promptScored ? { kind: 'prompt-prefix', entropy } : { kind: 'prefill', sampler: false }, lora);
  const stepFeeds = withoutTargets(prefix.feeds);
  const pre = await prefixForward.session.run(
    { ...(promptScored ? prefix.feeds : stepFeeds), ...(await engine.weightFeeds(prefixForward.built, source)) },
    { outputs: [...presents, ...(promptScored ? scored : [])] },
  );

  // 2. The continuations, in length buckets: parameter gradients accumulated, key/value gradients
  //    per row returned and summed per group over the buckets.
  const perGroup = sameSizeGroups(groups);
  const passes: { suffix: ReturnType<typeof suffixBatch>; post: Record<string, OrtTensor>; head: Int32Array | undefined }[] = [];
  const seedSums = new Map<string, { dims: number[]; data: Float32Array }>();
  for (const bucket of lengthBuckets(sequences, groups)) {
    const suffix = suffixBatch(engine, rope, sequences, bucket, prefix, options.temperature);
    const R = suffix.rows.length;
    const T = suffix.length;
    const suffixWeights = new Float32Array(R * T);
    suffix.rows.forEach((b, r) => {
      const w = checkedWeights(weights, sequences, b);
      const s = suffix.splits[r]!;
      const q0 = r * T + suffix.padding[r]!;
      for (let t = s + 1; t < w.length; t++) suffixWeights[q0 + t - s - 1] = w[t]!;
    });
    // weightedOnly: the continuations' LM head reads only the weighted positions (none weighted: all of them).
    const head = options.weightedOnly ? headPositions(suffixWeights) : undefined;
    const suffixGraph = await engine.graph({ kind: 'prompt-suffix-train', target: options.target, entropy, perGroup, headPositions: head !== undefined }, lora);
    const accumulation = optimizer.accumulation();
    const post = await suffixGraph.session.run(
      {
        ...suffix.feeds,
        ...(head ? headPositionFeeds(head, suffix.feeds[GRAPH_IO.targetIds]!.data as BigInt64Array, suffixWeights) : { [GRAPH_IO.tokenWeights]: onnxTensor('float32', [R, T], suffixWeights) }),
        ...pastFeeds(pre, numLayers, perGroup ? undefined : suffix.rowGroup),
        ...accumulation.feeds,
        ...(await engine.weightFeeds(suffixGraph.built, source)),
      },
      { outputs: [GRAPH_IO.objective, ...scored, ...pasts.map((n) => GRAPH_IO.gradOf(n)), ...accumulatorsOf(suffixGraph.built.gradientOf)], ...(accumulation.into ? { into: accumulation.into } : {}) },
    );
    optimizer.accumulated(post);
    passes.push({ suffix, post, head });
    for (const past of pasts) {
      const g = post[GRAPH_IO.gradOf(past)]!;
      const [, ...rest] = g.dims;
      // A per-group graph already summed each group's rows (into the runtime's buffer: copied before summing into it).
      const summed = perGroup ? Float32Array.from(g.data as Float32Array) : sumRows(g.data as Float32Array, suffix.rowGroup, U, rest.reduce((a, d) => a * d, 1));
      const sum = seedSums.get(past);
      if (!sum) seedSums.set(past, { dims: [U, ...rest], data: summed });
      else summed.forEach((v, i) => (sum.data[i]! += v));
    }
  }

  // 3. The prefixes again, forward and backward: seeded with Σ_rows ∂L/∂(keys, values) and the prefix tokens' summed weights.
  const seeds: Record<string, OnnxHostTensor> = {};
  for (let l = 0; l < numLayers; l++) {
    for (const [past, present] of [[GRAPH_IO.pastKey(l), GRAPH_IO.presentKey(l)], [GRAPH_IO.pastValue(l), GRAPH_IO.presentValue(l)]] as const) {
      const sum = seedSums.get(past)!;
      seeds[GRAPH_IO.seedOf(present)] = onnxTensor('float32', sum.dims, sum.data);
    }
  }
  // Weighted prompt tokens need the LM head in the backward; otherwise only the keys/values matter.
  const prefixGraph = await engine.graph(headless ? { kind: 'prompt-prefix-backward', target: options.target } : { kind: 'prompt-prefix-train', target: options.target, entropy }, lora);
  const accumulation = optimizer.accumulation();
  const again = await prefixGraph.session.run(
    {
      ...(headless ? stepFeeds : { ...prefix.feeds, [GRAPH_IO.tokenWeights]: onnxTensor('float32', [U, P], prefixWeights) }),
      ...seeds,
      ...accumulation.feeds,
      ...(await engine.weightFeeds(prefixGraph.built, source)),
    },
    { outputs: [...(headless ? [] : [GRAPH_IO.objective, ...scored]), ...accumulatorsOf(prefixGraph.built.gradientOf)], ...(accumulation.into ? { into: accumulation.into } : {}) },
  );
  optimizer.accumulated(again);

  const prefixScores = promptScored ? pre : headless || options.completionOnly ? undefined : again;
  const prefixValues = (name: string) => (prefixScores ? (prefixScores[name]!.data as Float32Array) : undefined);
  let objective = headless ? 0 : (again[GRAPH_IO.objective]!.data as Float32Array)[0]!;
  for (const { suffix, post, head } of passes) {
    objective += (post[GRAPH_IO.objective]!.data as Float32Array)[0]!;
    if (!into) continue;
    // Head-position outputs are [N]: back to the continuation's [R, T] layout, 0 where not computed.
    const suffixValues = (name: string) => (head ? scatterPositions(post[name]!.data as Float32Array, head, suffix.rows.length * suffix.length) : (post[name]!.data as Float32Array));
    assemble(sequences, { ...prefix, values: prefixValues(GRAPH_IO.logprobs) }, { ...suffix, values: suffixValues(GRAPH_IO.logprobs) }, into.logprobs);
    if (entropy) assemble(sequences, { ...prefix, values: prefixValues(GRAPH_IO.entropy) }, { ...suffix, values: suffixValues(GRAPH_IO.entropy) }, into.entropies!);
  }
  return objective;
}

/**
 * The continuation passes of a batch: every group's rows sorted by length and cut in two halves
 * (shorter rows in one pass, longer in the other) when each pass is then padded to its own longest
 * row and that leaves at least 15% fewer computed positions; otherwise one pass. Each pass keeps
 * every group, with as many rows of each as the others (the per-group graph's layout); the sum of
 * the passes' gradients is the batch's. Groups of different sizes, or of fewer than 4 rows, stay in one pass.
 *
 * @example
 * ```ts
 * const s = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
 * lengthBuckets([s(4), s(12), s(5), s(4), s(13)], [{ rows: [0, 1, 2, 3, 4], split: 2 }]);
 * // [[{ split: 2, rows: [0, 3] }], [{ split: 2, rows: [2, 1, 4] }]]
 * ```
 */
export function lengthBuckets(sequences: readonly (readonly number[])[], groups: readonly PromptGroup[]): PromptGroup[][] {
  const size = groups[0]?.rows.length ?? 0;
  if (size < 4 || !sameSizeGroups(groups)) return [[...groups]];
  const rest = (b: number, split: number) => sequences[b]!.length - split;
  const sorted = groups.map((g) => ({ split: g.split, rows: [...g.rows].sort((a, b) => rest(a, g.split) - rest(b, g.split)) }));
  const half = Math.floor(size / 2);
  const halves = [sorted.map((g) => ({ split: g.split, rows: g.rows.slice(0, half) })), sorted.map((g) => ({ split: g.split, rows: g.rows.slice(half) }))];
  // Computed positions of a pass: each of its rows padded to its longest continuation.
  const computed = (pass: readonly PromptGroup[]) => pass.reduce((a, g) => a + g.rows.length, 0) * Math.max(...pass.flatMap((g) => g.rows.map((b) => rest(b, g.split))));
  return computed(halves[0]!) + computed(halves[1]!) <= 0.85 * computed(groups) ? halves : [[...groups]];
}

/**
 * The flat indices of the non-zero entries of `weights` (a [B, T] batch's positions), or undefined
 * when there are none: a graph cannot gather an empty head, so such a batch runs the full one.
 *
 * @example
 * ```ts
 * headPositions(Float32Array.of(0, -0.5, 0, -0.5)); // Int32Array [1, 3]
 * ```
 */
export function headPositions(weights: Float32Array): Int32Array | undefined {
  let n = 0;
  for (const w of weights) if (w !== 0) n++;
  if (n === 0) return undefined;
  const positions = new Int32Array(n);
  let i = 0;
  weights.forEach((w, p) => {
    if (w !== 0) positions[i++] = p;
  });
  return positions;
}

/** `head_positions` and the [N] `target_ids` and `token_weights` of a head-positions graph, picked from the [B, T] ones. */
function headPositionFeeds(positions: Int32Array, targets: BigInt64Array, weights: Float32Array): Record<string, OnnxHostTensor> {
  const N = positions.length;
  return {
    [GRAPH_IO.headPositions]: onnxTensor('int64', [N], BigInt64Array.from(positions, (p) => BigInt(p))),
    [GRAPH_IO.targetIds]: onnxTensor('int64', [N], BigInt64Array.from(positions, (p) => targets[p]!)),
    [GRAPH_IO.tokenWeights]: onnxTensor('float32', [N], Float32Array.from(positions, (p) => weights[p]!)),
  };
}

/** [N] values at `positions` laid out over `size` positions, 0 elsewhere. */
function scatterPositions(values: Float32Array, positions: Int32Array, size: number): Float32Array {
  const out = new Float32Array(size);
  positions.forEach((p, i) => {
    out[p] = values[i]!;
  });
  return out;
}

function accumulatorsOf(names: readonly string[]): string[] {
  return names.map((n) => nextName(accumulatorName(n)));
}

function checkedWeights(weights: readonly ArrayLike<number>[], sequences: readonly (readonly number[])[], b: number): ArrayLike<number> {
  const w = weights[b]!;
  if (w.length !== sequences[b]!.length) throw new RangeError(`sequence ${b} has ${sequences[b]!.length} tokens but ${w.length} weights (one per token; entry 0 is ignored)`);
  return w;
}
