/**
 * Starting an onnxruntime worker thread for a {@link WorkerSession}: post a `create` message and
 * wait for the worker to answer `ready` before taking calls.
 */
import { Worker } from 'node:worker_threads';
import { SessionError } from './errors.js';
import type { WireSessionOptions } from './worker-protocol.js';
import type { ProviderName } from './providers.js';
import type { OptimizationLevel } from './session.js';

/** Options of a worker-hosted session (`WorkerSession.create`). */
export interface WorkerSessionOptions {
  readonly provider?: ProviderName;
  readonly optimization?: OptimizationLevel;
  readonly intraOpThreads?: number;
}

/** The first messages any such worker answers with. */
type StartReply = { readonly kind: string; readonly message?: string };

/**
 * Spawn `script`, post `create`, and resolve once the worker answers `ready`. Any other first
 * answer (or an `error` event) terminates the worker and rejects, so a failed start leaks no thread.
 *
 * @param label names the worker in the error, e.g. `'session worker'`.
 * @returns the worker and its `ready` message.
 */
export async function startWorker<From extends StartReply>(script: string, create: unknown, label: string): Promise<{ worker: Worker; ready: Extract<From, { kind: 'ready' }> }> {
  const worker = new Worker(script);
  // Listen before posting so the reply cannot be missed.
  const first = new Promise<From>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  worker.postMessage(create);
  const reply = await first;
  if (reply.kind !== 'ready') {
    await worker.terminate();
    throw new SessionError(`${label} failed to start: ${reply.kind === 'error' ? reply.message : reply.kind}`);
  }
  return { worker, ready: reply as Extract<From, { kind: 'ready' }> };
}

/** The session settings posted to a worker, with the defaults (`cpu`, all optimizations) filled in. */
export function wireSessionOptions(opts: WorkerSessionOptions): WireSessionOptions {
  return { provider: opts.provider ?? 'cpu', optimization: opts.optimization ?? 'all', ...(opts.intraOpThreads ? { intraOpThreads: opts.intraOpThreads } : {}) };
}
