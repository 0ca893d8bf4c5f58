/**
 * Worker-thread entry hosting one {@link TrainStep}: parameters and optimizer state live in this
 * thread between steps; only batches, the loss and requested outputs cross the thread boundary.
 */
import { parentPort } from 'node:worker_threads';
import type { HostArray } from '../dtype.js';
import { OnnxSession } from '../runtime/session.js';
import type { WireTensor } from '../runtime/worker-protocol.js';
import { TrainStep } from './train-step.js';
import type { FromTrainWorker, ToTrainWorker } from './train-worker-protocol.js';

if (!parentPort) throw new Error('train-worker must run in a worker thread');
const port = parentPort;
let trainer: TrainStep | undefined;
let session: OnnxSession | undefined;

const post = (msg: FromTrainWorker, transfer: ArrayBuffer[] = []): void => port.postMessage(msg, transfer);

port.on('message', (msg: ToTrainWorker) => {
  handle(msg).catch((e: unknown) => {
    const err = e instanceof Error ? e : new Error(String(e));
    post({ kind: 'error', ...('id' in msg ? { id: msg.id } : {}), name: err.name, message: err.message });
  });
});

async function handle(msg: ToTrainWorker): Promise<void> {
  switch (msg.kind) {
    case 'create':
      session = await OnnxSession.create(msg.model, msg.options);
      trainer = TrainStep.fromSession(session, msg.layout);
      post({ kind: 'ready' });
      return;
    case 'step': {
      const t0 = performance.now();
      const r = await trainer!.step(msg.batch, msg.lr);
      const runMs = performance.now() - t0;
      const extra: Record<string, WireTensor> = {};
      for (const [name, t] of Object.entries(r.extra)) {
        extra[name] = { type: t.type as WireTensor['type'], dims: t.dims, data: (t.location === 'cpu' ? t.data : await t.getData()) as HostArray };
      }
      post({ kind: 'stepped', id: msg.id, loss: r.loss, ...(r.gradNorm === undefined ? {} : { gradNorm: r.gradNorm }), extra, runMs });
      return;
    }
    case 'parameters': {
      const values: Record<string, WireTensor> = {};
      const params = await trainer!.parameters();
      for (const [name, data] of Object.entries(params)) values[name] = { type: trainer!.dtype, dims: trainer!.dims(name), data };
      post({ kind: 'parameters', id: msg.id, values }, Object.values(values).map((v) => v.data.buffer as ArrayBuffer));
      return;
    }
    case 'close':
      trainer?.close();
      await session?.close();
      port.close();
      return;
  }
}
