/**
 * SQLEnv: steps per second on a fixed action mix (describe, sample, a gold query, a text-form
 * call, a malformed call), beside the same database work done directly with better-sqlite3 in
 * this process — the floor any environment must pay. Also whole oracle episodes per second.
 */
import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { SqlActionParser } from '../envs/sql/actions/action-parser.js';
import { OracleAgent } from '../envs/sql/agents/oracle-agent.js';
import { runEpisodes } from '../envs/sql/agents/run-episodes.js';
import { bundledDataDir } from '../envs/sql/datasets/bundled-data-dir.js';
import { loadDataset } from '../envs/sql/datasets/load-dataset.js';
import { QueryPool } from '../envs/sql/sandbox/query-pool.js';
import { SQLEnv } from '../envs/sql/sql-env.js';
import { mdTable, timeIt, type BenchSection } from './harness.js';

export default async function bench(): Promise<BenchSection> {
  const split = ['train', 'eval', 'smoke'].find((s) => existsSync(join(bundledDataDir(), `${s}.json`)));
  if (!split) throw new Error(`no bundled split found in ${bundledDataDir()}`);
  const pool = new QueryPool({ size: 2 });
  const dataset = await loadDataset('bundled', split, { pool });
  const env = new SQLEnv({ dataset, pool, stepBudget: 1_000_000 });
  try {
    const [obs, info] = await env.reset({ seed: 0 });
    const question = dataset.question(String(info.question_id))!;
    const table = obs.tables[0]!;
    const mix: unknown[] = [
      { name: 'describe', arguments: { table_name: table } },
      { name: 'sample', arguments: { table_name: table, n: 5 } },
      { name: 'query', arguments: { sql: question.goldSql } },
      `<tool_call>{"name": "sample", "arguments": {"table_name": "${table}", "sql": null}}</tool_call>`,
      { name: 'describe', arguments: {} },
    ];
    const envMix = await timeIt(async () => {
      for (const action of mix) await env.step(action as never);
    }, { minMs: 3000 });

    const db = new Database(dataset.dbPath(question.dbId), { readonly: true, fileMustExist: true });
    const quoted = `"${table.replace(/"/g, '""')}"`;
    const rawMix = await timeIt(() => {
      db.prepare('SELECT * FROM pragma_table_info(?)').all(table);
      db.prepare(`SELECT count(*) FROM ${quoted}`).get();
      db.prepare(`SELECT * FROM ${quoted} LIMIT 5`).raw(true).all();
      db.prepare(question.goldSql).raw(true).all();
      db.prepare(`SELECT * FROM ${quoted} LIMIT 5`).raw(true).all();
    }, { minMs: 2000 });
    db.close();

    const parser = new SqlActionParser();
    const parse = await timeIt(() => {
      for (const action of mix) parser.parse(action, { tables: obs.tables });
    }, { minMs: 1000 });

    const episodes = 40;
    const t0 = performance.now();
    await runEpisodes(() => new SQLEnv({ dataset, pool }), new OracleAgent(dataset), { episodes, seed: 0 });
    const episodeMs = (performance.now() - t0) / episodes;

    const perStep = (ms: number) => ms / mix.length;
    const rows: (string | number)[][] = [
      ['SQLEnv.step, mixed actions (env)', perStep(envMix.mean).toFixed(3), (1000 / perStep(envMix.mean)).toFixed(0)],
      ['same database work, better-sqlite3 in-process (reference)', perStep(rawMix.mean).toFixed(3), (1000 / perStep(rawMix.mean)).toFixed(0)],
      ['action parsing only (tolerant parser)', perStep(parse.mean).toFixed(4), (1000 / perStep(parse.mean)).toFixed(0)],
      ['oracle episode (reset + describe… + query + answer)', episodeMs.toFixed(2), `${(1000 / episodeMs).toFixed(1)} episodes/s`],
    ];
    return {
      title: 'SQLEnv steps',
      markdown: [
        `Bundled data, split \`${split}\`, question \`${question.id}\` (\`${question.dbId}\`). One round of the mix is: describe, sample 5 rows, the gold query (through the sandboxed process pool), a \`<tool_call>\` text call with a null extra argument (repaired), and a call missing its argument (error). The reference does the same SQLite reads directly with better-sqlite3 in this process, with no parsing, sandbox, rendering or reward.`,
        '',
        mdTable(['operation', 'ms per step', 'steps/s'], rows),
        '',
        `Env p50 per round ${envMix.p50.toFixed(2)} ms, p99 ${envMix.p99.toFixed(2)} ms over ${envMix.iters} rounds.`,
      ].join('\n'),
    };
  } finally {
    await env.close();
    await dataset.close();
    await pool.close();
  }
}
