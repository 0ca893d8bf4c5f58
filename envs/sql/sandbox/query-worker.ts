/**
 * Entry point of a query process (forked by {@link QueryPool}; runs compiled, from dist/).
 * Keeps read-only connections per database and runs one query at a time. The parent enforces
 * the timeout by killing this process, which is why queries run here and not in the parent.
 */
import { ConnectionCache } from './connection-cache.js';
import { SqlSandboxError } from './errors.js';
import { executeReadQuery } from './execute-read-query.js';
import type { QueryRequest, WorkerMessage } from './worker-protocol.js';

// Room for every database of a typical dataset (Spider sample: 11, bundled: 12) so that
// episodes cycling through databases do not reopen connections.
const connections = new ConnectionCache(32);

function send(message: WorkerMessage): void {
  process.send?.(message);
}

process.on('message', (request: QueryRequest) => {
  try {
    const db = connections.get(request.dbPath);
    const { rows, ...rest } = executeReadQuery(db, request.sql, request.limits);
    send({ type: 'result', id: request.id, result: rest.truncated ? { ...rest, rows } : rest });
  } catch (e) {
    const error =
      e instanceof SqlSandboxError ? e : new SqlSandboxError('sql_error', e instanceof Error ? e.message : String(e));
    send({ type: 'error', id: request.id, errorType: error.errorType, message: error.message });
  }
});

// The parent went away: nothing else will ever ask for work.
process.on('disconnect', () => {
  connections.close();
  process.exit(0);
});

send({ type: 'ready' });
