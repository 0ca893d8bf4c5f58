import { availableParallelism } from 'node:os';
import { isAbsolute } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { EnvMetadata, Info, ResetOptions } from '../env.js';
import type { EnvKwargs, MakeOptions } from '../registry.js';
import { spaceFromJSONSchema } from '../spaces/from-json-schema.js';
import type { Space } from '../spaces/space.js';
import { workerScriptPath } from '../../base/worker-script.js';
import { isAutoresetMode, type AutoresetMode } from './autoreset-mode.js';
import { contiguousBlocks } from './partition.js';
import { DEFAULT_AUTORESET_MODE, VectorEnv } from './vector-env.js';
import { WorkerHandle, type WorkerReady } from './worker-handle.js';
import { GymError } from '../gym-error.js';

/** Options of {@link AsyncVectorEnv}. */
export interface AsyncVectorEnvOptions {
  /** The registered id each worker builds with `make(envId, kwargs, makeOptions)`. */
  envId: string;
  /** Number of sub-envs. */
  numEnvs: number;
  /**
   * Worker threads to spread the sub-envs over (contiguous blocks; default
   * `min(numEnvs, availableParallelism())`). One worker per sub-env isolates failures best; fewer
   * workers than sub-envs cut messaging and context switches when cores are scarce.
   */
  numWorkers?: number;
  kwargs?: EnvKwargs;
  makeOptions?: MakeOptions;
  /**
   * Modules each worker imports before `make()`, to register custom environments: file URLs,
   * absolute paths or package specifiers, of compiled JavaScript (workers do not run TypeScript).
   * A module must register through the same package (`import { register } from 'sqlenv'`) so that
   * the worker's `make()` sees it.
   */
  imports?: string[];
  /** Import the package's compiled entry first, which registers the bundled envs (default true). */
  importPackage?: boolean;
  /** Default `AutoresetMode.NEXT_STEP`. */
  autoresetMode?: AutoresetMode;
  /** Per-call limit in ms: a worker that does not answer in time is terminated and the call rejects. */
  timeoutMs?: number;
}

/**
 * Sub-environments in worker threads, as Gymnasium's `AsyncVectorEnv`. Environments cannot be
 * sent to a thread, so each worker builds its own from a registered id: it imports the package
 * entry (registering the bundled envs) and `options.imports`, then calls `make(envId, kwargs)`
 * for each sub-env it hosts. One message per worker carries all its sub-envs' actions (or
 * results); actions, observations and infos cross threads by structured cloning.
 *
 * Failures never hang: a worker that cannot build its env, throws, crashes, exits or exceeds
 * `timeoutMs` rejects the pending call with a {@link VectorEnvWorkerError} naming the sub-env.
 * `close()` terminates every worker and is idempotent; the owner must call it (live workers keep
 * the process running).
 *
 * @example
 * ```ts
 * const vec = new AsyncVectorEnv({ envId: 'GuessNumber-v0', numEnvs: 8 });
 * try {
 *   const [obs] = await vec.reset({ seed: 0 });
 *   await vec.step(vec.actionSpace.sample());
 * } finally {
 *   await vec.close();
 * }
 * ```
 */
export class AsyncVectorEnv<Obs = unknown, Act = unknown> extends VectorEnv<Obs, Act> {
  readonly numEnvs: number;
  readonly autoresetMode: AutoresetMode;
  /** The number of worker threads. */
  readonly numWorkers: number;
  private readonly workers: WorkerHandle[];
  /** For each sub-env: its worker and its position within that worker. */
  private readonly placement: { worker: number; position: number }[];
  private readonly started: Promise<WorkerReady>;
  private description: WorkerReady | undefined;
  private spaces: { action: Space<Act, unknown>; observation: Space<Obs, unknown> } | undefined;
  private closed: Promise<void> | undefined;

  constructor(readonly options: AsyncVectorEnvOptions) {
    super();
    if (!Number.isSafeInteger(options.numEnvs) || options.numEnvs <= 0) {
      throw new RangeError(`AsyncVectorEnv needs a positive integer numEnvs, got ${options.numEnvs}`);
    }
    this.numEnvs = options.numEnvs;
    this.autoresetMode = options.autoresetMode ?? DEFAULT_AUTORESET_MODE;
    if (!isAutoresetMode(this.autoresetMode)) throw new RangeError(`unknown autoresetMode ${String(this.autoresetMode)}`);
    const script = workerScriptPath(import.meta.url, './async-worker.js');
    const imports = [
      ...(options.importPackage === false ? [] : [pathToFileURL(workerScriptPath(import.meta.url, '../../index.js')).href]),
      ...(options.imports ?? []).map(toModuleUrl),
    ];
    this.numWorkers = options.numWorkers ?? Math.min(this.numEnvs, availableParallelism());
    if (!Number.isSafeInteger(this.numWorkers) || this.numWorkers <= 0 || this.numWorkers > this.numEnvs) {
      throw new RangeError(`AsyncVectorEnv needs 1 <= numWorkers <= numEnvs (${this.numEnvs}), got ${this.numWorkers}`);
    }
    const blocks = contiguousBlocks(this.numEnvs, this.numWorkers);
    this.placement = blocks.flatMap((envIndices, worker) => envIndices.map((_, position) => ({ worker, position })));
    this.workers = blocks.map(
      (envIndices) =>
        new WorkerHandle(
          script,
          {
            envIndices,
            envId: options.envId,
            kwargs: options.kwargs ?? {},
            makeOptions: options.makeOptions ?? {},
            autoresetMode: this.autoresetMode,
            imports,
          },
          options.timeoutMs,
        ),
    );
    this.started = Promise.all(this.workers.map((w) => w.ready)).then(([first]) => first!);
    this.started.then(
      (description) => {
        this.description = description;
      },
      // One sub-env could not be built: the vector env is unusable, so release every worker now
      // instead of leaving live threads until the owner calls close().
      () => void this.close(),
    );
  }

  /** Resolves once every worker has built its env (reset/step wait for this themselves). */
  async ready(): Promise<void> {
    await this.started;
  }

  get singleActionSpace(): Space<Act, unknown> {
    return this.rebuiltSpaces().action;
  }

  get singleObservationSpace(): Space<Obs, unknown> {
    return this.rebuiltSpaces().observation;
  }

  get metadata(): EnvMetadata {
    return { ...this.requireDescription().metadata, autoresetMode: this.autoresetMode };
  }

  /** Worker threads still running: `numWorkers` until `close()`, 0 once it has resolved. */
  get runningWorkers(): number {
    return this.workers.filter((w) => w.running).length;
  }

  async close(): Promise<void> {
    this.closed ??= Promise.all(this.workers.map((w) => w.close())).then(() => undefined);
    return this.closed;
  }

  protected async resetSubEnvs(indices: number[], options: ResetOptions[]): Promise<[Obs, Info][]> {
    await this.started;
    const perWorker = this.workers.map(() => ({ positions: [] as number[], options: [] as ResetOptions[], slots: [] as number[] }));
    indices.forEach((envIndex, k) => {
      const { worker, position } = this.placement[envIndex]!;
      perWorker[worker]!.positions.push(position);
      perWorker[worker]!.options.push(options[k]!);
      perWorker[worker]!.slots.push(k);
    });
    const results = new Array<[Obs, Info]>(indices.length);
    await Promise.all(
      perWorker.map(async ({ positions, options: workerOptions, slots }, w) => {
        if (positions.length === 0) return;
        const values = (await this.workers[w]!.call({ type: 'reset', positions, options: workerOptions })) as [Obs, Info][];
        values.forEach((value, j) => (results[slots[j]!] = value));
      }),
    );
    return results;
  }

  protected async stepSubEnvs(actions: readonly Act[]): Promise<[Obs, number, boolean, boolean, Info][]> {
    await this.started;
    const batches = await Promise.all(
      this.workers.map((worker, w) => {
        const own = actions.filter((_, i) => this.placement[i]!.worker === w);
        return worker.call({ type: 'step', actions: own }) as Promise<[Obs, number, boolean, boolean, Info][]>;
      }),
    );
    // Blocks are contiguous and in order, so concatenation restores sub-env order.
    return batches.flat();
  }

  private requireDescription(): WorkerReady {
    if (!this.description) {
      throw new GymError('AsyncVectorEnv: the spaces are known once the workers have built their envs; `await vec.ready()` (or reset()) first');
    }
    return this.description;
  }

  private rebuiltSpaces(): { action: Space<Act, unknown>; observation: Space<Obs, unknown> } {
    const description = this.requireDescription();
    this.spaces ??= {
      action: spaceFromJSONSchema(description.actionSpace) as Space<Act, unknown>,
      observation: spaceFromJSONSchema(description.observationSpace) as Space<Obs, unknown>,
    };
    return this.spaces;
  }
}

function toModuleUrl(specifier: string): string {
  return isAbsolute(specifier) ? pathToFileURL(specifier).href : specifier;
}
