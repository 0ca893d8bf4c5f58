/**
 * A SQLEnv training run, built from a config: datasets for the train and held-out splits (and
 * `sql.generated`'s split of procedural databases, written into the run directory on first use),
 * SQLEnv instances sharing one query pool, the SQL rollout task, the configured policy, and the
 * oracle's SFT data. It joins the environment (envs/sql) and the generic trainer (src/train);
 * `sqlenv train`, the bundled example and the benchmarks build their runs here.
 */
import { join } from 'node:path';
import { writeGeneratedSplit } from '../../../data/generator/procedural/generated-split.js';
import { OracleAgent } from '../../../envs/sql/agents/oracle-agent.js';
import { DatasetError } from '../../../envs/sql/datasets/dataset-error.js';
import { parseDatasetSource } from '../../../envs/sql/datasets/dataset-source.js';
import { loadDataset } from '../../../envs/sql/datasets/load-dataset.js';
import type { SqlDataset } from '../../../envs/sql/datasets/sql-dataset.js';
import type { SqlObservation } from '../../../envs/sql/observation/sql-observation.js';
import { QueryPool } from '../../../envs/sql/sandbox/query-pool.js';
import { SQLEnv } from '../../../envs/sql/sql-env.js';
import { representativeOrder } from './task/question-order.js';
import { sqlRolloutTask } from './task/sql-task.js';
import type { LanguageModel } from '../../lm/model/language-model.js';
import type { TinyModelOptions } from '../../lm/tiny/create.js';
import { grpoTrainSplit } from '../../train/config/schema.js';
import { createTrainablePolicy } from '../../train/policy/create-policy.js';
import type { LmTrainablePolicy } from '../../train/policy/lm-policy-adapter.js';
import type { TrainingSetup } from '../../train/run/run-types.js';
import { RecipeError } from '../recipe-error.js';
import { oracleSftData } from './oracle-sft-data.js';
import { generatedSeed, sqlEnvKwargs, type SqlTrainConfig } from './sql-config.js';

/** A built SQLEnv training setup and the resources it owns. */
export interface SqlTrainingResources {
  setup: TrainingSetup<SqlObservation>;
  model: LanguageModel;
  datasets: Map<string, SqlDataset>;
  /** A split's environment as the run builds it (env.kwargs, step budget, shared query pool); `setup.makeEnv` is this one. */
  makeEnv(split: string): SQLEnv;
  /** The oracle SFT's data comes from, on the train split, rehearsing mistakes in a share `mistakeShare` of its episodes (default `sql.sft.mistakeShare`). */
  makeOracle(mistakeShare?: number): OracleAgent;
  /** Closes the policy, datasets and query pool. Idempotent. */
  close(): Promise<void>;
}

/**
 * Whether scripted agents must answer with SQL: the run's env judges answers as SQL
 * (`env.kwargs.answerMode: 'sql'`), so the oracle answers the way the environment judges.
 *
 * @example
 * ```ts
 * answersWithSql(resolveSqlTrainConfig({ env: { kwargs: { answerMode: 'sql' } } })); // true
 * ```
 */
export function answersWithSql(config: SqlTrainConfig): boolean {
  return sqlEnvKwargs(config).answerMode === 'sql';
}

/**
 * Builds the datasets, envs, policy and oracle for a SQLEnv run.
 *
 * @example
 * ```ts
 * const res = await createSqlTrainingSetup(await loadSqlTrainConfig('examples/grpo-sql/config.json'));
 * try { await runTraining(res.setup); } finally { await res.close(); }
 * ```
 */
export async function createSqlTrainingSetup(
  config: SqlTrainConfig,
  options: { tinyModel?: TinyModelOptions; print?: (line: string) => void } = {},
): Promise<SqlTrainingResources> {
  const pool = new QueryPool({ size: 2 });
  const datasets = new Map<string, SqlDataset>();
  let policy: LmTrainablePolicy | undefined;
  const close = async () => {
    await policy?.dispose();
    policy = undefined;
    for (const d of datasets.values()) await d.close();
    datasets.clear();
    await pool.close();
  };
  try {
    const source = parseDatasetSource(config.env.dataset);
    const kwargs = sqlEnvKwargs(config);
    const generated = config.sql.generated;
    const generatedSplits = new Set([generated.split, generated.heldOutSplit].filter((s) => s !== ''));
    const generatedDir = generated.split
      ? (
          await writeGeneratedSplit(join(config.runDir, 'generated', generated.split), generated.split, {
            databases: generated.databases,
            questionsPerDb: generated.questionsPerDb,
            seed: generatedSeed(config),
            inventedNames: generated.inventedNames,
            ...(generated.heldOutSplit ? { heldOut: { name: generated.heldOutSplit, perDb: generated.heldOutPerDb } } : {}),
          })
        ).dir
      : undefined;
    const trainSplits = new Set([config.env.trainSplit, grpoTrainSplit(config)]);
    for (const split of new Set([...trainSplits, ...config.env.validationSplits, ...config.env.evalSplits])) {
      if (generatedSplits.has(split) && generatedDir) {
        datasets.set(split, await loadDataset(generatedDir, split, { pool }));
        continue;
      }
      try {
        datasets.set(split, await loadDataset(source, split, { pool }));
      } catch (err) {
        if (split !== config.grpo.trainSplit || !(err instanceof DatasetError)) throw err;
        throw new RecipeError(`grpo.trainSplit "${split}": ${err.message} To have GRPO practise on generated databases, also set sql.generated.split "${split}".`);
      }
    }
    const configured = await createTrainablePolicy(config, options.tinyModel ? { tinyModel: options.tinyModel } : {});
    policy = configured.policy;
    const dataset = (split: string) => {
      const d = datasets.get(split);
      if (!d) throw new RecipeError(`split "${split}" was not loaded; add it to env.evalSplits, env.validationSplits, env.trainSplit or grpo.trainSplit`);
      return d;
    };
    // A curriculum narrows the train splits (sql.trainDifficulties) and the held-out splits (sql.evalDifficulties) to some tiers.
    const idsBySplit = new Map<string, string[]>();
    const questionIds = (split: string): string[] => {
      let ids = idsBySplit.get(split);
      if (!ids) {
        const option = trainSplits.has(split) ? 'trainDifficulties' : 'evalDifficulties';
        const difficulties = new Set(config.sql[option]);
        const all = dataset(split).questions;
        const kept = representativeOrder(difficulties.size > 0 ? all.filter((q) => difficulties.has(q.difficulty ?? '')) : all);
        if (kept.length === 0) throw new RecipeError(`sql.${option} ${[...difficulties].join(', ')}: no question of split "${split}" has one of these difficulties`);
        ids = kept.map((q) => q.id);
        idsBySplit.set(split, ids);
      }
      return ids;
    };
    const makeEnv = (split: string): SQLEnv => new SQLEnv({ ...kwargs, dataset: dataset(split), stepBudget: config.env.stepBudget, pool });
    const makeOracle = (mistakeShare = config.sql.sft.mistakeShare): OracleAgent =>
      new OracleAgent(dataset(config.env.trainSplit), {
        stepBudget: config.env.stepBudget,
        describeTables: config.sql.sft.describeTables,
        mistakeShare,
        mistakeSeed: config.seed,
        answerWithSql: answersWithSql(config),
      });
    const setup: TrainingSetup<SqlObservation> = {
      config,
      policy,
      task: sqlRolloutTask(questionIds, { compactTools: config.sql.compactTools }),
      makeEnv,
      questionCount: (split) => questionIds(split).length,
      sftData: oracleSftData(makeOracle, config.sql.sft),
      ...(options.print ? { print: options.print } : {}),
    };
    return { setup, model: configured.model, datasets, makeEnv, makeOracle, close };
  } catch (err) {
    await close();
    throw err;
  }
}
