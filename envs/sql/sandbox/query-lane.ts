import { SqlSandboxError } from './errors.js';
import type { QueryLimits } from './limits.js';
import type { QueryResult } from './query-result.js';

/** One query waiting for or running in a process of a {@link QueryPool}. */
export interface QueryJob {
  readonly lane: QueryLane;
  dbPath: string;
  sql: string;
  limits: QueryLimits;
  resolve: (result: QueryResult) => void;
  reject: (error: SqlSandboxError) => void;
  /** Set while running: stops its timers and marks it settled. */
  settle?: () => boolean;
  /** Set while running: rejects it with this error and kills its process. */
  cancel?: (error: SqlSandboxError) => void;
  /** Set once the job has been re-queued after its process died under it. */
  retried?: boolean;
}

/** What a lane needs from its pool. */
export interface LaneScheduler {
  /** Queue a query of `lane` (rejects with SqlSandboxError). */
  submit(lane: QueryLane, dbPath: string, sql: string, limits: Partial<QueryLimits> | undefined): Promise<QueryResult>;
  /** Reject the lane's queued queries and kill its running ones with `error`. */
  cancel(lane: QueryLane, error: SqlSandboxError): void;
}

/**
 * One user's share of a {@link QueryPool}: a queue of its own that the pool serves in turn with
 * every other lane, so a user's queries wait behind its own, never behind another user's
 * runaway. SQLEnv takes one lane per env (so one per server session); `cancel()` stops the
 * lane's queries at once (the process running one is killed and replaced), and `close()` also
 * refuses new ones.
 *
 * @example
 * ```ts
 * const lane = pool.lane();
 * const r = await lane.run(dbPath, 'SELECT count(*) FROM singer');
 * lane.close(); // the session is over: anything still running is killed
 * ```
 */
export class QueryLane {
  /** Queries waiting for a process, oldest first (the pool's scheduler reads and shifts it). */
  readonly queued: QueryJob[] = [];
  /** Queries running now. */
  readonly running = new Set<QueryJob>();
  private closed = false;

  constructor(private readonly scheduler: LaneScheduler) {}

  /** Run one read-only statement in this lane (same contract as `QueryPool.run`). */
  run(dbPath: string, sql: string, limits?: Partial<QueryLimits>): Promise<QueryResult> {
    if (this.closed) return Promise.reject(new SqlSandboxError('sql_error', 'this query lane is closed (its env was closed); reset the env to run queries again.'));
    return this.scheduler.submit(this, dbPath, sql, limits);
  }

  /** True while the lane has queries queued or running. */
  get active(): boolean {
    return this.queued.length > 0 || this.running.size > 0;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Stop every query of this lane now; later queries run as usual. */
  cancel(): void {
    if (this.active) this.scheduler.cancel(this, cancelledError());
  }

  /** Stop every query of this lane and refuse new ones. Idempotent. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.active) this.scheduler.cancel(this, cancelledError());
  }
}

function cancelledError(): SqlSandboxError {
  return new SqlSandboxError('sql_error', 'the query was cancelled because its session ended; its process was stopped and replaced.');
}
