import { describe, expect, it } from 'vitest';
import { representativeOrder } from '../../src/recipes/sql/task/question-order.js';

describe('representativeOrder', () => {
  const items = Array.from({ length: 120 }, (_, i) => ({ id: i, db: `db${Math.floor(i / 40)}` }));

  it('is a permutation and leaves its input alone', () => {
    const copy = items.map((x) => ({ ...x }));
    const out = representativeOrder(items);
    expect(out).toHaveLength(items.length);
    expect(new Set(out.map((x) => x.id)).size).toBe(items.length);
    expect(items).toEqual(copy);
  });

  it('is the same on every call, so every run seed is evaluated on the same questions', () => {
    expect(representativeOrder(items).map((x) => x.id)).toEqual(representativeOrder(items).map((x) => x.id));
  });

  it('puts every group of a grouped list into a short prefix', () => {
    // Stored splits are grouped by database: the first 30 of the stored order are all db0.
    const prefix = representativeOrder(items).slice(0, 30);
    const counts = new Map<string, number>();
    for (const x of prefix) counts.set(x.db, (counts.get(x.db) ?? 0) + 1);
    expect([...counts.keys()].sort()).toEqual(['db0', 'db1', 'db2']);
    for (const n of counts.values()) expect(n).toBeGreaterThanOrEqual(4);
  });
});
