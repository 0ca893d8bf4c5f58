import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NoisyAgent, OracleAgent, QueryPool, RandomAgent, SQLEnv, loadDataset, runEpisodes, type SqlDataset } from '../../envs/sql/index.js';

// Real Spider data shared on the development machine; never copied into the project.
const SPIDER_SAMPLE = resolve(process.cwd(), '../shared/spider-sample');
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
});
