/**
 * A vector env seen as single envs, so multi-turn rollouts (which need one env per episode,
 * each reset to its own question) can run on `SyncVectorEnv`, `AsyncVectorEnv` or any
 * `VectorEnv`. Steps that the slots receive in the same tick of the event loop are sent as one
 * `vector.step(actions)`: the rollout submits a whole turn at once, so every turn is one vector
 * step. Resets go one slot at a time (`resetMask`), because every episode has its own options.
 */
import { Env, type ResetOptions, type ResetResult, type StepResult } from '../../gym/env.js';
import type { Space } from '../../gym/spaces/space.js';
import type { VectorEnv } from '../../gym/vector/vector-env.js';
import { TrainError } from '../train-error.js';

/** Options of {@link VectorEnvSlots}. */
export interface VectorEnvSlotsOptions {
  /**
   * The action given to slots with no step pending when a vector step goes out; their results
   * are discarded. Under the default next-step autoreset a slot whose episode ended is reset
   * by that step and the action is ignored (Gymnasium's rule); an episode a rollout abandoned
   * (turn or token limit) is stepped with it until its slot is reset. Default `null`, which
   * SQLEnv answers with a parse-error observation and no side effect.
   */
  idleAction?: unknown;
}

/** Thrown when more slots are asked for than the vector env has sub-envs. */
export class VectorSlotsExhaustedError extends TrainError {
  constructor(numEnvs: number) {
    super(
      `the vector env has ${numEnvs} sub-envs and all are in use: a rollout runs one episode per sub-env ` +
        `(rollout.numGenerations × rollout.questionsPerStep at once), so make the vector env at least that large`,
    );
    this.name = 'VectorSlotsExhaustedError';
  }
}

/**
 * The sub-envs of a vector env as `Env`s that rollouts can borrow.
 *
 * @example
 * ```ts
 * const vec = makeVec('SQLEnv-v0', 16, { vectorizationMode: 'async' });
 * const slots = new VectorEnvSlots(vec);
 * const setup = { ...setup, makeEnv: () => slots.take() }; // one slot per concurrent episode
 * await slots.close();                                     // closes the vector env
 * ```
 */
export class VectorEnvSlots<Obs, Act = unknown> {
  private next = 0;
  private pending = new Map<number, { action: Act; resolve: (r: StepResult<Obs>) => void; reject: (e: unknown) => void }>();
  private flushScheduled = false;
  /** Every vector call goes through this chain: a vector env runs one call at a time. */
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;
  private started = false;

  constructor(
    readonly vector: VectorEnv<Obs, Act>,
    private readonly options: VectorEnvSlotsOptions = {},
  ) {}

  /** Number of slots (the vector env's sub-envs). */
  get size(): number {
    return this.vector.numEnvs;
  }

  /** The next free slot as an `Env`; throws {@link VectorSlotsExhaustedError} when none is left. */
  take(): Env<Obs, Act> {
    if (this.closed) throw new TrainError('VectorEnvSlots is closed');
    if (this.next >= this.vector.numEnvs) throw new VectorSlotsExhaustedError(this.vector.numEnvs);
    return new VectorSlot(this, this.next++);
  }

  /** Closes the vector env (idempotent); slots cannot be used afterwards. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.enqueue(() => this.vector.close());
  }

  /** @internal Resets one sub-env with its own seed and options. */
  resetSlot(index: number, options: ResetOptions): Promise<ResetResult<Obs>> {
    return this.enqueue(async () => {
      // Idle slots are stepped with the idle action, so every sub-env must be in an episode
      // first (an order-enforcing wrapper refuses a step before the first reset).
      if (!this.started) {
        await this.vector.reset();
        this.started = true;
      }
      const mask = Array.from({ length: this.vector.numEnvs }, (_, i) => i === index);
      const seeds = Array.from({ length: this.vector.numEnvs }, (_, i) => (i === index ? options.seed : undefined));
      const [obs, infos] = await this.vector.reset({ seed: seeds, options: { ...(options.options ?? {}), resetMask: mask } });
      return [obs[index]!, infos[index] ?? {}] as ResetResult<Obs>;
    });
  }

  /** @internal Queues a step; all steps queued in this tick go out as one vector step. */
  stepSlot(index: number, action: Act): Promise<StepResult<Obs>> {
    if (this.closed) return Promise.reject(new Error('VectorEnvSlots is closed'));
    if (this.pending.has(index)) return Promise.reject(new Error(`slot ${index} stepped again before its previous step finished`));
    return new Promise<StepResult<Obs>>((resolve, reject) => {
      this.pending.set(index, { action, resolve, reject });
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        // setImmediate runs after the current tick's promise jobs: every step submitted together lands first.
        setImmediate(() => {
          this.flushScheduled = false;
          const batch = this.pending;
          this.pending = new Map();
          void this.enqueue(() => this.flush(batch));
        });
      }
    });
  }

  private async flush(batch: Map<number, { action: Act; resolve: (r: StepResult<Obs>) => void; reject: (e: unknown) => void }>): Promise<void> {
    const actions = Array.from({ length: this.vector.numEnvs }, (_, i) => (batch.has(i) ? batch.get(i)!.action : (this.options.idleAction ?? null) as Act));
    try {
      const [obs, rewards, terminations, truncations, infos] = await this.vector.step(actions);
      for (const [i, p] of batch) p.resolve([obs[i]!, rewards[i]!, terminations[i]!, truncations[i]!, infos[i] ?? {}]);
    } catch (e) {
      for (const p of batch.values()) p.reject(e);
    }
  }

  private enqueue<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => undefined);
    return run;
  }
}

/** One sub-env of a {@link VectorEnvSlots}, as an `Env`. Closing a slot is a no-op: the slots' owner closes the vector env. */
class VectorSlot<Obs, Act> extends Env<Obs, Act> {
  constructor(
    private readonly slots: VectorEnvSlots<Obs, Act>,
    readonly index: number,
  ) {
    super();
  }

  // Read on use: an AsyncVectorEnv knows its spaces only once its workers have built their envs.
  get actionSpace(): Space<Act, unknown> {
    return this.slots.vector.singleActionSpace;
  }

  get observationSpace(): Space<Obs, unknown> {
    return this.slots.vector.singleObservationSpace;
  }

  override async reset(options: ResetOptions = {}): Promise<ResetResult<Obs>> {
    await super.reset(options);
    const result = await this.slots.resetSlot(this.index, options);
    this.metadata = this.slots.vector.metadata;
    return result;
  }

  step(action: Act): Promise<StepResult<Obs>> {
    return this.slots.stepSlot(this.index, action);
  }

  override toString(): string {
    return `<VectorSlot ${this.index} of ${this.slots.vector.toString()}>`;
  }
}
