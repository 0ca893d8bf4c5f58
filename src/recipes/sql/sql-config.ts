/**
 * The SQL recipe's config section, `sql`: what a SQLEnv training run needs beyond the generic
 * trainer's options — the prompt's tool format, the difficulty tiers trained and evaluated on,
 * a split of procedurally generated databases, and how the oracle's SFT data is built. The
 * trainer's schema knows none of it; the recipe declares, defaults, checks and documents it
 * here, and checks `env.kwargs` against the options SQLEnv reads.
 */
import { checkSqlEnvOptions, type SqlEnvOptions } from '../../../envs/sql/sql-env.js';
import { SqlEnvError } from '../../../envs/sql/sql-env-error.js';
import type { ConfigSection } from '../../train/config/config-section.js';
import { loadTrainConfig, resolveTrainConfig } from '../../train/config/load-config.js';
import { schemaBoolean, schemaEnum, schemaInt, schemaNumber, schemaObject, schemaString, schemaStrings } from '../../train/config/schema-nodes.js';
import type { TrainConfig } from '../../train/config/schema.js';
import { RecipeError } from '../recipe-error.js';

/** `sql.generated`: a split of procedurally generated databases, written into the run directory on first use. */
export interface GeneratedSplitConfig {
  /** The split's name ('' = none); its database ids are `<split>_0`, `<split>_1`, …. */
  split: string;
  databases: number;
  questionsPerDb: number;
  /** Generator seed of the first database; -1: derived from the run's seed (see {@link generatedSeed}). */
  seed: number;
  inventedNames: number;
  /** A second split of other easy questions on the same databases ('' = none): what practice on `split` is tested on. */
  heldOutSplit: string;
  heldOutPerDb: number;
}

/** How SFT's oracle trajectories join rehearsed mistakes (`sql.sft.rehearsals`). */
export type RehearsalMode = 'instead' | 'besides';

/** The `sql` section of a SQLEnv run's config, defaults applied. */
export interface SqlRecipeConfig {
  compactTools: boolean;
  trainDifficulties: string[];
  evalDifficulties: string[];
  generated: GeneratedSplitConfig;
  sft: { describeTables: boolean; mistakeShare: number; rehearsals: RehearsalMode };
}

/** A SQLEnv run's config: the trainer's sections and the recipe's `sql` section. */
export type SqlTrainConfig = TrainConfig & { sql: SqlRecipeConfig };

/**
 * The `sql` section: its schema, the options that moved into it from the trainer's sections, and the checks the
 * schema cannot express (`env.kwargs` against SQLEnv's options, a held-out generated split without its split).
 *
 * @example
 * ```ts
 * resolveTrainConfig({ sql: { compactTools: true } }, SQL_CONFIG_SECTION).sql.compactTools; // true
 * ```
 */
export const SQL_CONFIG_SECTION: ConfigSection<'sql', SqlRecipeConfig> = {
  key: 'sql',
  schema: schemaObject('The SQL recipe (SQLEnv runs: `sqlenv train`, `npm run demo`).', {
    compactTools: schemaBoolean('Show the model short tool signatures (names and argument names only) instead of the full JSON Schemas: saves hundreds of prompt tokens for small models.', false),
    trainDifficulties: schemaStrings("Train (SFT and GRPO) only on the train splits' questions of these difficulties, e.g. ['easy']; empty = all.", []),
    evalDifficulties: schemaStrings("Evaluate only the held-out splits' questions of these difficulties (a curriculum's held-out set); empty = all.", []),
    generated: schemaObject(
      'A split of procedurally generated databases (data/generator/procedural: schemas no bundled split has, some names invented), written into <runDir>/generated/<split>/ on first use and reused after; name it in grpo.trainSplit or env.trainSplit.',
      {
        split: schemaString("The split's name ('' = none); its databases are <split>_0, <split>_1, ….", ''),
        databases: schemaInt('Databases generated.', 200, 1),
        questionsPerDb: schemaInt('Easy questions kept per database, spread over its templates.', 8, 1),
        seed: schemaInt("Generator seed of the first database (database i uses seed + i); the bundled base was staged on seeds 1–600. -1 derives it from the run's seed (10000 + 100 × seed), so a new --seed gives new databases and questions.", 1001, -1),
        inventedNames: schemaNumber('Share of tables and attribute columns renamed to invented words.', 0.5, { minimum: 0, maximum: 1 }),
        heldOutSplit: schemaString("A second split of other easy questions on the same databases ('' = none), none of them in the first: name it in env.evalSplits to test whether practice on the first learnt the databases rather than the questions.", ''),
        heldOutPerDb: schemaInt('Easy questions per database in heldOutSplit.', 8, 1),
      },
    ),
    sft: schemaObject("The oracle's SFT trajectories (the data the trainer's sft section learns from).", {
      describeTables: schemaBoolean(
        "Whether the oracle's SFT trajectories describe the gold tables before querying. false: query, then answer, for a model that already knows the schemas (the bundled tiny-sql base, pre-trained on the training databases' SQL).",
        true,
      ),
      mistakeShare: schemaNumber(
        "The share of SFT trajectories whose first query is a rehearsed mistake (a misspelled value, a table or a column that does not exist) before the gold query: the mistake is played for the environment's feedback but not learned, so SFT shows how to recover from an error or an empty result.",
        0,
        { minimum: 0, maximum: 1 },
      ),
      rehearsals: schemaEnum(
        "How sql.sft.mistakeShare's rehearsals join the SFT data: 'instead' of the plain trajectories of the questions they rehearse (as many trajectories as questions), or 'besides' them (every question's plain trajectory, plus a rehearsal of that share of the questions: more trajectories, the plain ones all kept).",
        ['instead', 'besides'],
        'instead',
      ),
    }),
  }),
  moved: {
    'env.compactTools': 'sql.compactTools',
    'env.trainDifficulties': 'sql.trainDifficulties',
    'env.evalDifficulties': 'sql.evalDifficulties',
    'env.generated': 'sql.generated',
    'sft.describeTables': 'sql.sft.describeTables',
    'sft.mistakeShare': 'sql.sft.mistakeShare',
    'sft.rehearsals': 'sql.sft.rehearsals',
  },
  check(config) {
    const { generated } = config.sql;
    return [
      ...kwargsProblems(config.env.kwargs),
      generated.heldOutSplit && !generated.split
        ? `sql.generated.heldOutSplit "${generated.heldOutSplit}" needs sql.generated.split: the held-out questions are on that split's databases. Set sql.generated.split, or sql.generated.heldOutSplit "".`
        : '',
    ].filter(Boolean);
  },
};

/** The SQLEnv options a run sets from its own sections; in env.kwargs they would be overridden, so they are refused. */
const SET_BY_THE_RUN: Readonly<Record<string, string>> = { dataset: 'env.dataset', split: 'env.trainSplit, env.evalSplits', stepBudget: 'env.stepBudget', pool: '(the run shares one query pool)' };

function kwargsProblems(kwargs: Record<string, unknown>): string[] {
  const problems = Object.keys(kwargs)
    .filter((k) => k in SET_BY_THE_RUN)
    .map((k) => `env.kwargs.${k}: the run sets SQLEnv's ${k} itself; use ${SET_BY_THE_RUN[k]} instead`);
  try {
    checkSqlEnvOptions(kwargs);
  } catch (err) {
    if (!(err instanceof SqlEnvError)) throw err;
    problems.push(`env.kwargs: ${err.message}`);
  }
  return problems;
}

/**
 * `env.kwargs` as SQLEnv's options, checked as SQLEnv checks them (a resolved config has passed the check already).
 *
 * @throws RecipeError when they are not SQLEnv's options.
 * @example
 * ```ts
 * sqlEnvKwargs(resolveSqlTrainConfig({ env: { kwargs: { answerMode: 'sql' } } })).answerMode; // 'sql'
 * ```
 */
export function sqlEnvKwargs(config: TrainConfig): SqlEnvOptions {
  const kwargs = config.env.kwargs;
  const problems = kwargsProblems(kwargs);
  if (problems.length > 0) throw new RecipeError(problems.join('; '));
  checkSqlEnvOptions(kwargs);
  return kwargs;
}

/**
 * Validates a SQLEnv run's config (the trainer's sections and `sql`), fills every default and returns it typed.
 *
 * @throws TrainConfigError listing every problem, an old option path with its new one.
 * @example
 * ```ts
 * resolveSqlTrainConfig({ sql: { generated: { split: 'procedural' } } }).sql.generated.databases; // 200
 * resolveSqlTrainConfig({ env: { compactTools: true } }); // throws: option "env.compactTools" has moved to "sql.compactTools" …
 * ```
 */
export function resolveSqlTrainConfig(input: unknown): SqlTrainConfig {
  return resolveTrainConfig(input, SQL_CONFIG_SECTION);
}

/**
 * Reads a SQLEnv run's JSON/YAML config file, applies `key.path=value` overrides and resolves it.
 *
 * @example
 * ```ts
 * const config = await loadSqlTrainConfig('examples/grpo-sql/config.json', ['grpo.steps=5']);
 * ```
 */
export function loadSqlTrainConfig(file: string | undefined, overrides: readonly string[] = []): Promise<SqlTrainConfig> {
  return loadTrainConfig(file, overrides, SQL_CONFIG_SECTION);
}

/**
 * The generator seed of `sql.generated`'s first database: its own `seed`, or under -1 one derived
 * from the run's seed, 10000 + 100 × seed, so each run seed gets databases of its own, apart from
 * the seeds the bundled base was staged on (1–600) and the default practice split (1001–1200).
 *
 * @example
 * ```ts
 * generatedSeed({ seed: 2, sql: { generated: { seed: -1 } } }); // 10200
 * ```
 */
export function generatedSeed(cfg: { seed: number; sql: { generated: { seed: number } } }): number {
  return cfg.sql.generated.seed >= 0 ? cfg.sql.generated.seed : 10000 + 100 * cfg.seed;
}
