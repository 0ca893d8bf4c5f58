/**
 * How `npm run bench` writes its results into BENCHMARKS.md: each bench owns the text between
 * `<!-- bench:NAME -->` and `<!-- /bench:NAME -->`; everything else in the file (the title, notes
 * and sections written by hand, marked or not) belongs to people and is kept as it stands.
 */

/** The markers around bench `name`'s section. */
const open = (name: string): string => `<!-- bench:${name} -->`;
const close = (name: string): string => `<!-- /bench:${name} -->`;

/**
 * The text of bench `name`'s section in `benchmarks` (between its markers), or undefined.
 *
 * @example
 * ```ts
 * benchSection(readFileSync('BENCHMARKS.md', 'utf8'), 'train-demo');
 * ```
 */
export function benchSection(benchmarks: string, name: string): string | undefined {
  const start = benchmarks.indexOf(open(name));
  const end = start === -1 ? -1 : benchmarks.indexOf(close(name), start);
  return end === -1 ? undefined : benchmarks.slice(start + open(name).length, end);
}

/** A file without BENCHMARKS.md yet starts with this. */
export const BENCHMARKS_HEADER =
  '# Benchmarks\n\nRegenerate with `npm run bench` (all) or `npm run bench -- NAME` (one section). ' +
  'Each section names its command, machine and the reference measured beside it in the same run.\n';

/**
 * The new text of BENCHMARKS.md: `previous` with the section of every bench in `fresh` replaced
 * in place (its markers kept), and the sections of benches that had none yet added after the last
 * marked section (at the end when there is none), in name order. Text outside the markers of
 * the benches run is returned unchanged, byte for byte.
 *
 * @param fresh each bench's new section text (from its `## title` on), by bench name; it is
 *   written as given between its markers.
 *
 * @example
 * ```ts
 * mergeBenchSections('# Benchmarks\n\nNotes.\n', new Map([['gym', '## Gym\n\n1 step/s\n']]));
 * // → '# Benchmarks\n\nNotes.\n\n<!-- bench:gym -->\n## Gym\n\n1 step/s\n<!-- /bench:gym -->\n'
 * ```
 */
export function mergeBenchSections(previous: string, fresh: ReadonlyMap<string, string>): string {
  const block = (name: string, text: string): string => `${open(name)}\n${text.endsWith('\n') ? text : `${text}\n`}${close(name)}`;
  let text = previous.trim() === '' ? BENCHMARKS_HEADER : previous;
  const added: string[] = [];
  for (const name of [...fresh.keys()].sort()) {
    const start = text.indexOf(open(name));
    const end = start === -1 ? -1 : text.indexOf(close(name), start);
    if (end === -1) {
      added.push(name);
      continue;
    }
    text = text.slice(0, start) + block(name, fresh.get(name)!) + text.slice(end + close(name).length);
  }
  if (added.length === 0) return text;
  const newBlocks = added.map((name) => block(name, fresh.get(name)!)).join('\n\n');
  const lastClose = [...text.matchAll(/<!-- \/bench:\S+ -->/g)].pop();
  if (!lastClose) return `${text.replace(/\n*$/, '\n')}\n${newBlocks}\n`;
  const at = lastClose.index + lastClose[0].length;
  return `${text.slice(0, at)}\n\n${newBlocks}${text.slice(at)}`;
}
