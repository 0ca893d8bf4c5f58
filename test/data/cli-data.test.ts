import { afterEach, describe, expect, it, vi } from 'vitest';
import { datasetRoot, run } from '../../src/cli/data.js';
import { bundledRoot } from '../../data/lib/spider-layout.js';

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => { out.push(a.join(' ')); });
  vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => { err.push(a.join(' ')); });
  return { out, err };
}
afterEach(() => { vi.restoreAllMocks(); });

describe('sqlenv data stats', () => {
  it('prints the databases with table and row counts, questions per split and the difficulty mix', async () => {
    const { out } = capture();
    expect(await run(['stats', '--dataset', 'bundled'])).toBe(0);
    const text = out.join('\n');
    expect(text).toMatch(/^15 databases, \d+ questions, \d+ distinct SQL shapes/);
    expect(text).toMatch(/\| concerts \| 4 \| \d+ \|/);
    expect(text).toContain('| split | questions | databases | easy | medium | hard | extra |');
    expect(text).toMatch(/\| train \| \d+ \| 9 \|/);
    expect(text).toMatch(/\| eval_unseen_db \| \d+ \| 3 \|/);
    expect(text).toMatch(/\| validation_unseen_db \| \d+ \| 3 \|/);
  });

  it('prints JSON with --json, restricted to the requested splits', async () => {
    const { out } = capture();
    expect(await run(['stats', '--split', 'smoke', '--json'])).toBe(0);
    const stats = JSON.parse(out.join('')) as { splits: { name: string; questions: number; byDifficulty: Record<string, number> }[] };
    expect(stats.splits.map((s) => s.name)).toEqual(['smoke']);
    expect(stats.splits[0]!.questions).toBe(30);
    expect((stats.splits[0]!.byDifficulty['easy'] ?? 0) + (stats.splits[0]!.byDifficulty['medium'] ?? 0)).toBe(30);
  });

  it('explains a missing dataset directory and an unknown subcommand', async () => {
    const { err } = capture();
    expect(await run(['stats', '--dataset', 'spider:/nonexistent/spider'])).toBe(2);
    expect(err.join('\n')).toMatch(/does not exist/);
    expect(await run(['frobnicate'])).toBe(2);
  });

  it('resolves dataset arguments', () => {
    expect(datasetRoot('bundled')).toBe(bundledRoot());
    expect(() => datasetRoot('bird:/x')).toThrow(/BIRD/);
  });
});
