import { DataError } from './data-error.js';

/**
 * Keeps the generated sections of the data card (data/README.md) — the statistics that
 * `sqlenv data stats` prints and the schema summary — equal to the data: the build rewrites the
 * text between a section's two HTML comment markers, and a test checks the committed card.
 */

/** The generated sections of the data card. */
export type CardSection = 'stats' | 'schemas';

/**
 * The opening and closing markers of a generated section.
 *
 * @example
 * ```ts
 * sectionMarkers('stats').end; // '<!-- stats:end -->'
 * ```
 */
export function sectionMarkers(name: CardSection): { start: string; end: string } {
  return { start: `<!-- ${name}:start (written by npm run data:build; do not edit by hand) -->`, end: `<!-- ${name}:end -->` };
}

/** The data card lacks the markers of a section. */
export class DataCardError extends DataError {
  override readonly name = 'DataCardError';
}

/**
 * The text currently in a generated section of a data card.
 *
 * @example
 * ```ts
 * cardSection(readFileSync('data/README.md', 'utf8'), 'stats'); // '15 databases, …'
 * ```
 */
export function cardSection(card: string, name: CardSection): string {
  const { start, end } = sectionMarkers(name);
  const from = card.indexOf(start);
  const to = card.indexOf(end);
  if (from < 0 || to < from) throw new DataCardError(`the data card needs the markers ${start} and ${end}`);
  return card.slice(from + start.length, to).trim();
}

/**
 * The data card with one generated section replaced.
 *
 * @example
 * ```ts
 * withCardSection(card, 'stats', formatDatasetStats(stats));
 * ```
 */
export function withCardSection(card: string, name: CardSection, text: string): string {
  cardSection(card, name);
  const { start, end } = sectionMarkers(name);
  const from = card.indexOf(start) + start.length;
  return `${card.slice(0, from)}\n\n${text.trim()}\n\n${card.slice(card.indexOf(end))}`;
}
