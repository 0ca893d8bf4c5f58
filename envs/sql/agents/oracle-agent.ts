import type { Info } from '../../../src/gym/env.js';
import type { ToolCall } from '../../../src/gym/spaces/tool-call.js';
import type { SqlDataset } from '../datasets/sql-dataset.js';
import type { SqlObservation } from '../observation/sql-observation.js';
import type { SqlAgent } from './agent.js';
import { compactAnswer } from './compact-answer.js';
import { goldPlan, type GoldPlan } from './gold-lookup.js';
import { rehearsedMistake } from './rehearsed-mistake.js';
import { Rng } from '../../../src/base/rng.js';

/**
 * The privileged upper baseline: describes the gold SQL's tables (unless `describeTables: false`),
 * runs the gold SQL, and answers with its result in the shortest form the judge accepts (see
 * `compactAnswer`; or, with `answerWithSql`, the gold SQL itself, for `answerMode: 'sql'`). It must score 100% on
 * every question whose gold SQL runs; anything less is a bug in the environment or the judge.
 *
 * @example
 * ```ts
 * const env = new SQLEnv({ dataset });
 * const report = await runEpisodes(() => env, new OracleAgent(dataset), { episodes: 20, seed: 0 });
 * report.success_rate; // 1
 * ```
 */
export class OracleAgent implements SqlAgent {
  readonly name: string = 'oracle';
  private plan: GoldPlan | undefined;
  private queue: Array<ToolCall & { mistake?: boolean }> = [];
  /** The action just returned is a rehearsed mistake (see {@link OracleAgent.demonstrates}). */
  private mistaken = false;
  private readonly mistakeRng: Rng;
  /** Tables of the databases met so far: the names a model that memorised them writes on another database. */
  private readonly tablesSeen = new Set<string>();

  /**
   * `mistakeShare`: the share of episodes whose first query is a rehearsed mistake (a misspelled value, a
   * table or a column that does not exist; `rehearsedMistake`) before the gold query, so that SFT shows how
   * to recover from the environment's feedback; drawn with `mistakeSeed`.
   */
  constructor(
    private readonly dataset: SqlDataset,
    private readonly options: { answerWithSql?: boolean; stepBudget?: number; describeTables?: boolean; mistakeShare?: number; mistakeSeed?: number } = {},
  ) {
    this.mistakeRng = new Rng(options.mistakeSeed ?? 0);
  }

  async reset(obs: SqlObservation, info: Info): Promise<void> {
    this.plan = await goldPlan(this.dataset, String(info.question_id), obs.tables);
    // Keep two steps for the query and the answer.
    const describable = this.options.describeTables === false ? 0 : Math.max(0, (this.options.stepBudget ?? obs.budgetRemaining) - 2);
    const share = this.options.mistakeShare ?? 0;
    const mistake = share > 0 && this.mistakeRng.float() < share ? rehearsedMistake(this.plan.goldSql, obs.tables, [...this.tablesSeen], this.mistakeRng) : undefined;
    for (const t of obs.tables) this.tablesSeen.add(t);
    this.queue = [
      ...this.plan.tables.slice(0, describable).map((table) => ({ name: 'describe', arguments: { table_name: table } })),
      ...(mistake ? [{ name: 'query', arguments: { sql: mistake.sql }, mistake: true }] : []),
      { name: 'query', arguments: { sql: this.plan.goldSql } },
      { name: 'answer', arguments: { value: this.options.answerWithSql ? this.plan.goldSql : compactAnswer(this.plan.rows) } },
    ];
  }

  act(_obs: SqlObservation, _info: Info): ToolCall {
    const next = this.queue.shift();
    this.mistaken = next?.mistake === true;
    if (!next) return { name: 'answer', arguments: { value: compactAnswer(this.plan?.rows ?? []) } };
    return { name: next.name, arguments: next.arguments };
  }

  /** False right after a rehearsed mistake: SFT plays it for the feedback it gets but does not learn it. */
  demonstrates(): boolean {
    return !this.mistaken;
  }
}
