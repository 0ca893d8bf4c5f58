import type { Info } from '../../../src/gym/env.js';
import type { ToolCall } from '../../../src/gym/spaces/tool-call.js';
import type { SqlDataset } from '../datasets/sql-dataset.js';
import type { SqlObservation } from '../observation/sql-observation.js';
import type { SqlAgent } from './agent.js';
import { compactAnswer } from './compact-answer.js';
import { goldPlan, type GoldPlan } from './gold-lookup.js';

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
  private queue: ToolCall[] = [];

  constructor(
    private readonly dataset: SqlDataset,
    private readonly options: { answerWithSql?: boolean; stepBudget?: number; describeTables?: boolean } = {},
  ) {}

  async reset(obs: SqlObservation, info: Info): Promise<void> {
    this.plan = await goldPlan(this.dataset, String(info.question_id), obs.tables);
    // Keep two steps for the query and the answer.
    const describable = this.options.describeTables === false ? 0 : Math.max(0, (this.options.stepBudget ?? obs.budgetRemaining) - 2);
    this.queue = [
      ...this.plan.tables.slice(0, describable).map((table) => ({ name: 'describe', arguments: { table_name: table } })),
      { name: 'query', arguments: { sql: this.plan.goldSql } },
      { name: 'answer', arguments: { value: this.options.answerWithSql ? this.plan.goldSql : compactAnswer(this.plan.rows) } },
    ];
  }

  act(_obs: SqlObservation, _info: Info): ToolCall {
    return this.queue.shift() ?? { name: 'answer', arguments: { value: compactAnswer(this.plan?.rows ?? []) } };
  }
}
