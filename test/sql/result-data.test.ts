/**
 * A query's result also comes as data in info.result (columns, the rows the text shows, the row
 * count and whether rows or cells were cut), so a scripted agent need not parse the Markdown table.
 */
import { describe, expect, it } from 'vitest';
import { SQLEnv } from '../../envs/sql/index.js';
import { resultData } from '../../envs/sql/episode/result-data.js';
import { useFixtureEnv } from './fixture-env.js';

const concert = useFixtureEnv();

describe('resultData', () => {
  it('keeps the shown rows, the count and the truncation, and copies them', () => {
    const result = { columns: ['n', 'n'], rows: [[1, null], ['x…', 2.5]], rowCount: 10_000, rowCountExact: false, truncated: true, elapsedMs: 3, fullRows: [[1, null]] };
    const data = resultData(result);
    expect(data).toEqual({ columns: ['n', 'n'], rows: [[1, null], ['x…', 2.5]], row_count: 10_000, row_count_exact: false, truncated: true });
    result.rows[0]![0] = 99;
    expect(data.rows[0]![0]).toBe(1);
  });
});

describe('SQLEnv info.result', () => {
  it('carries a query result as data beside the text; null after other tools and errors', async () => {
    const env = new SQLEnv({ dataset: concert.dataset, pool: concert.pool, queryLimits: { maxRows: 2 } });
    try {
      await env.reset({ options: { questionId: 'train-0000' } });
      const [obs, , , , counted] = await env.step({ name: 'query', arguments: { sql: 'SELECT count(*) AS n FROM singer' } });
      expect(counted.result).toEqual({ columns: ['n'], rows: [[6]], row_count: 1, row_count_exact: true, truncated: false });
      expect(obs.result).toContain('| 6 |');
      const [, , , , cut] = await env.step({ name: 'query', arguments: { sql: 'SELECT name, age FROM singer ORDER BY age DESC' } });
      expect(cut.result).toMatchObject({ columns: ['name', 'age'], row_count: 6, row_count_exact: true, truncated: true });
      expect(cut.result!.rows).toHaveLength(2);
      expect(JSON.parse(JSON.stringify(cut.result))).toEqual(cut.result);
      const [, , , , described] = await env.step({ name: 'describe', arguments: { table_name: 'singer' } });
      expect(described.result).toBeNull();
      const [, , , , failed] = await env.step({ name: 'query', arguments: { sql: 'SELECT nope FROM singer' } });
      expect(failed.error_type).toBe('sql_error');
      expect(failed.result).toBeNull();
    } finally {
      await env.close();
    }
  });
});
