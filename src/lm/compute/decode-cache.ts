import { GRAPH_IO } from '../graph/graphs.js';
import { onnxTensor, type OnnxHostTensor, type OrtTensor } from '../graph/onnx.js';
import type { ContinuationBatch, SplitCache } from './prompt-cache.js';

/**
 * How generation keeps its KV cache on the CPU provider: the prompt's keys/values are split off after
 * the first pass and fed as a fixed prefix at every step (per row, per group of rows, or a next
 * turn's continued caches), so only the generated tokens' cache grows.
 */

/** How the rows of a decode read their prompt's cache. */
export type DecodeSource =
  /** A GRPO batch: runs of rows share one prompt, whose prefill cache every row of the group reads. */
  | { kind: 'grouped'; rowOf: readonly number[]; groups: number }
  /** A next turn: each row's continued cache, then its new tokens. */
  | { kind: 'continued'; batch: ContinuationBatch }
  /** Every row its own copy of its prompt's cache (shared prompts: one prefill, copied to each row). */
  | { kind: 'per-row'; rowOf: readonly number[] };

/**
 * The first pass's cache split for a decode after a fixed prefix: the prefix every step reads as it
 * is, the growing cache's first entries, and where each row's columns are for `keepCache`.
 *
 * @example
 * const split = decodeCacheSplit(prefillOutputs, numLayers, promptLength, { kind: 'per-row', rowOf: [0, 1] });
 */
export function decodeCacheSplit(
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

/**
 * A cache's key/value tensors by layer, under the `prefix.N.*` or `present.N.*` names.
 *
 * @example
 * const layers = cacheLayers(decodeOutputs, numLayers, 'present');
 */
export function cacheLayers(tensors: Readonly<Record<string, OrtTensor | OnnxHostTensor>>, numLayers: number, names: 'prefix' | 'present'): { key: OrtTensor | OnnxHostTensor; value: OrtTensor | OnnxHostTensor }[] {
  return Array.from({ length: numLayers }, (_, l) => ({
    key: tensors[names === 'prefix' ? GRAPH_IO.prefixKey(l) : GRAPH_IO.presentKey(l)]!,
    value: tensors[names === 'prefix' ? GRAPH_IO.prefixValue(l) : GRAPH_IO.presentValue(l)]!,
  }));
}

/**
 * Free a replaced KV cache held in device memory (host tensors are left to the garbage collector).
 *
 * @example
 * releaseCache(previousStepOutputs);
 */
export function releaseCache(cache: Record<string, OrtTensor | OnnxHostTensor> | undefined): void {
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

/**
 * A [B, S] mask with a masked column inserted before column `at`: [B, S + 1].
 *
 * @example
 * withMaskedColumn(new Uint8Array([1, 1]), 1, 2, 1); // [1, 0, 1]
 */
export function withMaskedColumn(mask: Uint8Array, batchSize: number, length: number, at: number): Uint8Array {
  const out = new Uint8Array(batchSize * (length + 1));
  for (let b = 0; b < batchSize; b++) {
    out.set(mask.subarray(b * length, b * length + at), b * (length + 1));
    out.set(mask.subarray(b * length + at, (b + 1) * length), b * (length + 1) + at + 1);
  }
  return out;
}
