/**
 * A finished (or running) SQLEnv training run, opened for evaluation: its config from
 * `<runDir>/config.json`, its policy with the weights of one checkpoint, and its held-out splits.
 * Nothing in the run directory is written or removed, so a run can be evaluated while it trains.
 */
import { existsSync } from 'node:fs';
import { CheckpointStore } from '../../train/checkpoint/checkpoint-store.js';
import { TrainConfigError } from '../../train/config/load-config.js';
import { readRunConfig, RUN_CONFIG_FILE } from '../../train/run/run-config-file.js';
import { RecipeError } from '../recipe-error.js';
import { resolveSqlTrainConfig, type SqlTrainConfig } from './sql-config.js';
import { createSqlTrainingSetup, type SqlTrainingResources } from './sql-training-setup.js';

/** Options of {@link openTrainedRun}. */
export interface TrainedRunOptions {
  /** The held-out splits to load; they become the config's `env.evalSplits` (default: the run's own `env.evalSplits`). */
  splits?: readonly string[];
  /** The GRPO step whose checkpoint to load (0: the checkpoint written when SFT ended); default the newest. */
  step?: number;
  /** Another dataset source (`bundled`, `spider:DIR`, `bird:DIR`, `DIR`) than the run's `env.dataset`. */
  dataset?: string;
  /** The run's config, for a run directory without `config.json` (runs before it was kept). */
  config?: unknown;
}

/** A run opened by {@link openTrainedRun}: the resources of its setup, and which checkpoint is loaded. */
export interface TrainedRun extends SqlTrainingResources {
  /** The config the policy and environments were built from (the run's, with the splits and dataset asked for). */
  config: SqlTrainConfig;
  /** The step of the loaded checkpoint. */
  step: number;
  /** Every committed checkpoint step of the run, newest first. */
  steps: number[];
}

/**
 * Opens a training run for evaluation. The caller owns the result and closes it.
 *
 * @throws RecipeError when the directory, its config or the checkpoint asked for is missing, naming what exists.
 * @example
 * ```ts
 * const run = await openTrainedRun('runs/grpo-sql-demo', { splits: ['eval'] });
 * try { await evaluatePolicy(run.setup.policy, run.setup.task, pool, 'eval', 20, run.config.rollout, new Rng(0)); }
 * finally { await run.close(); }
 * ```
 */
export async function openTrainedRun(runDir: string, options: TrainedRunOptions): Promise<TrainedRun> {
  if (!existsSync(runDir)) throw new RecipeError(`no run directory ${runDir}: pass the runDir a training run wrote (sqlenv train, npm run demo)`);
  const raw = options.config ?? (await readRunConfigOrExplain(runDir));
  if (raw === undefined) {
    throw new RecipeError(
      `${runDir} has no ${RUN_CONFIG_FILE} (runs record their config there since it was added); pass the config the run was trained with: --config FILE`,
    );
  }
  const trained = resolveRunConfig(raw, options.config === undefined ? `${runDir}/${RUN_CONFIG_FILE}` : undefined);
  const splits = options.splits ?? trained.env.evalSplits;
  if (splits.length === 0) throw new RecipeError(`the run has no test split (its env.evalSplits is empty): name the split to evaluate (--split NAME)`);
  // The run's own directory (it may have moved since), and only the splits asked for: no
  // validation splits, so nothing but the evaluation's data is loaded.
  const config: SqlTrainConfig = {
    ...trained,
    runDir,
    env: { ...trained.env, evalSplits: [...splits], validationSplits: [], ...(options.dataset ? { dataset: options.dataset } : {}) },
  };
  const store = new CheckpointStore(runDir);
  const steps = await store.listSteps();
  if (steps.length === 0) {
    throw new RecipeError(`${runDir} has no checkpoint yet: a run writes one when SFT ends (step 0) and every checkpoint.everySteps GRPO steps`);
  }
  const step = options.step ?? steps[0]!;
  if (!steps.includes(step)) throw new RecipeError(`${runDir} has no checkpoint of step ${step}; its checkpoints are of steps ${[...steps].reverse().join(', ')}`);
  const checkpoint = await store.load(step);
  const resources = await createSqlTrainingSetup(config);
  try {
    await resources.setup.policy.loadParameters(checkpoint.weights);
  } catch (err) {
    await resources.close();
    throw err;
  }
  return { ...resources, config, step, steps };
}

/** The run's config resolved; one read from the run directory that no longer validates says how to pass one that does. */
function resolveRunConfig(raw: unknown, file: string | undefined): SqlTrainConfig {
  try {
    return resolveSqlTrainConfig(raw);
  } catch (err) {
    if (!(err instanceof TrainConfigError) || file === undefined) throw err;
    throw new RecipeError(`${file} is not a valid config today (${err.problems.join('; ')}); pass the run's config in today's layout with --config FILE`);
  }
}

async function readRunConfigOrExplain(runDir: string): Promise<unknown> {
  try {
    return await readRunConfig(runDir);
  } catch (err) {
    throw new RecipeError(`${runDir}/${RUN_CONFIG_FILE} is not valid JSON (${(err as Error).message}); pass the run's config with --config FILE`);
  }
}
