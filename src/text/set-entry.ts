/**
 * Set `record[key] = value` as an own data property, the way `JSON.parse` does, so that a key
 * written by a model or a client such as `"__proto__"` is an ordinary entry and never replaces
 * the object's prototype.
 *
 * @example
 * ```ts
 * const out: Record<string, unknown> = {};
 * setEntry(out, '__proto__', { admin: true });
 * Object.keys(out); // ['__proto__']; Object.getPrototypeOf(out) is still Object.prototype
 * ```
 */
export function setEntry(record: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(record, key, { value, writable: true, enumerable: true, configurable: true });
}
