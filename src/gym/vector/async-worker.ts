/**
 * The body of an AsyncVectorEnv worker thread: import the modules that register environments,
 * `make()` this worker's sub-envs, then answer reset/step/close requests until closed. Runs as
 * compiled JavaScript (see workerScriptPath).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { make } from '../registry.js';
import { SubEnvRunner } from './sub-env-runner.js';
import { serializeError, type SerializedError, type WorkerHello, type WorkerInit, type WorkerRequest, type WorkerResponse } from './worker-protocol.js';
import { GymError } from '../gym-error.js';

const port = parentPort;
if (!port) throw new GymError('async-worker.js must run in a worker thread (it is started by AsyncVectorEnv)');
const init = workerData as WorkerInit;

/** A sub-env's failure, tagged with its global index so the parent can name it. */
class SubEnvFailure extends GymError {
  constructor(readonly serialized: SerializedError) {
    super(serialized.message);
  }
}

async function start(): Promise<SubEnvRunner[] | undefined> {
  try {
    for (const url of init.imports) {
      try {
        await import(url);
      } catch (error) {
        throw new GymError(
          `could not import ${url}: ${(error as Error).message}. Worker threads run compiled JavaScript: ` +
            'pass the URL of a built .js module (run `npm run build` first).',
        );
      }
    }
    const runners = init.envIndices.map((envIndex) => {
      try {
        return new SubEnvRunner(make(init.envId, init.kwargs, init.makeOptions), init.autoresetMode);
      } catch (error) {
        throw new SubEnvFailure(serializeError(error, envIndex));
      }
    });
    const env = runners[0]!.env;
    const hello: WorkerHello = {
      type: 'ready',
      actionSpace: env.actionSpace.toJSONSchema(),
      observationSpace: env.observationSpace.toJSONSchema(),
      metadata: env.metadata,
    };
    port!.postMessage(hello);
    return runners;
  } catch (error) {
    const hello: WorkerHello = { type: 'init-error', error: error instanceof SubEnvFailure ? error.serialized : serializeError(error) };
    port!.postMessage(hello);
    return undefined;
  }
}

/** Run `fn` on each addressed sub-env concurrently; the first failure (in sub-env order) is reported. */
async function each<T>(positions: number[], fn: (runner: SubEnvRunner, k: number) => Promise<T>, runners: SubEnvRunner[]): Promise<T[]> {
  const settled = await Promise.allSettled(positions.map((p, k) => fn(runners[p]!, k)));
  const values: T[] = [];
  settled.forEach((outcome, k) => {
    if (outcome.status === 'rejected') throw new SubEnvFailure(serializeError(outcome.reason, init.envIndices[positions[k]!]));
    values.push(outcome.value);
  });
  return values;
}

async function handle(runners: SubEnvRunner[], request: WorkerRequest): Promise<void> {
  let response: WorkerResponse;
  try {
    let value: unknown;
    if (request.type === 'reset') value = await each(request.positions, (r, k) => r.reset(request.options[k]), runners);
    else if (request.type === 'step') value = await each(runners.map((_, p) => p), (r, k) => r.step(request.actions[k]), runners);
    else await each(runners.map((_, p) => p), (r) => r.close(), runners);
    response = { type: 'result', id: request.id, ok: true, value };
  } catch (error) {
    response = { type: 'result', id: request.id, ok: false, error: error instanceof SubEnvFailure ? error.serialized : serializeError(error) };
  }
  try {
    port!.postMessage(response);
  } catch (error) {
    // Typically a DataCloneError: an observation or info holds functions or class instances.
    const reason = serializeError(error);
    reason.message = `the ${request.type}() result cannot be sent to the main thread (${reason.message}); observations, rewards and infos of async sub-envs must be structured-cloneable data`;
    port!.postMessage({ type: 'result', id: request.id, ok: false, error: reason } satisfies WorkerResponse);
  }
  if (request.type === 'close') port!.close();
}

const runners = await start();
if (runners) {
  // Requests are handled one at a time, in arrival order: the parent never sends a second request
  // before the first is answered, but chaining keeps the envs safe even if one did.
  let queue: Promise<void> = Promise.resolve();
  port.on('message', (request: WorkerRequest) => {
    queue = queue.then(() => handle(runners, request));
  });
}
