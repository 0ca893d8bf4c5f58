/**
 * SQLEnv episodes as the SQL guide reads them (observations, infos with their feedback, the policy's turns, the
 * transcript), sketched for tests: the observations' and responses' text rendered as SQLEnv and the SQL task render it.
 */
import type { Info } from '../../src/gym/env.js';
import { renderFeedback } from '../../envs/sql/feedback/render-feedback.js';
import type { SqlFeedback } from '../../envs/sql/feedback/sql-feedback.js';
import { renderObservation } from '../../envs/sql/observation/render-observation.js';
import type { SqlObservation } from '../../envs/sql/observation/sql-observation.js';
import type { SqlGuideContext } from '../../src/recipes/sql/guide/conversation.js';
import { renderSqlStepResult } from '../../src/recipes/sql/task/sql-task.js';

/** One step of a sketched episode: what the policy wrote, and what SQLEnv answered. */
export interface SketchStep {
  /** The policy's turn as it wrote it. */
  readonly turn: string;
  readonly tool?: string;
  /** The result text (a query's rows, a description; a failed step's error text where it has no feedback); feedback that is a hint is rendered after it. */
  readonly result?: string;
  /** Whether the step failed; its error text is the feedback's rendering. */
  readonly failed?: boolean;
  readonly feedback?: readonly SqlFeedback[];
}

/** The start of an episode: its question, tables and (with `listColumns`) each table's columns. */
export interface SketchStart {
  readonly question: string;
  readonly tables?: readonly string[];
  readonly columns?: readonly string[];
}

/** A query call as a policy writes it, closed: `<tool_call>…{"sql":"SQL"}}…</tool_call>`. */
export const queryTurn = (sql: string): string => `<tool_call>\n{"name": "query", "arguments": {"sql":"${sql}"}}\n</tool_call>`;

/**
 * The guide's context for an episode that started so and took these steps.
 *
 * @example
 * ```ts
 * sqlDecodingGuide(guideEpisode({ question: 'How many ports?', tables: ['port'] }, [{ turn: queryTurn('SELECT 1'), tool: 'query', result: '| 1 |' }]));
 * ```
 */
export function guideEpisode(start: SketchStart, steps: readonly SketchStep[] = []): SqlGuideContext {
  const budget = 10;
  const first: SqlObservation = {
    question: start.question,
    evidence: '',
    dbId: 'db',
    tables: [...(start.tables ?? [])],
    columns: [...(start.columns ?? [])],
    schema: '',
    result: '',
    error: '',
    step: 0,
    budgetRemaining: budget,
    history: [],
  };
  const observations: SqlObservation[] = [first];
  const infos: Info[] = [{}];
  const transcript = [renderObservation(first)];
  steps.forEach((step, i) => {
    const feedback = step.feedback ?? [];
    const rendered = feedback.map(renderFeedback);
    const obs: SqlObservation = {
      ...first,
      result: step.failed ? '' : [step.result ?? '', ...rendered].filter(Boolean).join('\n'),
      error: step.failed ? rendered.join('\n') || step.result || 'failed' : '',
      step: i + 1,
      budgetRemaining: budget - i - 1,
    };
    observations.push(obs);
    infos.push({ tool: step.tool ?? null, error_type: step.failed ? 'sql_error' : null, feedback });
    transcript.push(step.turn, renderSqlStepResult(obs));
  });
  return { observations, infos, turns: steps.map((s) => s.turn), transcript };
}
