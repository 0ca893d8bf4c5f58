/**
 * Entry point of a query process (started by {@link QueryPool}; runs compiled, from dist/).
 * Keeps read-only connections per database and runs one query at a time. The parent enforces
 * the timeout by killing this process, which is why queries run here and not in the parent.
 *
 * Messages arrive and leave either as MessagePack frames on file descriptor 3 (when started with
 * {@link PIPE_CHANNEL_FLAG}; see frame-channel.ts) or on Node's IPC channel (when forked with one).
 */
import { Socket } from 'node:net';
import { ConnectionCache } from './connection-cache.js';
import { SqlSandboxError } from './errors.js';
import { executeReadQuery } from './execute-read-query.js';
import { BlockingFrameReader, createPackr, encodeFrame, FrameDecoder, writeFullySync } from './frame-channel.js';
import { StatementCache } from './statement-cache.js';
import { PIPE_CHANNEL_FLAG, type QueryRequest, type WorkerMessage } from './worker-protocol.js';

// Room for every database of a typical dataset (Spider sample: 11, bundled: 12) so that
// episodes cycling through databases do not reopen connections.
const connections = new ConnectionCache(32);
// As Python's sqlite3 does per connection: SQL sent again is run again without being compiled again.
const statements = new StatementCache(128);

function handle(request: QueryRequest): WorkerMessage {
  try {
    const db = connections.get(request.dbPath);
    const { rows, ...rest } = executeReadQuery(db, request.sql, request.limits, statements);
    return { type: 'result', id: request.id, result: rest.truncated ? { ...rest, rows } : rest };
  } catch (e) {
    const error =
      e instanceof SqlSandboxError ? e : new SqlSandboxError('sql_error', e instanceof Error ? e.message : String(e));
    return { type: 'error', id: request.id, errorType: error.errorType, message: error.message, ...(error.feedback ? { feedback: error.feedback } : {}) };
  }
}

const PIPE_FD = 3;

// The parent went away: nothing else will ever ask for work.
function parentGone(): never {
  connections.close();
  process.exit(0);
}

/**
 * What a read or write on the pipe throws once the parent has exited: EPIPE when writing to a closed
 * end, ECONNRESET when reading from one the parent closed with our bytes still unread in it.
 */
function isParentGoneError(e: unknown): boolean {
  const code = (e as NodeJS.ErrnoException).code;
  return code === 'EPIPE' || code === 'ECONNRESET';
}

if (process.argv.includes(PIPE_CHANNEL_FLAG)) servePipe();
else serveIpc();

/**
 * Frames on fd 3, read with blocking reads: the process waits in read(2) between requests. If the
 * descriptor turns out to be non-blocking (EAGAIN), the same frames are served from the event loop.
 */
function servePipe(): void {
  const packr = createPackr();
  try {
    // A parent that exits while this process starts (a run ending) leaves no one to tell.
    writeFullySync(PIPE_FD, encodeFrame(packr, { type: 'ready' } satisfies WorkerMessage));
  } catch (e) {
    if (isParentGoneError(e)) parentGone();
    throw e;
  }
  const reader = new BlockingFrameReader(PIPE_FD);
  for (;;) {
    let body: Buffer | undefined;
    try {
      body = reader.next();
    } catch (e) {
      if (isParentGoneError(e)) parentGone();
      if ((e as NodeJS.ErrnoException).code !== 'EAGAIN') throw e;
      serveNonBlockingPipe(packr, reader.unread());
      return;
    }
    if (body === undefined) parentGone();
    const reply = encodeFrame(packr, handle(packr.unpack(body) as QueryRequest));
    try {
      writeFullySync(PIPE_FD, reply);
    } catch {
      parentGone(); // EPIPE: the parent closed its end while the reply was being written
    }
  }
}

function serveNonBlockingPipe(packr: ReturnType<typeof createPackr>, unread: Buffer): void {
  const pipe = new Socket({ fd: PIPE_FD, readable: true, writable: true });
  const decoder = new FrameDecoder((body) => pipe.write(encodeFrame(packr, handle(packr.unpack(body) as QueryRequest))));
  pipe.on('data', (chunk: Buffer) => decoder.push(chunk));
  pipe.on('end', parentGone);
  pipe.on('close', parentGone);
  pipe.on('error', parentGone);
  if (unread.length > 0) decoder.push(unread);
}

function serveIpc(): void {
  const send = (message: WorkerMessage): void => void process.send?.(message);
  process.on('message', (request: QueryRequest) => send(handle(request)));
  process.on('disconnect', parentGone);
  send({ type: 'ready' });
}
