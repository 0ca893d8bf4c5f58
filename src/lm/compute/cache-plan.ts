import type { DecodeSource } from './decode-cache.js';
import type { DecodePrefix } from './graph-spec.js';
import type { ContinuationBatch, PromptCache } from './prompt-cache.js';
import { consecutiveGroups, sharedRows } from './prompt-sharing.js';

/**
 * How one generation call uses the KV cache:
 * - `rerun`: no cache; every step reruns the whole sequences (`kvCache: false`, for checking the cache);
 * - `whole`: the prefill's cache grows step by step as one tensor per layer (device sampling, GPU providers);
 * - `prefix`: on CPU with host sampling, the prompt's cache is split off after the first pass and
 *   fed as it is to every step (no per-step copy of it); only the generated tokens' cache grows.
 *   Its rows may continue earlier caches (`continued`: only their new tokens run), or share prompts
 *   (`shared`: one prefill per distinct prompt; `grouped` when the sharing rows are runs of one size,
 *   whose prompt cache every row of the run reads at once).
 */
export type CachePlan =
  | { readonly use: 'rerun' | 'whole' }
  | {
      readonly use: 'prefix';
      readonly continued?: readonly PromptCache[];
      readonly shared?: { readonly prompts: readonly (readonly number[])[]; readonly rowOf: readonly number[] };
      readonly grouped: boolean;
    };

/**
 * Chooses how a generation call uses the KV cache (see {@link CachePlan}). `owner` is the engine
 * a continued cache must come from.
 *
 * @example
 * planCache([[1, 2], [1, 2]], { kvCache: true, onDevice: false, cpu: true, owner: engine }); // { use: 'prefix', shared: …, grouped: true }
 */
export function planCache(
  prompts: readonly (readonly number[])[],
  options: { readonly kvCache: boolean; readonly onDevice: boolean; readonly cpu: boolean; readonly owner: object; readonly continueFrom?: readonly (PromptCache | undefined)[] },
): CachePlan {
  if (!options.kvCache) return { use: 'rerun' };
  // Host slicing of the prefill's outputs, so CPU only, and only with host sampling (those decode graphs output logits).
  if (options.onDevice || !options.cpu || Math.max(...prompts.map((p) => p.length)) < 2) return { use: 'whole' };
  // A next turn whose every row continues a cache runs only its new tokens (prompt-cache.ts).
  const from = options.continueFrom;
  if (from !== undefined && from.length === prompts.length && prompts.every((p, b) => from[b]?.continues(p, options.owner) === true)) {
    return { use: 'prefix', continued: from as readonly PromptCache[], grouped: false };
  }
  // Rows with the same prompt (a GRPO group's K samples) share one prefill. When the groups are runs
  // of consecutive rows of one size (how GRPO asks), the prefill's cache is itself the decode's fixed
  // prefix, one per group: no per-row copy of it, and a quarter of the prefix reads per step for groups of four.
  const shared = sharedRows(prompts);
  if (!shared) return { use: 'prefix', grouped: false };
  return { use: 'prefix', shared, grouped: consecutiveGroups(shared.rowOf, shared.prompts.length) };
}

/**
 * The decode graph's prefix input for a plan.
 *
 * @example
 * decodePrefix({ use: 'whole' }); // 'none'
 */
export function decodePrefix(plan: CachePlan): DecodePrefix {
  if (plan.use !== 'prefix') return 'none';
  return plan.grouped ? 'per-group' : 'per-row';
}

/**
 * Where the rows of a `prefix` plan read their prompt's cache once the first pass has run.
 *
 * @example
 * prefixSource({ use: 'prefix', grouped: false }, 2); // { kind: 'per-row', rowOf: [0, 1] }
 */
export function prefixSource(plan: Extract<CachePlan, { use: 'prefix' }>, batchSize: number, continuation?: ContinuationBatch): DecodeSource {
  if (plan.grouped && plan.shared) return { kind: 'grouped', rowOf: plan.shared.rowOf, groups: plan.shared.prompts.length };
  if (continuation) return { kind: 'continued', batch: continuation };
  return { kind: 'per-row', rowOf: plan.shared?.rowOf ?? Array.from({ length: batchSize }, (_, b) => b) };
}
