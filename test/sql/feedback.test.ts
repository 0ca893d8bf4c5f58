/**
 * SQLEnv's feedback as data: each step's `info.feedback` holds what its error or hint text says, and that text is
 * rendered from it (renderFeedback, the one renderer).
 */
import { describe, expect, it } from 'vitest';
import { SQLEnv } from '../../envs/sql/index.js';
import { renderFeedback } from '../../envs/sql/feedback/render-feedback.js';
import type { SqlFeedback } from '../../envs/sql/feedback/sql-feedback.js';
import { useFixtureEnv } from './fixture-env.js';

describe('renderFeedback', () => {
  it('renders each kind as the observation shows it', () => {
    expect(renderFeedback({ kind: 'unknown_table', table: 'singers', tables: ['singer', 'stadium'] })).toBe('no such table: singers. Tables in this database: singer, stadium.');
    expect(renderFeedback({ kind: 'unknown_table', table: 'x', tables: null })).toBe('no such table: x. Tables in this database: (unreadable).');
    expect(renderFeedback({ kind: 'unknown_table', table: 'singers', tables: ['singer'], tool: 'sample', closest: 'singer' })).toBe(
      'No table named "singers". Tables: singer. Call it as {"name": "sample", "arguments": {"table_name": "singer"}}.',
    );
    expect(renderFeedback({ kind: 'unknown_column', column: 'nam', candidates: [{ table: 'singer', columns: ['id', 'name'], more: 3 }, { table: 'port', columns: ['city'], more: 0 }] })).toBe(
      "no such column: nam. Columns of singer: id, name and 3 more; of port: city; write text values in single quotes: 'Paris'.",
    );
    expect(renderFeedback({ kind: 'unknown_column', column: 'nam', candidates: [] })).toBe(
      "no such column: nam. Check the column names of the tables you use (PRAGMA table_info(table) lists them); write text values in single quotes: 'Paris'.",
    );
    const notFound = { kind: 'value_not_found', column: 'name', value: "O'Neil", lookedUpIn: 'port.name', closest: ['Leith', "O'Neill"] } as const;
    expect(renderFeedback({ ...notFound, heldBy: [{ column: 'port.city', value: "o'neil" }], questionValues: [] })).toBe(
      "No row has name = 'O''Neil'. Closest values of port.name: 'Leith', 'O''Neill'. port.city has 'o''neil'.",
    );
    expect(renderFeedback({ ...notFound, heldBy: [], questionValues: [{ column: 'port.city', value: 'Porto' }, { column: 'port.name', value: 'Leith' }] })).toBe(
      "No row has name = 'O''Neil'. Closest values of port.name: 'Leith', 'O''Neill'. The question's 'Porto' is in port.city. The question's 'Leith' is in port.name.",
    );
  });
});

describe("SQLEnv's info.feedback", () => {
  const concert = useFixtureEnv();
  const steps = async (actions: Parameters<SQLEnv['step']>[0][]) => {
    const env = new SQLEnv({ dataset: concert.dataset, pool: concert.pool });
    try {
      await env.reset({ options: { questionId: 'train-0002' } });
      const out = [];
      for (const action of actions) {
        const [obs, , , , info] = await env.step(action);
        out.push({ obs, feedback: info['feedback'] as SqlFeedback[] });
      }
      return out;
    } finally {
      await env.close();
    }
  };

  it('reports unknown tables and columns and values found in no row as data, and the observation shows their rendering', async () => {
    const [describe, table, column, value, fine, garbled] = await steps([
      { name: 'describe', arguments: { table_name: 'singers' } },
      { name: 'query', arguments: { sql: 'SELECT * FROM singers' } },
      { name: 'query', arguments: { sql: 'SELECT nam FROM singer' } },
      { name: 'query', arguments: { sql: "SELECT count(*) FROM singer WHERE name = 'france'" } },
      { name: 'query', arguments: { sql: 'SELECT count(*) FROM singer' } },
      'not a tool call',
    ]);
    expect(describe!.feedback).toEqual([{ kind: 'unknown_table', table: 'singers', tables: ['stadium', 'singer', 'concert'], tool: 'describe', closest: 'singer' }]);
    expect(describe!.obs.error).toBe(renderFeedback(describe!.feedback[0]!));
    expect(table!.feedback).toMatchObject([{ kind: 'unknown_table', table: 'singers' }]);
    expect(table!.obs.error).toBe(renderFeedback(table!.feedback[0]!));
    expect(column!.feedback).toEqual([{ kind: 'unknown_column', column: 'nam', candidates: [{ table: 'singer', columns: expect.arrayContaining(['singer_id', 'name', 'country']), more: 0 }] }]);
    expect(column!.obs.error).toBe(renderFeedback(column!.feedback[0]!));
    expect(value!.feedback).toMatchObject([{ kind: 'value_not_found', column: 'name', value: 'france', lookedUpIn: 'singer.name', heldBy: [{ column: 'singer.country', value: 'France' }] }]);
    expect(value!.obs.result.endsWith(`\n${renderFeedback(value!.feedback[0]!)}`)).toBe(true);
    expect(fine!.feedback).toEqual([]);
    expect(garbled!.feedback).toEqual([]);
  });
});
