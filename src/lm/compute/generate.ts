import { Rng } from '../../base/rng.js';
import { GRAPH_IO } from '../graph/graphs.js';
import { onnxTensor, type OnnxHostTensor, type OrtTensor } from '../graph/onnx.js';
import { attentionBias, checkTokenIds, gatherRows, packLeft, positionsFromMask, type RopeCache } from './batch.js';
import type { ModelEngine, WeightSource } from './engine.js';
import { continuationBatch, PromptCache, rowCaches, type ContinuationBatch, type SplitCache } from './prompt-cache.js';
import { TokenSampler, type SamplingOptions } from './sampling.js';
import { SAMPLING_IO } from '../graph/sampling-head.js';
import { LmError } from '../errors.js';
import { NudgeApplier, type NextTokenGuide } from './decoding-guide.js';

/** Options of text generation. */
export interface GenerateOptions extends SamplingOptions, WeightSource {
  /** Most new tokens per prompt (default 256). */
  readonly maxTokens?: number;
  /** Seed of sampling (default 0); the same seed gives the same text. */
  readonly seed?: number;
  /** Token ids that end a completion (default: the model's EOS / `<|im_end|>` tokens). */
  readonly stopTokenIds?: readonly number[];
  /** Strings that end a completion; the text is cut before them. */
  readonly stopStrings?: readonly string[];
  /**
   * Reuse keys/values of earlier positions (default true). `false` reruns the whole sequence
   * every step: slower, the same tokens; kept for checking the cache.
   */
  readonly kvCache?: boolean;
  /**
   * Return each row's keys and values ({@link Generation.cache}) for a next turn to continue
   * (default false; CPU provider only, elsewhere no cache is returned).
   */
  readonly keepCache?: boolean;
  /**
   * Per prompt, a cache from an earlier call that the prompt continues (it starts with the
   * cache's tokens). When every prompt has one, only the prompts' new tokens are run, after
   * their caches; otherwise the call prefills as usual. CPU provider only.
   */
  readonly continueFrom?: readonly (PromptCache | undefined)[];
  /** Receives wall-clock timings of the call (for throughput metrics). */
  readonly onTimings?: (timings: GenerationTimings) => void;
  /**
   * Draw tokens inside the graph (`appendSamplingHead`): each step returns a token and its
   * log-probability a row instead of the logits. Default: on GPU providers, where the logits would
   * cross the bus at every step; the CPU provider samples on the host, in float64. In float32 the
   * draw follows the same distribution but not the same tokens for a seed. Not with `topK`/`topP`
   * (the head draws from the whole distribution), nor with `keepCache`/`continueFrom`.
   */
  readonly sampleOnDevice?: boolean;
  /**
   * Per prompt, a guide that nudges the row's next token from the text the row has generated so far
   * ({@link NextTokenGuide}; undefined: the row is not nudged). The caller makes each row's guide from
   * what it knows of the row, as data; the prompt's tokens are never decoded back into text for it.
   * The log-probabilities returned are those of the nudged distribution, the one sampled. Host
   * sampling only: a guide turns the default device sampling off, and `sampleOnDevice: true` with a
   * guide is an error.
   */
  readonly guides?: readonly (NextTokenGuide | undefined)[];
}

/** Where the time of one generation call went. */
export interface GenerationTimings {
  /** The first pass over the prompts, including feeding them. */
  readonly prefillMs: number;
  /** All later passes (one per new token), including host-side sampling. */
  readonly decodeMs: number;
  /** Number of decode passes run. */
  readonly decodeSteps: number;
  /** Token columns the first pass ran, padding included: rows × (prompt length, or only the new tokens when continuing caches). */
  readonly prefillTokens: number;
}

/** Why a completion ended. */
export type FinishReason = 'stop_token' | 'stop_string' | 'length';

/** One completion. */
export interface Generation {
  readonly promptTokenIds: readonly number[];
  /** Generated ids, including a final stop token when one ended the completion. */
  readonly tokenIds: number[];
  /** Text of the generated ids without the stop token, cut before a stop string. */
  readonly text: string;
  /**
   * log q(token) under the distribution it was drawn from, one per token id: log-softmax(logits / T)
   * at the sampling temperature T (1 when greedy) after a guide's biases, renormalised over the
   * tokens top-k/top-p keep. Without guide, top-k and top-p it is what
   * `Policy.logprobs(…, { temperature: T })` gives for the completed sequence.
   */
  readonly logprobs: number[];
  readonly finishReason: FinishReason;
  /** With `keepCache`: the keys and values of the prompt and the generated tokens but the last. */
  readonly cache?: PromptCache;
}

interface RowState {
  readonly prompt: readonly number[];
  readonly tokens: number[];
  readonly logprobs: number[];
  finish?: FinishReason;
  text?: string;
}

/**
 * Samples completions for a batch of prompts (token ids, or text encoded as-is — apply the
 * chat template first), with a KV cache: one prefill pass over the left-padded prompts, then
 * one decode pass per new token for the whole batch. Finished rows keep running as masked
 * padding until every row is done.
 *
 * @example
 * const [g] = await generateTokens(engine, rope, [tok.encode(prompt)], { maxTokens: 64, temperature: 0 });
 */
export async function generateTokens(
  engine: ModelEngine,
  rope: RopeCache,
  prompts: readonly (readonly number[])[],
  options: GenerateOptions = {},
): Promise<Generation[]> {
  const model = engine.model;
  const tokenizer = model.tokenizer;
  const { headDim, numLayers } = model.config;
  const maxTokens = options.maxTokens ?? 256;
  const stopIds = new Set(options.stopTokenIds ?? model.generationDefaults.stopTokenIds);
  const stopStrings = options.stopStrings ?? [];
  const rng = new Rng(options.seed ?? 0);
  const sampler = new TokenSampler(model.config.vocabSize);
  const padId = model.generationDefaults.padTokenId;
  const rows: RowState[] = prompts.map((prompt) => {
    if (prompt.length === 0) throw new RangeError('every prompt needs at least one token');
    checkTokenIds(prompt, model.config.vocabSize);
    return { prompt, tokens: [], logprobs: [] };
  });
  const B = rows.length;
  const lora = options.adapter?.config;
  const useCache = options.kvCache ?? true;
  const temperature = options.temperature ?? 1;
  const truncated = (options.topK ?? 0) > 0 || (options.topP ?? 1) < 1;
  const guides = options.guides?.some((g) => g !== undefined) ? options.guides : undefined;
  const onDevice = options.sampleOnDevice ?? (engine.runtime.provider !== 'cpu' && !truncated && !guides);
  if (onDevice && truncated) throw new LmError('sampleOnDevice draws from the whole distribution: drop topK/topP, or set sampleOnDevice: false to sample on the host');
  if (onDevice && guides) throw new LmError('a decoding guide nudges logits on the host: drop sampleOnDevice, or the guide');
  if (guides && guides.length !== B) throw new RangeError(`guides has ${guides.length} entries for ${B} prompts: give one (or undefined) per prompt`);
  // What a guide reads: each token's text (special tokens: '', never nudged; kept by the tokenizer) and the row's own
  // generated text, the one thing only the decode loop knows.
  const nudges = guides ? new NudgeApplier(tokenizer.tokenTexts()) : undefined;
  const guided = (b: number, logits: Float32Array): Float32Array => {
    const guide = guides?.[b];
    if (!guide || !nudges) return logits;
    const nudge = guide(tokenizer.decode(rows[b]!.tokens));
    return nudge ? nudges.apply(logits, nudge) : logits;
  };
  const prefill = await engine.prefill(lora, onDevice);
  // On CPU the prompt's cache is split off after the prefill and fed as it is to every decode step
  // (no per-step copy of it); only the generated tokens' cache grows. Host slicing, so CPU only,
  // and only with host sampling (those decode graphs output logits).
  const onHost = !onDevice && useCache && engine.runtime.provider === 'cpu' && Math.max(...prompts.map((p) => p.length)) >= 2;
  // A next turn whose every row continues a cache runs only its new tokens (prompt-cache.ts).
  const continueFrom = options.continueFrom;
  const continued = onHost && continueFrom !== undefined && continueFrom.length === B && rows.every((r, b) => continueFrom[b]?.continues(r.prompt, engine) === true)
    ? continueFrom as readonly PromptCache[]
    : undefined;
  // Rows with the same prompt (a GRPO group's K samples) share one prefill: the prompt's keys and
  // values are computed once and copied to every row that continues it. Host copies, so CPU only.
  const shared = onHost && !continued ? sharedRows(rows.map((r) => r.prompt)) : undefined;
  // When the groups are runs of consecutive rows of one size (how GRPO asks), the prefill's cache
  // is itself the decode's fixed prefix, one per group, read by all of a group's rows at once:
  // no per-row copy of it, and a quarter of the prefix reads per step for groups of four.
  const grouped = shared !== undefined && consecutiveGroups(shared.rowOf, shared.prompts.length);
  const decode = useCache ? await (grouped ? engine.decodeAfterGroupPrefix(lora) : onHost ? engine.decodeAfterPrefix(lora) : engine.decode(lora, onDevice)) : undefined;
  const weightFeeds = await engine.weightFeeds(prefill.built, options);
  const continuation = continued ? continuationBatch(continued, rows.map((r) => r.prompt), padId, numLayers) : undefined;
  const packed = continuation ? { length: continuation.pastLength + continuation.newLength, ids: continuation.ids, mask: continuation.mask } : packLeft(shared ? shared.prompts : rows.map((r) => r.prompt), padId);
  let length = packed.length;
  let ids = packed.ids;
  let mask = packed.mask;
  let cache: Record<string, OrtTensor | OnnxHostTensor> | undefined;
  const lastPosition = rows.map((r) => r.prompt.length - 1);
  // Device sampling: the uniform numbers of the draw a run makes, one per unfinished row in row
  // order (the host walk's order), none at temperature 0 (the greedy outputs are read then).
  const samplingFeeds = (): Record<string, OnnxHostTensor> => {
    if (!onDevice) return {};
    const u = new Float32Array(B);
    if (temperature > 0) rows.forEach((row, b) => (u[b] = row.finish ? 0 : rng.float()));
    return {
      [SAMPLING_IO.uniform]: onnxTensor('float32', [B], u),
      [SAMPLING_IO.inverseTemperature]: onnxTensor('float32', [1], new Float32Array([temperature > 0 ? 1 / temperature : 1])),
    };
  };
  // What a run gives the next draw: logits to sample on the host, or the device's draws.
  type Draws = Float32Array | { tokens: BigInt64Array; logprobs: Float32Array };
  const draws = (out: Record<string, OrtTensor | OnnxHostTensor>): Draws => {
    if (!onDevice) return out[GRAPH_IO.logits]!.data as Float32Array;
    const greedy = temperature <= 0;
    return {
      tokens: out[greedy ? SAMPLING_IO.greedyToken : SAMPLING_IO.token]!.data as BigInt64Array,
      logprobs: out[greedy ? SAMPLING_IO.greedyLogprob : SAMPLING_IO.logprob]!.data as Float32Array,
    };
  };

  const runFull = async (): Promise<Draws> => {
    const n = ids.length / length;
    const { cos, sin } = rope.tables(positionsFromMask(mask, n, length));
    const out = await prefill.session.run({
      [GRAPH_IO.inputIds]: onnxTensor('int64', [n, length], ids),
      [GRAPH_IO.cos]: onnxTensor('float32', [n, length, headDim], cos),
      [GRAPH_IO.sin]: onnxTensor('float32', [n, length, headDim], sin),
      [GRAPH_IO.attentionBias]: onnxTensor('float32', [n, 1, length, length], attentionBias(mask, n, length, 0)),
      ...samplingFeeds(),
      ...weightFeeds,
    });
    releaseCache(cache);
    cache = out;
    return draws(out);
  };

  // The continued batch's first pass: its new tokens after the caches, through the decode graph.
  const runContinuation = async (batch: NonNullable<typeof continuation>): Promise<Draws> => {
    const extend = await engine.decode(lora);
    const T = batch.newLength;
    const positions = positionsFromMask(mask, B, length);
    const newPositions = new Int32Array(B * T);
    for (let b = 0; b < B; b++) newPositions.set(positions.subarray(b * length + batch.pastLength, (b + 1) * length), b * T);
    const { cos, sin } = rope.tables(newPositions);
    const feeds: Record<string, OnnxHostTensor | OrtTensor> = {
      [GRAPH_IO.inputIds]: onnxTensor('int64', [B, T], batch.newIds),
      [GRAPH_IO.cos]: onnxTensor('float32', [B, T, headDim], cos),
      [GRAPH_IO.sin]: onnxTensor('float32', [B, T, headDim], sin),
      [GRAPH_IO.attentionBias]: onnxTensor('float32', [B, 1, T, length], attentionBias(mask, B, T, batch.pastLength)),
      ...weightFeeds,
    };
    batch.past.forEach((kv, l) => {
      feeds[GRAPH_IO.pastKey(l)] = kv.key;
      feeds[GRAPH_IO.pastValue(l)] = kv.value;
    });
    cache = await extend.session.run(feeds);
    return draws(cache);
  };

  const started = performance.now();
  let next = continuation ? await runContinuation(continuation) : await runFull();
  let prefixFeeds: Record<string, OrtTensor> = {};
  if (shared && next instanceof Float32Array) {
    const { rowOf } = shared;
    next = gatherRows(next, rowOf, next.length / shared.prompts.length);
    ids = gatherRows(ids, rowOf, length);
    mask = gatherRows(mask, rowOf, length);
  }
  // Where the cache lives once decoding starts, for `keepCache` to read each row's columns back.
  let cacheLayout: Omit<SplitCache, 'grown'> | undefined;
  const split = onHost
    ? decodeCacheSplit(cache!, numLayers, length, grouped && shared ? { kind: 'grouped', rowOf: shared.rowOf, groups: shared.prompts.length } : continuation ? { kind: 'continued', batch: continuation } : { kind: 'per-row', rowOf: shared?.rowOf ?? rows.map((_, b) => b) })
    : undefined;
  if (split) {
    // Bound to the runtime once (in place on CPU): every step reads them without feeding bytes.
    prefixFeeds = split.prefixInRuntime ? (split.prefix as Record<string, OrtTensor>) : await engine.runtime.upload(split.prefix as Record<string, OnnxHostTensor>);
    cache = await engine.runtime.upload(split.grown);
    cacheLayout = split.layout;
  }
  const prefillMs = performance.now() - started;
  const prefillTokens = (shared ? shared.prompts.length : B) * (continuation ? continuation.newLength : packed.length);
  let decodeSteps = 0;
  for (let step = 0; step < maxTokens; step++) {
    const drawn = next;
    const draw = drawn instanceof Float32Array
      ? (b: number) => sampler.draw(guided(b, drawn.subarray(b * (drawn.length / B), (b + 1) * (drawn.length / B))), options, rng)
      : (b: number) => ({ token: Number(drawn.tokens[b]!), logprob: drawn.logprobs[b]! });
    const tokens: number[] = [];
    rows.forEach((row, b) => {
      if (row.finish) {
        tokens.push(padId);
        return;
      }
      const { token, logprob } = draw(b);
      row.tokens.push(token);
      row.logprobs.push(logprob);
      tokens.push(token);
      if (stopIds.has(token)) {
        row.finish = 'stop_token';
        row.text = tokenizer.decode(row.tokens.slice(0, -1));
      } else if (stopStrings.length > 0) {
        const text = tokenizer.decode(row.tokens);
        const cut = firstStop(text, stopStrings);
        if (cut >= 0) {
          row.finish = 'stop_string';
          row.text = text.slice(0, cut);
        }
      }
      if (!row.finish && row.tokens.length >= maxTokens) row.finish = 'length';
    });
    if (rows.every((r) => r.finish)) break;

    // Append the new column; finished rows get a masked pad token.
    const grown = length + 1;
    const nextIds = new BigInt64Array(B * grown);
    const nextMask = new Uint8Array(B * grown);
    for (let b = 0; b < B; b++) {
      nextIds.set(ids.subarray(b * length, (b + 1) * length), b * grown);
      nextMask.set(mask.subarray(b * length, (b + 1) * length), b * grown);
      nextIds[b * grown + length] = BigInt(tokens[b]!);
      nextMask[b * grown + length] = rows[b]!.finish ? 0 : 1;
    }
    ids = nextIds;
    mask = nextMask;
    length = grown;

    decodeSteps++;
    if (!decode) {
      next = await runFull();
      continue;
    }
    const positions = new Int32Array(B);
    rows.forEach((row, b) => (positions[b] = row.finish ? 0 : ++lastPosition[b]!));
    const { cos, sin } = rope.tables(positions);
    const feeds: Record<string, OnnxHostTensor | OrtTensor> = {
      [GRAPH_IO.inputIds]: onnxTensor('int64', [B, 1], BigInt64Array.from(tokens.map((t) => BigInt(t)))),
      [GRAPH_IO.cos]: onnxTensor('float32', [B, 1, headDim], cos),
      [GRAPH_IO.sin]: onnxTensor('float32', [B, 1, headDim], sin),
      [GRAPH_IO.attentionBias]: grouped
        ? onnxTensor('float32', [B, 1, 1, length + 1], attentionBias(withMaskedColumn(mask, B, length, cacheLayout!.prefixColumns), B, 1, length))
        : onnxTensor('float32', [B, 1, 1, length], attentionBias(mask, B, 1, length - 1)),
      ...samplingFeeds(),
      ...weightFeeds,
      ...prefixFeeds,
    };
    for (let l = 0; l < numLayers; l++) {
      feeds[GRAPH_IO.pastKey(l)] = cache![GRAPH_IO.presentKey(l)]!;
      feeds[GRAPH_IO.pastValue(l)] = cache![GRAPH_IO.presentValue(l)]!;
    }
    const out = await decode.session.run(feeds);
    releaseCache(cache);
    cache = out;
    next = draws(out);
  }
  const caches = options.keepCache && cacheLayout && cache ? rowCaches({ ...cacheLayout, grown: cacheLayers(cache, numLayers, 'present') }, ids, mask, B, length, engine) : undefined;
  releaseCache(cache);
  options.onTimings?.({ prefillMs, decodeMs: performance.now() - started - prefillMs, decodeSteps, prefillTokens });
  return rows.map((row, b) => ({
    promptTokenIds: row.prompt,
    tokenIds: row.tokens,
    text: row.text ?? tokenizer.decode(row.tokens),
    logprobs: row.logprobs,
    finishReason: row.finish ?? 'length',
    ...(caches ? { cache: caches[b]! } : {}),
  }));
}

/** How the rows of a decode read their prompt's cache. */
type DecodeSource =
  /** A GRPO batch: runs of rows share one prompt, whose prefill cache every row of the group reads. */
  | { kind: 'grouped'; rowOf: readonly number[]; groups: number }
  /** A next turn: each row's continued cache, then its new tokens. */
  | { kind: 'continued'; batch: ContinuationBatch }
  /** Every row its own copy of its prompt's cache (shared prompts: one prefill, copied to each row). */
  | { kind: 'per-row'; rowOf: readonly number[] };

/**
 * The first pass's cache split for a decode after a fixed prefix: the prefix every step reads as it
 * is, the growing cache's first entries, and where each row's columns are for `keepCache`.
 */
function decodeCacheSplit(
  present: Readonly<Record<string, OrtTensor | OnnxHostTensor>>,
  numLayers: number,
  length: number,
  source: DecodeSource,
): { prefix: Record<string, OrtTensor | OnnxHostTensor>; prefixInRuntime: boolean; grown: Record<string, OnnxHostTensor>; layout: Omit<SplitCache, 'grown'> } {
  const prefix: Record<string, OrtTensor | OnnxHostTensor> = {};
  const grown: Record<string, OnnxHostTensor> = {};
  const everyRow = source.kind === 'continued' ? Array.from({ length: source.batch.newIds.length / source.batch.newLength }, (_, b) => b) : [];
  for (let l = 0; l < numLayers; l++) {
    for (const [presentName, prefixName, past] of [
      [GRAPH_IO.presentKey(l), GRAPH_IO.prefixKey(l), source.kind === 'continued' ? source.batch.past[l]!.key : undefined],
      [GRAPH_IO.presentValue(l), GRAPH_IO.prefixValue(l), source.kind === 'continued' ? source.batch.past[l]!.value : undefined],
    ] as const) {
      const t = present[presentName]!;
      if (source.kind === 'grouped') {
        // The group's prefix holds every prefill column, the prompt's last one too, which also opens
        // the growing cache: its prefix copy is masked (an exact 0 in the softmax).
        prefix[prefixName] = t;
        grown[presentName] = sliceColumns(t, source.rowOf, length - 1, length);
      } else if (source.kind === 'continued') {
        // The continued caches, as continuationBatch laid them out, are the prefix as they are; only
        // the new tokens' columns are copied out to start the growing cache.
        prefix[prefixName] = past!;
        grown[presentName] = sliceColumns(t, everyRow, source.batch.pastLength, length);
      } else {
        prefix[prefixName] = sliceColumns(t, source.rowOf, 0, length - 1);
        grown[presentName] = sliceColumns(t, source.rowOf, length - 1, length);
      }
    }
  }
  const layers = cacheLayers(prefix, numLayers, 'prefix');
  if (source.kind === 'grouped') {
    const groupSize = source.rowOf.length / source.groups;
    return { prefix, prefixInRuntime: true, grown, layout: { prefixColumns: length - 1, prefix: layers, prefixRow: (b) => Math.floor(b / groupSize) } };
  }
  const prefixColumns = source.kind === 'continued' ? source.batch.pastLength : length - 1;
  return { prefix, prefixInRuntime: false, grown, layout: { prefixColumns, prefix: layers, prefixRow: (b) => b } };
}

/** A cache's key/value tensors by layer, under the `prefix.N.*` or `present.N.*` names. */
function cacheLayers(tensors: Readonly<Record<string, OrtTensor | OnnxHostTensor>>, numLayers: number, names: 'prefix' | 'present'): { key: OrtTensor | OnnxHostTensor; value: OrtTensor | OnnxHostTensor }[] {
  return Array.from({ length: numLayers }, (_, l) => ({
    key: tensors[names === 'prefix' ? GRAPH_IO.prefixKey(l) : GRAPH_IO.presentKey(l)]!,
    value: tensors[names === 'prefix' ? GRAPH_IO.prefixValue(l) : GRAPH_IO.presentValue(l)]!,
  }));
}

/** Free a replaced KV cache held in device memory (host tensors are left to the garbage collector). */
function releaseCache(cache: Record<string, OrtTensor | OnnxHostTensor> | undefined): void {
  for (const t of Object.values(cache ?? {})) if ('location' in t && t.location === 'gpu-buffer') t.dispose();
}

/**
 * Positions [from, to) of a cache tensor [n, K, L, D], row `rowOf[b]` for every row b: [B, K, to − from, D]
 * (the fixed prefix a decode reads, or the first entries of its growing cache).
 */
function sliceColumns(t: OrtTensor | OnnxHostTensor, rowOf: readonly number[], from: number, to: number): OnnxHostTensor {
  const [, heads, length, dim] = t.dims as [number, number, number, number];
  const data = t.data as Float32Array;
  const width = (to - from) * dim;
  const out = new Float32Array(rowOf.length * heads * width);
  rowOf.forEach((r, b) => {
    for (let h = 0; h < heads; h++) {
      const start = ((r * heads + h) * length + from) * dim;
      out.set(data.subarray(start, start + width), (b * heads + h) * width);
    }
  });
  return onnxTensor('float32', [rowOf.length, heads, to - from, dim], out);
}

/** Whether rows form runs of one size in group order: rowOf = [0, 0, …, 1, 1, …, U − 1, …]. */
function consecutiveGroups(rowOf: readonly number[], groups: number): boolean {
  const size = rowOf.length / groups;
  return Number.isInteger(size) && rowOf.every((u, b) => u === Math.floor(b / size));
}

/** A [B, S] mask with a masked column inserted before column `at`: [B, S + 1]. */
function withMaskedColumn(mask: Uint8Array, batchSize: number, length: number, at: number): Uint8Array {
  const out = new Uint8Array(batchSize * (length + 1));
  for (let b = 0; b < batchSize; b++) {
    out.set(mask.subarray(b * length, b * length + at), b * (length + 1));
    out.set(mask.subarray(b * length + at, (b + 1) * length), b * (length + 1) + at + 1);
  }
  return out;
}

/**
 * The distinct prompts of a batch and, for every row, the index of its prompt; undefined when
 * all prompts differ (nothing to share).
 *
 * @example
 * sharedRows([[1, 2], [3], [1, 2]]); // { prompts: [[1, 2], [3]], rowOf: [0, 1, 0] }
 */
export function sharedRows(prompts: readonly (readonly number[])[]): { prompts: (readonly number[])[]; rowOf: number[] } | undefined {
  const index = new Map<string, number>();
  const distinct: (readonly number[])[] = [];
  const rowOf = prompts.map((p) => {
    const key = p.join(',');
    let i = index.get(key);
    if (i === undefined) {
      i = distinct.length;
      index.set(key, i);
      distinct.push(p);
    }
    return i;
  });
  return distinct.length < prompts.length ? { prompts: distinct, rowOf } : undefined;
}

function firstStop(text: string, stops: readonly string[]): number {
  let cut = -1;
  for (const s of stops) {
    const i = text.indexOf(s);
    if (i >= 0 && (cut < 0 || i < cut)) cut = i;
  }
  return cut;
}
