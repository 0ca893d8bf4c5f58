/**
 * The model scripts' flags (`npm run model:pretrain-procedural`, `npm run model:procedural`): every flag a
 * string, read as a non-negative number or a string with a default.
 */
import { parseArgs } from 'node:util';

/** Readers of parsed string flags. */
export interface StringFlags {
  /** The flag as a non-negative number, or `fallback` when absent. */
  num(key: string, fallback: number): number;
  /** The flag's text, or `fallback` when absent. */
  str(key: string, fallback: string): string;
  /** The flag's text, or undefined when absent. */
  get(key: string): string | undefined;
}

/**
 * Parses `argv` as `--name value` flags among `names`; a value that is not a non-negative number
 * where one is read throws the error `invalid` makes.
 *
 * @example
 * ```ts
 * const flags = stringFlags(['--epochs', '2'], ['epochs'], (m) => new RangeError(m));
 * flags.num('epochs', 1); // 2
 * ```
 */
export function stringFlags(argv: readonly string[], names: readonly string[], invalid: (message: string) => Error): StringFlags {
  const { values } = parseArgs({ args: [...argv], options: Object.fromEntries(names.map((k) => [k, { type: 'string' as const }])) });
  const get = (key: string): string | undefined => (typeof values[key] === 'string' ? values[key] : undefined);
  return {
    get,
    str: (key, fallback) => get(key) ?? fallback,
    num: (key, fallback) => {
      const v = get(key);
      if (v === undefined) return fallback;
      const n = Number(v);
      if (!Number.isFinite(n) || n < 0) throw invalid(`--${key} must be a non-negative number, got "${v}"`);
      return n;
    },
  };
}
