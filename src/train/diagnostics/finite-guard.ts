/** Detection of NaN/Inf in losses and gradients, so a poisoned step is skipped instead of applied. */

/**
 * Names of the entries that are not finite numbers (NaN or ±Inf); for arrays, the name with
 * the first bad index. An empty result means the step is safe to apply.
 *
 * @example
 * ```ts
 * nonFiniteEntries({ loss: 0.3, grad: new Float32Array([1, NaN]) }); // ['grad[1]']
 * ```
 */
export function nonFiniteEntries(values: Record<string, number | ArrayLike<number>>): string[] {
  const bad: string[] = [];
  for (const [name, v] of Object.entries(values)) {
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) bad.push(name);
      continue;
    }
    for (let i = 0; i < v.length; i++) {
      if (!Number.isFinite(v[i]!)) {
        bad.push(`${name}[${i}]`);
        break;
      }
    }
  }
  return bad;
}
