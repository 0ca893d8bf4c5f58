/**
 * The generator's building blocks on a tiny two-table domain: row generation honours keys,
 * uniqueness, NULL rates and references; the SQLite writer declares keys and indexes; the
 * instantiator keeps only gold SQL that passes the gates; splits partition the questions.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { category, integer, key, nameColumn, real, ref } from '../../data/generator/columns.js';
import { GenerationError, populate } from '../../data/generator/populate.js';
import { DbView } from '../../data/generator/questions/db-view.js';
import { GENERIC_TEMPLATES } from '../../data/generator/questions/generic-templates.js';
import { instantiateTemplates, TemplateSqlError, type AcceptedQuestion } from '../../data/generator/questions/instantiate.js';
import type { QuestionTemplate } from '../../data/generator/questions/template.js';
import type { DomainSpec } from '../../data/generator/schema.js';
import { spiderTablesEntry } from '../../data/generator/spider-tables.js';
import { assignSplits, carveValidation } from '../../data/generator/splits.js';
import { writeSqlite } from '../../data/generator/sqlite-writer.js';
import { useTempDirs } from '../helpers/temp-dirs.js';

const tiny: DomainSpec = {
  id: 'tiny_shop',
  summary: 'A tiny test domain.',
  tables: [
    {
      name: 'shop', singular: 'shop', plural: 'shops', rowCount: 25,
      columns: [
        key(),
        nameColumn('name', 'name', (rng, ctx) => `Shop ${ctx.index}-${rng.int(3)}`),
        category('city', 'city', ['Lisbon', 'Porto', 'Braga'], { phrase: (v) => `in ${v}` }),
        integer('opened_year', 'opening year', 1990, 2020, { summable: false }),
      ],
    },
    {
      name: 'sale', singular: 'sale', plural: 'sales', rowCount: 300,
      columns: [
        key(),
        ref('shop_id', 'shop', 'shop'),
        real('amount', 'amount', 5, 500, 2, { currency: '$' }),
        category('channel', 'channel', ['web', 'store'], { nullRate: 0.2 }),
      ],
    },
  ],
  templates: [],
};

const tempDir = useTempDirs('sqlenv-gen-');
const tempFile = (name: string) => join(tempDir(), name);

describe('populate', () => {
  it('is deterministic in the seed and differs across seeds', () => {
    expect(populate(tiny, 1).rows.get('sale')).toEqual(populate(tiny, 1).rows.get('sale'));
    expect(populate(tiny, 1).rows.get('sale')).not.toEqual(populate(tiny, 2).rows.get('sale'));
  });

  it('makes row counts, unique names, valid references and NULLs at about the requested rate', () => {
    const db = populate(tiny, 7);
    const shops = db.rows.get('shop')!;
    const sales = db.rows.get('sale')!;
    expect(shops).toHaveLength(25);
    expect(new Set(shops.map((s) => s['name'])).size).toBe(25);
    const ids = new Set(shops.map((s) => s['id']));
    expect(sales.every((s) => ids.has(s['shop_id']!))).toBe(true);
    const nulls = sales.filter((s) => s['channel'] === null).length / sales.length;
    expect(nulls).toBeGreaterThan(0.1);
    expect(nulls).toBeLessThan(0.3);
  });

  it('explains impossible uniqueness instead of looping forever', () => {
    const impossible: DomainSpec = {
      ...tiny,
      tables: [{ ...tiny.tables[0]!, columns: [key(), nameColumn('name', 'name', (rng) => `Shop ${rng.int(3)}`)] }],
    };
    expect(() => populate(impossible, 1)).toThrow(GenerationError);
  });

  it('refuses references to tables generated later', () => {
    const backwards: DomainSpec = { ...tiny, tables: [tiny.tables[1]!, tiny.tables[0]!] };
    expect(() => populate(backwards, 1)).toThrow(/referenced before it is generated/);
  });
});

describe('writeSqlite', () => {
  it('declares primary keys, foreign keys, NOT NULL, and indexes the foreign keys', () => {
    const file = tempFile('tiny.sqlite');
    writeSqlite(populate(tiny, 3), file);
    const db = new Database(file, { readonly: true });
    try {
      expect(db.prepare('SELECT COUNT(*) FROM sale').pluck().get()).toBe(300);
      const cols = db.prepare('PRAGMA table_info(sale)').all() as { name: string; type: string; notnull: number; pk: number }[];
      expect(cols.find((c) => c.name === 'id')!.pk).toBe(1);
      expect(cols.find((c) => c.name === 'amount')!.notnull).toBe(1);
      expect(cols.find((c) => c.name === 'channel')!.notnull).toBe(0);
      expect(db.prepare('PRAGMA foreign_key_list(sale)').all()).toMatchObject([{ table: 'shop', from: 'shop_id', to: 'id' }]);
      expect(db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'sale'").pluck().all()).toEqual(['sale_shop_id_idx']);
      expect(db.prepare('PRAGMA page_size').pluck().get()).toBe(4096);
    } finally {
      db.close();
    }
  });
});

describe('instantiateTemplates', () => {
  const build = () => {
    const generated = populate(tiny, 11);
    const file = tempFile('tiny.sqlite');
    writeSqlite(generated, file);
    return { view: new DbView(generated), conn: new Database(file, { readonly: true }) };
  };

  it('keeps only drafts whose gold answers pass the gates, without repeats', () => {
    const { view, conn } = build();
    const rejected = new Map<string, number>();
    const kept = instantiateTemplates(view, conn, GENERIC_TEMPLATES, 5, { questions: new Set(), queries: new Set() }, rejected);
    conn.close();
    expect(kept.length).toBeGreaterThan(40);
    expect(new Set(kept.map((q) => q.query)).size).toBe(kept.length);
    for (const q of kept) {
      expect(q.answer.length).toBeGreaterThan(0);
      expect(q.answer.length).toBeLessThanOrEqual(20);
    }
    expect(new Set(kept.map((q) => q.difficulty))).toEqual(new Set(['easy', 'medium', 'hard', 'extra']));
  });

  it('drops a "top 1" question whose answer would be an arbitrary pick among ties', () => {
    const { view, conn } = build();
    const tied: QuestionTemplate = {
      id: 'test/tied', difficulty: 'medium',
      drafts: () => [{
        question: 'Which city has a shop?', query: 'SELECT city FROM shop ORDER BY 1 = 1 DESC LIMIT 1', tables: ['shop'],
        tie: { probe: 'SELECT 1 = 1 FROM shop LIMIT 2', k: 1 },
      }],
    };
    const rejected = new Map<string, number>();
    expect(instantiateTemplates(view, conn, [tied], 1, { questions: new Set(), queries: new Set() }, rejected)).toEqual([]);
    expect(rejected.get('medium:tie at cut')).toBe(1);
    conn.close();
  });

  it('fails loudly on a template that writes invalid SQL, and on SQL in question text', () => {
    const { view, conn } = build();
    const broken: QuestionTemplate = { id: 'test/broken', difficulty: 'easy', drafts: () => [{ question: 'How many?', query: 'SELECT nope FROM shop', tables: ['shop'] }] };
    const leaky: QuestionTemplate = { id: 'test/leaky', difficulty: 'easy', drafts: () => [{ question: 'SELECT COUNT(*) FROM shop?', query: 'SELECT COUNT(*) FROM shop', tables: ['shop'] }] };
    const seen = () => ({ questions: new Set<string>(), queries: new Set<string>() });
    expect(() => instantiateTemplates(view, conn, [broken], 1, seen(), new Map())).toThrow(TemplateSqlError);
    expect(() => instantiateTemplates(view, conn, [leaky], 1, seen(), new Map())).toThrow(/contains SQL/);
    conn.close();
  });
});

describe('assignSplits', () => {
  const q = (dbId: string, i: number, difficulty: AcceptedQuestion['difficulty']): AcceptedQuestion => ({
    question: `Q${dbId}${i}?`, query: `SELECT ${i}`, dbId, difficulty, tables: ['t'], template: 't', answer: [[i]],
  });
  const questions = ['a', 'b', 'c', 'd'].flatMap((db) => Array.from({ length: 50 }, (_, i) => q(db, i, i % 2 ? 'easy' : 'hard')));

  it('partitions the questions, holds out unseen databases, and spreads smoke over training databases', () => {
    const splits = assignSplits(questions, { unseenDbIds: ['d'], evalFraction: 0.2, smokeSize: 12, seed: 3 });
    const total = [...splits.values()].reduce((n, s) => n + s.length, 0);
    expect(total).toBe(questions.length);
    expect(new Set([...splits.values()].flat()).size).toBe(questions.length);
    expect(splits.get('eval_unseen_db')!.every((x) => x.dbId === 'd')).toBe(true);
    expect(splits.get('eval_unseen_db')).toHaveLength(50);
    const smoke = splits.get('smoke')!;
    expect(smoke).toHaveLength(12);
    expect(new Set(smoke.map((x) => x.dbId))).toEqual(new Set(['a', 'b', 'c']));
    expect(smoke.every((x) => x.difficulty === 'easy')).toBe(true);
    expect(splits.get('eval')!.length).toBe(Math.round(46 * 0.2) * 3);
  });

  it('gives validation_unseen_db its own databases, leaving the other splits unchanged', () => {
    const plain = assignSplits(questions, { unseenDbIds: ['d'], evalFraction: 0.2, smokeSize: 12, seed: 3 });
    const more = [...questions, ...Array.from({ length: 20 }, (_, i) => q('v', i, 'easy'))];
    const splits = assignSplits(more, { unseenDbIds: ['d'], validationUnseenDbIds: ['v'], evalFraction: 0.2, smokeSize: 12, seed: 3 });
    for (const name of ['eval', 'eval_unseen_db', 'smoke', 'train'] as const) expect(splits.get(name)).toEqual(plain.get(name));
    expect(splits.get('validation_unseen_db')!.map((x) => x.dbId)).toEqual(Array(20).fill('v'));
    expect(splits.get('validation')).toEqual([]);
  });
});

describe('carveValidation', () => {
  const q = (dbId: string, i: number): AcceptedQuestion => ({ question: `Q${dbId}${i}?`, query: `SELECT ${i}`, dbId, difficulty: 'easy', tables: ['t'], template: 't', answer: [[i]] });
  const extra = ['a', 'b', 'c'].flatMap((db, k) => Array.from({ length: 40 + 10 * k }, (_, i) => q(db, i)));

  it('takes the fraction of each database, at random, and keeps both parts in their original order', () => {
    const { validation, rest } = carveValidation(extra, 0.25, 3);
    for (const [k, db] of ['a', 'b', 'c'].entries()) expect(validation.filter((x) => x.dbId === db)).toHaveLength(Math.round((40 + 10 * k) * 0.25));
    expect(validation.length + rest.length).toBe(extra.length);
    expect(new Set([...validation, ...rest]).size).toBe(extra.length);
    const order = (xs: AcceptedQuestion[]) => xs.map((x) => extra.indexOf(x));
    expect(order(validation)).toEqual([...order(validation)].sort((x, y) => x - y));
    expect(order(rest)).toEqual([...order(rest)].sort((x, y) => x - y));
    expect(order(validation.filter((x) => x.dbId === 'a'))).not.toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]); // not simply the first ones
    expect(carveValidation(extra, 0.25, 3)).toEqual({ validation, rest });
    expect(carveValidation(extra, 0.25, 4).validation).not.toEqual(validation);
  });

  it('takes nothing at fraction 0 and refuses a fraction outside [0, 1)', () => {
    expect(carveValidation(extra, 0, 3)).toEqual({ validation: [], rest: extra });
    expect(() => carveValidation(extra, 1, 3)).toThrow(RangeError);
    expect(() => carveValidation(extra, -0.1, 3)).toThrow(/\[0, 1\)/);
  });
});

describe('spiderTablesEntry', () => {
  it('indexes columns after the * pseudo-column and links foreign keys to primary keys', () => {
    const e = spiderTablesEntry(tiny);
    expect(e.column_names_original.slice(0, 3)).toEqual([[-1, '*'], [0, 'id'], [0, 'name']]);
    expect(e.primary_keys).toEqual([1, 5]);
    expect(e.foreign_keys).toEqual([[6, 1]]);
    expect(e.column_types[7]).toBe('number');
  });
});
