/**
 * Keys and values of a finished generation, kept per row, so that the next turn of a
 * conversation — the same tokens plus a tool's reply — runs only its new tokens after them
 * instead of prefilling the whole conversation again. Multi-turn rollouts re-read their whole
 * history every turn; the prefill's cost grows with the square of its length and was most of a
 * rollout's time (docs/lm.md, "Continuing a generation").
 *
 * Host memory only (the CPU provider): the cache is read out of, and fed back into, host tensors.
 */
import type { OnnxHostTensor, OrtTensor } from '../graph/onnx.js';
import { onnxTensor } from '../graph/onnx.js';
import { packLeft } from './batch.js';

/** One layer's keys and values of one row, each [heads, positions, headDim]. */
interface LayerKv {
  readonly key: Float32Array;
  readonly value: Float32Array;
}

/**
 * The keys and values of the tokens a generation fed through the model: its prompt and every
 * generated token but the last (which was sampled, never fed). Pass it back as
 * `continueFrom` with a prompt that begins with {@link PromptCache.tokens}, and generation runs
 * only the prompt's remaining tokens. Valid only for the weights it was computed with: use it
 * within one rollout, never across an optimizer step.
 *
 * @example
 * ```ts
 * const [first] = await policy.generate([prompt], { keepCache: true });
 * const next = [...prompt, ...first.tokenIds, ...toolReply];
 * const [second] = await policy.generate([next], { continueFrom: [first.cache] });
 * ```
 */
export class PromptCache {
  /** @internal Built by generation; `owner` is the engine whose weights made it. */
  constructor(
    readonly tokens: readonly number[],
    private readonly layers: readonly LayerKv[],
    readonly heads: number,
    readonly headDim: number,
    private readonly owner: object,
  ) {}

  /** Whether `prompt` continues this cache on `owner`'s model: it starts with the cached tokens and has at least one more. */
  continues(prompt: readonly number[], owner: object): boolean {
    if (owner !== this.owner || prompt.length <= this.tokens.length) return false;
    for (let i = 0; i < this.tokens.length; i++) if (prompt[i] !== this.tokens[i]) return false;
    return true;
  }

  /** Layer `l`'s keys and values. */
  layer(l: number): LayerKv {
    return this.layers[l]!;
  }
}

/** The first pass of a continued batch: its new tokens after each row's cache, left-padded twice. */
export interface ContinuationBatch {
  /** Columns of the padded caches (the longest cache). */
  readonly pastLength: number;
  /** Columns of the padded new tokens (the longest remainder). */
  readonly newLength: number;
  /** All token ids, [B, pastLength + newLength]: cached tokens right-aligned in the first block, new ones in the second. */
  readonly ids: BigInt64Array;
  /** 1 for real tokens, [B, pastLength + newLength]. */
  readonly mask: Uint8Array;
  /** The new tokens, [B, newLength]. */
  readonly newIds: BigInt64Array;
  /** `past.N.key`/`past.N.value` feeds, [B, heads, pastLength, headDim], by layer. */
  readonly past: readonly { key: OnnxHostTensor; value: OnnxHostTensor }[];
}

/**
 * Lays out a batch that continues `caches` with `prompts` (each prompt starting with its cache's
 * tokens): the caches left-padded to the longest, then the prompts' remaining tokens left-padded
 * to the longest, with the mask that hides both paddings.
 *
 * @example
 * ```ts
 * const batch = continuationBatch(caches, prompts, padId, numLayers);
 * attentionBias(batch.mask, B, batch.newLength, batch.pastLength);
 * ```
 */
export function continuationBatch(caches: readonly PromptCache[], prompts: readonly (readonly number[])[], padId: number, numLayers: number): ContinuationBatch {
  const B = prompts.length;
  const past = packLeft(caches.map((c) => c.tokens), padId);
  const fresh = packLeft(prompts.map((p, b) => p.slice(caches[b]!.tokens.length)), padId);
  const pastLength = past.length;
  const newLength = fresh.length;
  const total = pastLength + newLength;
  const ids = new BigInt64Array(B * total);
  const mask = new Uint8Array(B * total);
  for (let b = 0; b < B; b++) {
    ids.set(past.ids.subarray(b * pastLength, (b + 1) * pastLength), b * total);
    ids.set(fresh.ids.subarray(b * newLength, (b + 1) * newLength), b * total + pastLength);
    mask.set(past.mask.subarray(b * pastLength, (b + 1) * pastLength), b * total);
    mask.set(fresh.mask.subarray(b * newLength, (b + 1) * newLength), b * total + pastLength);
  }
  const { heads, headDim } = caches[0]!;
  const pastKv = Array.from({ length: numLayers }, (_, l) => {
    const key = new Float32Array(B * heads * pastLength * headDim);
    const value = new Float32Array(B * heads * pastLength * headDim);
    caches.forEach((cache, b) => {
      const n = cache.tokens.length;
      const pad = pastLength - n;
      const kv = cache.layer(l);
      for (let h = 0; h < heads; h++) {
        const to = ((b * heads + h) * pastLength + pad) * headDim;
        key.set(kv.key.subarray(h * n * headDim, (h + 1) * n * headDim), to);
        value.set(kv.value.subarray(h * n * headDim, (h + 1) * n * headDim), to);
      }
    });
    const dims = [B, heads, pastLength, headDim];
    return { key: onnxTensor('float32', dims, key), value: onnxTensor('float32', dims, value) };
  });
  return { pastLength, newLength, ids, mask, newIds: fresh.ids, past: pastKv };
}

/** Where a decode loop's cache lives at its end: a fixed prefix (per row or per group) and the grown part. */
export interface SplitCache {
  /** Columns held in `prefix` (the rest are in `grown`). */
  readonly prefixColumns: number;
  /** Per layer: the prefix tensors, [rows or groups, heads, ≥ prefixColumns, headDim]. */
  readonly prefix: readonly { key: OrtTensor | OnnxHostTensor; value: OrtTensor | OnnxHostTensor }[];
  /** The prefix tensor's row of batch row `b`. */
  readonly prefixRow: (b: number) => number;
  /** Per layer: the grown cache, [B, heads, columns − prefixColumns, headDim]. */
  readonly grown: readonly { key: OrtTensor | OnnxHostTensor; value: OrtTensor | OnnxHostTensor }[];
}

/**
 * Every row's cache at the end of a decode loop: the columns its mask keeps, gathered from the
 * prefix and the grown part into contiguous [heads, positions, headDim] arrays.
 *
 * @example
 * ```ts
 * const caches = rowCaches(split, ids, mask, B, length, owner);
 * ```
 */
export function rowCaches(split: SplitCache, ids: BigInt64Array, mask: Uint8Array, batchSize: number, length: number, owner: object): PromptCache[] {
  const dimsOf = (t: OrtTensor | OnnxHostTensor) => t.dims as readonly number[];
  const [, heads, , headDim] = dimsOf(split.grown[0]!.key) as [number, number, number, number];
  const out: PromptCache[] = [];
  for (let b = 0; b < batchSize; b++) {
    const columns: number[] = [];
    for (let j = 0; j < length; j++) if (mask[b * length + j]) columns.push(j);
    const tokens = columns.map((j) => Number(ids[b * length + j]!));
    const n = columns.length;
    const layers = split.grown.map((grown, l) => {
      const prefix = split.prefix[l]!;
      const gather = (pre: OrtTensor | OnnxHostTensor, grow: OrtTensor | OnnxHostTensor): Float32Array => {
        const preData = pre.data as Float32Array;
        const growData = grow.data as Float32Array;
        const preCols = dimsOf(pre)[2]!;
        const growCols = dimsOf(grow)[2]!;
        const p = split.prefixRow(b);
        const dst = new Float32Array(heads * n * headDim);
        for (let h = 0; h < heads; h++) {
          columns.forEach((j, i) => {
            const from = j < split.prefixColumns
              ? preData.subarray(((p * heads + h) * preCols + j) * headDim, ((p * heads + h) * preCols + j + 1) * headDim)
              : growData.subarray(((b * heads + h) * growCols + j - split.prefixColumns) * headDim, ((b * heads + h) * growCols + j - split.prefixColumns + 1) * headDim);
            dst.set(from, (h * n + i) * headDim);
          });
        }
        return dst;
      };
      return { key: gather(prefix.key, grown.key), value: gather(prefix.value, grown.value) };
    });
    out.push(new PromptCache(tokens, layers, heads, headDim, owner));
  }
  return out;
}
