/** Bounds on the structure of one action, checked before anything recursive touches it. */
export interface ActionShapeLimits {
  /** Deepest nesting of lists and objects (default 64: real tool calls use 4 or 5). */
  maxDepth: number;
  /** Most values in all (every list item, object entry and scalar counts one; default 100,000). */
  maxValues: number;
}

/**
 * The default {@link ActionShapeLimits}: far above any real tool call (an answer of 20,000 rows
 * × 4 columns fits), far below what would make JSON serialisation, schema validation or the judge
 * overflow the stack or take more than a few milliseconds.
 */
export const DEFAULT_ACTION_SHAPE_LIMITS: Readonly<ActionShapeLimits> = Object.freeze({ maxDepth: 64, maxValues: 100_000 });

/** What {@link checkActionShape} found: fine, or why the value cannot be an action. */
export type ActionShape = { ok: true } | { ok: false; message: string };

/**
 * Check that a value is small and shallow enough to be read as an action, without recursion (so
 * a 100,000-deep list or a cyclic object cannot overflow the stack here) and without reading
 * more than `maxValues` values. A cycle shows up as nesting past `maxDepth`; a getter or proxy
 * that throws is reported, not rethrown.
 *
 * @example
 * ```ts
 * checkActionShape({ name: 'describe', arguments: { table_name: 'singer' } }); // { ok: true }
 * let deep: unknown = 1;
 * for (let i = 0; i < 10_000; i++) deep = [deep];
 * checkActionShape(deep); // { ok: false, message: 'it is nested deeper than 64 levels' }
 * ```
 */
export function checkActionShape(value: unknown, limits: ActionShapeLimits = DEFAULT_ACTION_SHAPE_LIMITS): ActionShape {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  let count = 0;
  try {
    while (stack.length > 0) {
      const item = stack.pop()!;
      if (++count > limits.maxValues) return { ok: false, message: `it holds more than ${limits.maxValues.toLocaleString('en-US')} values` };
      if (typeof item.value !== 'object' || item.value === null) continue;
      if (item.depth >= limits.maxDepth) {
        return { ok: false, message: `it is nested deeper than ${limits.maxDepth} levels` };
      }
      const children = Array.isArray(item.value) ? item.value : Object.values(item.value);
      if (count + stack.length + children.length > limits.maxValues) {
        return { ok: false, message: `it holds more than ${limits.maxValues.toLocaleString('en-US')} values` };
      }
      for (const child of children) stack.push({ value: child, depth: item.depth + 1 });
    }
  } catch (err) {
    return { ok: false, message: `it could not be read (${err instanceof Error ? err.message : 'unreadable value'})` };
  }
  return { ok: true };
}
