/**
 * What every phase of a training run shares: the config, policy and task, the run's RNG and
 * clock, the metrics log (events, traces), the environment pools per split, the optimizer, the
 * checkpoints (save and resume) and the dashboard. Phases read and write the run's state here.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Rng, streamSeed } from '../../base/rng.js';
import { SafetensorsFile } from '../../lm/safetensors/reader.js';
import { writeSafetensors } from '../../lm/safetensors/writer.js';
import { CheckpointStore, type CheckpointTensor } from '../checkpoint/checkpoint-store.js';
import type { TrainConfig } from '../config/schema.js';
import { writeDashboard } from '../dashboard/dashboard-page.js';
import { MetricsLog, type MetricRecord } from '../metrics/metrics-log.js';
import type { PolicyOptimizer } from '../optim/policy-optimizer.js';
import type { TrainablePolicy } from '../policy/trainable-policy.js';
import { EnvPool } from '../rollout/env-pool.js';
import type { RolloutTask } from '../rollout/rollout-task.js';
import type { SftDataBuilder } from '../sft/sft-data.js';
import { TrainError } from '../train-error.js';
import { configChanges, describeConfigChange, type ConfigChange } from './config-changes.js';
import { readRunConfig, writeRunConfig } from './run-config-file.js';
import type { RunState, TrainingSetup, TrainingSummary } from './run-types.js';

async function weightsOf(policy: TrainablePolicy): Promise<Map<string, CheckpointTensor>> {
  return new Map([...(await policy.readParameters())].map(([name, t]) => [name, { shape: t.shape, data: t.data }]));
}

/**
 * The shared context of one training run. `open` creates the run directory or resumes from its
 * latest checkpoint; `close` releases the environments.
 *
 * @example
 * ```ts
 * const run = await RunContext.open(setup);
 * try { await evaluatePhase(run, 'untrained', 0); } finally { await run.close(); }
 * ```
 */
export class RunContext<Obs> {
  readonly config: TrainConfig;
  readonly policy: TrainablePolicy;
  readonly task: RolloutTask<Obs>;
  readonly print: (line: string) => void;
  readonly rng: Rng;
  readonly log: MetricsLog;
  /** The optimizer of the current phase (fresh moments when GRPO starts after SFT). */
  optimizer: PolicyOptimizer;
  /** What a checkpoint carries besides weights, optimizer and RNG. */
  state: RunState;
  /** The GRPO step the run resumed from, when it resumed. */
  readonly resumedFromStep: number | undefined;
  private readonly pools = new Map<string, EnvPool<Obs>>();
  private readonly started = Date.now();
  private readonly clock0: number;

  private constructor(
    private readonly setup: TrainingSetup<Obs>,
    private readonly store: CheckpointStore,
    restored: { state: RunState; resumedFromStep: number | undefined; optimizer: PolicyOptimizer; rng: Rng; log: MetricsLog },
  ) {
    this.config = setup.config;
    this.policy = setup.policy;
    this.task = setup.task;
    this.print = setup.print ?? ((line: string) => console.log(line));
    this.state = restored.state;
    this.resumedFromStep = restored.resumedFromStep;
    this.optimizer = restored.optimizer;
    this.rng = restored.rng;
    this.log = restored.log;
    this.clock0 = restored.state.clock;
  }

  /** Opens the run directory; resumes weights, optimizer, RNG, state and metrics from the latest checkpoint. */
  static async open<Obs>(setup: TrainingSetup<Obs>): Promise<RunContext<Obs>> {
    const cfg = setup.config;
    await mkdir(cfg.runDir, { recursive: true });
    const log = new MetricsLog(join(cfg.runDir, 'metrics.jsonl'));
    const store = new CheckpointStore(cfg.runDir, { keep: cfg.checkpoint.keep, ...(setup.beforeCheckpointCommit ? { beforeCommit: setup.beforeCheckpointCommit } : {}) });
    const rng = new Rng(cfg.seed);
    let state: RunState = { phase: 'sft_done', grpoStep: 0, metricsCount: 0, clock: 0, summary: { formatCheck: {}, sftSteps: 0, grpoSteps: 0, evaluations: {} } };
    let resumedFromStep: number | undefined;
    const checkpoint = await store.loadLatest();
    const optimizer = await newOptimizer(setup.policy, cfg);
    const changes = checkpoint ? await resumedConfigChanges(cfg) : [];
    if (checkpoint) {
      state = checkpoint.extra as unknown as RunState;
      resumedFromStep = state.grpoStep;
      if (state.phase === 'grpo' && cfg.grpo.loss.beta > 0) {
        // The KL reference is the policy as GRPO started; restore it before the current weights.
        const ref = await SafetensorsFile.open(referencePath(cfg));
        try {
          const weights = new Map<string, CheckpointTensor>();
          for (const name of ref.names()) weights.set(name, await ref.read(name));
          await setup.policy.loadParameters(weights);
        } finally {
          await ref.close();
        }
        await setup.policy.freezeReference();
      }
      await setup.policy.loadParameters(checkpoint.weights);
      optimizer.importState(checkpoint.optimizer);
      rng.setState(checkpoint.rngState);
      await log.truncateTo(state.metricsCount);
    }
    // A fresh run records what it was started with; a resumed one with other settings records the change
    // (an event with the old values) and its new settings, which `sqlenv eval --run` then reads.
    if (!checkpoint || changes.length > 0) await writeRunConfig(cfg.runDir, cfg);
    const run = new RunContext(setup, store, { state, resumedFromStep, optimizer, rng, log });
    if (changes.length > 0) {
      await run.event(
        state.grpoStep,
        'config_changed',
        `resumed with settings that differ from the run's config.json: ${changes.map(describeConfigChange).join('; ')}. ` +
          'Numbers recorded before this resume (the evaluations after SFT, earlier GRPO steps) were measured with the old values.',
      );
    }
    return run;
  }

  /** Whether the run continues from a checkpoint (the warm-up phases are done). */
  get resumed(): boolean {
    return this.resumedFromStep !== undefined;
  }

  /** Seconds of training so far, across resumes. */
  now(): number {
    return this.clock0 + (Date.now() - this.started) / 1000;
  }

  /** The number of questions in a split. */
  questionCount(split: string): number {
    return this.setup.questionCount(split);
  }

  /** The environments of a split, created on first use and closed with the run. */
  pool(split: string): EnvPool<Obs> {
    let p = this.pools.get(split);
    if (!p) this.pools.set(split, (p = new EnvPool(() => this.setup.makeEnv(split))));
    return p;
  }

  /** The builder of SFT's trajectories; throws when the setup has none. */
  requireSftData(): SftDataBuilder<Obs> {
    const build = this.setup.sftData;
    if (!build) throw new TrainError("mode includes 'sft' but the setup builds no SFT data: give it sftData (scriptedAgentData(() => agent) plays a scripted agent), or set mode 'grpo'");
    return build;
  }

  /** Appends a metrics record stamped with the run clock. */
  async emit(record: Omit<MetricRecord, 'time'>): Promise<void> {
    await this.log.append({ ...record, time: Math.round(this.now() * 1000) / 1000 } as MetricRecord);
  }

  /** Prints a message and records it as an event. */
  async event(step: number, name: string, message: string, value?: number): Promise<void> {
    this.print(message);
    await this.emit({ kind: 'event', step, event: name, message, ...(value !== undefined ? { value } : {}) });
  }

  /**
   * The generator of one evaluation (`what`, e.g. `sft/0/validation`): its own stream of the run's
   * seed, so evaluating more or fewer splits, or none, leaves training's random stream — SFT batches,
   * GRPO samples — exactly where it would be; the recipe chosen on validation-only runs is then the
   * run the full demo trains.
   */
  evaluationRng(what: string): Rng {
    return new Rng(streamSeed(this.config.seed, `evaluation/${what}`));
  }

  /** A fresh optimizer over the policy's parameters (GRPO starts with fresh moments after SFT). */
  async resetOptimizer(): Promise<void> {
    this.optimizer = await newOptimizer(this.policy, this.config);
  }

  /** Makes the current weights the KL reference, saved so a resumed run restores it. */
  async freezeReference(): Promise<void> {
    await writeSafetensors(referencePath(this.config), await weightsOf(this.policy));
    await this.policy.freezeReference();
  }

  /** Saves weights, optimizer, RNG and state as the checkpoint of a phase and step. */
  async checkpoint(phase: RunState['phase'], step: number): Promise<void> {
    this.state.phase = phase;
    if (phase === 'grpo') this.state.grpoStep = step;
    this.state.clock = this.now();
    this.state.metricsCount = await this.log.count();
    // The checkpoint after SFT is the run's starting point (`sqlenv eval --checkpoint 0`): always kept.
    await this.store.save(
      { step, weights: await weightsOf(this.policy), optimizer: await this.optimizer.exportState(), rngState: this.rng.getState(), extra: { ...this.state } },
      { pinned: phase === 'sft_done' },
    );
  }

  /** Rewrites the dashboard from the metrics so far (`live` pages reload themselves). */
  async refreshDashboard(live: boolean): Promise<void> {
    if (this.config.logging.dashboard) await writeDashboard(this.config.runDir, await this.log.readAll(), { title: `sqlenv training run — ${this.config.runDir}`, live });
  }

  /** What the run achieved so far. */
  summary(): TrainingSummary {
    return { ...this.state.summary, wallSeconds: (Date.now() - this.started) / 1000, ...(this.resumedFromStep !== undefined ? { resumedFromStep: this.resumedFromStep } : {}) };
  }

  /** Closes the environments the run created. */
  async close(): Promise<void> {
    for (const p of this.pools.values()) await p.close();
  }
}

function newOptimizer(policy: TrainablePolicy, cfg: TrainConfig): Promise<PolicyOptimizer> {
  return policy.createOptimizer({ beta1: cfg.optim.beta1, beta2: cfg.optim.beta2, eps: cfg.optim.eps, weightDecay: cfg.optim.weightDecay });
}

function referencePath(cfg: TrainConfig): string {
  return join(cfg.runDir, 'reference.safetensors');
}

/**
 * The settings a resumed run changes against its `config.json` (its run directory may move: `runDir` is
 * not one). Refuses a change of model: the checkpoint's weights and optimizer moments belong to the model
 * the run started with (its device may change).
 */
async function resumedConfigChanges(cfg: TrainConfig): Promise<ConfigChange[]> {
  const started = await readRunConfig(cfg.runDir);
  if (started === undefined) return [];
  const changes = configChanges(started, JSON.parse(JSON.stringify(cfg)) as unknown).filter((c) => c.path !== 'runDir');
  const model = changes.filter((c) => c.path.startsWith('model.') && c.path !== 'model.device' && c.path !== 'model.threads');
  if (model.length > 0) {
    throw new TrainError(
      `${cfg.runDir} holds a run of another model (${model.map(describeConfigChange).join('; ')}): its checkpoint cannot be resumed with these settings. ` +
        'Resume with the model settings of its config.json, or start a new run in another directory (--run-dir).',
    );
  }
  return changes;
}
