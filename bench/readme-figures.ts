/**
 * The README's figures come from one place: BENCHMARKS.md. This module reads the demo's figures
 * from the `train-demo` section (and the hand-written fresh-clone line after it), and the compute
 * core's from the `onnx` and `vs-trl` sections, and writes them
 * into README.md — the generated block between `<!-- figures:train-demo -->` and
 * `<!-- /figures:train-demo -->`, and every inline figure `<!--fig:KEY-->value<!--/fig-->` in the
 * prose — so that no two sections can state different figures. `npm run readme:figures`
 * rewrites README.md; test/docs/readme-figures.test.ts fails when README.md is not what this
 * module would write.
 *
 *   npm run readme:figures
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { packageRoot } from '../src/base/package-root.js';
import { benchSection } from './merge-sections.js';

/** BENCHMARKS.md or README.md does not have the shape this module reads; the message says where. */
export class ReadmeFiguresError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReadmeFiguresError';
  }
}

/** One split's figures in the demo's benchmark. */
export interface SplitFigures {
  split: string;
  /** Greedy success after SFT and after GRPO, mean ± std over seeds (e.g. `95.0% ± 1.7`). */
  sft: string;
  grpo: string;
  /** GRPO − SFT in points, mean ± std over seeds (e.g. `+0.0 ± 0.8`). */
  change: string;
  /** GRPO − SFT in points per seed, with the questions gained and lost. */
  perSeed: { change: string; gained: number; lost: number }[];
}

/** The demo's figures, as BENCHMARKS.md states them. */
export interface DemoFigures {
  date: string;
  commit: string;
  seeds: string[];
  /** The most questions of a split the demo evaluates (its `eval.episodes`). */
  questionCap: number;
  splits: SplitFigures[];
  /** Wall time of the seed that ran alone, without the build (e.g. `13.0 min`). */
  aloneMinutes: string;
  /** The hand-written fresh-clone measurement: `npm run demo` with its build. */
  freshClone: { time: string; commit: string; date: string };
}

const FIRST = (text: string, pattern: RegExp, what: string): RegExpExecArray => {
  const m = pattern.exec(text);
  if (!m) throw new ReadmeFiguresError(`BENCHMARKS.md's train-demo section has no ${what} (looked for ${String(pattern)}); regenerate it with \`npm run bench -- train-demo\` or update bench/readme-figures.ts`);
  return m;
};

/** Source figures use a hyphen for minus; the README prints the minus sign. */
const signed = (value: string): string => value.replace(/^-/, '−');

/**
 * Read the demo's figures from the text of BENCHMARKS.md.
 *
 * @example
 * ```ts
 * const figures = parseDemoFigures(readFileSync('BENCHMARKS.md', 'utf8'));
 * figures.splits.find((s) => s.split === 'eval')?.grpo; // '95.0% ± 1.5'
 * ```
 */
export function parseDemoFigures(benchmarks: string): DemoFigures {
  const section = benchSection(benchmarks, 'train-demo');
  if (section === undefined) throw new ReadmeFiguresError('BENCHMARKS.md has no <!-- bench:train-demo --> section; run `npm run bench -- train-demo`');
  const [, date, commit] = FIRST(section, /_Measured (\d{4}-\d{2}-\d{2}) .*? at ([0-9a-f]{7,40})\b/, 'measurement date and commit');
  const seeds = FIRST(section, /seeds ([\d, ]+) \(TRAIN_DEMO_SEEDS=/, 'seed list')[1]!.split(/,\s*/);
  const questionCap = Number(FIRST(section, /on the same (\d+) questions of each split/, 'question count')[1]);
  const table = section.split('\n').filter((line) => line.startsWith('|'));
  const header = table[0]?.split('|').map((c) => c.trim()) ?? [];
  const row = (policy: string): string[] => {
    const found = table.find((line) => line.split('|')[1]?.trim() === policy);
    if (!found) throw new ReadmeFiguresError(`BENCHMARKS.md's train-demo table has no row '${policy}'`);
    return found.split('|').map((c) => c.trim());
  };
  const sftRow = row('+ SFT');
  const grpoRow = row('+ SFT + GRPO');
  const means = FIRST(section, /mean ± sample std over seeds: ([^\n]*)/, 'mean change over seeds')[1]!;
  const changes = FIRST(section, /^Held-out success change[^\n]*/m, 'line of held-out success changes')[0];
  const seedText = (seed: string): string => {
    const part = changes.split('; ').find((p) => p.includes(`seed ${seed}: `));
    if (!part) throw new ReadmeFiguresError(`BENCHMARKS.md's train-demo section has no change for seed ${seed}`);
    return part.slice(part.indexOf(`seed ${seed}: `) + `seed ${seed}: `.length);
  };
  const splits = header.flatMap((cell, column) => {
    const split = /^(\S+) greedy$/.exec(cell)?.[1];
    if (!split) return [];
    const change = FIRST(means, new RegExp(`(?:^|, )${split} ([+-]?\\d+\\.\\d) ± (\\d+\\.\\d)`), `mean change of ${split}`);
    const perSeed = seeds.map((seed) => {
      const m = FIRST(seedText(seed), new RegExp(`(?:^|, )${split} ([+-]?\\d+\\.\\d) \\((\\d+) gained, (\\d+) lost`), `change of ${split} for seed ${seed}`);
      return { change: signed(m[1]!), gained: Number(m[2]), lost: Number(m[3]) };
    });
    return [{ split, sft: sftRow[column]!, grpo: grpoRow[column]!, change: `${signed(change[1]!)} ± ${change[2]}`, perSeed }];
  });
  if (splits.length === 0) throw new ReadmeFiguresError("BENCHMARKS.md's train-demo table has no '<split> greedy' columns");
  const aloneMinutes = `${FIRST(section, /([\d.]+) min \(alone\)/, 'wall time of the seed that ran alone')[1]!} min`;
  const fresh = /Fresh clone: `npm run demo` took (\d+ min \d+ s) with its build \(([0-9a-f]{7,40}), (\d{4}-\d{2}-\d{2})/.exec(benchmarks);
  if (!fresh) throw new ReadmeFiguresError('BENCHMARKS.md has no line "Fresh clone: `npm run demo` took N min N s with its build (COMMIT, DATE, …)" after the train-demo section');
  return { date: date!, commit: commit!, seeds, questionCap, splits, aloneMinutes, freshClone: { time: fresh[1]!, commit: fresh[2]!, date: fresh[3]! } };
}

/**
 * The compute figures the README cites, by key: the ONNX core against PyTorch eager (`onnx.*`,
 * from the `onnx` section: the median ratio of each case and pass) and one GRPO step against
 * TRL's GRPOTrainer (`vs-trl.*`), each with the CPU it was measured on (model and vector
 * extension, from the section's stamp), so a claim never outlives its machine.
 *
 * @example
 * ```ts
 * parseComputeFigures(readFileSync('BENCHMARKS.md', 'utf8')).get('onnx.block.forward-backward'); // '1.48×'
 * ```
 */
export function parseComputeFigures(benchmarks: string): Map<string, string> {
  const map = new Map<string, string>();
  const stamp = (name: string, section: string): void => {
    const m = FIRST(section, /_Measured (\d{4}-\d{2}-\d{2}) on [^,]+, (\d+) × ([^,]+), /, `${name} measurement stamp`);
    map.set(`${name}.date`, m[1]!);
    map.set(`${name}.cpu`, `${m[2]}-core ${m[3]!.trim()}`);
  };
  const onnx = benchSection(benchmarks, 'onnx');
  if (onnx === undefined) throw new ReadmeFiguresError('BENCHMARKS.md has no <!-- bench:onnx --> section; run `npm run bench -- onnx`');
  stamp('onnx', onnx);
  for (const [key, prefix] of [['block', '| one block'], ['lm', '| decoder LM']] as const) {
    for (const [pass, label] of [['forward', 'forward'], ['forward-backward', 'forward + backward']] as const) {
      const row = onnx.split('\n').find((l) => l.startsWith(prefix) && l.split('|')[2]?.trim() === label);
      const ratio = row?.split('|')[5]?.trim().split(' ')[0];
      if (!ratio) throw new ReadmeFiguresError(`BENCHMARKS.md's onnx table has no ratio for ${prefix.slice(2)} … ${label}`);
      map.set(`onnx.${key}.${pass}`, ratio);
    }
  }
  const race = benchSection(benchmarks, 'vs-trl');
  if (race === undefined) throw new ReadmeFiguresError('BENCHMARKS.md has no <!-- bench:vs-trl --> section; run `npm run bench -- vs-trl`');
  stamp('vs-trl', race);
  const m = FIRST(race, /ours is ([\d.]+×) faster\*\* \(TRL ([\d.]+ m?s), ours ([\d.]+ m?s)\)/, 'per-step ratio line');
  map.set('vs-trl.ratio', m[1]!);
  map.set('vs-trl.trl', m[2]!);
  map.set('vs-trl.ours', m[3]!);
  return map;
}

/**
 * The inline figures the README's prose may cite, by key (`<!--fig:KEY-->…<!--/fig-->`).
 *
 * @example
 * ```ts
 * inlineFigures(figures).get('eval.grpo'); // '95.0% ± 1.5'
 * ```
 */
export function inlineFigures(figures: DemoFigures): Map<string, string> {
  const map = new Map<string, string>([
    ['demo.seeds', figures.seeds.join(', ')],
    ['demo.commit', figures.commit],
    ['demo.alone-minutes', figures.aloneMinutes],
    ['demo.fresh-clone', figures.freshClone.time],
    ['demo.fresh-clone-commit', figures.freshClone.commit],
  ]);
  for (const s of figures.splits) {
    map.set(`${s.split}.sft`, s.sft);
    map.set(`${s.split}.grpo`, s.grpo);
    map.set(`${s.split}.sft-mean`, s.sft.split(' ')[0]!);
    map.set(`${s.split}.grpo-mean`, s.grpo.split(' ')[0]!);
    map.set(`${s.split}.change`, s.change);
  }
  return map;
}

/**
 * The generated block: the demo's figures per split, with where they come from.
 *
 * @param easyQuestions the number of easy questions of each split (the demo's tier), to say how
 *   many of them the figures are over.
 *
 * @example
 * ```ts
 * demoBlock(figures, { eval: 119, eval_unseen_db: 246 });
 * ```
 */
export function demoBlock(figures: DemoFigures, easyQuestions: Readonly<Record<string, number>>): string {
  const counts = figures.splits.map((s) => {
    const easy = easyQuestions[s.split];
    if (easy === undefined) throw new ReadmeFiguresError(`no easy-question count for split '${s.split}'`);
    const used = Math.min(easy, figures.questionCap);
    return `\`${s.split}\` ${used === easy ? `all ${easy}` : `${used} of ${easy}`}`;
  });
  const rows = figures.splits.map((s) => {
    const perSeed = s.perSeed.map((p) => p.change).join(', ');
    const gainedLost = s.perSeed.map((p) => `+${p.gained}/−${p.lost}`).join(', ');
    return `| \`${s.split}\` | ${s.sft} | ${s.grpo} | ${s.change} (${perSeed}) | ${gainedLost} |`;
  });
  return [
    '<!-- generated by `npm run readme:figures` from BENCHMARKS.md (train-demo); test/docs/readme-figures.test.ts fails when they differ -->',
    `**The benchmarked recipe, over seeds ${figures.seeds.join(', ')}** (\`TRAIN_DEMO_SEEDS=${figures.seeds.join(',')} npm run bench -- train-demo\`, ${figures.date} at ${figures.commit},`,
    `[BENCHMARKS.md](BENCHMARKS.md)): greedy success decoded with the guide that recipe evaluated with, mean ± std over seeds,`,
    `on the easy questions of each split (${counts.join(', ')}):`,
    '',
    '| split | SFT | SFT + GRPO | GRPO − SFT, points (per seed) | questions gained/lost (per seed) |',
    '| --- | --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
}

const BLOCK_OPEN = '<!-- figures:train-demo -->';
const BLOCK_CLOSE = '<!-- /figures:train-demo -->';

/**
 * README.md with its generated block and inline figures rewritten from `figures`; throws when the
 * block is missing or an inline figure names an unknown key.
 *
 * @example
 * ```ts
 * writeFileSync('README.md', renderReadmeFigures(readme, figures, easy));
 * ```
 */
export function renderReadmeFigures(readme: string, figures: DemoFigures, easyQuestions: Readonly<Record<string, number>>, compute: ReadonlyMap<string, string> = new Map()): string {
  const start = readme.indexOf(BLOCK_OPEN);
  const end = readme.indexOf(BLOCK_CLOSE, start);
  if (start === -1 || end === -1) throw new ReadmeFiguresError(`README.md has no ${BLOCK_OPEN} … ${BLOCK_CLOSE} block; add the two markers where the demo's figures belong`);
  const withBlock = `${readme.slice(0, start)}${BLOCK_OPEN}\n${demoBlock(figures, easyQuestions)}\n${readme.slice(end)}`;
  const inline = new Map([...inlineFigures(figures), ...compute]);
  return withBlock.replace(/<!--fig:([\w.-]+)-->[\s\S]*?<!--\/fig-->/g, (_, key: string) => {
    const value = inline.get(key);
    if (value === undefined) throw new ReadmeFiguresError(`README.md cites an unknown figure '${key}'; known: ${[...inline.keys()].join(', ')}`);
    return `<!--fig:${key}-->${value}<!--/fig-->`;
  });
}

/**
 * The easy questions of each bundled split (the tier the demo evaluates), read from its question file.
 *
 * @example
 * ```ts
 * easyQuestionCounts(root, ['eval']); // { eval: 119 }
 * ```
 */
export function easyQuestionCounts(root: string, splits: readonly string[]): Record<string, number> {
  return Object.fromEntries(
    splits.map((split) => {
      const questions = JSON.parse(readFileSync(join(root, 'data', 'bundled', `${split}.json`), 'utf8')) as { difficulty?: string }[];
      return [split, questions.filter((q) => q.difficulty === 'easy').length];
    }),
  );
}

/** README.md as it should be, from BENCHMARKS.md and the bundled data under `root`. */
export function expectedReadme(root: string): string {
  const benchmarks = readFileSync(join(root, 'BENCHMARKS.md'), 'utf8');
  const figures = parseDemoFigures(benchmarks);
  const easy = easyQuestionCounts(root, figures.splits.map((s) => s.split));
  return renderReadmeFigures(readFileSync(join(root, 'README.md'), 'utf8'), figures, easy, parseComputeFigures(benchmarks));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const root = packageRoot();
  writeFileSync(join(root, 'README.md'), expectedReadme(root));
  console.log('README.md: figures rewritten from BENCHMARKS.md');
}
