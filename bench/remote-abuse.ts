/**
 * Step latency of 128 well-behaved SQLEnv sessions, alone (the floor) and beside abusers: a slow
 * reader (a WebSocket client that floods steps and never reads) and two sessions sending runaway
 * queries (each runs until the 2 s query timeout, then is sent again). A third configuration runs
 * the same abuse with the pool and connection bounds of before this change (two query processes,
 * no spare, no per-connection bounds), to show what they buy. All in one run, one server per row.
 */
import { availableParallelism } from 'node:os';
import WebSocket from 'ws';
import { loadDataset, QueryPool, type SqlDataset } from '../envs/sql/index.js';
import { make } from '../src/gym/index.js';
import { createServer, RemoteEnv, silentLogger, type FlowLimits } from '../src/remote/index.js';
import { mdTable } from './harness.js';

const SESSIONS = 128;
const STEPS = 12;
/** Rounds of all scenarios, each in a rotated order; the table shows medians over rounds. */
const ROUNDS = 3;
const RUNAWAY_SQL = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c';

interface Scenario {
  name: string;
  abuse: boolean;
  pool: { size: number; spare?: number; maxProcesses?: number; lowPriorityAfterMs?: number };
  flow?: Partial<FlowLimits>;
}

interface Outcome {
  p50: number;
  p99: number;
  stepsPerSecond: number;
  errors: number;
  slowReaderSteps: number;
  runawaysTimedOut: number;
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

/** A database of the dataset and its tables, for the slow reader's steps. */
interface Target {
  dbId: string;
  tables: string[];
}

async function runScenario(s: Scenario, dataset: SqlDataset, target: Target): Promise<Outcome> {
  const pool = new QueryPool(s.pool);
  await pool.ready();
  const server = createServer({
    envId: 'SQLEnv-v0',
    createEnv: () => make('SQLEnv-v0', { dataset, pool, split: dataset.split, stepBudget: 1000 }),
    logger: silentLogger,
    maxSessions: SESSIONS + 8,
    ...s.flow,
  });
  await server.listen(0, '127.0.0.1');
  const wsUrl = `${server.url.replace('http', 'ws')}/ws`;
  let stop = false;
  let runawaysTimedOut = 0;
  let runawaySteps = 0;

  // Abusers: two runaway-query sessions and one slow reader.
  const abusers: Promise<void>[] = [];
  let slowReader: WebSocket | undefined;
  if (s.abuse) {
    for (let i = 0; i < 2; i++) {
      abusers.push(
        (async () => {
          const env = await RemoteEnv.connect(server.url, { transport: 'ws', encoding: 'msgpack' });
          await env.reset({ seed: i });
          while (!stop) {
            const [, , , , info] = await env.step({ name: 'query', arguments: { sql: RUNAWAY_SQL } });
            runawaySteps++;
            if (info.error_type === 'timeout') runawaysTimedOut++;
          }
          await env.close();
        })(),
      );
    }
    slowReader = new WebSocket(wsUrl);
    await new Promise<void>((resolve) => slowReader!.once('open', () => resolve()));
    const reset = JSON.stringify({ type: 'reset', data: { seed: 7, options: { dbId: target.dbId } } });
    slowReader.send(reset);
    slowReader.pause();
    const step = JSON.stringify({ type: 'step', data: { name: 'describe', arguments: { table_name: target.tables[0] } } });
    // A reset every tenth message keeps each reply at an ordinary episode's size (about 1–2 KiB).
    for (let i = 1; i < 50_000; i++) slowReader.send(i % 10 === 0 ? reset : step);
    // Time once the runaways run and the slow reader has had 5,000 steps served or was paused (the
    // bounds pause it near there; without them it is served on, all through the timed load).
    const ready = () => {
      const m = server.metrics.render();
      return Number(/^sqlenv_steps_total (\d+)$/m.exec(m)?.[1] ?? 0) >= 5_000 || /sqlenv_backpressure_total\{transport="ws",event="pause"\}/.test(m);
    };
    while (!ready()) await new Promise((r) => setTimeout(r, 20));
  }

  const latencies: number[] = [];
  let errors = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: SESSIONS }, async (_, i) => {
      const env = await RemoteEnv.connect(server.url, { transport: 'ws', encoding: i % 2 ? 'msgpack' : 'json' });
      try {
        const [obs] = (await env.reset({ seed: i })) as [{ tables: string[] }, unknown];
        const tables = obs.tables;
        for (let k = 0; k < STEPS; k++) {
          const table = tables[(i + k) % tables.length]!;
          const action =
            k % 2 === 0 ? { name: 'describe', arguments: { table_name: table } } : { name: 'query', arguments: { sql: `SELECT count(*) FROM "${table}"` } };
          const t0 = performance.now();
          const [, , , , info] = await env.step(action);
          latencies.push(performance.now() - t0);
          if (info.error_type !== null) errors++;
        }
      } catch {
        errors++;
      } finally {
        await env.close();
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  stop = true;
  slowReader?.terminate();
  await Promise.all(abusers);
  const totalSteps = Number(/^sqlenv_steps_total (\d+)$/m.exec(server.metrics.render())?.[1] ?? 0);
  await server.close();
  await pool.close();
  latencies.sort((a, b) => a - b);
  return {
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    stepsPerSecond: latencies.length / seconds,
    errors,
    slowReaderSteps: totalSteps - SESSIONS * STEPS - runawaySteps,
    runawaysTimedOut,
  };
}

/** The markdown of the abuse comparison (a part of the remote bench's section). */
export async function abuseSection(): Promise<string> {
  const setupPool = new QueryPool({ size: 2 });
  const dataset = await loadDataset('bundled', 'eval', { pool: setupPool });
  const probe = make('SQLEnv-v0', { dataset, pool: setupPool, split: 'eval' });
  const [first] = (await probe.reset({ seed: 0 })) as [{ tables: string[]; dbId: string }, unknown];
  await probe.close();
  const target = { dbId: first.dbId, tables: first.tables };
  const unbounded = { maxPendingRequests: 1 << 30, maxUnsentBytes: 2 ** 40, stallTimeoutMs: 1 << 30 };
  const scenarios: Scenario[] = [
    { name: 'floor: 128 sessions alone', abuse: false, pool: { size: 2 } },
    { name: '+ slow reader + 2 runaway queries', abuse: true, pool: { size: 2 } },
    {
      name: '+ the same abuse, bounds of before (2 query processes, no spare, no priority drop, no connection bounds)',
      abuse: true,
      pool: { size: 2, spare: 0, maxProcesses: 2, lowPriorityAfterMs: 0 },
      flow: unbounded,
    },
  ];
  const results: Outcome[][] = scenarios.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    for (let k = 0; k < scenarios.length; k++) {
      const which = (k + round) % scenarios.length;
      results[which]!.push(await runScenario(scenarios[which]!, dataset, target));
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const floor = results[0]!;
  const rows = scenarios.map((s, i) => {
    const r = results[i]!;
    const of = (f: (o: Outcome) => number) => median(r.map(f));
    const ratio = (f: (o: Outcome) => number) => median(r.map((o, round) => f(o) / f(floor[round]!)));
    return [
      s.name,
      of((o) => o.p50).toFixed(1),
      of((o) => o.p99).toFixed(1),
      `${ratio((o) => o.p50).toFixed(1)}× / ${ratio((o) => o.p99).toFixed(1)}×`,
      of((o) => o.stepsPerSecond).toFixed(0),
      r.reduce((n, o) => n + o.errors, 0),
      s.abuse ? of((o) => o.slowReaderSteps) : '–',
      s.abuse ? of((o) => o.runawaysTimedOut) : '–',
    ];
  });
  await dataset.close();
  await setupPool.close();
  return [
    `${SESSIONS} WebSocket sessions (half JSON, half MessagePack) each take ${STEPS} SQLEnv steps in sequence, alternating ` +
      '`describe` and a cheap `SELECT count(*)` query (through the shared query pool), all at once against one server with a shared ' +
      '`QueryPool({ size: 2 })` (`sqlenv serve`\'s default `--query-workers 2`); latency is per step at the client. The floor row runs them alone; ' +
      'the next beside a slow reader (one WebSocket client that sends 50,000 messages, `describe` steps with a reset every tenth, and never reads) and two sessions that send ' +
      'runaway recursive queries back to back (each stopped by the 2 s query timeout); the last row repeats the abuse with the bounds of ' +
      'before this change (two query processes, no spare, no lowered priority for long queries, no per-connection bounds). ' +
      `${ROUNDS} rounds, each running the three in a rotated order on a fresh server and pool; the table shows each column's median over the rounds, ` +
      'and the ratios are to the floor of the same round. Server and clients share one Node process and ' +
      `${availableParallelism()} cores, so the runaway query processes take CPU from everything else. ` +
      'The slow reader column is the work (and the unread replies) the server took on for it: bounded by `maxUnsentBytes` plus the ' +
      'kernel socket buffers with the bounds, all 45,000 steps without. p50 is the robust comparison: the p99 under abuse stays above ' +
      "the floor's because on a small machine the two runaway processes (at nice 10 after 250 ms) and the query processes killed and " +
      'restarted at each timeout still take CPU.',
    '',
    mdTable(
      ['load', 'p50 ms', 'p99 ms', 'p50 / p99 vs floor (same round)', 'steps/s', 'errors (all rounds)', 'slow reader: steps served', 'runaways timed out'],
      rows,
    ),
  ].join('\n');
}
