/**
 * What every session offers, whether it runs in this thread (`OnnxSession`) or in a worker
 * thread (`WorkerSession`): code written against `Session` takes either.
 */
import type { Feeds, HostTensor, OrtTensor } from './host-tensor.js';

/** One output of a run: an onnxruntime tensor in-thread, a host tensor from a worker (both have `type`, `dims`, `data`). */
export type SessionOutput = HostTensor | OrtTensor;

/**
 * A compiled model that runs feeds to outputs.
 *
 * @example
 * ```ts
 * async function logits(session: Session, ids: HostTensor): Promise<SessionOutput> {
 *   return (await session.run({ input_ids: ids }, { outputs: ['logits'] }))['logits']!;
 * }
 * ```
 */
export interface Session {
  /** Input names in graph order. */
  readonly inputNames: readonly string[];
  /** Output names in graph order. */
  readonly outputNames: readonly string[];
  /** Runs the model; `outputs` picks the outputs to compute (default: all). */
  run(feeds: Feeds, options?: { readonly outputs?: readonly string[] }): Promise<Record<string, SessionOutput>>;
  /** Releases the session (idempotent). */
  close(): Promise<void>;
}
