import { Worker } from 'node:worker_threads';
import type { EnvMetadata } from '../env.js';
import type { JSONSchema } from '../spaces/space.js';
import { PendingCalls } from '../../base/pending-calls.js';
import type { SerializedError, UnnumberedRequest, WorkerHello, WorkerInit, WorkerRequest, WorkerResponse } from './worker-protocol.js';
import { GymError } from '../gym-error.js';

/**
 * A sub-env of an AsyncVectorEnv failed: its worker could not build the env, the env threw in a
 * call, the worker crashed or exited, or did not answer within the timeout. The message names the
 * sub-env(s), the env id and the phase; `remoteStack` holds the worker-side stack when there is one.
 *
 * @example
 * ```ts
 * try { await vec.step(actions); } catch (e) { if (e instanceof VectorEnvWorkerError) console.log(e.envIndices); }
 * ```
 */
export class VectorEnvWorkerError extends GymError {
  constructor(
    message: string,
    /** The sub-envs affected: the one that threw, or every sub-env of a worker that died. */
    readonly envIndices: number[],
    readonly remoteStack?: string,
  ) {
    super(message);
    this.name = 'VectorEnvWorkerError';
  }
}

/** The built sub-envs' description, sent by the worker once `make()` succeeded. */
export interface WorkerReady {
  actionSpace: JSONSchema;
  observationSpace: JSONSchema;
  metadata: EnvMetadata;
}

/** Time a worker gets to finish `close()` before it is terminated. */
const CLOSE_GRACE_MS = 5_000;

/**
 * The parent side of one AsyncVectorEnv worker (which hosts one or more sub-envs):
 * request/response bookkeeping, per-call timeouts, and crash detection. Once a worker fails,
 * every pending and later call rejects with the same {@link VectorEnvWorkerError} (never a hang),
 * and the thread is terminated.
 */
export class WorkerHandle {
  /** Resolves when the worker has built its envs; rejects if it could not. */
  readonly ready: Promise<WorkerReady>;
  private readonly worker: Worker;
  private readonly calls = new PendingCalls<unknown>();
  private failure: VectorEnvWorkerError | undefined;
  private closing: Promise<void> | undefined;
  private resolveReady!: (ready: WorkerReady) => void;
  private rejectReady!: (error: Error) => void;
  private threadExited = false;

  constructor(
    script: string,
    private readonly init: WorkerInit,
    private readonly timeoutMs: number | undefined,
  ) {
    this.ready = new Promise<WorkerReady>((resolve, reject) => {
      this.resolveReady = resolve;
      this.rejectReady = reject;
    });
    // Callers await `ready` through the vector env; mark it handled so an early failure is not
    // reported as an unhandled rejection before anyone awaited it.
    this.ready.catch(() => undefined);
    this.worker = new Worker(script, { workerData: init });
    this.worker.on('message', (message: WorkerHello | WorkerResponse) => this.onMessage(message));
    this.worker.on('error', (error) => this.fail('crashed', `uncaught ${error.name}: ${error.message}`, error.stack));
    this.worker.on('messageerror', (error) => this.fail('crashed', `a message could not be deserialized: ${error.message}`));
    this.worker.on('exit', (code) => {
      this.threadExited = true;
      const detail = `the worker thread exited with code ${code} (process.exit() or a fatal error in the env)`;
      // While closing, an exit settles whatever is still waiting (the close request included).
      if (this.closing) this.rejectAll(this.error(`${this.label()} exited: ${detail}`));
      else this.fail('exited', detail);
    });
  }

  /** Send one request; resolves with the worker's result. */
  async call(request: UnnumberedRequest): Promise<unknown> {
    await this.ready;
    if (this.failure) throw this.failure;
    if (this.closing) throw this.error(`${this.label()} closed`);
    const timeout =
      this.timeoutMs === undefined
        ? undefined
        : { ms: this.timeoutMs, onTimeout: () => this.fail('timed out', `${request.type}() did not answer within ${this.timeoutMs} ms; the worker was terminated`) };
    return this.calls.call(request.type, (id) => this.worker.postMessage({ ...request, id } as WorkerRequest), timeout);
  }

  /** Whether the worker thread is still running (false once it has exited or been terminated). */
  get running(): boolean {
    return !this.threadExited;
  }

  /** Ask the envs to close, then terminate the thread. Idempotent; never rejects. */
  async close(): Promise<void> {
    this.closing ??= this.shutDown();
    return this.closing;
  }

  private async shutDown(): Promise<void> {
    if (!this.failure) {
      // The worker gets CLOSE_GRACE_MS to close its envs; an answer, an error or the grace ends the wait.
      let closeId = -1;
      const closed = this.calls.call('close', (id) => this.worker.postMessage({ type: 'close', id: (closeId = id) } satisfies WorkerRequest), {
        ms: CLOSE_GRACE_MS,
        onTimeout: () => this.calls.resolve(closeId, undefined),
      });
      await closed.catch(() => undefined);
    }
    this.rejectAll(this.error(`${this.label()} closed`));
    await this.worker.terminate();
    this.threadExited = true;
  }

  private onMessage(message: WorkerHello | WorkerResponse): void {
    if (message.type === 'ready') {
      this.resolveReady({ actionSpace: message.actionSpace, observationSpace: message.observationSpace, metadata: message.metadata });
      return;
    }
    if (message.type === 'init-error') {
      this.fail('could not be built', describe(message.error), message.error.stack, message.error.envIndex);
      return;
    }
    if (message.ok) {
      this.calls.resolve(message.id, message.value);
      return;
    }
    const { envIndex } = message.error;
    this.calls.reject(message.id, (type) => this.error(`${this.label(envIndex)} threw in ${type}(): ${describe(message.error)}`, message.error.stack, envIndex));
  }

  private fail(what: string, detail: string, stack?: string, envIndex?: number): void {
    if (this.failure) return;
    this.failure = this.error(`${this.label(envIndex)} ${what}: ${detail}`, stack, envIndex);
    this.rejectReady(this.failure);
    this.rejectAll(this.failure);
    void this.worker.terminate();
  }

  private rejectAll(error: Error): void {
    this.calls.rejectAll(error);
  }

  /** `sub-env 3 (Id-v0)` for one env, `sub-envs 0, 1, 2 (Id-v0)` for a whole worker. */
  private label(envIndex?: number): string {
    const indices = envIndex === undefined ? this.init.envIndices : [envIndex];
    return `${indices.length === 1 ? 'sub-env' : 'sub-envs'} ${indices.join(', ')} (${this.init.envId})`;
  }

  private error(message: string, stack?: string, envIndex?: number): VectorEnvWorkerError {
    return new VectorEnvWorkerError(message, envIndex === undefined ? [...this.init.envIndices] : [envIndex], stack);
  }
}

function describe(error: SerializedError): string {
  return `${error.name}: ${error.message}`;
}
