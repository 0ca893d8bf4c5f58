/**
 * A split of procedurally generated databases, written on demand: databases no bundled split has
 * (their tables and columns drawn from the entity catalog, some renamed to invented words), and a
 * few easy questions on each. Training on it gives a model schemas it has never seen, which the
 * bundled train split, a dozen databases, cannot.
 */
import { existsSync } from 'node:fs';
import { readFile, rename, rm, unlink, writeFile } from 'node:fs/promises';
import { DataError } from '../../lib/data-error.js';
import { splitPath } from '../../lib/spider-layout.js';
import { buildDataset } from '../build-dataset.js';
import { SPLIT_NAMES } from '../splits.js';
import { corpusQuestions, type CorpusQuestion } from './corpus-questions.js';
import { withInventedNames } from './invented-names.js';
import { proceduralDomains } from './procedural-domain.js';

/** What a generated split holds; the same spec always writes the same files. */
export interface GeneratedSplitSpec {
  /** Databases generated (`<name>_0` … `<name>_{n−1}`). */
  readonly databases: number;
  /** Easy questions kept per database (fewer where a database has fewer). */
  readonly questionsPerDb: number;
  /** Generator seed of the first database; database i uses seed + i. */
  readonly seed: number;
  /** Share of tables and attribute columns renamed to invented words, in [0, 1]. */
  readonly inventedNames: number;
  /**
   * A second split of other easy questions on the same databases (none of them in the first):
   * what an agent that practised on the first is tested on, to see whether it learnt the
   * databases rather than the questions.
   */
  readonly heldOut?: { readonly name: string; readonly perDb: number };
}

/** A split written (or found) by {@link writeGeneratedSplit}. */
export interface GeneratedSplit {
  /** The dataset directory (bundled layout): `database/`, `tables.json`, `<name>.json`. */
  readonly dir: string;
  readonly questions: number;
  /** Questions of the held-out split (0 without `spec.heldOut`). */
  readonly heldOutQuestions: number;
  /** True when the directory already held this spec's split and nothing was written. */
  readonly reused: boolean;
}

const SPEC_FILE = 'generated-split.json';

/** Throws a {@link DataError} naming the first field of a split's name or spec that cannot be built. */
export function checkGeneratedSplit(name: string, spec: GeneratedSplitSpec): void {
  if (!/^[a-z][a-z0-9_]*$/.test(name)) {
    throw new DataError(`generated split name "${name}" must be lower-case letters, digits and _, starting with a letter: it names the split's file and prefixes its database ids`);
  }
  for (const key of ['databases', 'questionsPerDb'] as const) {
    if (!Number.isInteger(spec[key]) || spec[key] < 1) throw new DataError(`generated split "${name}": ${key} must be a positive integer, got ${spec[key]}`);
  }
  if (!Number.isInteger(spec.seed) || spec.seed < 0) throw new DataError(`generated split "${name}": seed must be a non-negative integer, got ${spec.seed}`);
  if (!(spec.inventedNames >= 0 && spec.inventedNames <= 1)) throw new DataError(`generated split "${name}": inventedNames is a share between 0 and 1, got ${spec.inventedNames}`);
  if (spec.heldOut) {
    if (!/^[a-z][a-z0-9_]*$/.test(spec.heldOut.name) || spec.heldOut.name === name) {
      throw new DataError(`generated split "${name}": heldOut.name "${spec.heldOut.name}" must be lower-case letters, digits and _, starting with a letter, and differ from "${name}"`);
    }
    if (!Number.isInteger(spec.heldOut.perDb) || spec.heldOut.perDb < 1) throw new DataError(`generated split "${name}": heldOut.perDb must be a positive integer, got ${spec.heldOut.perDb}`);
  }
}

/**
 * Writes split `name` of freshly generated databases into `dir` (and, with `spec.heldOut`, a
 * second split of other questions on the same databases), or reuses the directory when an
 * earlier call wrote the same name and spec there. The split is built beside `dir` and renamed into
 * place, so an interrupted build never leaves a half-written split that a later call would reuse.
 *
 * @throws DataError when the name or spec cannot be built (see {@link checkGeneratedSplit}).
 * @example
 * ```ts
 * const split = await writeGeneratedSplit('runs/demo/generated/procedural', 'procedural', { databases: 200, questionsPerDb: 8, seed: 1001, inventedNames: 0.5 });
 * const dataset = await loadDataset(split.dir, 'procedural');
 * ```
 */
export async function writeGeneratedSplit(dir: string, name: string, spec: GeneratedSplitSpec): Promise<GeneratedSplit> {
  checkGeneratedSplit(name, spec);
  const identity = JSON.stringify({
    name,
    databases: spec.databases,
    questionsPerDb: spec.questionsPerDb,
    seed: spec.seed,
    inventedNames: spec.inventedNames,
    ...(spec.heldOut ? { heldOut: { name: spec.heldOut.name, perDb: spec.heldOut.perDb } } : {}),
  });
  const marker = `${dir}/${SPEC_FILE}`;
  const count = async (split: string) => (JSON.parse(await readFile(splitPath(dir, split), 'utf8')) as unknown[]).length;
  if (existsSync(marker) && (await readFile(marker, 'utf8')) === identity) {
    return { dir, questions: await count(name), heldOutQuestions: spec.heldOut ? await count(spec.heldOut.name) : 0, reused: true };
  }
  const staging = `${dir}.tmp-${process.pid}`;
  await rm(staging, { recursive: true, force: true });
  try {
    const domains = proceduralDomains(name, spec.databases, spec.seed).map((d) => withInventedNames(d, spec.inventedNames));
    buildDataset({ outDir: staging, domains, unseenDbIds: [], evalFraction: 0, smokeSize: 0 });
    const all = JSON.parse(await readFile(splitPath(staging, 'train'), 'utf8')) as CorpusQuestion[];
    // The builder's own split files would be a second, larger split of the same databases: only `name` stays.
    for (const split of SPLIT_NAMES) await unlink(splitPath(staging, split));
    const corpus = corpusQuestions(all, spec.questionsPerDb);
    await writeFile(splitPath(staging, name), JSON.stringify(corpus, null, 1));
    let heldOutQuestions = 0;
    if (spec.heldOut) {
      const taken = new Set(corpus);
      const heldOut = corpusQuestions(all.filter((q) => !taken.has(q)), spec.heldOut.perDb);
      await writeFile(splitPath(staging, spec.heldOut.name), JSON.stringify(heldOut, null, 1));
      heldOutQuestions = heldOut.length;
    }
    await writeFile(`${staging}/${SPEC_FILE}`, identity);
    await rm(dir, { recursive: true, force: true });
    await rename(staging, dir);
    return { dir, questions: corpus.length, heldOutQuestions, reused: false };
  } catch (err) {
    await rm(staging, { recursive: true, force: true });
    throw err;
  }
}
