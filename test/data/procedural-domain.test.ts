import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { populate } from '../../data/generator/populate.js';
import { ENTITY_KINDS, ATTRIBUTES } from '../../data/generator/procedural/entity-catalog.js';
import { proceduralDomain, proceduralDomains } from '../../data/generator/procedural/procedural-domain.js';
import { DbView } from '../../data/generator/questions/db-view.js';
import { GENERIC_TEMPLATES } from '../../data/generator/questions/generic-templates.js';
import { instantiateTemplates } from '../../data/generator/questions/instantiate.js';
import { writeSqlite } from '../../data/generator/sqlite-writer.js';
import { ALL_DOMAINS } from '../../data/generator/domains/index.js';
import { UNSEEN_DB_IDS } from '../../data/generator/config.js';
import { useTempDirs } from '../helpers/temp-dirs.js';

const dir = useTempDirs('sqlenv-procedural-')();

describe('procedural domains', () => {
  it('are a pure function of (id, seed) and vary with the seed', () => {
    const shape = (seed: number) => proceduralDomain('p', seed).tables.map((t) => `${t.name}(${t.columns.map((c) => c.name).join(',')})`).join(' ');
    expect(shape(1)).toBe(shape(1));
    const shapes = new Set(Array.from({ length: 20 }, (_, s) => shape(s)));
    expect(shapes.size).toBe(20);
  });

  it('link later tables to earlier ones only, with 3–5 tables and valid attributes', () => {
    for (const spec of proceduralDomains('p', 30, 100)) {
      expect(spec.tables.length).toBeGreaterThanOrEqual(3);
      expect(spec.tables.length).toBeLessThanOrEqual(5);
      spec.tables.forEach((t, i) => {
        for (const c of t.columns.filter((x) => x.role === 'reference')) {
          expect(spec.tables.slice(0, i).map((x) => x.name)).toContain(c.references);
        }
        expect(new Set(t.columns.map((c) => c.name)).size).toBe(t.columns.length);
      });
    }
  });

  it('never uses the test databases\' table names', () => {
    const testTables = new Set(ALL_DOMAINS.filter((d) => UNSEEN_DB_IDS.includes(d.id)).flatMap((d) => d.tables.map((t) => t.name)));
    for (const kind of ENTITY_KINDS) expect(testTables.has(kind.table), kind.table).toBe(false);
    for (const kind of ENTITY_KINDS) for (const a of kind.attributes) expect(ATTRIBUTES[a], `${kind.table}.${a}`).toBeDefined();
  });

  it('populate and yield easy questions whose gold SQL runs', () => {
    let easy = 0;
    for (const spec of proceduralDomains('q', 4, 500)) {
      const generated = populate(spec, 7);
      const file = join(dir, `${spec.id}.sqlite`);
      writeSqlite(generated, file);
      const conn = new Database(file, { readonly: true });
      try {
        const questions = instantiateTemplates(new DbView(generated), conn, GENERIC_TEMPLATES, 7, { questions: new Set(), queries: new Set() }, new Map());
        easy += questions.filter((q) => q.difficulty === 'easy').length;
        for (const q of questions.slice(0, 20)) expect(() => conn.prepare(q.query).all()).not.toThrow();
      } finally {
        conn.close();
      }
    }
    expect(easy).toBeGreaterThan(4 * 30);
  });
});
