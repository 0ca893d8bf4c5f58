/**
 * Generated splits (data/generator/procedural/generated-split.ts): which questions of the
 * generated databases a corpus keeps, and the split written on demand — loadable, reproducible,
 * reused when it is already there, rebuilt when its spec changed or a build was cut short.
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpusQuestions, type CorpusQuestion } from '../../data/generator/procedural/corpus-questions.js';
import { writeGeneratedSplit } from '../../data/generator/procedural/generated-split.js';
import { DataError } from '../../data/lib/data-error.js';
import { loadDataset } from '../../envs/sql/datasets/load-dataset.js';
import { useTempDirs } from '../helpers/temp-dirs.js';

const tempDir = useTempDirs('sqlenv-generated-split-');
const q = (db: string, template: string, difficulty = 'easy'): CorpusQuestion => ({ db_id: db, difficulty, template });
const spec = { databases: 2, questionsPerDb: 3, seed: 1001, inventedNames: 0.5 };

describe('corpusQuestions', () => {
  it('takes every k-th easy question of a database, so the picks spread over its templates', () => {
    const questions = [...'abcdefgh'].map((t) => q('d1', t));
    expect(corpusQuestions(questions, 4).map((x) => x['template'])).toEqual(['a', 'c', 'e', 'g']);
  });
  it('leaves out medium and hard questions', () => {
    expect(corpusQuestions([q('d1', 'a', 'medium'), q('d1', 'b'), q('d1', 'c', 'hard')], 8).map((x) => x['template'])).toEqual(['b']);
  });
  it('goes round-robin over the databases, one of each before a second of any', () => {
    const questions = [q('d1', 'a'), q('d1', 'b'), q('d2', 'x'), q('d2', 'y'), q('d3', 'p')];
    expect(corpusQuestions(questions, 2).map((x) => `${x.db_id}:${String(x['template'])}`)).toEqual(['d1:a', 'd2:x', 'd3:p', 'd1:b', 'd2:y']);
  });
});

describe('writeGeneratedSplit', () => {
  it('writes a loadable split of easy questions on new databases, and only that split', async () => {
    const dir = join(tempDir(), 'proc');
    const split = await writeGeneratedSplit(dir, 'proc', spec);
    expect(split).toEqual({ dir, questions: 6, heldOutQuestions: 0, reused: false });
    expect(readdirSync(join(dir, 'database')).sort()).toEqual(['proc_0', 'proc_1']);
    expect(readdirSync(dir).filter((f) => f.endsWith('.json')).sort()).toEqual(['build-info.json', 'generated-split.json', 'proc.json', 'tables.json']);
    const dataset = await loadDataset(dir, 'proc');
    try {
      expect(dataset.questions).toHaveLength(6);
      expect(new Set(dataset.questions.map((x) => x.dbId))).toEqual(new Set(['proc_0', 'proc_1']));
      expect(dataset.questions.every((x) => x.difficulty === 'easy')).toBe(true);
    } finally {
      await dataset.close();
    }
  });

  it('writes the same files for the same spec, and reuses them without writing', async () => {
    const a = join(tempDir(), 'proc');
    const b = join(tempDir(), 'proc');
    await writeGeneratedSplit(a, 'proc', spec);
    await writeGeneratedSplit(b, 'proc', spec);
    expect(readFileSync(join(a, 'proc.json'), 'utf8')).toBe(readFileSync(join(b, 'proc.json'), 'utf8'));
    expect(readFileSync(join(a, 'tables.json'), 'utf8')).toBe(readFileSync(join(b, 'tables.json'), 'utf8'));
    const written = statSync(join(a, 'proc.json')).mtimeMs;
    expect(await writeGeneratedSplit(a, 'proc', spec)).toEqual({ dir: a, questions: 6, heldOutQuestions: 0, reused: true });
    expect(statSync(join(a, 'proc.json')).mtimeMs).toBe(written);
  });

  it('rebuilds when the spec changed or an earlier build left no record of its spec', async () => {
    const dir = join(tempDir(), 'proc');
    await writeGeneratedSplit(dir, 'proc', spec);
    const more = await writeGeneratedSplit(dir, 'proc', { ...spec, databases: 3 });
    expect(more.reused).toBe(false);
    expect(readdirSync(join(dir, 'database')).sort()).toEqual(['proc_0', 'proc_1', 'proc_2']);
    writeFileSync(join(dir, 'generated-split.json'), '{"truncated":');
    expect((await writeGeneratedSplit(dir, 'proc', { ...spec, databases: 3 })).reused).toBe(false);
    expect(existsSync(`${dir}.tmp-${process.pid}`)).toBe(false);
  });

  it('writes a held-out split of other questions on the same databases, and rebuilds when only it changed', async () => {
    const dir = join(tempDir(), 'proc');
    const held = { ...spec, heldOut: { name: 'proc_heldout', perDb: 4 } };
    const split = await writeGeneratedSplit(dir, 'proc', held);
    expect(split).toMatchObject({ questions: 6, heldOutQuestions: 8, reused: false });
    const practice = JSON.parse(readFileSync(join(dir, 'proc.json'), 'utf8')) as CorpusQuestion[];
    const heldOut = JSON.parse(readFileSync(join(dir, 'proc_heldout.json'), 'utf8')) as CorpusQuestion[];
    const key = (x: CorpusQuestion) => `${x.db_id}|${String(x['question'])}|${String(x['query'])}`;
    expect(heldOut.filter((x) => practice.some((p) => key(p) === key(x)))).toEqual([]);
    expect(new Set(heldOut.map((x) => x.db_id))).toEqual(new Set(practice.map((x) => x.db_id)));
    const dataset = await loadDataset(dir, 'proc_heldout');
    try {
      expect(dataset.questions).toHaveLength(8);
    } finally {
      await dataset.close();
    }
    expect((await writeGeneratedSplit(dir, 'proc', held)).reused).toBe(true);
    expect(await writeGeneratedSplit(dir, 'proc', { ...held, heldOut: { name: 'proc_heldout', perDb: 2 } })).toMatchObject({ heldOutQuestions: 4, reused: false });
  });

  it('refuses a bad name or spec with the field to fix, writing nothing', async () => {
    const dir = join(tempDir(), 'bad');
    await expect(writeGeneratedSplit(dir, 'Proc-1', spec)).rejects.toThrow(DataError);
    await expect(writeGeneratedSplit(dir, 'Proc-1', spec)).rejects.toThrow(/lower-case letters, digits and _/);
    await expect(writeGeneratedSplit(dir, 'proc', { ...spec, databases: 0 })).rejects.toThrow(/databases must be a positive integer, got 0/);
    await expect(writeGeneratedSplit(dir, 'proc', { ...spec, questionsPerDb: 1.5 })).rejects.toThrow(/questionsPerDb must be a positive integer/);
    await expect(writeGeneratedSplit(dir, 'proc', { ...spec, inventedNames: 2 })).rejects.toThrow(/inventedNames is a share between 0 and 1, got 2/);
    await expect(writeGeneratedSplit(dir, 'proc', { ...spec, heldOut: { name: 'proc', perDb: 2 } })).rejects.toThrow(/heldOut.name "proc" .* differ from "proc"/);
    await expect(writeGeneratedSplit(dir, 'proc', { ...spec, heldOut: { name: 'held', perDb: 0 } })).rejects.toThrow(/heldOut.perDb must be a positive integer, got 0/);
    expect(existsSync(dir)).toBe(false);
  });
});
