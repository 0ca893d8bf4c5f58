import { availableParallelism } from 'node:os';
import { resolve as resolvePath } from 'node:path';
import { workerScriptPath } from '../../../src/base/worker-script.js';
import { SqlSandboxError } from './errors.js';
import { DEFAULT_QUERY_LIMITS, resolveQueryLimits, type QueryLimits } from './limits.js';
import type { QueryResult } from './query-result.js';
import { QueryLane, type LaneScheduler, type QueryJob } from './query-lane.js';
import { QueryProcess, type IpcSerialization, type QueryReply } from './query-process.js';
import { checkReadOnlySql, type ReadOnlySqlCheck } from './read-only-check.js';

/** Options of a {@link QueryPool}. */
export interface QueryPoolOptions {
  /** Query processes kept started even when idle (default: 2, or 1 on a single-core machine). */
  size?: number;
  /**
   * Idle processes kept ready beyond the busy ones (default 1), so a query never waits for a
   * process to start while others run long queries. The pool grows to `busy + spare` (at most
   * `maxProcesses`) and retires an extra process once it has been idle for `retireAfterMs`.
   */
  spare?: number;
  /**
   * How long an extra process (beyond `size` and the spare) may sit idle before it is stopped
   * (default 30 s). Starting a query process costs ≈ 0.3 s of CPU, far more than the short
   * queries it runs: a rollout sends a burst of queries (one per episode) every turn, seconds
   * apart while the model generates, and a grace period shorter than that gap started the
   * burst's processes again every turn (docs/sql-sandbox.md, "The pool").
   */
  retireAfterMs?: number;
  /**
   * Most processes alive at once (default: twice the machine's cores, `os.availableParallelism()`,
   * plus `spare`, and at least `size + spare`). Long queries of many sessions at once use up to
   * this many; past it queries wait, each lane in turn.
   */
  maxProcesses?: number;
  /**
   * A query still running after this many milliseconds gets a lower CPU priority (nice 10), so
   * on a busy machine runaway queries yield the cores to the server and to cheap queries; its
   * process is retired (and replaced) when the query ends, since priority cannot be raised back.
   * Default 250; 0 turns it off.
   */
  lowPriorityAfterMs?: number;
  /** Defaults for every query of this pool; `run` can override per query. */
  limits?: Partial<QueryLimits>;
  /**
   * How requests and results cross the process boundary (default `'msgpack'`: MessagePack frames on
   * a pipe, measured the cheapest for large results; `'json'`/`'advanced'` use Node's IPC channel;
   * see BENCHMARKS.md).
   */
  serialization?: IpcSerialization;
  /**
   * Resident-memory cap of one query process in bytes (default 1 GiB; Linux only). A query whose
   * process grows past it is killed and fails with `result_too_large`.
   */
  memoryLimitBytes?: number;
}

/** Screening results remembered (at most this many, of texts up to this long: ≤ 1 MiB of SQL). */
const SCREEN_MEMO_ENTRIES = 512;
const SCREEN_MEMO_MAX_CHARS = 2_000;
/** A process that exits this many times in a row before becoming ready marks the pool broken. */
const MAX_STARTUP_FAILURES = 3;
const MEMORY_POLL_MS = 100;

/**
 * A pool of pre-started child processes that run read-only queries with a hard timeout.
 *
 * A running SQLite statement cannot be interrupted from JavaScript, so each query runs in a
 * child process; when it passes `timeoutMs` the child is killed with SIGKILL and a replacement
 * starts at once. Every query is first
 * screened by {@link checkReadOnlySql}; the child opens databases read-only and refuses any
 * statement SQLite reports as writing. Results are capped in rows, cell length and bytes.
 *
 * **Fair sharing.** Each user takes a {@link QueryLane} (`pool.lane()`; SQLEnv takes one per env,
 * so one per server session; `pool.run` uses a shared default lane). Lanes are served in turn,
 * the lane with the fewest running queries first, and no lane runs more than its share
 * (`maxProcesses − spare` divided among the lanes with work, at least one). The pool keeps
 * `spare` idle processes started beyond the busy ones (growing up to `maxProcesses`), so two
 * runaway queries of one session leave a ready process for everyone else's cheap queries.
 * `lane.cancel()`/`close()` kill the lane's running queries (the process is replaced).
 *
 * The pool's owner closes it (`close()` kills the processes and rejects pending queries).
 *
 * @example
 * ```ts
 * const pool = new QueryPool({ size: 2, limits: { timeoutMs: 2_000 } });
 * try {
 *   const r = await pool.run('/data/concert_singer.sqlite', 'SELECT name FROM singer');
 *   console.log(r.columns, r.rows, r.rowCount);
 * } finally {
 *   await pool.close();
 * }
 * ```
 */
export class QueryPool {
  /** Number of query processes kept started. */
  readonly size: number;
  /** Idle processes kept ready beyond the busy ones. */
  readonly spare: number;
  /** Most processes alive at once. */
  readonly maxProcesses: number;
  /** Milliseconds after which a running query's process is lowered in CPU priority (0: never). */
  readonly lowPriorityAfterMs: number;
  /** Milliseconds an extra process may sit idle before it is stopped. */
  readonly retireAfterMs: number;
  /** The pool's default limits. */
  readonly limits: Readonly<QueryLimits>;
  private readonly script: string;
  private readonly serialization: IpcSerialization;
  private readonly memoryLimitBytes: number;
  private readonly processes = new Set<QueryProcess>();
  /** Ready processes without a query, least recently used first. */
  private readonly idle: QueryProcess[] = [];
  /** When each idle process last finished a query (or became ready), `performance.now()` ms. */
  private readonly idleSince = new Map<QueryProcess, number>();
  private readonly busy = new Map<QueryProcess, QueryJob>();
  private readonly scheduler: LaneScheduler = {
    submit: (lane, dbPath, sql, limits) => this.submit(lane, dbPath, sql, limits),
    cancel: (lane, error) => this.cancelLane(lane, error),
  };
  /** Lanes with queued queries, in turn order (a lane served moves to the back). */
  private readonly waiting = new Set<QueryLane>();
  /** Lanes with queued or running queries (their number sets each lane's share). */
  private readonly activeLanes = new Set<QueryLane>();
  private readonly defaultLane = new QueryLane(this.scheduler);
  private retireTimer: NodeJS.Timeout | undefined;
  private startupFailures = 0;
  private brokenReason: string | undefined;
  private closing: Promise<void> | undefined;
  private started = 0;
  /** Outstanding queries and `ready()` calls; while any exist a timer keeps the event loop alive. */
  private outstanding = 0;
  private keepAlive: NodeJS.Timeout | undefined;
  private readonly absolutePaths = new Map<string, string>();
  private readonly screened = new Map<string, ReadOnlySqlCheck>();

  constructor(options: QueryPoolOptions = {}) {
    this.size = options.size ?? Math.max(1, Math.min(2, availableParallelism()));
    if (!Number.isInteger(this.size) || this.size < 1) {
      throw new RangeError(`QueryPool size must be a positive integer, got ${this.size}`);
    }
    this.spare = options.spare ?? 1;
    if (!Number.isInteger(this.spare) || this.spare < 0) {
      throw new RangeError(`QueryPool spare must be an integer ≥ 0, got ${this.spare}`);
    }
    this.maxProcesses = options.maxProcesses ?? Math.max(this.size, 2 * availableParallelism()) + this.spare;
    if (!Number.isInteger(this.maxProcesses) || this.maxProcesses < this.size) {
      throw new RangeError(`QueryPool maxProcesses must be an integer ≥ size (${this.size}), got ${this.maxProcesses}`);
    }
    this.lowPriorityAfterMs = options.lowPriorityAfterMs ?? 250;
    if (!(this.lowPriorityAfterMs >= 0)) throw new RangeError(`QueryPool lowPriorityAfterMs must be ≥ 0, got ${this.lowPriorityAfterMs}`);
    this.retireAfterMs = options.retireAfterMs ?? 30_000;
    if (!(this.retireAfterMs >= 0)) throw new RangeError(`QueryPool retireAfterMs must be ≥ 0, got ${this.retireAfterMs}`);
    this.limits = Object.freeze(resolveQueryLimits(options.limits, DEFAULT_QUERY_LIMITS));
    this.serialization = options.serialization ?? 'msgpack';
    this.memoryLimitBytes = options.memoryLimitBytes ?? 1024 ** 3;
    this.script = workerScriptPath(import.meta.url, './query-worker.js');
    for (let i = 0; i < this.size; i++) this.startProcess();
  }

  /**
   * Run one read-only statement on the SQLite file at `dbPath`, in the pool's shared default lane.
   * Rejects only with {@link SqlSandboxError}.
   */
  run(dbPath: string, sql: string, limits?: Partial<QueryLimits>): Promise<QueryResult> {
    return this.defaultLane.run(dbPath, sql, limits);
  }

  /**
   * A lane of its own for one user (an env, a session): its queries are scheduled fairly against
   * every other lane's, and `lane.close()` kills what it still runs.
   */
  lane(): QueryLane {
    return new QueryLane(this.scheduler);
  }

  private submit(lane: QueryLane, dbPath: string, sql: string, limits: Partial<QueryLimits> | undefined): Promise<QueryResult> {
    if (this.closing) return Promise.reject(closedError());
    if (this.brokenReason) return Promise.reject(new SqlSandboxError('sql_error', this.brokenReason));
    let resolved: QueryLimits;
    try {
      resolved = resolveQueryLimits(limits, this.limits);
    } catch (e) {
      return Promise.reject(new SqlSandboxError('sql_error', (e as Error).message));
    }
    const check = this.screen(sql);
    if (!check.ok) return Promise.reject(new SqlSandboxError(check.errorType, check.message));
    const result = new Promise<QueryResult>((resolve, reject) => {
      lane.queued.push({ lane, dbPath: this.absolutePath(dbPath), sql: check.sql, limits: resolved, resolve, reject });
      this.waiting.add(lane);
      this.activeLanes.add(lane);
      this.pump();
    });
    return this.holdOpenUntil(result);
  }

  /**
   * {@link checkReadOnlySql}, remembered for short SQL texts: the check is a pure function of the
   * text, and agents send the same SQL again (K rollouts of a question, repeated probes).
   */
  private screen(sql: string): ReadOnlySqlCheck {
    let check = this.screened.get(sql);
    if (check === undefined) {
      check = Object.freeze(checkReadOnlySql(sql));
      if (sql.length <= SCREEN_MEMO_MAX_CHARS) {
        if (this.screened.size >= SCREEN_MEMO_ENTRIES) this.screened.clear();
        this.screened.set(sql, check);
      }
    }
    return check;
  }

  /** `dbPath` made absolute, remembered: a pool is asked about the same few files again and again. */
  private absolutePath(dbPath: string): string {
    let absolute = this.absolutePaths.get(dbPath);
    if (absolute === undefined) {
      if (this.absolutePaths.size >= 1024) this.absolutePaths.clear();
      absolute = resolvePath(dbPath);
      this.absolutePaths.set(dbPath, absolute);
    }
    return absolute;
  }

  /** Resolves once every process of the pool has started (useful before timing queries). */
  async ready(): Promise<void> {
    await this.holdOpenUntil(Promise.all([...this.processes].map((p) => p.ready)));
  }

  /**
   * Child processes are unreferenced so that a pool never keeps a program alive by itself; but a
   * caller awaiting a query must not see the program exit under it, so the loop is held open
   * while anything is outstanding.
   */
  private holdOpenUntil<T>(promise: Promise<T>): Promise<T> {
    if (this.outstanding++ === 0) this.keepAlive = setInterval(() => undefined, 1 << 30);
    const release = (): void => {
      if (--this.outstanding === 0) clearInterval(this.keepAlive);
    };
    promise.then(release, release);
    return promise;
  }

  /** Queries running now. */
  get running(): number {
    return this.busy.size;
  }

  /** Processes started since the pool was created (replacements included). */
  get processesStarted(): number {
    return this.started;
  }

  /** Operating-system ids of the live processes (for diagnostics and tests). */
  get pids(): number[] {
    return [...this.processes].map((p) => p.pid).filter((pid): pid is number => pid !== undefined);
  }

  /** Kill every process and reject queued and running queries. Idempotent. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      clearTimeout(this.retireTimer);
      for (const lane of this.waiting) for (const job of lane.queued.splice(0)) job.reject(closedError());
      this.waiting.clear();
      for (const job of [...this.busy.values()]) if (job.settle?.() !== false) job.reject(closedError());
      this.busy.clear();
      this.activeLanes.clear();
      const exits = [...this.processes].map((p) => {
        p.kill();
        return p.exited;
      });
      await Promise.all(exits);
      this.processes.clear();
      this.idle.length = 0;
      this.idleSince.clear();
    })();
    return this.holdOpenUntil(this.closing);
  }

  private startProcess(): void {
    const proc = new QueryProcess(this.script, this.serialization);
    this.started++;
    this.processes.add(proc);
    void proc.ready.then((ok) => {
      if (!ok || this.closing) return;
      this.startupFailures = 0;
      this.makeIdle(proc);
      this.pump();
    });
    void proc.exited.then(({ code, signal }) => this.onExit(proc, code, signal));
  }

  private onExit(proc: QueryProcess, code: number | null, signal: NodeJS.Signals | null): void {
    this.processes.delete(proc);
    const idleAt = this.idle.indexOf(proc);
    if (idleAt !== -1) this.idle.splice(idleAt, 1);
    this.idleSince.delete(proc);
    const job = this.busy.get(proc);
    this.busy.delete(proc);
    if (job && job.settle?.() !== false && !job.retried && !this.closing) {
      // The process died without the pool killing it (an outside kill, an OOM kill, or a crash
      // that raced the query's dispatch): the query may never have run, so it gets one more
      // try on a fresh process. A query that crashes its process twice is reported.
      job.retried = true;
      job.lane.queued.unshift(job);
      this.waiting.add(job.lane);
      this.activeLanes.add(job.lane);
    } else if (job) {
      job.reject(
        new SqlSandboxError(
          'sql_error',
          `the query process stopped unexpectedly (${signal ?? `exit code ${code}`}) while running this query; ` +
            'it has been replaced. Simplify the query or add a LIMIT.',
        ),
      );
    }
    if (this.closing) return;
    if (!proc.hasBeenReady) this.startupFailures++;
    if (this.startupFailures >= MAX_STARTUP_FAILURES) {
      this.brokenReason =
        `query processes exit before they are ready (${MAX_STARTUP_FAILURES} times in a row, last: ` +
        `${signal ?? `exit code ${code}`}); see their stderr above. Is better-sqlite3 built for this Node version?`;
      for (const lane of this.waiting) for (const queued of lane.queued.splice(0)) queued.reject(new SqlSandboxError('sql_error', this.brokenReason));
      this.waiting.clear();
      return;
    }
    this.pump();
  }

  /** Hand queued queries to idle processes, lane by lane, then size the pool to the demand. */
  private pump(): void {
    while (this.idle.length > 0) {
      const lane = this.nextLane();
      if (!lane) break;
      // The most recently used process: the one whose caches (SQLite pages, prepared statements,
      // compiled code) are warm. Handing queries round the processes in turn measured 1.5–2×
      // slower on the sql-env bench: each process found its caches cold.
      const proc = this.idle.pop()!;
      this.idleSince.delete(proc);
      if (!proc.alive) continue;
      const job = lane.queued.shift()!;
      // The lane served goes to the back of the turn order.
      this.waiting.delete(lane);
      if (lane.queued.length > 0) this.waiting.add(lane);
      lane.running.add(job);
      this.dispatch(proc, job);
    }
    this.resize();
  }

  /** The most queries one lane may run at once: the non-spare capacity split among active lanes. */
  private share(): number {
    return Math.max(1, Math.floor((this.maxProcesses - this.spare) / Math.max(1, this.activeLanes.size)));
  }

  /** The waiting lane under its share with the fewest running queries (earliest in turn on ties). */
  private nextLane(): QueryLane | undefined {
    const share = this.share();
    let best: QueryLane | undefined;
    for (const lane of this.waiting) {
      if (lane.running.size >= share) continue;
      if (!best || lane.running.size < best.running.size) best = lane;
      if (best.running.size === 0) break;
    }
    return best;
  }

  /**
   * Start processes until `spare` stand ready beyond the busy ones and the runnable queued
   * queries (at most `maxProcesses`); extra ones retire once idle for `retireAfterMs`.
   */
  private resize(): void {
    if (this.closing || this.brokenReason) return;
    const share = this.share();
    let runnable = 0;
    for (const lane of this.waiting) runnable += Math.min(lane.queued.length, Math.max(0, share - lane.running.size));
    const wanted = Math.min(this.maxProcesses, Math.max(this.size, this.busy.size + runnable + this.spare));
    while (this.processes.size < wanted) this.startProcess();
    if (this.processes.size > wanted && this.idle.length > 0) this.scheduleRetirement(this.retireAfterMs);
  }

  private scheduleRetirement(delayMs: number): void {
    if (this.retireTimer) return;
    this.retireTimer = setTimeout(() => {
      this.retireTimer = undefined;
      this.retireIdle();
    }, delayMs);
    this.retireTimer.unref();
  }

  /** Stop extra processes idle for `retireAfterMs`, least recently used first; check again when the next one would be. */
  private retireIdle(): void {
    if (this.closing) return;
    const keep = Math.max(this.size, this.busy.size + this.spare);
    const now = performance.now();
    while (this.processes.size > keep && this.idle.length > 0) {
      // The least recently used (the front: processes are taken from the back).
      const proc = this.idle[0]!;
      const idleFor = now - (this.idleSince.get(proc) ?? now);
      if (idleFor < this.retireAfterMs) {
        this.scheduleRetirement(this.retireAfterMs - idleFor);
        return;
      }
      this.idle.shift();
      this.idleSince.delete(proc);
      // Removed first, so its exit starts no replacement.
      this.processes.delete(proc);
      proc.kill();
    }
  }

  private makeIdle(proc: QueryProcess): void {
    this.idle.push(proc);
    this.idleSince.set(proc, performance.now());
  }

  /** Reject a lane's queued queries and kill its running ones (their processes are replaced). */
  private cancelLane(lane: QueryLane, error: SqlSandboxError): void {
    for (const job of lane.queued.splice(0)) job.reject(error);
    this.waiting.delete(lane);
    for (const job of [...lane.running]) job.cancel?.(error);
    if (!lane.active) this.activeLanes.delete(lane);
  }

  private dispatch(proc: QueryProcess, job: QueryJob): void {
    this.busy.set(proc, job);
    const startedAt = performance.now();
    let settled = false;
    const finish = (): boolean => {
      if (settled) return false;
      job.settle = undefined;
      settled = true;
      clearTimeout(timer);
      clearTimeout(lower);
      if (watchdog) clearInterval(watchdog);
      this.busy.delete(proc);
      job.cancel = undefined;
      job.lane.running.delete(job);
      if (!job.lane.active) this.activeLanes.delete(job.lane);
      return true;
    };
    const kill = (error: SqlSandboxError): void => {
      if (!finish()) return;
      job.reject(error);
      // The exit handler starts the replacement.
      proc.kill();
    };
    const timer = setTimeout(() => kill(timeoutError(job.limits.timeoutMs)), job.limits.timeoutMs);
    const lower = this.lowPriorityAfterMs > 0 ? setTimeout(() => proc.lowerPriority(), this.lowPriorityAfterMs) : undefined;
    lower?.unref();
    const watchdog =
      process.platform === 'linux'
        ? setInterval(() => {
            void proc.residentBytes().then((bytes) => {
              if (bytes !== undefined && bytes > this.memoryLimitBytes) kill(memoryError(this.memoryLimitBytes));
            });
          }, MEMORY_POLL_MS)
        : undefined;
    watchdog?.unref();
    job.settle = finish;
    job.cancel = kill;
    const onReply = (reply: QueryReply): void => {
      if (!finish()) return;
      if (reply.type === 'result') {
        const { rows, fullRows, ...rest } = reply.result;
        job.resolve({ ...rest, rows: rows ?? fullRows?.slice() ?? [], fullRows, elapsedMs: performance.now() - startedAt });
      } else {
        job.reject(new SqlSandboxError(reply.errorType, reply.message, reply.feedback));
      }
      if (proc.lowered) {
        // Its priority cannot be raised back without privileges: replace it (removed first, so its
        // exit is not taken for a crash).
        this.processes.delete(proc);
        proc.kill();
      } else {
        this.makeIdle(proc);
      }
      this.pump();
    };
    // A rejection means the process died or was killed: `kill` or the exit handler settles the job.
    proc.query(job.dbPath, job.sql, job.limits).then(onReply, () => undefined);
  }
}

function closedError(): SqlSandboxError {
  return new SqlSandboxError('sql_error', 'the query pool is closed; create a new QueryPool to run queries.');
}

function timeoutError(ms: number): SqlSandboxError {
  return new SqlSandboxError(
    'timeout',
    `the query ran longer than ${ms} ms and was stopped. Make it cheaper: add a LIMIT, filter with WHERE ` +
      'before joining, join on keys instead of a cross join, and bound recursive CTEs.',
  );
}

function memoryError(bytes: number): SqlSandboxError {
  return new SqlSandboxError(
    'result_too_large',
    `the query used more than ${Math.round(bytes / 1024 ** 2)} MiB of memory and was stopped. Avoid huge strings ` +
      'or blobs and large intermediate results; add a LIMIT or aggregate.',
  );
}
