import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { run as runValidate } from '../../src/cli/validate.js';
import {
  DEGENERATE_POLICIES,
  QueryPool,
  availableSplits,
  bestReturn,
  floorReturn,
  loadDataset,
  renderValidationReport,
  resolveRewardConfig,
  validateDataset,
  validateSplit,
  validationFailed,
  type ValidationReport,
} from '../../envs/sql/index.js';
import { createConcertFixture, type ConcertFixture } from './concert-fixture.js';

let fixture: ConcertFixture;
let pool: QueryPool;

beforeAll(() => {
  fixture = createConcertFixture();
  pool = new QueryPool({ size: 2 });
});

afterAll(async () => {
  await pool?.close();
  fixture?.cleanup();
});

const failing = (report: ValidationReport) => report.checks.filter((c) => c.status === 'fail').map((c) => `${c.split} / ${c.check}: ${c.failures.slice(0, 3).join('; ')}`);

describe('sqlenv validate on the bundled data (CI)', () => {
  it('passes every check on every bundled split', async () => {
    const splits = availableSplits('bundled');
    expect(splits).toEqual(expect.arrayContaining(['train', 'eval', 'eval_unseen_db', 'smoke']));
    // Golden plays every question; the other checks a spread-out sample of each split.
    const report = await validateDataset('bundled', splits, { pool, sampleSize: 12 });
    expect(failing(report)).toEqual([]);
    for (const split of splits) {
      const names = report.checks.filter((c) => c.split === split).map((c) => c.check);
      expect(names).toEqual(
        expect.arrayContaining([
          'gold SQL runs',
          'golden (value answers)',
          'golden (sql answers)',
          'gold result non-empty',
          'replay',
          'canary: progress telescopes',
          'canary: operational within clip',
          'no gold leak before the end',
          ...DEGENERATE_POLICIES.map((p) => `degenerate: ${p.name}`),
        ]),
      );
    }
    const stats = report.stats.find((s) => s.split === 'eval')!;
    expect(stats.questions).toBeGreaterThan(0);
    expect(Object.values(stats.difficulty).reduce((a, b) => a + b, 0)).toBe(stats.questions);
    // The held-out splits must not repeat training questions word for word.
    expect(stats.sharedWith?.train ?? 0).toBe(0);
  }, 600_000);
});

describe('sqlenv validate on a BIRD directory', () => {
  it('finds its splits and validates them', async () => {
    const root = join(fixture.dir, 'bird');
    const dbDir = join(root, 'dev', 'dev_databases', 'concert_singer');
    mkdirSync(dbDir, { recursive: true });
    copyFileSync(fixture.dbPath, join(dbDir, 'concert_singer.sqlite'));
    const questions = [
      { question_id: 1, question: 'How many French singers are there?', SQL: "SELECT count(*) FROM singer WHERE country = 'France'", db_id: 'concert_singer', evidence: "French refers to country = 'France'", difficulty: 'simple' },
      { question_id: 2, question: 'Name the stadiums.', SQL: 'SELECT name FROM stadium', db_id: 'concert_singer', evidence: '', difficulty: 'simple' },
    ];
    writeFileSync(join(root, 'dev', 'dev.json'), JSON.stringify(questions));
    const source = { kind: 'bird', dir: root } as const;
    expect(availableSplits(source)).toEqual(['dev']);
    const report = await validateDataset(source, availableSplits(source), { pool });
    expect(failing(report)).toEqual([]);
    expect(report.stats[0]).toMatchObject({ split: 'dev', questions: 2, difficulty: { simple: 2 } });
  }, 120_000);
});

describe('validateSplit finds what is wrong', () => {
  it('fails on broken gold SQL and flags nothing else on the fixture', async () => {
    const dataset = await loadDataset(fixture.dir, 'train', { pool });
    try {
      const report = await validateSplit(dataset, { pool });
      expect(failing(report)).toEqual([expect.stringMatching(/^train \/ gold SQL runs: train-0006/)]);
      expect(validationFailed(report)).toBe(true);
      const text = renderValidationReport(report);
      expect(text).toMatch(/\| train \| gold SQL runs \| FAIL \|/);
      expect(text).toMatch(/1 check\(s\) FAILED/);
    } finally {
      await dataset.close();
    }
  }, 120_000);

  it('fails a reward that pays steps: degenerate policies beat the floor', async () => {
    const dataset = await loadDataset(fixture.dir, 'smoke', { pool });
    try {
      const generous = { execOk: 0.05 };
      const report = await validateSplit(dataset, { pool, reward: generous });
      const failed = report.checks.filter((c) => c.status === 'fail').map((c) => c.check);
      expect(failed).toEqual(expect.arrayContaining(['degenerate: describe-only loop', 'degenerate: SELECT * of every table', 'degenerate: answer spam', 'degenerate: progress farming']));
      // An answer that is wrong at once earns exactly the floor, so it still passes.
      expect(failed).not.toContain('degenerate: empty answer');
    } finally {
      await dataset.close();
    }
  }, 120_000);

  it('defines the floor and the best return from the reward constants', () => {
    const reward = resolveRewardConfig();
    expect(floorReturn(reward)).toBe(0);
    expect(bestReturn(3, reward)).toBe(1);
    expect(floorReturn(resolveRewardConfig({ execOk: 0.05 }))).toBeCloseTo(0.03, 12);
    expect(bestReturn(2, resolveRewardConfig({ stepCost: 0.03 }))).toBeCloseTo(0.98, 12);
  });
});

/** Run a CLI command with console output captured. */
async function capture(fn: () => Promise<number>): Promise<{ code: number; out: string }> {
  const out: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void out.push(args.join(' ')));
  const error = vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void out.push(args.join(' ')));
  try {
    return { code: await fn(), out: out.join('\n') };
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
}

describe('sqlenv validate (command)', () => {
  it('prints the table and exits 0 when every check passes, 1 on a failure', async () => {
    const clean = await capture(() => runValidate(['--dataset', fixture.dir, '--split', 'smoke', '--sample', '2']));
    expect(clean.code).toBe(0);
    expect(clean.out).toMatch(/\| smoke \| golden \(value answers\) \| PASS \| 2 \|/);
    expect(clean.out).toMatch(/all \d+ checks passed/);
    const broken = await capture(() => runValidate(['--dataset', fixture.dir, '--json']));
    expect(broken.code).toBe(1);
    const report = JSON.parse(broken.out.split('\n').at(-1)!) as ValidationReport;
    // Every split of the fixture by default: train (with its broken gold query) and smoke.
    expect([...new Set(report.stats.map((s) => s.split))].sort()).toEqual(['smoke', 'train']);
    expect(validationFailed(report)).toBe(true);
  }, 120_000);

  it('rejects bad options', async () => {
    expect((await capture(() => runValidate(['--sample', '-1']))).code).toBe(2);
    expect((await capture(() => runValidate(['--dataset', '/nonexistent/dir']))).code).toBe(1);
  });
});
