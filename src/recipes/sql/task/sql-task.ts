/**
 * The rollout task for SQLEnv: the system prompt, the four tools, and how SQLEnv observations
 * become the first user message and the tool responses. The recipe's description of SQLEnv to the
 * trainer, as the trainer's own `RolloutTask` type.
 */
import type { Info } from '../../../gym/env.js';
import { renderObservation } from '../../../../envs/sql/observation/render-observation.js';
import type { SqlObservation } from '../../../../envs/sql/observation/sql-observation.js';
import { SQL_TOOLS } from '../../../../envs/sql/tools/registry.js';
import { SQL_MALFORMED_CALL_ERRORS } from '../../../../envs/sql/actions/action-types.js';
import type { PolicyTool } from '../../../train/policy/trainable-policy.js';
import type { RolloutTask } from '../../../train/rollout/rollout-task.js';
import { sqlDecodingGuide } from '../guide/sql-decoding-guide.js';

/** The system prompt of SQLEnv episodes. */
export const SQL_SYSTEM_PROMPT =
  'You answer questions about a SQLite database. Explore it with the tools: describe a table, sample rows, ' +
  'run read-only SQL queries, then call answer with the final value. Call exactly one tool per turn.';

/**
 * Tool-response text: the last result or error, and the remaining budget (the question is not repeated).
 *
 * @example
 * ```ts
 * renderSqlStepResult(obs); // '| COUNT(*) |\n…\n(8 steps left)'
 * ```
 */
export function renderSqlStepResult(obs: SqlObservation): string {
  const body = obs.error ? `Error: ${obs.error}` : obs.result || '(no output)';
  return `${body}\n(${obs.budgetRemaining} step${obs.budgetRemaining === 1 ? '' : 's'} left)`;
}

/**
 * A short system prompt that lists the tools as signatures, e.g. `describe(table_name)`, and
 * shows the call format once: about a tenth of the tokens of the full JSON Schemas.
 */
export function compactSystemPrompt(tools: readonly PolicyTool[]): string {
  const signatures = tools.map((t) => `${t.name}(${Object.keys((t.parameters['properties'] ?? {}) as object).join(', ')})`);
  return `${SQL_SYSTEM_PROMPT}\nTools: ${signatures.join(', ')}.\nFormat: <tool_call>{"name": "describe", "arguments": {"table_name": "t"}}</tool_call>`;
}

/**
 * A tool with only its argument names and types and the first sentence of its description:
 * the same calls are valid, at a fraction of the prompt tokens.
 */
export function compactTool(tool: { name: string; description: string; parameters: unknown }): PolicyTool {
  const schema = tool.parameters as { properties?: Record<string, { type?: unknown }>; required?: string[] };
  const properties: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema.properties ?? {})) properties[k] = { type: v.type ?? 'string' };
  const sentence = tool.description.split('. ')[0]!.replace(/\.$/, '');
  return { name: tool.name, description: sentence, parameters: { type: 'object', properties, required: schema.required ?? [] } };
}

/**
 * The SQLEnv rollout task. `questionIds(split)` (a split's question ids in the order the run
 * visits them; `createSqlTrainingSetup` uses a fixed shuffle, see `representativeOrder`) makes
 * episode i of that split play question i, so groups and evaluations are reproducible.
 *
 * @example
 * ```ts
 * const dataset = await loadDataset('bundled', 'train');
 * const task = sqlRolloutTask(() => dataset.questions.map((q) => q.id));
 * ```
 */
export function sqlRolloutTask(questionIds: (split: string) => readonly string[], options: { compactTools?: boolean } = {}): RolloutTask<SqlObservation> {
  const tools: PolicyTool[] = SQL_TOOLS.map((t) => (options.compactTools ? compactTool(t) : { name: t.name, description: t.description, parameters: t.parameters as Record<string, unknown> }));
  const compact = options.compactTools === true;
  return {
    systemPrompt: compact ? compactSystemPrompt(tools) : SQL_SYSTEM_PROMPT,
    tools,
    toolsInPrompt: !compact,
    renderInitial: (obs) => renderObservation(obs),
    renderStepResult: (obs) => renderSqlStepResult(obs),
    questionOf: (obs) => obs.question,
    decodingGuide: sqlDecodingGuide,
    malformedCallErrors: SQL_MALFORMED_CALL_ERRORS,
    episodeSpec: (index, split) => {
      const ids = questionIds(split);
      return { seed: index, options: { questionId: ids[index % ids.length]! } };
    },
    outcomes: (info) => sqlOutcomes(info),
  };
}

/**
 * What a finished SQLEnv episode achieved besides success, from its last `info`:
 * `found_gold_result`: a query of the episode returned the gold result (`info.gold_result_seen`);
 * `answer_repeats_query`: the answer was the SQL of the episode's latest query
 * (`info.answer_repeats_query`) — with the former, whether an answer after the gold query kept it;
 * `gold_literals_written`: a query wrote every literal value of the gold SQL (`info.gold_literals_written`),
 * i.e. copied the question's names, dates and numbers right; `retried_after_failure`: a query followed one that
 * failed or found nothing (`info.retried_after_failure`), and `recovered_after_failure`: such a query returned the
 * gold result (`info.recovered_after_failure`) — whether the agent tries again after the environment's feedback, and
 * whether trying again works.
 *
 * @example
 * ```ts
 * sqlOutcomes({ gold_result_seen: true }).found_gold_result; // true
 * ```
 */
export function sqlOutcomes(info: Info): Record<SqlOutcome, boolean> {
  return {
    found_gold_result: info['gold_result_seen'] === true,
    answer_repeats_query: info['answer_repeats_query'] === true,
    gold_literals_written: info['gold_literals_written'] === true,
    retried_after_failure: info['retried_after_failure'] === true,
    recovered_after_failure: info['recovered_after_failure'] === true,
  };
}

/** The outcomes {@link sqlOutcomes} reports. */
export type SqlOutcome = 'found_gold_result' | 'answer_repeats_query' | 'gold_literals_written' | 'retried_after_failure' | 'recovered_after_failure';
