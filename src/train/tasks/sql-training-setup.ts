/**
 * Everything a SQLEnv training run needs, built from a config: datasets for the train and
 * held-out splits, SQLEnv instances sharing one query pool, the policy (the bundled tiny model
 * or a Hugging Face directory, with LoRA when configured), and the oracle agent for SFT.
 * `sqlenv train` and the bundled example both build their runs here.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { OracleAgent } from '../../../envs/sql/agents/oracle-agent.js';
import { loadDataset } from '../../../envs/sql/datasets/load-dataset.js';
import type { DatasetSource } from '../../../envs/sql/datasets/dataset-source.js';
import type { SqlDataset } from '../../../envs/sql/datasets/sql-dataset.js';
import type { SqlObservation } from '../../../envs/sql/observation/sql-observation.js';
import { QueryPool } from '../../../envs/sql/sandbox/query-pool.js';
import { SQLEnv, type SqlEnvOptions } from '../../../envs/sql/sql-env.js';
import { Policy } from '../../lm/compute/policy.js';
import { LoraAdapter } from '../../lm/lora/adapter.js';
import { PROJECTIONS, type ProjectionName } from '../../lm/model/parameters.js';
import { loadModel, type LanguageModel } from '../../lm/model/language-model.js';
import { packageRoot } from '../../lm/package-root.js';
import { createTinyModel, type TinyModelOptions } from '../../lm/tiny/create.js';
import type { TrainConfig } from '../config/schema.js';
import { LmTrainablePolicy } from '../policy/lm-policy-adapter.js';
import type { TrainingSetup } from '../training-run.js';
import { representativeOrder } from './question-order.js';
import { sqlRolloutTask } from './sql-task.js';

/** A built SQLEnv training setup and the resources it owns. */
export interface SqlTrainingResources {
  setup: TrainingSetup<SqlObservation>;
  model: LanguageModel;
  datasets: Map<string, SqlDataset>;
  /** A split's environment as the run builds it (env.kwargs, step budget, shared query pool); `setup.makeEnv` is this one. */
  makeEnv(split: string): SQLEnv;
  /** Closes the policy, datasets and query pool. Idempotent. */
  close(): Promise<void>;
}

/**
 * `'bundled'`, `spider:DIR`, `bird:DIR` or a directory, as the config spells datasets.
 *
 * @example
 * ```ts
 * parseDatasetSource('spider:/data/spider'); // { kind: 'spider', dir: '/data/spider' }
 * ```
 */
export function parseDatasetSource(text: string): DatasetSource {
  if (text === 'bundled') return 'bundled';
  const m = /^(spider|bird):(.+)$/.exec(text);
  if (m) return { kind: m[1] as 'spider' | 'bird', dir: m[2]! };
  return text;
}

/**
 * Where the tiny model lives for a run, created on first use (a few seconds: the tokenizer is
 * trained on the bundled corpus, the weights are random).
 *
 * @example
 * ```ts
 * const dir = await ensureTinyModel('runs/demo/model');
 * ```
 */
export async function ensureTinyModel(dir: string, options: TinyModelOptions = {}): Promise<string> {
  if (!existsSync(join(dir, 'config.json'))) await createTinyModel(dir, options);
  return dir;
}

/**
 * The model directory a config names: `'tiny'` builds a random tiny model in the run directory,
 * `'tiny-sql'` is the bundled pre-trained tiny base (`models/tiny-sql`, made by
 * `npm run model:pretrain`), anything else is a Hugging Face directory.
 *
 * @example
 * ```ts
 * await resolveModelDir(resolveTrainConfig({ model: { path: 'tiny-sql' } })); // '<package>/models/tiny-sql'
 * ```
 */
export async function resolveModelDir(config: TrainConfig, tinyModel: TinyModelOptions = {}): Promise<string> {
  if (config.model.path === 'tiny') return ensureTinyModel(join(config.runDir, 'model'), { seed: config.seed, ...config.model.tiny, ...tinyModel });
  if (config.model.path === 'tiny-sql') {
    const dir = join(packageRoot(), 'models', 'tiny-sql');
    if (!existsSync(join(dir, 'config.json'))) throw new Error(`model.path "tiny-sql": the bundled pre-trained model is missing from ${dir}; rebuild it with \`npm run model:pretrain\` or use model.path "tiny"`);
    return dir;
  }
  return config.model.path;
}

/**
 * Whether scripted agents must answer with SQL: the run's env judges answers as SQL
 * (`env.kwargs.answerMode: 'sql'`), so the oracle answers the way the environment judges.
 *
 * @example
 * ```ts
 * answersWithSql(resolveTrainConfig({ env: { kwargs: { answerMode: 'sql' } } })); // true
 * ```
 */
export function answersWithSql(config: TrainConfig): boolean {
  return (config.env.kwargs as SqlEnvOptions).answerMode === 'sql';
}

/**
 * Builds the datasets, envs, policy and oracle for a SQLEnv run.
 *
 * @example
 * ```ts
 * const res = await createSqlTrainingSetup(config);
 * try { await runTraining(res.setup); } finally { await res.close(); }
 * ```
 */
export async function createSqlTrainingSetup(
  config: TrainConfig,
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
    for (const split of new Set([config.env.trainSplit, ...config.env.evalSplits])) {
      datasets.set(split, await loadDataset(source, split, { pool }));
    }
    const modelDir = await resolveModelDir(config, options.tinyModel);
    const model = await loadModel(modelDir);
    // One thread per op on CPU: multi-threaded kernel reductions sum in a timing-dependent order, so
    // two runs with the same seed drift apart; with one thread a seed reproduces its numbers exactly.
    const engine = { provider: config.model.device, ...(config.model.device === 'cpu' ? { intraOpThreads: 1 } : {}) };
    const lora = config.model.lora;
    const unknown = lora.targets.filter((t) => !(PROJECTIONS as readonly string[]).includes(t));
    if (unknown.length) throw new Error(`model.lora.targets: unknown projection(s) ${unknown.join(', ')}; choose from ${PROJECTIONS.join(', ')}`);
    const targetModules = lora.targets as ProjectionName[];
    const adapter = lora.rank > 0 ? LoraAdapter.create(model.config, { rank: lora.rank, alpha: lora.alpha, targetModules }, { seed: config.seed }) : undefined;
    const lm = await Policy.create(model, { ...engine, ...(adapter ? { adapter } : {}) });
    policy = new LmTrainablePolicy(lm, (m) => Policy.create(m, { ...engine, train: 'full' }));
    const dataset = (split: string) => {
      const d = datasets.get(split);
      if (!d) throw new Error(`split "${split}" was not loaded; add it to env.evalSplits or env.trainSplit`);
      return d;
    };
    // A curriculum narrows the train split (trainDifficulties) and the held-out splits (evalDifficulties) to some tiers.
    const idsBySplit = new Map<string, string[]>();
    const questionIds = (split: string): string[] => {
      let ids = idsBySplit.get(split);
      if (!ids) {
        const option = split === config.env.trainSplit ? 'trainDifficulties' : 'evalDifficulties';
        const difficulties = new Set(config.env[option]);
        const all = dataset(split).questions;
        const kept = representativeOrder(difficulties.size > 0 ? all.filter((q) => difficulties.has(q.difficulty ?? '')) : all);
        if (kept.length === 0) throw new Error(`env.${option} ${[...difficulties].join(', ')}: no question of split "${split}" has one of these difficulties`);
        ids = kept.map((q) => q.id);
        idsBySplit.set(split, ids);
      }
      return ids;
    };
    const envOptions = (split: string): SqlEnvOptions => ({ ...(config.env.kwargs as SqlEnvOptions), dataset: dataset(split), stepBudget: config.env.stepBudget, pool });
    const makeEnv = (split: string): SQLEnv => new SQLEnv(envOptions(split));
    const setup: TrainingSetup<SqlObservation> = {
      config,
      policy,
      task: sqlRolloutTask(questionIds, { compactTools: config.env.compactTools }),
      makeEnv,
      questionCount: (split) => questionIds(split).length,
      makeOracle: () =>
        new OracleAgent(dataset(config.env.trainSplit), {
          stepBudget: config.env.stepBudget,
          describeTables: config.sft.describeTables,
          answerWithSql: answersWithSql(config),
        }),
      ...(options.print ? { print: options.print } : {}),
    };
    return { setup, model, datasets, makeEnv, close };
  } catch (err) {
    await close();
    throw err;
  }
}
