import { Env, type Info, type ResetOptions, type ResetResult, type StepResult } from '../../src/gym/env.js';
import { ToolCallSpace, type ToolCall } from '../../src/gym/spaces/tool-call.js';
import { ResetNeeded } from '../../src/gym/wrappers/order-enforcing.js';
import { unknownKeys } from '../../src/base/unknown-keys.js';
import { InvalidResetOptionsError } from '../../src/gym/invalid-reset-options-error.js';
import { SqlActionParser } from './actions/action-parser.js';
import { actionText } from './actions/action-text.js';
import type { ActionMode, ActionRepair, ParsedSqlAction, SqlActionError, SqlErrorType } from './actions/action-types.js';
import { availableSplits } from './datasets/dataset-layout.js';
import { loadDataset } from './datasets/load-dataset.js';
import type { DatasetSource } from './datasets/dataset-source.js';
import { SqlDataset } from './datasets/sql-dataset.js';
import type { SqlQuestion } from './datasets/sql-question.js';
import { EpisodeState } from './episode/episode-state.js';
import { memoPhi } from './episode/result-memo.js';
import { runTool, type ToolContext } from './episode/run-tool.js';
import { sameSql } from './episode/same-sql.js';
import { writesLiterals } from './episode/sql-literals.js';
import type { ToolOutcome } from './episode/tool-outcome.js';
import { DEFAULT_JUDGE_CONFIG, type AnswerMode, type JudgeConfig } from './judge/judge-config.js';
import { renderObservation } from './observation/render-observation.js';
import { sqlObservationSpace, type SqlObservation } from './observation/sql-observation.js';
import { resolveRewardConfig, type RewardConfig } from './reward/reward-config.js';
import { afterEndReward, stepReward, totalReward, unsettledShaping, type RewardComponents } from './reward/step-reward.js';
import type { QueryLimits } from './sandbox/limits.js';
import type { QueryLane } from './sandbox/query-lane.js';
import { QueryPool } from './sandbox/query-pool.js';
import { QueryResultCache } from './sandbox/query-result-cache.js';
import { SchemaReaderCache } from './sandbox/schema-reader-cache.js';
import { SqlEnvError } from './sql-env-error.js';
import { resolveSqlResetOptions, type ResolvedSqlResetOptions, type SqlResetOptions } from './sql-reset-options.js';
import type { SqlStepInfo } from './sql-step-info.js';
import { SQL_TOOLS } from './tools/registry.js';


/** What `SQLEnv.step` resolves to: a Gymnasium step result whose `info` is a {@link SqlStepInfo}. */
export type SqlStepResult = [obs: SqlObservation, reward: number, terminated: boolean, truncated: boolean, info: SqlStepInfo];

/** Anything SQLEnv accepts as an action: a tool call in any tolerated form, or text. */
export type SqlAction = ToolCall | string | Record<string, unknown>;

/** Options of {@link SQLEnv} (the kwargs of `make('SQLEnv-v0', ...)`). */
export interface SqlEnvOptions {
  /** Questions and databases: `'bundled'` (default), a Spider/BIRD source, a directory, or a loaded dataset (not closed by the env). */
  dataset?: DatasetSource | SqlDataset;
  /** Split to load (default `'train'`). */
  split?: string;
  /** Steps per episode before truncation (default 10). */
  stepBudget?: number;
  /** `tolerant` (default) repairs malformed actions; `strict` refuses them. */
  actionMode?: ActionMode;
  /** What `answer(value)` holds: `value` (default), `sql`, or `either`. */
  answerMode?: AnswerMode;
  /** Reward constants to override (see RewardConfig). */
  reward?: Partial<RewardConfig>;
  /** Judge settings to override (tolerances, distinct rows). */
  judge?: Partial<JudgeConfig>;
  /** Limits for agent queries (default: the sandbox's 2 s, 20 rows shown, ...). */
  queryLimits?: Partial<QueryLimits>;
  /** A query pool to share (its owner closes it; the env queries in a lane of its own); by default the env starts and closes its own. */
  pool?: QueryPool;
  /**
   * Results of deterministic queries kept in-process, so a repeated query (the same SQL on the
   * same read-only database) skips the query process: a cache to share between envs, `false` for
   * none, or by default one of the env's own (32 MiB).
   */
  queryCache?: QueryResultCache | false;
  /**
   * After a query that found nothing (no rows, or one row of zeros and NULLs), name each text value it compared a
   * column with that is in no row, with the column's closest values and the queried tables' other columns that have
   * the value: `No row has country = 'Span'. Closest values of venue.country: 'Spain', 'Japan', 'Sweden'.`, `… port.city
   * has 'Lisbon'.` Default true; false shows the bare result.
   */
  valueHints?: boolean;
  /**
   * List each table's column names in every observation (`Columns: singer(id, name, age); concert(…)`), as
   * text-to-SQL prompts commonly give the schema: the agent can write a query without describing first. Default
   * false: the observation names the tables, and `describe` shows their columns.
   */
  listColumns?: boolean;
  /** Only `'ansi'`: `render()` returns the observation as text. */
  renderMode?: 'ansi';
}

const DEFAULT_STEP_BUDGET = 10;

/** Every option SQLEnv reads (the compiler checks the list against SqlEnvOptions): a misspelt kwarg is refused, not ignored. */
const OPTION_NAMES = Object.keys({
  dataset: 0, split: 0, stepBudget: 0, actionMode: 0, answerMode: 0, reward: 0, judge: 0, queryLimits: 0,
  pool: 0, queryCache: 0, valueHints: 0, listColumns: 0, renderMode: 0,
} satisfies Record<keyof SqlEnvOptions, 0>);

/**
 * Checks options as SQLEnv's constructor does, without making an env: a misspelt name (with a suggestion), a step
 * budget that is not a positive integer, an unknown render mode. What builds envs from a config (a training recipe's
 * `env.kwargs`) checks them here first, so the mistake is reported with the config's other problems.
 *
 * @throws SqlEnvError naming the option and what it must be.
 * @example
 * ```ts
 * checkSqlEnvOptions({ answerMode: 'sql' }); // passes
 * checkSqlEnvOptions({ stepbudget: 5 }); // throws: unknown SQLEnv option "stepbudget" (did you mean "stepBudget"?); …
 * ```
 */
export function checkSqlEnvOptions(options: object): asserts options is SqlEnvOptions {
  const unknown = unknownKeys(options, OPTION_NAMES);
  if (unknown.length > 0) throw new SqlEnvError(`unknown SQLEnv option ${unknown.join(', ')}; SQLEnv reads ${OPTION_NAMES.join(', ')}`);
  const { stepBudget, renderMode } = options as SqlEnvOptions;
  if (stepBudget !== undefined && (!Number.isInteger(stepBudget) || stepBudget < 1)) {
    throw new SqlEnvError(`stepBudget must be a positive integer, got ${String(stepBudget)}`);
  }
  if (renderMode !== undefined && renderMode !== 'ansi') {
    throw new SqlEnvError(`renderMode must be 'ansi' or undefined, got ${JSON.stringify(renderMode)}`);
  }
}

/**
 * SQLEnv: answer a question about a SQLite database with four tools — `describe`, `sample`,
 * `query` (read-only, sandboxed, time-limited) and `answer` — under a step budget, with dense
 * shaped rewards and an exact judge.
 *
 * Actions are tool calls in any tolerated form (see `SqlActionParser`); a malformed action never
 * throws, it costs a step and the observation's `error` shows the correct call. `info` carries
 * `error_type`, `repairs`, `reward_components`, and at the end `is_correct`, `gold_result_seen`
 * (whether a query of the episode returned the gold result, answered or not),
 * `answer_repeats_query` (the answer is the SQL of the episode's latest query),
 * `gold_literals_written` (a query wrote every literal value of the gold SQL), `retried_after_failure` (a query
 * followed a query that failed or found nothing), `recovered_after_failure` (such a query returned the gold result) and the gold SQL
 * (never before). A step after the episode ended returns an `episode_over` error observation with the
 * `afterEndPenalty` (OrderEnforcing only guards the first reset, as Gymnasium's does).
 *
 * The env owns the query pool and schema readers it starts and closes them in `close()`; a
 * closed env re-opens them on the next `reset()`. With a shared pool the env queries in a lane
 * of its own (`QueryPool.lane()`), so another env's runaway query never holds up its queries,
 * and `close()` or `interrupt()` kills a query it still runs.
 *
 * @example
 * ```ts
 * const env = new SQLEnv({ dataset: 'bundled', split: 'train' });
 * const [obs] = await env.reset({ seed: 42 });
 * const [obs2, reward, terminated, truncated, info] =
 *   await env.step({ name: 'describe', arguments: { table_name: obs.tables[0]! } });
 * await env.close();
 * ```
 */
export class SQLEnv extends Env<SqlObservation, SqlAction> {
  override metadata = { renderModes: ['ansi'] };
  readonly actionSpace: ToolCallSpace;
  readonly observationSpace: ReturnType<typeof sqlObservationSpace>;
  readonly stepBudget: number;
  readonly rewardConfig: RewardConfig;
  readonly judgeConfig: JudgeConfig;
  private readonly parser: SqlActionParser;
  private readonly options: SqlEnvOptions;
  private dataset: SqlDataset | undefined;
  private datasetLoading: Promise<SqlDataset> | undefined;
  /** Splits other than the env's own that a reset asked for, loaded from the same source (owned by the env). */
  private readonly otherSplits = new Map<string, Promise<SqlDataset>>();
  private ownPool: QueryPool | undefined;
  /** This env's share of the (possibly shared) pool: its queries queue apart from other envs'. */
  private lane: QueryLane | undefined;
  private readers = new SchemaReaderCache();
  private readonly queryCache: QueryResultCache | undefined;
  private episode: EpisodeState | undefined;

  constructor(options: SqlEnvOptions = {}) {
    super();
    this.options = options;
    checkSqlEnvOptions(options);
    this.stepBudget = options.stepBudget ?? DEFAULT_STEP_BUDGET;
    this.renderMode = options.renderMode;
    this.parser = new SqlActionParser(options.actionMode ?? 'tolerant');
    this.rewardConfig = resolveRewardConfig(options.reward);
    this.judgeConfig = { ...DEFAULT_JUDGE_CONFIG, ...options.judge, ...(options.answerMode ? { answerMode: options.answerMode } : {}) };
    this.queryCache = options.queryCache === false ? undefined : (options.queryCache ?? new QueryResultCache());
    this.actionSpace = new ToolCallSpace(SQL_TOOLS);
    this.observationSpace = sqlObservationSpace(this.stepBudget);
  }

  /** The loaded dataset (after the first `reset()`). */
  get loadedDataset(): SqlDataset | undefined {
    return this.dataset;
  }

  override async reset(options: ResetOptions<SqlResetOptions> = {}): Promise<ResetResult<SqlObservation>> {
    // Checked before anything changes, so a caller's mistake leaves the env as it was.
    const resolved = resolveSqlResetOptions(options.options);
    await super.reset(options.seed === undefined ? {} : { seed: options.seed });
    const dataset = await this.datasetOf(resolved.split);
    const question = this.pickQuestion(dataset, resolved);
    const dbPath = dataset.dbPath(question.dbId);
    const gold = await dataset.goldResult(question);
    const reader = this.readers.get(dbPath);
    const tables = reader.tables();
    const columns = this.options.listColumns ? tables.map((t) => reader.describe(t).columns.map((c) => c.name).join(', ')) : [];
    this.episode = new EpisodeState(question, { sql: question.goldSql, rows: gold.rows }, dbPath, tables, this.stepBudget, columns);
    const info: Info = { question_id: question.id, db_id: question.dbId, split: dataset.split, difficulty: question.difficulty ?? null, step_budget: this.stepBudget, shaping_potential: 0 };
    return [this.episode.observation(), info];
  }

  override async step(action: SqlAction): Promise<SqlStepResult> {
    const episode = this.episode;
    if (!episode) throw new ResetNeeded('SQLEnv.step() was called before reset(): call `await env.reset()` first.');
    if (episode.done) return this.afterEnd(episode);

    const parsed = this.parser.parse(action, { tables: episode.tables });
    const outcome = parsed.ok ? await runTool(parsed.call, this.toolContext(episode)) : undefined;
    const error: SqlActionError | undefined = parsed.ok ? (outcome!.ok ? undefined : outcome!.error) : parsed.error;
    const repairs: ActionRepair[] = [...parsed.repairs, ...(outcome?.repairs ?? [])];

    // Everything derived from the action is computed before the episode changes, so nothing the
    // action holds can leave the step counter ahead of the observation.
    const key = actionKey(parsed, action);
    const label = parsed.ok ? callLabel(parsed) : 'invalid action';
    episode.step++;
    const repeated = episode.markAction(key);
    const phiBefore = episode.phi;
    const seenBefore = episode.seenCount;
    if (parsed.ok && parsed.call.name === 'answer' && episode.lastQuery !== undefined) {
      episode.answerRepeatsQuery = typeof parsed.call.arguments.value === 'string' && sameSql(parsed.call.arguments.value, episode.lastQuery);
    }
    if (parsed.ok && parsed.call.name === 'query' && !episode.goldLiteralsWritten) {
      episode.goldLiteralsWritten = writesLiterals(parsed.call.arguments.sql, episode.goldLiterals);
    }
    if (parsed.ok && parsed.call.name === 'query') {
      // A query after a query that failed or found nothing is a retry; one whose result is the gold one, a recovery.
      if (episode.lastQueryFailed) {
        episode.retried = true;
        if (outcome?.ok && outcome.matchesGold) episode.recovered = true;
      }
      episode.lastQueryFailed = !outcome?.ok || outcome.foundNothing === true;
    }
    if (outcome?.ok) {
      if (parsed.ok && parsed.call.name === 'query') episode.lastQuery = parsed.call.arguments.sql;
      if (outcome.infoKey !== undefined) episode.markSeen(outcome.infoKey);
      if (outcome.matchesGold) episode.goldResultSeen = true;
      if (outcome.queryRows) {
        episode.phi = memoPhi(outcome.queryRows, episode.goldProfile, this.rewardConfig.potentialWeights);
      }
    }
    const verdict = outcome?.verdict;
    if (verdict) {
      episode.terminated = true;
      episode.isCorrect = verdict.correct;
    } else if (episode.step >= this.stepBudget) {
      episode.truncated = true;
      episode.isCorrect = false;
    }
    this.recordObservation(episode, label, outcome, error);

    const terminal = verdict ? (verdict.correct ? 'correct' : 'wrong') : episode.truncated ? 'out_of_budget' : undefined;
    // The shaping potentials are 0 in a terminal state (Ng et al. 1999): what progress and
    // novelty paid during the episode is returned at its end, so only the answer is rewarded.
    if (terminal) episode.phi = 0;
    const components = stepReward(
      {
        ran: outcome?.ok === true,
        repeated,
        phiBefore,
        phiAfter: episode.phi,
        seenBefore,
        seenAfter: terminal ? 0 : episode.seenCount,
        ...(terminal ? { terminal } : {}),
      },
      this.rewardConfig,
    );
    const info = this.stepInfo(episode, parsed, error?.type, repairs, components);
    if (outcome?.ok && outcome.resultData) info.result = outcome.resultData;
    if (verdict) info.verdict_reason = verdict.reason;
    // The data the observation's error or hint text was rendered from (docs/sql.md, "Feedback").
    info.feedback = outcome?.feedback ?? [];
    return [episode.observation(), totalReward(components), episode.terminated, episode.truncated, info];
  }

  override render(): string | undefined {
    if (this.renderMode !== 'ansi' || !this.episode) return undefined;
    return renderObservation(this.episode.observation());
  }

  /**
   * Stop the query this env is running now, if any (its process is killed and replaced): the step
   * in flight then answers at once with an `sql_error` observation saying the query was
   * cancelled. A server calls it when the client of a session goes away mid-step.
   */
  interrupt(): void {
    this.lane?.cancel();
  }

  override async close(): Promise<void> {
    this.episode = undefined;
    this.lane?.close();
    this.lane = undefined;
    this.readers.close();
    this.readers = new SchemaReaderCache();
    const pool = this.ownPool;
    this.ownPool = undefined;
    const ownsDataset = !(this.options.dataset instanceof SqlDataset);
    const dataset = ownsDataset ? this.dataset : undefined;
    if (ownsDataset) {
      this.dataset = undefined;
      this.datasetLoading = undefined;
    }
    const otherSplits = [...this.otherSplits.values()];
    this.otherSplits.clear();
    await dataset?.close();
    await Promise.all(otherSplits.map((loading) => loading.then((d) => d.close(), () => undefined)));
    await pool?.close();
  }

  private pool(): QueryPool {
    if (this.options.pool) return this.options.pool;
    this.ownPool ??= new QueryPool({ limits: this.options.queryLimits ?? {} });
    return this.ownPool;
  }

  private async ensureDataset(): Promise<SqlDataset> {
    if (this.dataset) return this.dataset;
    const source = this.options.dataset ?? 'bundled';
    if (source instanceof SqlDataset) {
      this.dataset = source;
      return source;
    }
    this.datasetLoading ??= loadDataset(source, this.options.split ?? 'train', { pool: this.pool() });
    try {
      this.dataset = await this.datasetLoading;
    } finally {
      this.datasetLoading = undefined;
    }
    if (this.dataset.questions.length === 0) {
      throw new SqlEnvError(`dataset ${this.dataset.name}/${this.dataset.split} has no usable questions (${this.dataset.skipped.length} skipped)`);
    }
    return this.dataset;
  }

  /** The dataset of `split` (default: the env's own): another split of the same source is loaded on first use and kept until `close()`. */
  private async datasetOf(split: string | undefined): Promise<SqlDataset> {
    const own = await this.ensureDataset();
    if (split === undefined || split === own.split) return own;
    let loading = this.otherSplits.get(split);
    if (!loading) {
      loading = this.loadOtherSplit(own, split);
      this.otherSplits.set(split, loading);
      // A failed load is not kept, so a later reset can try again.
      loading.catch(() => this.otherSplits.delete(split));
    }
    return loading;
  }

  private async loadOtherSplit(own: SqlDataset, split: string): Promise<SqlDataset> {
    const source = this.options.dataset instanceof SqlDataset ? this.options.dataset.source : (this.options.dataset ?? 'bundled');
    if (source === undefined) {
      throw new InvalidResetOptionsError([{ option: 'split', message: `this env was given a dataset built without its source, so it serves only split "${own.split}"; load it with loadDataset() to allow other splits, or leave out split` }]);
    }
    const splits = availableSplits(source);
    if (!splits.includes(split)) {
      const [named] = unknownKeys({ [split]: 0 }, splits);
      throw new InvalidResetOptionsError([{ option: 'split', message: `no split ${named!} in ${own.name}; splits: ${splits.join(', ')}` }]);
    }
    const dataset = await loadDataset(source, split, { pool: this.pool() });
    if (dataset.questions.length === 0) {
      await dataset.close();
      throw new SqlEnvError(`dataset ${dataset.name}/${dataset.split} has no usable questions (${dataset.skipped.length} skipped)`);
    }
    return dataset;
  }

  private pickQuestion(dataset: SqlDataset, options: ResolvedSqlResetOptions): SqlQuestion {
    if (options.questionId !== undefined) {
      const question = dataset.question(options.questionId);
      if (!question) {
        const [named] = unknownKeys({ [options.questionId]: 0 }, dataset.questions.map((q) => q.id));
        const otherSplit = options.questionId.match(/^(.+)-\d+$/)?.[1];
        const hint = otherSplit !== undefined && otherSplit !== dataset.split ? `; to play a question of another split, pass split: '${otherSplit}' too` : '';
        throw new InvalidResetOptionsError([{ option: 'questionId', message: `no question ${named!} in ${dataset.name}/${dataset.split}${hint}` }]);
      }
      if (options.dbId !== undefined && question.dbId !== options.dbId) {
        throw new InvalidResetOptionsError([{ option: 'dbId', message: `question "${question.id}" is about database "${question.dbId}", not "${options.dbId}": pass one of questionId and dbId` }]);
      }
      return question;
    }
    const candidates = options.dbId === undefined ? dataset.questions : dataset.questions.filter((q) => q.dbId === options.dbId);
    if (candidates.length === 0) {
      const [named] = unknownKeys({ [String(options.dbId)]: 0 }, dataset.dbIds);
      throw new InvalidResetOptionsError([{ option: 'dbId', message: `no questions about database ${named!} in ${dataset.name}/${dataset.split}; databases: ${dataset.dbIds.join(', ')}` }]);
    }
    return candidates[this.npRandom.int(candidates.length)]!;
  }

  private toolContext(episode: EpisodeState): ToolContext {
    return {
      reader: this.readers.get(episode.dbPath),
      pool: (this.lane ??= this.pool().lane()),
      dbPath: episode.dbPath,
      tables: episode.tables,
      queryLimits: this.options.queryLimits ?? {},
      gold: episode.gold,
      judge: this.judgeConfig,
      strict: this.parser.mode === 'strict',
      valueHints: this.options.valueHints ?? true,
      question: episode.question.question,
      queryCache: this.queryCache,
      poolLimits: this.pool().limits,
    };
  }

  private recordObservation(episode: EpisodeState, label: string, outcome: ToolOutcome | undefined, error: SqlActionError | undefined): void {
    if (error) {
      episode.error = error.message;
      episode.result = '';
      episode.history.push(`${episode.step}. ${label} → error: ${error.type}`);
    } else if (outcome?.ok) {
      episode.error = '';
      episode.result = outcome.text;
      if (outcome.describedTable) episode.addDescription(outcome.describedTable, outcome.text);
      episode.history.push(`${episode.step}. ${label} → ${outcome.summary}`);
    }
    if (episode.truncated && !episode.terminated) {
      const note = 'The step budget is used up: the episode is over without an answer.';
      episode.result = episode.result ? `${episode.result}\n\n${note}` : note;
    }
  }

  private stepInfo(
    episode: EpisodeState,
    parsed: ParsedSqlAction,
    errorType: SqlErrorType | undefined,
    repairs: ActionRepair[],
    components: RewardComponents,
  ): SqlStepInfo {
    const info: SqlStepInfo = {
      tool: parsed.ok ? parsed.call.name : null,
      action_form: parsed.form ?? null,
      error_type: errorType ?? null,
      repairs,
      reward_components: components,
      potential: episode.phi,
      shaping_potential: episode.done ? 0 : unsettledShaping(episode.phi, episode.seenCount, this.rewardConfig),
      question_id: episode.question.id,
      result: null,
    };
    if (episode.done) {
      info.is_correct = episode.isCorrect === true;
      info.gold_result_seen = episode.goldResultSeen;
      info.answer_repeats_query = episode.answerRepeatsQuery;
      info.gold_literals_written = episode.goldLiteralsWritten;
      info.retried_after_failure = episode.retried;
      info.recovered_after_failure = episode.recovered;
      info.gold_sql = episode.question.goldSql;
    }
    return info;
  }

  private afterEnd(episode: EpisodeState): SqlStepResult {
    const components = afterEndReward(this.rewardConfig);
    const message = 'The episode is over (an answer was given or the step budget ran out). Call reset() to start a new episode.';
    const obs = { ...episode.observation(), result: '', error: message };
    const info: SqlStepInfo = {
      tool: null,
      action_form: null,
      error_type: 'episode_over',
      repairs: [],
      reward_components: components,
      potential: episode.phi,
      shaping_potential: 0,
      question_id: episode.question.id,
      result: null,
      is_correct: episode.isCorrect === true,
    };
    return [obs, totalReward(components), episode.terminated, episode.truncated, info];
  }
}

/** `describe(singer)`, `query(SELECT count(*) FROM …)`, `answer(42)` for the history. */
function callLabel(parsed: Extract<ParsedSqlAction, { ok: true }>): string {
  const args = Object.values(parsed.call.arguments).map((v) => actionText(v, 200));
  const text = args.join(', ').replace(/\s+/g, ' ');
  return `${parsed.call.name}(${text.length > 80 ? `${text.slice(0, 77)}...` : text})`;
}

/** What counts as "the same action" for the repeat penalty: the canonical call, or the raw action. */
function actionKey(parsed: ParsedSqlAction, raw: unknown): string {
  if (parsed.ok) {
    // Table names match case-insensitively, so `describe SINGER` repeats `describe singer`.
    const args = Object.entries(parsed.call.arguments)
      .map(([k, v]) => [k, k === 'table_name' && typeof v === 'string' ? v.trim().toLowerCase() : v] as const)
      .sort(([a], [b]) => a.localeCompare(b));
    return `call:${parsed.call.name}:${actionText(args, Infinity)}`;
  }
  return `raw:${actionText(raw)}`;
}
