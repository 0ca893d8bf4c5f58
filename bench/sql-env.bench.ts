/**
 * SQLEnv: steps per second on the describe + sample + query mix beside a bare Python sqlite3
 * loop (the Spider sample when present, with and without the result cache; see sql-env-mix.ts),
 * then one QUERY step (`SQLEnv.step` with a query action) against raw better-sqlite3 running the
 * same SQL in this process, on representative bundled-dataset queries, then steps per second on
 * a fixed action mix (describe, sample, a gold query, a text-form call, a malformed call) beside
 * the same database work done directly, and whole oracle episodes per second.
 */
import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { SqlActionParser } from '../envs/sql/actions/action-parser.js';
import { OracleAgent } from '../envs/sql/agents/oracle-agent.js';
import { runEpisodes } from '../envs/sql/agents/run-episodes.js';
import { bundledDataDir } from '../envs/sql/datasets/bundled-data-dir.js';
import { loadDataset } from '../envs/sql/datasets/load-dataset.js';
import { hashResult } from '../envs/sql/episode/result-hash.js';
import { profileGold, progressPotential } from '../envs/sql/reward/potential.js';
import { DEFAULT_REWARD_CONFIG } from '../envs/sql/reward/reward-config.js';
import { QueryPool } from '../envs/sql/sandbox/query-pool.js';
import { SQLEnv } from '../envs/sql/sql-env.js';
import { mdTable, timeIt, type BenchSection } from './harness.js';
import { mixVsPython } from './sql-env-mix.js';
import { interleaved } from './sql-sandbox.bench.js';

/** Representative queries on the bundled `online_store` database (the largest tables: 2,000 order items). */
const QUERY_DB = 'online_store';
const QUERY_CASES: [string, string][] = [
  ['small lookup (gold)', "SELECT brand FROM product WHERE name = 'Aurora Hair Dryer Plus'"],
  ['join (gold)', "SELECT T1.name FROM product AS T1 JOIN product_category AS T2 ON T1.category_id = T2.id WHERE T2.name = 'Bath'"],
  ['aggregate over a join (gold)', 'SELECT T2.status, COUNT(*) FROM order_item AS T1 JOIN sales_order AS T2 ON T1.order_id = T2.id GROUP BY T2.status'],
  [
    '3-table join, group by, top 5',
    'SELECT c.city, COUNT(DISTINCT o.id), ROUND(SUM(oi.quantity * oi.unit_price), 2) AS revenue FROM customer c ' +
      'JOIN sales_order o ON o.customer_id = c.id JOIN order_item oi ON oi.order_id = o.id GROUP BY c.city ORDER BY revenue DESC LIMIT 5',
  ],
  ['larger listing (1,200 orders)', 'SELECT * FROM sales_order'],
  ['larger listing (2,000 order items)', 'SELECT * FROM order_item'],
];
/** The issue's target: env overhead at most 30% over raw better-sqlite3. */
const TARGET = 0.3;

export default async function bench(): Promise<BenchSection> {
  const split = ['train', 'eval', 'smoke'].find((s) => existsSync(join(bundledDataDir(), `${s}.json`)));
  if (!split) throw new Error(`no bundled split found in ${bundledDataDir()}`);
  const pool = new QueryPool({ size: 2 });
  const dataset = await loadDataset('bundled', split, { pool });
  // No result cache here: these sections time what a query costs when it runs (the mix section
  // below reports the cache separately).
  const env = new SQLEnv({ dataset, pool, stepBudget: 1_000_000, queryCache: false });
  try {
    const mixSection = await mixVsPython(pool);
    const query = await queryStepVsRaw(env, pool, dataset);
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
    await runEpisodes(() => new SQLEnv({ dataset, pool, queryCache: false }), new OracleAgent(dataset), { episodes, seed: 0 });
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
        mixSection,
        '',
        '### A QUERY step against raw better-sqlite3',
        '',
        query,
        '',
        '### Mixed actions and episodes',
        '',
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

/**
 * The issue's metric: a QUERY step against raw better-sqlite3 on the same SQL, same process.
 * Each timed step is the first of a fresh episode (the reset before it is not timed), so the
 * step pays what an agent's query pays: parsing, screening, the query process, rendering the
 * observation, hashing the result for the novelty reward and scoring it against the gold rows
 * (whose normalised profile is built once per gold result and reused, as in an episode).
 */
async function queryStepVsRaw(env: SQLEnv, pool: QueryPool, dataset: Awaited<ReturnType<typeof loadDataset>>): Promise<string> {
  const question = dataset.questions.find((q) => q.dbId === QUERY_DB);
  if (!question) throw new Error(`no ${QUERY_DB} question in the bundled split`);
  const gold = await dataset.goldResult(question);
  const weights = DEFAULT_REWARD_CONFIG.potentialWeights;
  const dbPath = dataset.dbPath(QUERY_DB);
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  const rows: (string | number)[][] = [];
  const cases: { label: string; rows: number; raw: number; step: number; sandbox: number; score: number; hash: number }[] = [];
  try {
    for (const [label, sql] of QUERY_CASES) {
      const action = { name: 'query', arguments: { sql } } as const;
      await env.reset({ options: { questionId: question.id } });
      const [obs] = await env.step(action);
      if (obs.error) throw new Error(`${label}: ${obs.error}`);
      const result = await pool.run(dbPath, sql);
      // As an episode does: the gold side is profiled once, each step scores its result against it.
      const goldProfile = profileGold(gold.rows);
      const [raw, step, sandbox, score, hash] = await interleaved(
        [
          () => db.prepare(sql).all(),
          { before: () => env.reset({ options: { questionId: question.id } }), run: () => env.step(action) },
          () => pool.run(dbPath, sql),
          () => progressPotential(result.fullRows ?? result.rows, goldProfile, weights),
          () => hashResult(result.columns, result.fullRows ?? result.rows),
        ],
        3000,
        30,
      );
      if (!raw || !step || !sandbox || !score || !hash) throw new Error('missing timing');
      const overhead = (step.best - raw.best) / raw.best;
      cases.push({ label, rows: result.rowCount, raw: raw.best, step: step.best, sandbox: sandbox.best, score: score.best, hash: hash.best });
      rows.push([
        label,
        result.rowCount,
        ms(raw.best),
        ms(step.best),
        `${pct(overhead)} (+${us(step.best - raw.best)} µs)`,
        `${ms(sandbox.best)} (${pct((sandbox.best - raw.best) / raw.best)})`,
        ms(score.best),
        ms(hash.best),
        `${ms(raw.p50)} / ${ms(step.p50)} (${pct((step.p50 - raw.p50) / raw.p50)})`,
        overhead <= TARGET ? 'yes' : 'no',
      ]);
    }
  } finally {
    db.close();
  }
  const meets = cases.filter((c) => c.step - c.raw <= TARGET * c.raw).map((c) => c.label);
  const misses = cases.filter((c) => c.step - c.raw > TARGET * c.raw).map((c) => c.label);
  const few = cases.filter((c) => c.rows < 100);
  const fixed = few.map((c) => c.step - c.raw);
  const sandboxFixed = few.map((c) => c.sandbox - c.raw);
  const lookup = cases[0]!;
  const listings = cases.filter((c) => c.rows >= 1000);
  const span = (xs: number[], f: (x: number) => string): string => `${f(Math.min(...xs))}–${f(Math.max(...xs))}`;
  return [
    `**QUERY step vs raw better-sqlite3** (the issue's target: env overhead ≤ ${TARGET * 100}%). Bundled \`${QUERY_DB}\` database,`,
    "default query limits. **raw** = `db.prepare(sql).all()` in this process; **QUERY step** = `SQLEnv.step({ name: 'query', … })`",
    'as the first step of an episode (the reset before it is untimed): action parsing, screening, the query process,',
    'rendering, the result hash and the progress score; **sandbox alone** = `QueryPool.run`; **progress score** =',
    '`progressPotential` of the result against the gold rows and **result hash** = `hashResult` of the result (for the',
    'novelty reward), two of the things a step does. All alternate round by round; best rounds in ms unless marked p50.',
    `Machine load average when this ran: ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores.`,
    '',
    mdTable(
      ['query', 'rows', 'raw', 'QUERY step', 'step overhead', 'sandbox alone (overhead)', 'progress score', 'result hash', 'p50 raw / step', '≤ 30%?'],
      rows,
    ),
    '',
    `Target met: ${meets.length > 0 ? meets.join(', ') : 'none of these'}. Not met: ${misses.length > 0 ? misses.join(', ') : 'none'}.`,
    '',
    `- Fixed cost: on the queries returning few rows a QUERY step costs ${span(fixed, us)} µs more than raw, of which`,
    `  ${span(sandboxFixed, us)} µs is the sandbox: a round trip to a separate, pre-started query process that wakes with cold`,
    '  caches (plus screening), the price of process isolation, which lets a runaway query be stopped with SIGKILL.',
    `  Against a raw time of ${ms(lookup.raw)} ms for the lookup that is several times the query itself; a query returning`,
    `  few rows meets the target from about ${span(fixed, (x) => (x / TARGET).toFixed(1))} ms raw (that cost / ${TARGET}). The bundled databases are small`,
    `  (at most 2,000 rows a table): these few-row queries take ${span(few.map((c) => c.raw), ms)} ms raw here.`,
    ...(listings.length > 0 ? listingNotes(listings, span(few.map((c) => c.step - c.sandbox), us)) : []),
  ].join('\n');
}

/** What a step costs per row on the listings, and whether the target is met, from the numbers measured. */
function listingNotes(
  listings: { label: string; rows: number; raw: number; step: number; sandbox: number; score: number; hash: number }[],
  fewRowsBeyondSandbox: string,
): string[] {
  const each = (f: (c: (typeof listings)[number]) => string): string => listings.map(f).join(' and ');
  const lines = [
    `- Per-row cost: on the listings (${each((c) => `${c.rows.toLocaleString('en-US')} rows`)}) the sandbox alone is`,
    `  ${each((c) => pct((c.sandbox - c.raw) / c.raw))} over raw and the step adds ${each((c) => ms(c.step - c.sandbox))} ms on top of it, of which SQLEnv's`,
    `  reward code takes ${each((c) => ms(c.score + c.hash))} ms (progress score ${each((c) => ms(c.score))}, result hash ${each((c) => ms(c.hash))}). The rest,`,
    `  ${each((c) => ms(c.step - c.sandbox - c.score - c.hash))} ms, is what every step pays beyond the sandbox (parsing, rendering the first rows,`,
    `  bookkeeping: ${fewRowsBeyondSandbox} µs on the few-row queries) plus garbage collection and the spread between best rounds.`,
  ];
  for (const c of listings) {
    const over = c.step - c.raw;
    if (over <= TARGET * c.raw) {
      lines.push(`- ${c.label}: within the target (${pct(over / c.raw)} over raw).`);
    } else if (c.sandbox - c.raw > TARGET * c.raw) {
      lines.push(`- ${c.label}: over the target (${pct(over / c.raw)}); the sandbox alone is already ${pct((c.sandbox - c.raw) / c.raw)} over raw on this run.`);
    } else {
      const room = TARGET * c.raw - (c.sandbox - c.raw);
      lines.push(
        `- ${c.label}: over the target (${pct(over / c.raw)}): the sandbox leaves ${us(room)} µs of the ${TARGET * 100}% and the step needs ${us(c.step - c.sandbox)} µs more.`,
      );
    }
  }
  lines.push('- The SQL sandbox section times heavier queries on a 100,000-row database: aggregates and joins taking several milliseconds are within the target there.');
  return lines;
}

const ms = (x: number): string => x.toFixed(3);
const us = (x: number): string => (x * 1000).toFixed(0);
const pct = (x: number): string => `${(x * 100).toFixed(0)}%`;
