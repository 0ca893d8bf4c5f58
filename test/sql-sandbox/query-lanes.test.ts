/**
 * Fair sharing of one QueryPool: lanes (one per env / server session) served in turn, a spare
 * process kept ready, each lane held to its share, the pool sized from the machine, and a
 * lane's queries killed when it is cancelled or closed. Assertions are on order and state, never
 * on elapsed time.
 */
import { availableParallelism, getPriority } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QueryPool, SqlSandboxError } from '../../envs/sql/sandbox/index.js';
import { buildConcertDb, scratchDir } from './fixtures.js';

const scratch = scratchDir();
const dbPath = join(scratch.dir, 'concert.sqlite');
/** Runs until killed (the tests' timeouts are far longer than any test). */
const RUNAWAY = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c';
const LONG = { timeoutMs: 600_000 };

beforeAll(() => buildConcertDb(dbPath));
afterAll(() => scratch.cleanup());

/** Resolve when `condition()` holds, checking every 10 ms. */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((r) => setTimeout(r, 10));
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function track<T>(promise: Promise<T>): { promise: Promise<T>; settled: () => boolean } {
  let settled = false;
  const done = () => (settled = true);
  promise.then(done, done);
  return { promise, settled: () => settled };
}

async function errorOf(promise: Promise<unknown>): Promise<SqlSandboxError> {
  try {
    await promise;
  } catch (e) {
    expect(e).toBeInstanceOf(SqlSandboxError);
    return e as SqlSandboxError;
  }
  throw new Error('expected the query to fail');
}

describe('QueryPool lanes', () => {
  it("two runaway queries of one lane do not hold up another lane's cheap query", async () => {
    // Two processes, as the server had; the spare makes a third.
    const pool = new QueryPool({ size: 2, spare: 1, maxProcesses: 3, limits: LONG });
    try {
      await pool.ready();
      const runaway = pool.lane();
      const other = pool.lane();
      const runaways = [track(runaway.run(dbPath, RUNAWAY)), track(runaway.run(dbPath, RUNAWAY))];
      await until(() => pool.running === 2);
      // The cheap query of another lane completes while both runaways still run.
      for (let i = 0; i < 5; i++) expect((await other.run(dbPath, 'SELECT count(*) FROM singer')).rows).toEqual([[6]]);
      expect(runaways.map((r) => r.settled())).toEqual([false, false]);
      expect(pool.running).toBe(2);
      // Cancelling the lane kills both (their processes are replaced) and the lane runs again.
      const pidsBefore = pool.pids;
      runaway.cancel();
      for (const r of runaways) expect((await errorOf(r.promise)).message).toMatch(/cancelled/);
      expect(pool.running).toBe(0);
      // Exactly the two processes that ran them were killed; the pool is back to its size.
      await until(() => pidsBefore.filter(isAlive).length === 1);
      await until(() => pool.pids.length === 2);
      expect((await runaway.run(dbPath, 'SELECT 1')).rows).toEqual([[1]]);
    } finally {
      await pool.close();
    }
  });

  it('holds each lane to its share, serves the lanes in turn, and grows by the spare only', async () => {
    const pool = new QueryPool({ size: 1, spare: 1, maxProcesses: 3, limits: LONG });
    const a = pool.lane();
    const b = pool.lane();
    try {
      // Alone, lane a may use the non-spare capacity (3 − 1 = 2): its third query waits.
      const aQueries = [track(a.run(dbPath, RUNAWAY)), track(a.run(dbPath, RUNAWAY)), track(a.run(dbPath, RUNAWAY))];
      await until(() => pool.running === 2);
      expect(pool.pids.length).toBe(3); // two busy + the spare
      // Lane b's cheap queries run on the spare, ahead of a's queued third query.
      expect((await b.run(dbPath, 'SELECT 7')).rows).toEqual([[7]]);
      expect(aQueries.map((q) => q.settled())).toEqual([false, false, false]);
      expect(pool.running).toBe(2);
      a.close();
      for (const q of aQueries) expect((await errorOf(q.promise)).message).toMatch(/cancelled/);
      expect((await errorOf(a.run(dbPath, 'SELECT 1'))).message).toMatch(/lane is closed/);
    } finally {
      await pool.close();
    }
  });

  it('with many lanes, a lane over its share waits while every other lane gets a turn', async () => {
    // One process: completions come in dispatch order (with two, a query dispatched earlier could
    // finish after a later one on a busier process, which made this test flaky on a loaded machine).
    const pool = new QueryPool({ size: 1, spare: 0, maxProcesses: 1 });
    const lanes = Array.from({ length: 4 }, () => pool.lane());
    try {
      await pool.ready();
      const order: string[] = [];
      // Lane 0 queues 6 queries first; lanes 1–3 one each, after it. Served in turn, each of
      // lanes 1–3 finishes before lane 0's last query.
      const runs = [
        ...Array.from({ length: 6 }, (_, i) => lanes[0]!.run(dbPath, `SELECT ${i}`).then(() => order.push(`0:${i}`))),
        ...[1, 2, 3].map((l) => lanes[l]!.run(dbPath, 'SELECT 1').then(() => order.push(`${l}`))),
      ];
      await Promise.all(runs);
      const lastOfLane0 = order.indexOf('0:5');
      for (const l of ['1', '2', '3']) expect(order.indexOf(l)).toBeLessThan(lastOfLane0);
    } finally {
      await pool.close();
    }
  });

  it('sizes the ceiling from the machine by default and retires the extra processes when idle', async () => {
    const pool = new QueryPool({ size: 1, retireAfterMs: 50 });
    try {
      expect(pool.spare).toBe(1);
      expect(pool.maxProcesses).toBe(Math.max(1, 2 * availableParallelism()) + 1);
      const lanes = Array.from({ length: 3 }, () => pool.lane());
      const running = lanes.map((lane) => track(lane.run(dbPath, RUNAWAY)));
      await until(() => pool.running === Math.min(3, pool.maxProcesses - 1));
      lanes.forEach((lane) => lane.cancel());
      await Promise.all(running.map((r) => r.promise.catch(() => undefined)));
      // Back to `size` once the extra processes idle past their grace period.
      await until(() => pool.pids.length === 1);
      expect((await pool.run(dbPath, 'SELECT 2')).rows).toEqual([[2]]);
    } finally {
      await pool.close();
    }
  });

  it('keeps the extra processes through the quiet gaps between the bursts of queries', async () => {
    // A rollout's turn: one query per episode at once, then seconds of generation. With a grace
    // period shorter than that gap, every burst started its extra processes again (≈ 0.3 s of
    // CPU each, more than the queries).
    const pool = new QueryPool({ size: 1, spare: 1, maxProcesses: 4 });
    const lanes = Array.from({ length: 4 }, () => pool.lane());
    const burst = () => Promise.all(lanes.map((lane, i) => lane.run(dbPath, `SELECT ${i}`)));
    try {
      expect(pool.retireAfterMs).toBe(30_000);
      await burst();
      await until(() => pool.pids.length === 4);
      const started = pool.processesStarted;
      for (let turn = 0; turn < 2; turn++) {
        await new Promise((r) => setTimeout(r, 1_200));
        await burst();
      }
      expect(pool.processesStarted).toBe(started);
    } finally {
      await pool.close();
    }
  });

  it('retires an extra process once it has been idle for retireAfterMs, never a busy one', async () => {
    const pool = new QueryPool({ size: 1, spare: 0, maxProcesses: 3, retireAfterMs: 300, limits: LONG });
    const runawayLanes = [pool.lane(), pool.lane()];
    try {
      const long = runawayLanes.map((lane) => track(lane.run(dbPath, RUNAWAY)));
      await until(() => pool.running === 2);
      expect((await pool.lane().run(dbPath, 'SELECT 1')).rows).toEqual([[1]]);
      expect(pool.pids).toHaveLength(3);
      // The runaways keep two processes busy: the third, idle, is extra and retires.
      await until(() => pool.pids.length === 2);
      expect(pool.running).toBe(2);
      expect(long.some((l) => l.settled())).toBe(false);
      runawayLanes.forEach((lane) => lane.cancel());
      await Promise.all(long.map((l) => l.promise.catch(() => undefined)));
    } finally {
      await pool.close();
    }
  });

  it('lowers the CPU priority of a long query and retires its process when it ends', async () => {
    const pool = new QueryPool({ size: 2, spare: 0, maxProcesses: 2, lowPriorityAfterMs: 50, limits: LONG });
    try {
      await pool.ready();
      const long = pool.run(dbPath, 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 3000000) SELECT count(*) FROM c');
      await until(() => pool.pids.some((pid) => getPriority(pid) === 10));
      const lowered = pool.pids.filter((pid) => getPriority(pid) === 10);
      expect(lowered).toHaveLength(1);
      // Cheap queries meanwhile run at normal priority on the other process.
      expect((await pool.run(dbPath, 'SELECT 3')).rows).toEqual([[3]]);
      expect((await long).rows).toEqual([[3000000]]);
      await until(() => !pool.pids.includes(lowered[0]!) && pool.pids.length === 2);
      expect(pool.pids.map((pid) => getPriority(pid))).toEqual([0, 0]);
      expect((await pool.run(dbPath, 'SELECT 4')).rows).toEqual([[4]]);
    } finally {
      await pool.close();
    }
  });

  it('refuses bad sizes', () => {
    expect(() => new QueryPool({ size: 2, maxProcesses: 1 })).toThrow(RangeError);
    expect(() => new QueryPool({ size: 1, spare: -1 })).toThrow(RangeError);
    expect(() => new QueryPool({ size: 1, retireAfterMs: -1 })).toThrow(RangeError);
  });
});
