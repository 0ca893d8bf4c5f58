/**
 * One multi-turn episode as the trainer stores it: a single token sequence (prompt, then
 * alternating assistant turns and tool responses) with a loss mask that is 1 only on tokens the
 * model generated, plus what the env reported at every step.
 */

/** One assistant turn and the env's answer to it. */
export interface TurnRecord {
  /** The text the model generated this turn. */
  text: string;
  /** Where the turn's generated tokens lie in `Episode.tokens`: [start, end). */
  tokenSpan: readonly [start: number, end: number];
  /** The action passed to env.step, as JSON-ish text for traces. */
  action: string;
  /** The tool-response text the model saw next (or the final observation). */
  result: string;
  reward: number;
  /** info.error_type of the step, when the step failed. */
  errorType?: string;
  /** Kinds of tolerant-parsing repairs (info.repairs[].kind). */
  repairs: string[];
  /** Whether the text held a `<tool_call>` block that parsed into a call. */
  parsedToolCall: boolean;
  /**
   * The step failed because the call was malformed (`RolloutTask.malformedCallErrors`, or a failure
   * of a turn without a parsable call block), not because a well-formed call could not be carried out.
   */
  malformedCall: boolean;
  /**
   * Tool-call blocks the turn held after the one that was run (one call per turn); absent when
   * none. The tool response said so, and `repairs` lists `extra_tool_calls_ignored` once.
   */
  extraCallsIgnored?: number;
}

/** A finished episode. */
export interface Episode {
  /** Index of the group (question) this episode belongs to within its batch. */
  group: number;
  question: string;
  /** Prompt + all turns + tool responses. */
  tokens: number[];
  /** 1 on generated tokens (trained on), 0 on prompt and tool-response tokens. */
  mask: number[];
  /**
   * log q(token) of every generated token under the distribution it was sampled from (the rollout
   * temperature T, a decoding guide's biases, top-p renormalisation), 0 on prompt and tool-response
   * tokens; aligned with `tokens`. When the policy sampled itself they are π_old's log-probs (at
   * μ = 1 the update then needs no scoring pass); otherwise the update weighs each token by π_old/q
   * (`grpo.loss.samplerCorrection`). Absent when the backend reported none.
   */
  samplingLogprobs?: number[];
  promptLength: number;
  turns: TurnRecord[];
  /** Sum of info.reward_components per component over the episode. */
  rewardComponents: Record<string, number>;
  /** The env said the episode is over (answer given or step budget used). */
  finished: boolean;
  /** Cut off by the token limit (rollout.maxTotalTokens). */
  truncatedByTokens: boolean;
  /** info.is_correct at the end (false when absent). */
  correct: boolean;
  /** The task's yes/no facts about the finished episode (`RolloutTask.outcomes`); absent when it has none or the episode did not finish. */
  outcomes?: Record<string, boolean>;
  /** Generated tokens (mask = 1). */
  generatedTokens: number;
}

/**
 * Step rewards of an episode, in order.
 *
 * @example
 * ```ts
 * episodeReward(stepRewardsOf(episode), 'sum');
 * ```
 */
export function stepRewardsOf(episode: Episode): number[] {
  return episode.turns.map((t) => t.reward);
}

/**
 * Spreads per-turn advantages over an episode's tokens: every token a turn generated carries
 * that turn's advantage; prompt and tool-response tokens carry 0 (they are masked out anyway).
 *
 * @example
 * ```ts
 * tokenAdvantages(episode, [0.4, -1.2]); // Float64Array of episode.tokens.length
 * ```
 */
export function tokenAdvantages(episode: Episode, turnAdvantages: readonly number[]): Float64Array {
  if (turnAdvantages.length !== episode.turns.length) {
    throw new RangeError(`episode has ${episode.turns.length} turns but ${turnAdvantages.length} turn advantages were given`);
  }
  const out = new Float64Array(episode.tokens.length);
  episode.turns.forEach((turn, i) => out.fill(turnAdvantages[i]!, turn.tokenSpan[0], turn.tokenSpan[1]));
  return out;
}

/**
 * All assistant texts of an episode joined: used to detect identical completions within a group.
 *
 * @example
 * ```ts
 * new Set(group.map(completionText)).size === 1; // the K completions were identical
 * ```
 */
export function completionText(episode: Episode): string {
  return episode.turns.map((t) => t.text).join('\u241e');
}
