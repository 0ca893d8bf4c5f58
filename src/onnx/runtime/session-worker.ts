/**
 * Worker-thread entry: hosts one {@link OnnxSession} so that `session.run`, which blocks its
 * thread, blocks this one instead of the caller's event loop. Started by {@link WorkerSession}.
 */
import { parentPort } from 'node:worker_threads';
import type { HostArray } from '../dtype.js';
import { OnnxSession } from './session.js';
import type { FromWorker, ToWorker, WireTensor } from './worker-protocol.js';
import { OnnxError } from '../onnx-error.js';

if (!parentPort) throw new OnnxError('session-worker must run in a worker thread');
const port = parentPort;

let session: OnnxSession | undefined;
const post = (msg: FromWorker, transfer: ArrayBuffer[] = []): void => port.postMessage(msg, transfer);
const fail = (e: unknown, id?: number): void => {
  const err = e instanceof Error ? e : new Error(String(e));
  post({ kind: 'error', ...(id === undefined ? {} : { id }), name: err.name, message: err.message });
};

port.on('message', (msg: ToWorker) => {
  void handle(msg);
});

async function handle(msg: ToWorker): Promise<void> {
  switch (msg.kind) {
    case 'create':
      try {
        session = await OnnxSession.create(msg.model, msg.options);
        post({ kind: 'ready', inputNames: session.inputNames, outputNames: session.outputNames });
      } catch (e) {
        fail(e);
      }
      return;
    case 'run':
      try {
        const t0 = performance.now();
        const result = await session!.run(msg.feeds, msg.outputs ? { outputs: msg.outputs } : {});
        const runMs = performance.now() - t0;
        const outputs: Record<string, WireTensor> = {};
        const transfer: ArrayBuffer[] = [];
        for (const [name, t] of Object.entries(result)) {
          const data = (t.location === 'cpu' ? t.data : await t.getData()) as HostArray;
          outputs[name] = { type: t.type as WireTensor['type'], dims: t.dims, data };
          transfer.push(data.buffer as ArrayBuffer);
        }
        post({ kind: 'result', id: msg.id, outputs, runMs }, transfer);
      } catch (e) {
        fail(e, msg.id);
      }
      return;
    case 'close':
      await session?.close();
      post({ kind: 'closed' });
      port.close();
      return;
  }
}
