/**
 * Multi-turn rollouts: every episode alternates model text → tool-call parsing → env.step →
 * tool response appended through the chat template, until the env ends the episode, the turn
 * budget is used or the token limit is reached. Generation is batched across all episodes that
 * are still running.
 */
import type { Env, Info } from '../../gym/env.js';
import type { Rng } from '../../base/rng.js';
import { parseAssistantReply } from '../../lm/tool-calls.js';
import type { GenerationCache, TrainablePolicy } from '../policy/trainable-policy.js';
import type { Episode, TurnRecord } from './episode.js';
import { isMalformedCall, openingMessages, promptToolsOf, resetOptionsOf, type EpisodeSpec, type RolloutTask } from './rollout-task.js';
import { TrainError } from '../train-error.js';
import type { DecodingGuide, GuideContext } from './guide-context.js';

/** Limits and sampling settings of a rollout. */
export interface RolloutOptions {
  maxTurns: number;
  maxNewTokensPerTurn: number;
  maxTotalTokens: number;
  temperature: number;
  topP: number;
  /** Continue each episode's previous turn from its cache (default true); see `rollout.continueTurns`. */
  continueTurns?: boolean;
  /** When the task's decoding guide nudges the policy (default 'off'); see `rollout.guidedDecoding`. */
  guidedDecoding?: GuidedDecoding;
}

/** When a task's decoding guide applies: never, in evaluation episodes only, or in GRPO's rollouts too. */
export type GuidedDecoding = 'off' | 'evaluation' | 'always';

/**
 * The task's decoding guide where `options.guidedDecoding` applies it to episodes of this purpose, else undefined.
 *
 * @example
 * ```ts
 * guideOf(task, { ...rollout, guidedDecoding: 'evaluation' }, 'training'); // undefined: GRPO's rollouts stay unguided
 * ```
 */
export function guideOf<Obs>(task: RolloutTask<Obs>, options: Pick<RolloutOptions, 'guidedDecoding'>, purpose: 'training' | 'evaluation'): DecodingGuide<Obs> | undefined {
  const guidance = options.guidedDecoding ?? 'off';
  return guidance === 'always' || (guidance === 'evaluation' && purpose === 'evaluation') ? task.decodingGuide : undefined;
}

/** The decoding that produced a result: the policy's own tokens, or tokens nudged by the task's decoding guide. */
export type Decoding = 'unguided' | 'guided';

/**
 * Which decoding episodes of this purpose get under `options.guidedDecoding`: 'guided' only where
 * the task has a guide and the option applies it (see {@link guideOf}).
 *
 * @example
 * ```ts
 * decodingOf(task, { guidedDecoding: 'off' }, 'evaluation'); // 'unguided'
 * ```
 */
export function decodingOf<Obs>(task: RolloutTask<Obs>, options: Pick<RolloutOptions, 'guidedDecoding'>, purpose: 'training' | 'evaluation'): Decoding {
  return guideOf(task, options, purpose) ? 'guided' : 'unguided';
}

/** One episode to run: the env instance it owns for the duration and where to start it. */
export interface EpisodeJob<Obs> {
  env: Env<Obs, unknown>;
  spec: EpisodeSpec;
  group: number;
}

interface Running<Obs> {
  job: EpisodeJob<Obs>;
  episode: Episode;
  lastObs: Obs;
  lastInfo: Info;
  done: boolean;
  /** The previous turn's cache, which this turn's prompt continues. */
  cache?: GenerationCache;
  /** The episode so far as a decoding guide reads it (kept only when the task's guide applies). */
  guideContext?: { observations: Obs[]; infos: Info[]; turns: string[]; transcript: string[] };
}

const RESULT_TEXT_LIMIT = 600;

/**
 * The `info` key under which an env may report the shaping it has paid and would take back if the
 * episode ended now (potential-based shaping: the potential of the current state, in reward units).
 * When the trainer cuts an episode the env has not ended (`maxTurns` below the env's own budget,
 * the token limit, an env error), it subtracts the last reported value from the last turn's reward,
 * so shaping sums to zero over every episode, cut or not. Envs without shaping leave it out (0).
 */
export const SHAPING_POTENTIAL_INFO_KEY = 'shaping_potential';

/** The reward component under which a cut episode's settled shaping is recorded (`reward_components/shaping_settled`). */
export const SHAPING_SETTLED_COMPONENT = 'shaping_settled';

/**
 * The shaping an env reported as not yet settled in `info` ({@link SHAPING_POTENTIAL_INFO_KEY}), 0 when absent.
 *
 * @example
 * ```ts
 * unsettledShapingOf({ shaping_potential: 0.09 }); // 0.09
 * unsettledShapingOf({}); // 0
 * ```
 */
export function unsettledShapingOf(info: Info): number {
  const v = info[SHAPING_POTENTIAL_INFO_KEY];
  return typeof v === 'number' && Number.isFinite(v) ? v : 0;
}

/** Thrown when rollout limits make episodes impossible (e.g. the prompt alone exceeds the token limit). */
export class RolloutConfigError extends TrainError {
  constructor(message: string) {
    super(message);
    this.name = 'RolloutConfigError';
  }
}

function numberRecord(value: unknown): Record<string, number> {
  const out: Record<string, number> = {};
  if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) if (typeof v === 'number' && Number.isFinite(v)) out[k] = v;
  }
  return out;
}

function repairKinds(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value.map((r) => (r && typeof r === 'object' && 'kind' in r ? String((r as { kind: unknown }).kind) : String(r)));
}

/** The env action of one model turn, read by {@link actionFromText}. */
export interface TurnAction {
  /** The first tool call as `{ name, arguments }`, else the reply text without its thinking. */
  action: unknown;
  /** Whether the reply held a readable tool call (outside the thinking). */
  parsed: boolean;
  /** Tool-call blocks after the executed one (further calls and unreadable blocks): not run. */
  extraCalls: number;
}

/** Repair kind recorded on a turn whose extra tool calls were dropped (SQLEnv's own name for it). */
export const EXTRA_CALLS_REPAIR = 'extra_tool_calls_ignored';

/**
 * The env action for a model turn, read with the shared {@link parseAssistantReply}: the first
 * tool call written outside the `<think>` block, else the text with the thinking cut out (envs
 * with text actions read it). Calls written inside the thinking are plans and are never run.
 * Only one call is run per turn; `extraCalls` says how many more the turn held.
 *
 * @example
 * ```ts
 * actionFromText('<tool_call>{"name": "answer", "arguments": {"value": "a"}}</tool_call>');
 * // → { action: { name: 'answer', arguments: { value: 'a' } }, parsed: true, extraCalls: 0 }
 * ```
 */
export function actionFromText(text: string): TurnAction {
  const reply = parseAssistantReply(text);
  const first = reply.toolCalls[0];
  if (first) return { action: { name: first.name, arguments: first.arguments }, parsed: true, extraCalls: reply.toolCalls.length - 1 + reply.failures.length };
  return { action: reply.withoutThinking, parsed: false, extraCalls: 0 };
}

/**
 * The line put before the tool response when a turn held more than one call, so the model
 * learns that the extra calls were not run.
 *
 * @example
 * ```ts
 * extraCallsNotice(2); // 'Only the first tool call was run; 2 extra calls were ignored. Call exactly one tool per turn.'
 * ```
 */
export function extraCallsNotice(extraCalls: number): string {
  return `Only the first tool call was run; ${extraCalls} extra call${extraCalls === 1 ? ' was' : 's were'} ignored. Call exactly one tool per turn.`;
}

/**
 * Runs the given episodes to completion with batched generation and returns them in job order.
 * `purpose` decides, with `options.guidedDecoding`, whether the task's decoding guide applies.
 *
 * @example
 * ```ts
 * const episodes = await rolloutEpisodes(policy, task, jobs, { maxTurns: 6, maxNewTokensPerTurn: 96, maxTotalTokens: 1024, temperature: 1, topP: 1 }, rng);
 * ```
 */
export async function rolloutEpisodes<Obs>(
  policy: TrainablePolicy,
  task: RolloutTask<Obs>,
  jobs: readonly EpisodeJob<Obs>[],
  options: RolloutOptions,
  rng: Rng,
  purpose: 'training' | 'evaluation' = 'training',
): Promise<Episode[]> {
  const codec = policy.codec;
  const continueTurns = (options.continueTurns ?? true) && options.maxTurns > 1;
  const guide = guideOf(task, options, purpose);
  const running: Running<Obs>[] = [];
  for (const job of jobs) {
    const [obs, info] = await job.env.reset(resetOptionsOf(job.spec));
    const opening = openingMessages(task, obs, info);
    const prompt = codec.encodeStart(opening, promptToolsOf(task));
    if (prompt.length + 1 >= options.maxTotalTokens) {
      throw new RolloutConfigError(
        `the prompt alone has ${prompt.length} tokens but rollout.maxTotalTokens is ${options.maxTotalTokens}: ` +
          "raise rollout.maxTotalTokens, or shorten the task's prompt (a recipe's compact tool descriptions, e.g. sql.compactTools).",
      );
    }
    running.push({
      job,
      lastObs: obs,
      lastInfo: info,
      done: false,
      ...(guide ? { guideContext: { observations: [obs], infos: [info], turns: [], transcript: [opening.at(-1)!.content] } } : {}),
      episode: {
        group: job.group,
        question: task.questionOf(obs, info),
        tokens: [...prompt],
        mask: prompt.map(() => 0),
        samplingLogprobs: prompt.map(() => 0),
        promptLength: prompt.length,
        turns: [],
        rewardComponents: {},
        finished: false,
        truncatedByTokens: false,
        correct: false,
        generatedTokens: 0,
      },
    });
  }

  for (;;) {
    const active = running.filter((r) => !r.done);
    if (active.length === 0) break;
    const results = await policy.generate(
      active.map((r) => ({
        prompt: r.episode.tokens,
        maxNewTokens: Math.max(1, Math.min(options.maxNewTokensPerTurn, options.maxTotalTokens - r.episode.tokens.length)),
        temperature: options.temperature,
        topP: options.topP,
        ...(guide && r.guideContext ? { guide: guide({ ...r.guideContext, tools: task.tools } satisfies GuideContext<Obs>) } : {}),
        // The last turn the budget allows keeps no cache: no turn would continue it.
        ...(continueTurns ? { keepCache: r.episode.turns.length + 1 < options.maxTurns, ...(r.cache ? { continueFrom: r.cache } : {}) } : {}),
      })),
      rng,
    );
    active.forEach((r, i) => {
      const cache = results[i]!.cache;
      if (cache) r.cache = cache;
      else delete r.cache;
    });
    const replies = active.map((r, i) => {
      const out = results[i]!;
      const text = codec.decode(out.tokens);
      return { out, text, ...actionFromText(text) };
    });
    // Every episode's step of this turn is submitted at once: remote envs and the SQL query pool
    // overlap their latency, and a vector env's slots (VectorEnvSlots) go out as one vector step.
    // Results are then handled in episode order, so runs stay reproducible.
    const steps = await Promise.allSettled(active.map(async (r, i) => r.job.env.step(replies[i]!.action)));
    for (let i = 0; i < active.length; i++) {
      const r = active[i]!;
      const { out, text, action, parsed, extraCalls } = replies[i]!;
      const ep = r.episode;
      const tokenSpan = [ep.tokens.length, ep.tokens.length + out.tokens.length] as const;
      ep.tokens.push(...out.tokens);
      ep.mask.push(...out.tokens.map(() => 1));
      // A backend that reports no per-token log-probs leaves the episode without sampling log-probs.
      if (out.logprobs.length === out.tokens.length) ep.samplingLogprobs?.push(...out.logprobs);
      else delete ep.samplingLogprobs;
      ep.generatedTokens += out.tokens.length;
      const extra = extraCalls > 0 ? { extraCallsIgnored: extraCalls } : {};
      const extraRepairs = extraCalls > 0 ? [EXTRA_CALLS_REPAIR] : [];
      let turn: TurnRecord;
      let ended = false;
      const stepped = steps[i]!;
      try {
        if (stepped.status === 'rejected') throw stepped.reason;
        const [obs, reward, terminated, truncated, info] = stepped.value;
        r.lastObs = obs;
        r.lastInfo = info;
        if (r.guideContext) {
          r.guideContext.turns.push(text);
          r.guideContext.transcript.push(text);
          r.guideContext.observations.push(obs);
          r.guideContext.infos.push(info);
        }
        for (const [k, v] of Object.entries(numberRecord(info['reward_components']))) ep.rewardComponents[k] = (ep.rewardComponents[k] ?? 0) + v;
        const rendered = task.renderStepResult(obs, info);
        const resultText = extraCalls > 0 ? `${extraCallsNotice(extraCalls)}\n${rendered}` : rendered;
        turn = {
          text,
          tokenSpan,
          action: typeof action === 'string' ? action : JSON.stringify(action),
          result: resultText.length > RESULT_TEXT_LIMIT ? resultText.slice(0, RESULT_TEXT_LIMIT) + '…' : resultText,
          reward,
          repairs: [...repairKinds(info['repairs']), ...extraRepairs],
          parsedToolCall: parsed,
          malformedCall: isMalformedCall(task, parsed, info['error_type']),
          ...extra,
          ...(typeof info['error_type'] === 'string' ? { errorType: info['error_type'] } : {}),
        };
        if (terminated || truncated) {
          ended = true;
          ep.finished = true;
          ep.correct = info['is_correct'] === true;
          const outcomes = task.outcomes?.(info);
          if (outcomes) ep.outcomes = outcomes;
        } else if (ep.turns.length + 1 >= options.maxTurns) {
          ended = true;
        } else {
          const response = codec.encodeToolResponses([resultText], out.finishReason === 'stop');
          if (ep.tokens.length + response.length >= options.maxTotalTokens) {
            ended = true;
            ep.truncatedByTokens = true;
          } else {
            ep.tokens.push(...response);
            r.guideContext?.transcript.push(resultText);
            ep.mask.push(...response.map(() => 0));
            ep.samplingLogprobs?.push(...response.map(() => 0));
          }
        }
      } catch (err) {
        // An env that throws on an action ends the episode; the failure is recorded, not fatal.
        turn = { text, tokenSpan, action: typeof action === 'string' ? action : JSON.stringify(action), result: String((err as Error).message ?? err), reward: 0, errorType: 'env_exception', repairs: extraRepairs, parsedToolCall: parsed, malformedCall: false, ...extra };
        ended = true;
      }
      ep.turns.push(turn);
      if (!ended && out.finishReason === 'length' && ep.tokens.length >= options.maxTotalTokens) {
        ended = true;
        ep.truncatedByTokens = true;
      }
      // Cut before the env ended it: take back the shaping the env would have taken back at its end
      // (r.lastInfo is this step's info, or the previous one when the step threw).
      const unsettled = ended && !ep.finished ? unsettledShapingOf(r.lastInfo) : 0;
      if (unsettled !== 0) {
        turn.reward -= unsettled;
        ep.rewardComponents[SHAPING_SETTLED_COMPONENT] = -unsettled;
      }
      r.done = ended;
      if (ended) delete r.cache; // the memory goes with the episode
    }
  }
  return running.map((r) => r.episode);
}
