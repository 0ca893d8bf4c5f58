import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Rng } from '../../src/base/rng.js';
import { populate } from '../../data/generator/populate.js';
import { inventedWord, withInventedNames } from '../../data/generator/procedural/invented-names.js';
import { proceduralDomain, proceduralDomains } from '../../data/generator/procedural/procedural-domain.js';
import { DbView } from '../../data/generator/questions/db-view.js';
import { GENERIC_TEMPLATES } from '../../data/generator/questions/generic-templates.js';
import { instantiateTemplates } from '../../data/generator/questions/instantiate.js';
import { writeSqlite } from '../../data/generator/sqlite-writer.js';
import { useTempDirs } from '../helpers/temp-dirs.js';

const dir = useTempDirs('sqlenv-invented-')();

describe('invented names for procedural databases', () => {
  it('inventedWord makes lower-case words that are not SQL keywords', () => {
    const rng = new Rng(5);
    for (let i = 0; i < 500; i++) {
      const w = inventedWord(rng);
      expect(w).toMatch(/^[a-z]{4,12}$/);
      expect(['select', 'from', 'where', 'order', 'group', 'table']).not.toContain(w);
    }
  });

  it('share 0 keeps the domain; the same domain and share always give the same names', () => {
    const spec = proceduralDomain('pre_0', 1);
    expect(withInventedNames(spec, 0)).toBe(spec);
    const names = (s: number) => withInventedNames(proceduralDomain('pre_0', 1), s).tables.map((t) => `${t.name}(${t.columns.map((c) => c.name).join(',')})`).join(' ');
    expect(names(0.5)).toBe(names(0.5));
  });

  it('renames tables and attribute columns consistently: references follow, databases build and questions use the new words', () => {
    let renamedTables = 0;
    let renamedColumns = 0;
    for (const original of proceduralDomains('inv', 12, 300)) {
      const spec = withInventedNames(original, 0.5);
      const tableNames = new Set(spec.tables.map((t) => t.name));
      expect(tableNames.size).toBe(spec.tables.length);
      for (const [i, t] of spec.tables.entries()) {
        const before = original.tables[i]!;
        if (t.name !== before.name) {
          renamedTables++;
          expect(t.singular).toBe(t.name);
          expect(t.plural).toBe(`${t.name}s`);
        }
        expect(new Set(t.columns.map((c) => c.name)).size).toBe(t.columns.length);
        for (const [j, c] of t.columns.entries()) {
          const old = before.columns[j]!;
          if (c.role === 'reference') {
            expect(tableNames.has(c.references!)).toBe(true);
            expect(c.name).toBe(`${c.references}_id`);
          } else if (c.name !== old.name) {
            renamedColumns++;
            expect(['category', 'number', 'date']).toContain(c.role);
            expect(c.label).toBe(c.name);
          }
        }
      }
      const generated = populate(spec, 7);
      const file = join(dir, `${spec.id}.sqlite`);
      writeSqlite(generated, file);
      const conn = new Database(file, { readonly: true });
      try {
        // Foreign keys point at rows of the renamed tables.
        for (const t of spec.tables) {
          for (const c of t.columns.filter((x) => x.role === 'reference')) {
            const dangling = conn.prepare(`SELECT COUNT(*) FROM "${t.name}" WHERE "${c.name}" NOT IN (SELECT id FROM "${c.references}")`).pluck().get();
            expect(dangling).toBe(0);
          }
        }
        const questions = instantiateTemplates(new DbView(generated), conn, GENERIC_TEMPLATES, 7, { questions: new Set(), queries: new Set() }, new Map());
        expect(questions.length).toBeGreaterThan(20);
        for (const q of questions.slice(0, 40)) for (const table of q.tables) expect(tableNames.has(table)).toBe(true);
        const invented = spec.tables.find((t, i) => t.name !== original.tables[i]!.name);
        if (invented) expect(questions.some((q) => q.question.includes(invented.plural) || q.question.includes(invented.singular))).toBe(true);
      } finally {
        conn.close();
      }
    }
    expect(renamedTables).toBeGreaterThan(10);
    expect(renamedColumns).toBeGreaterThan(20);
  });
});
