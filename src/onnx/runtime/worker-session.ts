/**
 * A session that runs in its own worker thread, keeping the caller's event loop free while
 * onnxruntime computes. Feeds are copied to the worker; outputs are transferred back (no copy).
 */
import type { Worker } from 'node:worker_threads';
import { PendingCalls } from '../../base/pending-calls.js';
import { workerScriptPath } from '../../base/worker-script.js';
import type { Graph } from '../graph/graph.js';
import { encodeModel } from '../proto/model.js';
import { SessionError } from './errors.js';
import type { HostTensor } from './host-tensor.js';
import type { Session } from './session-api.js';
import { startWorker, wireSessionOptions, type WorkerSessionOptions } from './start-worker.js';
import { toWireTensors, type FromWorker, type ToWorker } from './worker-protocol.js';

export type { WorkerSessionOptions } from './start-worker.js';

/**
 * @example
 * ```ts
 * const ws = await WorkerSession.create(graph, { provider: 'cpu' });
 * const { y } = await ws.run({ x: hostTensor('float32', [1, 4], new Float32Array(4)) });
 * await ws.close();
 * ```
 */
export class WorkerSession implements Session {
  private readonly calls = new PendingCalls<Record<string, HostTensor>>();
  private closed = false;
  /** Milliseconds spent inside `session.run` in the worker (the rest of a call is messaging). */
  runMs = 0;

  private constructor(
    private readonly worker: Worker,
    readonly inputNames: readonly string[],
    readonly outputNames: readonly string[],
  ) {
    worker.on('message', (msg: FromWorker) => this.onMessage(msg));
    worker.on('error', (e) => this.failAll(e));
    worker.on('exit', () => this.failAll(new SessionError('session worker exited')));
  }

  /** Start a worker thread and compile the model in it. */
  static async create(model: Graph | Uint8Array, opts: WorkerSessionOptions = {}): Promise<WorkerSession> {
    const bytes = model instanceof Uint8Array ? model : encodeModel(model).model;
    const create: ToWorker = { kind: 'create', model: bytes, options: wireSessionOptions(opts) };
    const { worker, ready } = await startWorker<FromWorker>(workerScriptPath(import.meta.url, './session-worker.js'), create, 'session worker');
    return new WorkerSession(worker, ready.inputNames, ready.outputNames);
  }

  /** Run in the worker; resolves with host tensors. */
  run(feeds: Readonly<Record<string, HostTensor>>, options: { readonly outputs?: readonly string[] } = {}): Promise<Record<string, HostTensor>> {
    const outputs = options.outputs;
    if (this.closed) return Promise.reject(new SessionError('worker session used after close()'));
    const wire = toWireTensors(feeds);
    return this.calls.call('run', (id) => this.worker.postMessage({ kind: 'run', id, feeds: wire, ...(outputs ? { outputs } : {}) } satisfies ToWorker));
  }

  /** Release the session and stop the worker (idempotent). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const done = new Promise<void>((resolve) => this.worker.once('exit', () => resolve()));
    this.worker.postMessage({ kind: 'close' } satisfies ToWorker);
    await done;
  }

  private onMessage(msg: FromWorker): void {
    if (msg.kind === 'result') {
      this.runMs += msg.runMs;
      this.calls.resolve(msg.id, msg.outputs);
    } else if (msg.kind === 'error' && msg.id !== undefined) {
      this.calls.reject(msg.id, () => new SessionError(`${msg.name}: ${msg.message}`));
    }
  }

  private failAll(e: Error): void {
    this.calls.rejectAll(e);
  }
}
