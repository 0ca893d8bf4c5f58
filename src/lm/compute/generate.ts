import { Rng } from '../../base/rng.js';
import { GRAPH_IO } from '../graph/graphs.js';
import { onnxTensor, type OnnxHostTensor, type OrtTensor } from '../graph/onnx.js';
import { attentionBias, checkTokenIds, gatherRows, packLeft, positionsFromMask, type RopeCache } from './batch.js';
import type { ModelEngine, WeightSource } from './engine.js';
import { continuationBatch, rowCaches, type PromptCache, type SplitCache } from './prompt-cache.js';
import { TokenSampler, type SamplingOptions } from './sampling.js';
import { LmError } from '../errors.js';
import type { NextTokenGuide } from './decoding-guide.js';
import { cacheLayers, decodeCacheSplit, releaseCache, withMaskedColumn } from './decode-cache.js';
import { decodePrefix, planCache, prefixSource } from './cache-plan.js';
import { RowGuidance } from './row-guidance.js';
import { DeviceSampling, HostSampling, type Drawn, type TokenDraws } from './token-draws.js';

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
  const temperature = options.temperature ?? 1;
  const truncated = (options.topK ?? 0) > 0 || (options.topP ?? 1) < 1;
  const guides = options.guides?.some((g) => g !== undefined) ? options.guides : undefined;
  const onDevice = options.sampleOnDevice ?? (engine.runtime.provider !== 'cpu' && !truncated && !guides);
  if (onDevice && truncated) throw new LmError('sampleOnDevice draws from the whole distribution: drop topK/topP, or set sampleOnDevice: false to sample on the host');
  if (onDevice && guides) throw new LmError('a decoding guide nudges logits on the host: drop sampleOnDevice, or the guide');
  if (guides && guides.length !== B) throw new RangeError(`guides has ${guides.length} entries for ${B} prompts: give one (or undefined) per prompt`);
  // Host sampling draws from the logits (after the row's guide, if any); device sampling in the graph.
  const draws: TokenDraws = onDevice ? new DeviceSampling(temperature, rng, B) : new HostSampling(sampler, options, rng, guides ? new RowGuidance(guides, tokenizer, rows) : undefined);
  const finished = (b: number): boolean => rows[b]!.finish !== undefined;
  const prefill = await engine.graph({ kind: 'prefill', sampler: onDevice }, lora);
  const plan = planCache(prompts, { kvCache: options.kvCache ?? true, onDevice, cpu: engine.runtime.provider === 'cpu', owner: engine, ...(options.continueFrom ? { continueFrom: options.continueFrom } : {}) });
  const prefixed = plan.use === 'prefix' ? plan : undefined;
  const shared = prefixed?.shared;
  const decode = plan.use === 'rerun' ? undefined : await engine.graph({ kind: 'decode', sampler: onDevice, prefix: decodePrefix(plan) }, lora);
  const weightFeeds = await engine.weightFeeds(prefill.built, options);
  const continuation = prefixed?.continued ? continuationBatch(prefixed.continued, rows.map((r) => r.prompt), padId, numLayers) : undefined;
  const packed = continuation ? { length: continuation.pastLength + continuation.newLength, ids: continuation.ids, mask: continuation.mask } : packLeft(shared ? shared.prompts : rows.map((r) => r.prompt), padId);
  let length = packed.length;
  let ids = packed.ids;
  let mask = packed.mask;
  let cache: Record<string, OrtTensor | OnnxHostTensor> | undefined;
  const lastPosition = rows.map((r) => r.prompt.length - 1);

  const runFull = async (): Promise<Drawn> => {
    const n = ids.length / length;
    const { cos, sin } = rope.tables(positionsFromMask(mask, n, length));
    const out = await prefill.session.run({
      [GRAPH_IO.inputIds]: onnxTensor('int64', [n, length], ids),
      [GRAPH_IO.cos]: onnxTensor('float32', [n, length, headDim], cos),
      [GRAPH_IO.sin]: onnxTensor('float32', [n, length, headDim], sin),
      [GRAPH_IO.attentionBias]: onnxTensor('float32', [n, 1, length, length], attentionBias(mask, n, length, 0)),
      ...draws.feeds(finished),
      ...weightFeeds,
    });
    releaseCache(cache);
    cache = out;
    return draws.read(out);
  };

  // The continued batch's first pass: its new tokens after the caches, through the decode graph.
  const runContinuation = async (batch: NonNullable<typeof continuation>): Promise<Drawn> => {
    const extend = await engine.graph({ kind: 'decode', sampler: false, prefix: 'none' }, lora);
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
    return draws.read(cache);
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
  const split = prefixed ? decodeCacheSplit(cache!, numLayers, length, prefixSource(prefixed, B, continuation)) : undefined;
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
    const tokens: number[] = [];
    rows.forEach((row, b) => {
      if (row.finish) {
        tokens.push(padId);
        return;
      }
      const { token, logprob } = draws.draw(drawn, b, B);
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
      [GRAPH_IO.attentionBias]: prefixed?.grouped
        ? onnxTensor('float32', [B, 1, 1, length + 1], attentionBias(withMaskedColumn(mask, B, length, cacheLayout!.prefixColumns), B, 1, length))
        : onnxTensor('float32', [B, 1, 1, length], attentionBias(mask, B, 1, length - 1)),
      ...draws.feeds(finished),
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
    next = draws.read(out);
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

function firstStop(text: string, stops: readonly string[]): number {
  let cut = -1;
  for (const s of stops) {
    const i = text.indexOf(s);
    if (i >= 0 && (cut < 0 || i < cut)) cut = i;
  }
  return cut;
}
