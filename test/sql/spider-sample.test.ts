import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  NoisyAgent,
  OracleAgent,
  QueryPool,
  RandomAgent,
  SQLEnv,
  compactAnswer,
  executionMatch,
  hasTopLevelOrderBy,
  judgeValueAnswer,
  loadDataset,
  roundForDisplay,
  runEpisodes,
  type SqlDataset,
} from '../../envs/sql/index.js';

// Real Spider data shared on the development machine; never copied into the project.
// SPIDER_SAMPLE points elsewhere (a worktree's ../shared is not the machine's shared folder).
const SPIDER_SAMPLE = process.env.SPIDER_SAMPLE ?? resolve(process.cwd(), '../shared/spider-sample');
const present = existsSync(resolve(SPIDER_SAMPLE, 'train_spider.json'));

describe.skipIf(!present)('Spider sample (../shared/spider-sample)', () => {
  let pool: QueryPool;
  let dataset: SqlDataset;
  let questionIds: string[];

  beforeAll(async () => {
    pool = new QueryPool({ size: 2 });
    dataset = await loadDataset({ kind: 'spider', dir: SPIDER_SAMPLE }, 'train', { pool });
    // Every 4th question: all eleven databases, a quarter of the time.
    questionIds = dataset.questions.filter((_, i) => i % 4 === 0).map((q) => q.id);
  }, 60_000);

  afterAll(async () => {
    await dataset?.close();
    await pool?.close();
  });

  const envFactory = () => () => new SQLEnv({ dataset, pool });

  it('oracle 100%, noisy at least 95% of oracle, random about 0%', async () => {
    expect(new Set(dataset.questions.map((q) => q.dbId)).size).toBe(11);
    const oracle = await runEpisodes(envFactory(), new OracleAgent(dataset), { episodes: questionIds.length, questionIds });
    expect(oracle.success_rate).toBe(1);
    const noisy = await runEpisodes(envFactory(), new NoisyAgent(dataset, { seed: 7 }), { episodes: questionIds.length, questionIds });
    expect(noisy.success_rate).toBeGreaterThanOrEqual(0.95 * oracle.success_rate);
    const random = await runEpisodes(envFactory(), new RandomAgent(7), { episodes: 60, seed: 0 });
    expect(random.success_rate).toBeLessThanOrEqual(0.05);
  }, 120_000);

  it('judges every gold result right, and each one-row or one-number change wrong', async () => {
    let dropped = 0;
    let shifted = 0;
    for (const question of dataset.questions) {
      const rows = (await dataset.goldResult(question)).rows;
      const gold = { sql: question.goldSql, rows };
      const ordered = hasTopLevelOrderBy(question.goldSql);
      expect(judgeValueAnswer(compactAnswer(rows), gold).correct, question.id).toBe(true);
      expect(executionMatch(rows, rows, { ordered }), question.id).toBe(true);
      // Shown numbers, as a model copies them from the observation.
      const shown = rows.map((r) => r.map((c) => (typeof c === 'number' ? roundForDisplay(c) : c)));
      expect(judgeValueAnswer(shown, gold).correct, question.id).toBe(true);
      if (rows.length >= 2) {
        dropped++;
        expect(judgeValueAnswer(rows.slice(1), gold).correct, question.id).toBe(false);
        expect(executionMatch(rows.slice(1), rows, { ordered }), question.id).toBe(false);
      }
      const at = rows.findIndex((r) => r.some((c) => typeof c === 'number' && !Number.isInteger(c)));
      if (at >= 0) {
        shifted++;
        const changed = rows.map((r, i) => (i === at ? r.map((c) => (typeof c === 'number' && !Number.isInteger(c) ? c * 1.005 : c)) : r));
        expect(judgeValueAnswer(changed, gold).correct, question.id).toBe(false);
      }
    }
    expect(dropped).toBeGreaterThan(100);
    expect(shifted).toBeGreaterThan(10);
  }, 60_000);
});
