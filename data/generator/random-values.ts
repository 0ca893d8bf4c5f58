/**
 * Small value generators shared by the domains: people, titles, dates, weighted choices.
 * All randomness comes from the caller's {@link Rng}, so a fixed seed fixes every value.
 */
import type { Rng } from '../../src/base/rng.js';
import { FIRST_NAMES, LAST_NAMES, TITLE_ADJECTIVES, TITLE_NOUNS } from './words.js';

/**
 * A person's full name.
 *
 * @example
 * ```ts
 * personName(new Rng(1)); // e.g. 'Maya Okafor'
 * ```
 */
export function personName(rng: Rng): string {
  return `${rng.choice(FIRST_NAMES)} ${rng.choice(LAST_NAMES)}`;
}

/**
 * An invented two- or three-word title such as `The Silent Harbor` or `Winter Echo`.
 *
 * @example
 * ```ts
 * inventedTitle(new Rng(3)); // e.g. 'Golden Mirror'
 * ```
 */
export function inventedTitle(rng: Rng): string {
  const core = `${rng.choice(TITLE_ADJECTIVES)} ${rng.choice(TITLE_NOUNS)}`;
  const form = rng.int(5);
  if (form === 0) return `The ${core}`;
  if (form === 1) return `${core} ${rng.choice(['Song', 'Story', 'Days', 'Nights', 'Lines'])}`;
  return core;
}

/**
 * One item chosen with the given relative weights.
 *
 * @example
 * ```ts
 * weightedChoice(new Rng(0), ['common', 'rare'], [9, 1]);
 * ```
 */
export function weightedChoice<T>(rng: Rng, items: readonly T[], weights: readonly number[]): T {
  if (items.length !== weights.length || items.length === 0) {
    throw new RangeError('weightedChoice needs one positive weight per item');
  }
  const total = weights.reduce((a, b) => a + b, 0);
  let r = rng.float() * total;
  for (let i = 0; i < items.length; i++) {
    r -= weights[i]!;
    if (r < 0) return items[i]!;
  }
  return items[items.length - 1]!;
}

const DAY_MS = 86_400_000;

/**
 * A uniformly chosen ISO date (`YYYY-MM-DD`) between two ISO dates, inclusive.
 *
 * @example
 * ```ts
 * isoDateBetween(new Rng(0), '2020-01-01', '2020-12-31'); // e.g. '2020-07-14'
 * ```
 */
export function isoDateBetween(rng: Rng, from: string, to: string): string {
  const a = Date.parse(`${from}T00:00:00Z`);
  const b = Date.parse(`${to}T00:00:00Z`);
  const days = Math.round((b - a) / DAY_MS);
  return new Date(a + rng.int(days + 1) * DAY_MS).toISOString().slice(0, 10);
}

/**
 * An ISO date moved by a number of days.
 *
 * @example
 * ```ts
 * addDays('2024-02-28', 2); // '2024-03-01'
 * ```
 */
export function addDays(iso: string, days: number): string {
  return new Date(Date.parse(`${iso}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/**
 * A number rounded to a fixed count of decimals, as a plain JS number (no float noise).
 *
 * @example
 * ```ts
 * roundTo(12.3456, 2); // 12.35
 * roundTo(245_380, -3); // 245000
 * ```
 */
export function roundTo(value: number, decimals: number): number {
  if (decimals < 0) {
    const step = 10 ** -decimals;
    return Math.round(value / step) * step;
  }
  const f = 10 ** decimals;
  return Math.round(value * f) / f;
}
