/**
 * Guided decoding from the trainer's side: a task's guide is made, for each turn of each episode, from the episode so
 * far as data — its observations and infos, what the policy wrote, the tools — and returns the row's per-token guide
 * for the turn. The guide never reads prompt text decoded back from tokens, nor text another module wrote for a model
 * to parse back: an environment's feedback reaches it as the data in its infos.
 */
import type { Info } from '../../gym/env.js';
import type { NextTokenGuide } from '../../lm/compute/decoding-guide.js';
import type { PolicyTool } from '../policy/trainable-policy.js';

/** One episode up to the turn being generated, as a task's decoding guide sees it. */
export interface GuideContext<Obs> {
  /** The observation of reset, then the one after each step so far. */
  readonly observations: readonly Obs[];
  /** The info of reset, then the one of each step so far (index i goes with `observations[i]`). */
  readonly infos: readonly Info[];
  /** What the policy wrote in each turn so far (turn i led to `observations[i + 1]`), as decoded from its tokens. */
  readonly turns: readonly string[];
  /**
   * The conversation's messages from the first user message on, as the task rendered them and the policy wrote them
   * (no system prompt, no chat-template markers): what the policy has been shown, for guides that favour copies of it.
   */
  readonly transcript: readonly string[];
  /** The tools the task offers. */
  readonly tools: readonly PolicyTool[];
}

/**
 * A task's decoding guide: the per-token guide of one turn, made once from the episode so far.
 *
 * @example
 * ```ts
 * // Inside a single-quoted literal, favour continuing a word the policy has been shown.
 * const guide: DecodingGuide<string> = (context) => {
 *   const shown = context.transcript.join('\n');
 *   return (text) => ((text.split("'").length - 1) % 2 === 1 ? { bias: 4, favours: (t) => shown.includes(text.slice(text.lastIndexOf("'") + 1) + t) } : undefined);
 * };
 * ```
 */
export type DecodingGuide<Obs> = (context: GuideContext<Obs>) => NextTokenGuide;
