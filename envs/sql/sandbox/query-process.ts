import { fork, spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { setPriority } from 'node:os';
import type { Socket } from 'node:net';
import { PendingCalls } from '../../../src/base/pending-calls.js';
import { SqlSandboxError } from './errors.js';
import { createPackr, encodeFrame, FrameDecoder } from './frame-channel.js';
import type { QueryLimits } from './limits.js';
import { PIPE_CHANNEL_FLAG, type QueryRequest, type WorkerMessage } from './worker-protocol.js';

/**
 * How messages cross the process boundary (the benchmark measures all three):
 * - `'msgpack'`: length-prefixed MessagePack frames on a pipe of their own (the default: the
 *   cheapest for large results, as fast as the others for small ones);
 * - `'json'` and `'advanced'` (structured clone): Node's IPC channel with that serialization.
 */
export type IpcSerialization = 'msgpack' | 'json' | 'advanced';

/** A query process's answer to one request: its result or its error. */
export type QueryReply = Exclude<WorkerMessage, { type: 'ready' }>;

/** The nice value of a process running a long query (0 is normal, 19 the lowest priority). */
const LOW_PRIORITY = 10;

/**
 * One query process, as seen by its pool: it starts, says ready, answers one request at a time,
 * and can be killed at once (SIGKILL stops a running SQLite statement in milliseconds, where
 * terminating a thread would wait for the statement to finish).
 */
export class QueryProcess {
  /** Resolves true once the process has loaded the driver, false if it exited before that. */
  readonly ready: Promise<boolean>;
  /** Resolves when the process has exited, with its exit code or signal. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private readonly child: ChildProcess;
  private readonly write: (request: QueryRequest) => void;
  private isReady = false;
  private isLowered = false;
  private readonly calls = new PendingCalls<QueryReply>();

  constructor(script: string, serialization: IpcSerialization) {
    let onMessage: (message: WorkerMessage) => void = () => undefined;
    if (serialization === 'msgpack') {
      // No Node IPC channel at all: requests and replies are frames on fd 3.
      this.child = spawn(process.execPath, [script, PIPE_CHANNEL_FLAG], {
        stdio: ['ignore', 'ignore', 'inherit', 'pipe'],
      });
      const pipe = this.child.stdio[3] as Socket | null;
      const packr = createPackr();
      const decoder = new FrameDecoder((body) => onMessage(packr.unpack(body) as WorkerMessage));
      pipe?.on('data', (chunk: Buffer) => decoder.push(chunk));
      // A write to a process that just died fails with EPIPE; its exit event handles the rest.
      pipe?.on('error', () => undefined);
      pipe?.unref();
      this.write = (request) => pipe?.write(encodeFrame(packr, request));
    } else {
      this.child = fork(script, [], {
        serialization,
        stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
        // The query process must not inherit a TypeScript loader or inspector from the parent.
        execArgv: [],
      });
      this.child.channel?.unref();
      this.child.on('message', (message: WorkerMessage) => onMessage(message));
      this.write = (request) => this.child.send(request);
    }
    // A pool its owner forgot to close must not keep the program alive; a busy query keeps
    // the event loop alive through its timeout timer instead.
    this.child.unref();
    this.exited = new Promise((resolve) => {
      this.child.once('exit', (code, signal) => resolve({ code, signal }));
    });
    this.ready = new Promise((resolve) => {
      onMessage = (message) => {
        if (message.type === 'ready') {
          this.isReady = true;
          resolve(true);
          return;
        }
        this.calls.resolve(message.id, message);
      };
      void this.exited.then(() => {
        resolve(false);
        this.calls.rejectAll(stoppedError());
      });
    });
    this.child.on('error', () => {
      // Spawn and IPC errors surface as an exit; nothing else to do here.
    });
  }

  /** The operating-system process id (undefined if it failed to spawn). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /** True once the process has said it is ready (stays true after it exits). */
  get hasBeenReady(): boolean {
    return this.isReady;
  }

  /** True once ready and until it exits. */
  get alive(): boolean {
    return this.isReady && this.child.exitCode === null && this.child.signalCode === null;
  }

  /**
   * Run one screened statement; resolves with the process's answer, rejects with
   * {@link SqlSandboxError} if the process is killed or exits before answering.
   */
  query(dbPath: string, sql: string, limits: QueryLimits): Promise<QueryReply> {
    return this.calls.call('query', (id) => this.write({ id, dbPath, sql, limits }));
  }

  /** Resident memory in bytes, read from /proc (Linux); undefined where unavailable. */
  async residentBytes(): Promise<number | undefined> {
    if (process.platform !== 'linux' || this.child.pid === undefined) return undefined;
    try {
      const status = await readFile(`/proc/${this.child.pid}/status`, 'utf8');
      const kb = /VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1];
      return kb === undefined ? undefined : Number(kb) * 1024;
    } catch {
      return undefined;
    }
  }

  /** True once {@link lowerPriority} succeeded. */
  get lowered(): boolean {
    return this.isLowered;
  }

  /** Lower the process's CPU priority (nice 10) for a long query; false where the OS refuses. */
  lowerPriority(): boolean {
    if (this.isLowered || this.child.pid === undefined || !this.alive) return this.isLowered;
    try {
      setPriority(this.child.pid, LOW_PRIORITY);
      this.isLowered = true;
    } catch {
      // Not permitted, or the process just exited: it keeps its priority.
    }
    return this.isLowered;
  }

  /** SIGKILL: stops whatever SQLite is doing now. */
  kill(): void {
    // A reply already on its way from a killed process must not settle anything.
    this.calls.rejectAll(stoppedError());
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }
}

function stoppedError(): SqlSandboxError {
  return new SqlSandboxError('sql_error', 'the query process was stopped before it answered; it is being replaced.');
}
