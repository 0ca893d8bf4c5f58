/**
 * Builders for {@link ColumnSpec}s, so a domain reads like a schema:
 * `category('genre', 'genre', ['Rock', 'Jazz'])`, `money('price', 'price', 5, 120)`.
 */
import type { Rng } from '../../src/base/rng.js';
import { isoDateBetween, roundTo, weightedChoice } from './random-values.js';
import type { ColumnSpec, RowContext, SqlValue } from './schema.js';

/** Options shared by the value columns. */
export interface ColumnOptions {
  /** Probability that a value is NULL (the column is then declared nullable). */
  readonly nullRate?: number;
  /** Relative clause for category filters, e.g. `v => \`in ${v}\``. */
  readonly phrase?: (value: string) => string;
  readonly quoted?: boolean;
  readonly currency?: string;
  /** For numbers: set false when a total is meaningless (years, ratings, unit prices). */
  readonly summable?: boolean;
}

function withNulls(
  opts: ColumnOptions | undefined,
  gen: (ctx: RowContext) => SqlValue,
): { nullable: boolean; generate: (ctx: RowContext) => SqlValue } {
  const rate = opts?.nullRate ?? 0;
  if (rate <= 0) return { nullable: false, generate: gen };
  // Draw the value first so the stream of random numbers does not depend on the null draw.
  return { nullable: true, generate: (ctx) => { const v = gen(ctx); return ctx.rng.float() < rate ? null : v; } };
}

/**
 * The integer primary key `id` (1, 2, 3, … in generation order).
 *
 * @example
 * ```ts
 * key('patient_id');
 * ```
 */
export function key(name = 'id'): ColumnSpec {
  return {
    name, sqlType: 'INTEGER', role: 'key', label: 'id', nullable: false, unique: true,
    generate: (ctx) => ctx.index + 1,
  };
}

/**
 * A text primary key such as an airport code, drawn from a fixed list in order.
 *
 * @example
 * ```ts
 * codeKey('code', 'airport code', ['LIS', 'OPO']);
 * ```
 */
export function codeKey(name: string, label: string, codes: readonly string[]): ColumnSpec {
  return {
    name, sqlType: 'TEXT', role: 'key', label, nullable: false, unique: true,
    generate: (ctx) => {
      const code = codes[ctx.index];
      if (code === undefined) throw new RangeError(`codeKey ${name}: only ${codes.length} codes for row ${ctx.index + 1}`);
      return code;
    },
  };
}

/**
 * A foreign key to another (already generated) table's primary key.
 *
 * @example
 * ```ts
 * ref('doctor_id', 'doctor', 'doctor', { nullRate: 0.05 });
 * ```
 */
export function ref(name: string, table: string, label: string, opts?: ColumnOptions & { textKey?: boolean }): ColumnSpec {
  return {
    name, sqlType: opts?.textKey ? 'TEXT' : 'INTEGER', role: 'reference', label, references: table,
    unique: false, ...withNulls(opts, (ctx) => ctx.pick(table)),
  };
}

/**
 * A foreign key whose value a custom function chooses (e.g. to keep dates consistent).
 *
 * @example
 * ```ts
 * refBy('airport', 'origin', 'airport', (ctx) => ctx.pick('airport'), 'TEXT');
 * ```
 */
export function refBy(
  name: string, table: string, label: string, gen: (ctx: RowContext) => SqlValue, sqlType: 'INTEGER' | 'TEXT' = 'INTEGER',
): ColumnSpec {
  return { name, sqlType, role: 'reference', label, references: table, unique: false, nullable: false, generate: gen };
}

/**
 * The unique human identifier of a row (a person's name, a title).
 *
 * @example
 * ```ts
 * nameColumn('title', 'title', (rng) => inventedTitle(rng), { quoted: true });
 * ```
 */
export function nameColumn(name: string, label: string, gen: (rng: Rng, ctx: RowContext) => string, opts?: ColumnOptions): ColumnSpec {
  return {
    name, sqlType: 'TEXT', role: 'name', label, unique: true, nullable: false,
    ...(opts?.quoted ? { quoted: true } : {}),
    generate: (ctx) => gen(ctx.rng, ctx),
  };
}

/**
 * A category drawn from a list, optionally weighted.
 *
 * @example
 * ```ts
 * category('status', 'status', ['active', 'closed'], { weights: [4, 1] });
 * ```
 */
export function category(
  name: string, label: string, values: readonly string[], opts?: ColumnOptions & { weights?: readonly number[] },
): ColumnSpec {
  const weights = opts?.weights;
  return {
    name, sqlType: 'TEXT', role: 'category', label, unique: false,
    ...(opts?.phrase ? { phrase: opts.phrase } : {}),
    ...withNulls(opts, (ctx) => (weights ? weightedChoice(ctx.rng, values, weights) : ctx.rng.choice(values))),
  };
}

/**
 * A category computed from the row or its parents (e.g. a city copied from a venue).
 *
 * @example
 * ```ts
 * categoryBy('country', 'country', (ctx) => countryOf(ctx.row['city']));
 * ```
 */
export function categoryBy(name: string, label: string, gen: (ctx: RowContext) => SqlValue, opts?: ColumnOptions): ColumnSpec {
  return {
    name, sqlType: 'TEXT', role: 'category', label, unique: false,
    ...(opts?.phrase ? { phrase: opts.phrase } : {}),
    ...withNulls(opts, gen),
  };
}

/**
 * A whole number, uniform in [lo, hi] unless a custom generator is given.
 *
 * @example
 * ```ts
 * integer('capacity', 'capacity', 200, 20000);
 * ```
 */
export function integer(
  name: string, label: string, lo: number, hi: number, opts?: ColumnOptions & { gen?: (ctx: RowContext) => number },
): ColumnSpec {
  const gen = opts?.gen ?? ((ctx: RowContext) => ctx.rng.intBetween(lo, hi));
  return {
    name, sqlType: 'INTEGER', role: 'number', label, unique: false, summable: opts?.summable ?? true, ...withNulls(opts, gen),
  };
}

/**
 * A real number with a fixed count of decimals; with `currency`, an amount of money.
 *
 * @example
 * ```ts
 * real('price', 'price', 5, 120, 2, { currency: '$' });
 * ```
 */
export function real(
  name: string, label: string, lo: number, hi: number, decimals: number,
  opts?: ColumnOptions & { gen?: (ctx: RowContext) => number },
): ColumnSpec {
  const gen = opts?.gen ?? ((ctx: RowContext) => lo + ctx.rng.float() * (hi - lo));
  return {
    name, sqlType: 'REAL', role: 'number', label, unique: false, summable: opts?.summable ?? true,
    ...(opts?.currency ? { currency: opts.currency } : {}),
    ...withNulls(opts, (ctx) => roundTo(gen(ctx), decimals)),
  };
}

/**
 * An ISO date between two dates, or computed from the row.
 *
 * @example
 * ```ts
 * date('hired_on', 'hire date', '2010-01-01', '2024-06-30');
 * ```
 */
export function date(
  name: string, label: string, from: string, to: string, opts?: ColumnOptions & { gen?: (ctx: RowContext) => string },
): ColumnSpec {
  const gen = opts?.gen ?? ((ctx: RowContext) => isoDateBetween(ctx.rng, from, to));
  return { name, sqlType: 'DATE', role: 'date', label, unique: false, ...withNulls(opts, gen) };
}

/**
 * Free text nobody filters on (addresses, emails).
 *
 * @example
 * ```ts
 * text('email', 'email address', (ctx) => `user${ctx.index}@example.com`);
 * ```
 */
export function text(name: string, label: string, gen: (ctx: RowContext) => string, opts?: ColumnOptions): ColumnSpec {
  return { name, sqlType: 'TEXT', role: 'text', label, unique: false, ...withNulls(opts, gen) };
}
