import type { SqlSandboxErrorType, SqlSandboxFeedback } from './errors.js';
import type { QueryLimits } from './limits.js';
import type { QueryResult } from './query-result.js';

/**
 * The command-line flag that tells a query process to exchange MessagePack frames on file
 * descriptor 3 (see frame-channel.ts) instead of using Node's IPC channel.
 */
export const PIPE_CHANNEL_FLAG = '--frames-on-fd3';

/** Parent → query process: run one screened statement. */
export interface QueryRequest {
  id: number;
  dbPath: string;
  sql: string;
  limits: QueryLimits;
}

/**
 * A result as it crosses the process boundary: `rows` is left out when it equals `fullRows`
 * (nothing cut, no more than `maxRows` rows), which halves the bytes of small results.
 */
export type WireResult = Omit<QueryResult, 'elapsedMs' | 'rows'> & { rows?: QueryResult['rows'] };

/** Query process → parent. `ready` is sent once, after the driver has loaded. */
export type WorkerMessage =
  | { type: 'ready' }
  | { type: 'result'; id: number; result: WireResult }
  | { type: 'error'; id: number; errorType: SqlSandboxErrorType; message: string; feedback?: SqlSandboxFeedback };
