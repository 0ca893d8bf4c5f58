/**
 * How the trainer talks to an environment: the system prompt and tools shown to the model, and
 * how observations become the user message and the tool-response text. Any `Env` can be
 * trained on by supplying one of these; SQLEnv's lives in the SQL recipe, `src/recipes/sql/task/sql-task.ts`.
 */
import type { ResetOptions } from '../../gym/env.js';
import type { Info } from '../../gym/env.js';
import type { PolicyChatMessage, PolicyTool } from '../policy/trainable-policy.js';
import type { DecodingGuide } from './guide-context.js';

/** Which episode to start: the env reset arguments (same seed/options → same question). */
export interface EpisodeSpec {
  seed: number;
  options?: Record<string, unknown>;
}

/**
 * The text interface between a policy and an env whose actions are tool calls.
 *
 * @example
 * ```ts
 * const task: RolloutTask<string> = {
 *   systemPrompt: 'Answer with a tool call.',
 *   tools: [{ name: 'answer', description: 'final answer', parameters: { type: 'object', properties: { value: { type: 'string' } }, required: ['value'] } }],
 *   renderInitial: (obs) => obs,
 *   renderStepResult: (obs) => obs,
 *   questionOf: (obs) => obs,
 * };
 * ```
 */
export interface RolloutTask<Obs> {
  /** The system message; empty: the prompt has no system message (only the user message and the tools). */
  systemPrompt: string;
  tools: PolicyTool[];
  /**
   * Whether the chat template renders `tools` into the prompt (default true). Tasks that
   * describe their tools in the system prompt themselves (to save tokens) set false; `tools`
   * is still what the format check validates against.
   */
  toolsInPrompt?: boolean;
  /** The first user message, from the reset observation. */
  renderInitial(obs: Obs, info: Info): string;
  /** The tool-response text shown after a step. */
  renderStepResult(obs: Obs, info: Info): string;
  /** Short question text for traces and the dashboard. */
  questionOf(obs: Obs, info: Info): string;
  /** Reset arguments for the i-th question of a split (default `{ seed: i }`). */
  episodeSpec?(index: number, split: string): EpisodeSpec;
  /**
   * Yes/no facts about a finished episode, read from the final step's info, averaged into the
   * `outcomes/<name>` metrics: what the agent achieved besides success (SQLEnv: whether a query
   * found the gold result, which shows answers that threw a found result away).
   */
  outcomes?(info: Info): Record<string, boolean>;
  /** Nudges the policy's next token, made each turn from the episode so far (`rollout.guidedDecoding` says when; SQLEnv: copies from the conversation). */
  decodingGuide?: DecodingGuide<Obs>;
  /**
   * The `info.error_type` values that mean the call itself was malformed (SQLEnv: `parse_error`,
   * `unknown_tool`, `missing_argument`, `invalid_argument`), as opposed to a well-formed call the
   * env could not carry out (a query that failed, a table that does not exist). Only malformed calls
   * count towards `tools/malformed_frequency` and the `tool_errors_rising` alarm: on databases the
   * policy has never seen most queries fail, as many as the step's questions make them, while its
   * calls stay well formed. Without it, a failed step counts as malformed only when its text held no
   * parsable tool-call block.
   */
  malformedCallErrors?: readonly string[];
}

/**
 * The tools to hand to the chat template for a task.
 *
 * @example
 * ```ts
 * codec.encodeStart(messages, promptToolsOf(task));
 * ```
 */
export function promptToolsOf<Obs>(task: RolloutTask<Obs>): PolicyTool[] {
  return task.toolsInPrompt === false ? [] : task.tools;
}

/**
 * Reset options from an episode spec.
 *
 * @example
 * ```ts
 * await env.reset(resetOptionsOf({ seed: 3, options: { questionId: 'q3' } }));
 * ```
 */
export function resetOptionsOf(spec: EpisodeSpec): ResetOptions {
  return spec.options ? { seed: spec.seed, options: spec.options } : { seed: spec.seed };
}

/**
 * The opening messages of an episode: the task's system prompt (none when it is empty) and the
 * first user message rendered from the reset observation.
 *
 * @example
 * ```ts
 * codec.encodeStart(openingMessages(task, obs, info), promptToolsOf(task));
 * ```
 */
export function openingMessages<Obs>(task: RolloutTask<Obs>, obs: Obs, info: Info): PolicyChatMessage[] {
  const user: PolicyChatMessage = { role: 'user', content: task.renderInitial(obs, info) };
  return task.systemPrompt ? [{ role: 'system', content: task.systemPrompt }, user] : [user];
}

/**
 * Whether a step failed because the call was malformed: its error type is one of the task's
 * `malformedCallErrors`, or (for a task that lists none) the turn held no parsable call block.
 *
 * @example
 * ```ts
 * isMalformedCall({ malformedCallErrors: ['parse_error'] }, true, 'sql_error'); // false: a well-formed query that failed
 * ```
 */
export function isMalformedCall(task: Pick<RolloutTask<unknown>, 'malformedCallErrors'>, parsedToolCall: boolean, errorType: unknown): boolean {
  if (typeof errorType !== 'string') return false;
  return task.malformedCallErrors ? task.malformedCallErrors.includes(errorType) : !parsedToolCall;
}
