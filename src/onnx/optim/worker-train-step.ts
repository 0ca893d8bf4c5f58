/**
 * A {@link TrainStep} hosted in a worker thread: the step blocks that thread, not the caller's
 * event loop, and parameters and optimizer state stay resident in the worker between steps.
 */
import type { Worker } from 'node:worker_threads';
import { workerScriptPath } from '../../base/worker-script.js';
import type { HostArray } from '../dtype.js';
import { encodeModel } from '../proto/model.js';
import { SessionError } from '../runtime/errors.js';
import type { HostTensor } from '../runtime/host-tensor.js';
import { startWorker, wireSessionOptions } from '../runtime/start-worker.js';
import type { WorkerSessionOptions } from '../runtime/worker-session.js';
import { toWireTensors } from '../runtime/worker-protocol.js';
import { buildTrainStep, type StepResult, type TrainStepSpec } from './train-step.js';
import type { FromTrainWorker, ToTrainWorker } from './train-worker-protocol.js';

type Waiter = { resolve: (m: FromTrainWorker) => void; reject: (e: Error) => void };

/**
 * @example
 * ```ts
 * const ts = await WorkerTrainStep.create({ graph, loss, params, optimizer: adamw(), initial }, { provider: 'cpu' });
 * const { loss } = await ts.step({ ids, targets }, 3e-4); // the event loop stays free meanwhile
 * await ts.close();
 * ```
 */
export class WorkerTrainStep {
  private readonly waiting = new Map<number, Waiter>();
  private nextId = 0;
  private closed = false;
  /** Milliseconds spent stepping inside the worker (the rest of a call is messaging). */
  runMs = 0;

  private constructor(private readonly worker: Worker) {
    worker.on('message', (m: FromTrainWorker) => this.onMessage(m));
    worker.on('error', (e) => this.failAll(e));
    worker.on('exit', () => this.failAll(new SessionError('train worker exited')));
  }

  /** Build the step graph here, compile and initialise it in a new worker thread. */
  static async create(spec: TrainStepSpec, opts: WorkerSessionOptions = {}): Promise<WorkerTrainStep> {
    const { graph, layout } = buildTrainStep(spec);
    const create: ToTrainWorker = { kind: 'create', model: encodeModel(graph).model, layout, options: wireSessionOptions(opts) };
    const { worker } = await startWorker<FromTrainWorker>(workerScriptPath(import.meta.url, './train-worker.js'), create, 'train worker');
    return new WorkerTrainStep(worker);
  }

  /** One step on `batch` with learning rate `lr`. */
  async step(batch: Readonly<Record<string, HostTensor>>, lr: number): Promise<StepResult<HostTensor>> {
    const reply = await this.request((id) => ({ kind: 'step', id, batch: toWireTensors(batch), lr }));
    if (reply.kind !== 'stepped') throw new SessionError(`unexpected reply ${reply.kind}`);
    this.runMs += reply.runMs;
    return { loss: reply.loss, ...(reply.gradNorm === undefined ? {} : { gradNorm: reply.gradNorm }), extra: reply.extra };
  }

  /** Current parameter values, copied out of the worker. */
  async parameters(): Promise<Record<string, HostArray>> {
    const reply = await this.request((id) => ({ kind: 'parameters', id }));
    if (reply.kind !== 'parameters') throw new SessionError(`unexpected reply ${reply.kind}`);
    return Object.fromEntries(Object.entries(reply.values).map(([k, v]) => [k, v.data]));
  }

  /** Release the session and stop the worker (idempotent). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const exited = new Promise<void>((resolve) => this.worker.once('exit', () => resolve()));
    this.worker.postMessage({ kind: 'close' } satisfies ToTrainWorker);
    await exited;
  }

  private request(make: (id: number) => ToTrainWorker): Promise<FromTrainWorker> {
    if (this.closed) return Promise.reject(new SessionError('train worker used after close()'));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.worker.postMessage(make(id));
    });
  }

  private onMessage(m: FromTrainWorker): void {
    if (!('id' in m) || m.id === undefined) return;
    const w = this.waiting.get(m.id);
    this.waiting.delete(m.id);
    if (m.kind === 'error') w?.reject(new SessionError(`${m.name}: ${m.message}`));
    else w?.resolve(m);
  }

  private failAll(e: Error): void {
    for (const w of this.waiting.values()) w.reject(e);
    this.waiting.clear();
  }
}
