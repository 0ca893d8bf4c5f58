/**
 * Split `count` items into `parts` contiguous blocks whose sizes differ by at most one (the
 * later blocks get the extra items), as AsyncVectorEnv spreads sub-envs over workers.
 *
 * @example
 * ```ts
 * contiguousBlocks(5, 2); // [[0, 1], [2, 3, 4]]
 * ```
 */
export function contiguousBlocks(count: number, parts: number): number[][] {
  if (!Number.isSafeInteger(count) || !Number.isSafeInteger(parts) || parts <= 0 || count < 0) {
    throw new RangeError(`contiguousBlocks needs integers count >= 0 and parts > 0, got ${count} and ${parts}`);
  }
  return Array.from({ length: parts }, (_, p) => {
    const start = Math.floor((p * count) / parts);
    const end = Math.floor(((p + 1) * count) / parts);
    return Array.from({ length: end - start }, (_, k) => start + k);
  });
}
