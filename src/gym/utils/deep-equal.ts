/**
 * Structural equality of plain data: primitives (NaN equals NaN), arrays, typed arrays, plain
 * objects (same own keys), Maps, Sets and Dates. Used to compare observations, infos and tool
 * definitions, which are data, not class instances.
 *
 * @example
 * ```ts
 * deepEqual({ a: [1, 2] }, { a: [1, 2] }); // true
 * deepEqual(new Float64Array([1]), [1]);   // false: different kinds
 * ```
 */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  if (ArrayBuffer.isView(a)) {
    const x = a as unknown as ArrayLike<unknown>;
    const y = b as unknown as ArrayLike<unknown>;
    if (x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (!Object.is(x[i], y[i])) return false;
    return true;
  }
  if (Array.isArray(a)) {
    const y = b as unknown[];
    return a.length === y.length && a.every((v, i) => deepEqual(v, y[i]));
  }
  if (a instanceof Date) return a.getTime() === (b as Date).getTime();
  if (a instanceof Map) {
    const y = b as Map<unknown, unknown>;
    if (a.size !== y.size) return false;
    for (const [k, v] of a) if (!y.has(k) || !deepEqual(v, y.get(k))) return false;
    return true;
  }
  if (a instanceof Set) {
    const y = b as Set<unknown>;
    return a.size === y.size && [...a].every((v) => y.has(v));
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  const rb = b as Record<string, unknown>;
  const ra = a as Record<string, unknown>;
  return ka.every((k) => Object.prototype.hasOwnProperty.call(rb, k) && deepEqual(ra[k], rb[k]));
}
