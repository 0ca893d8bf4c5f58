/**
 * Multi-turn rollouts: every episode alternates model text → tool-call parsing → env.step →
 * tool response appended through the chat template, until the env ends the episode, the turn
 * budget is used or the token limit is reached. Generation is batched across all episodes that
 * are still running.
 */
import type { Env, Info } from '../../gym/env.js';
import type { Rng } from '../../gym/rng.js';
import { extractToolCalls } from '../../text/tool-calls.js';
import type { TrainablePolicy } from '../policy/trainable-policy.js';
import type { Episode, TurnRecord } from './episode.js';
import { promptToolsOf, resetOptionsOf, type EpisodeSpec, type RolloutTask } from './rollout-task.js';

/** Limits and sampling settings of a rollout. */
export interface RolloutOptions {
  maxTurns: number;
  maxNewTokensPerTurn: number;
  maxTotalTokens: number;
  temperature: number;
  topP: number;
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
}

const RESULT_TEXT_LIMIT = 600;

/** Thrown when rollout limits make episodes impossible (e.g. the prompt alone exceeds the token limit). */
export class RolloutConfigError extends Error {
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

/** The env action for a model turn: the first parsed tool call, else the raw text (envs with text actions read it). */
export function actionFromText(text: string): { action: unknown; parsed: boolean } {
  const calls = extractToolCalls(text);
  const first = calls.find((c) => c.call !== undefined);
  if (first?.call) return { action: { name: first.call.name, arguments: first.call.arguments }, parsed: true };
  return { action: text, parsed: false };
}

/**
 * Runs the given episodes to completion with batched generation and returns them in job order.
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
): Promise<Episode[]> {
  const codec = policy.codec;
  const running: Running<Obs>[] = [];
  for (const job of jobs) {
    const [obs, info] = await job.env.reset(resetOptionsOf(job.spec));
    const prompt = codec.encodeStart(
      [
        { role: 'system', content: task.systemPrompt },
        { role: 'user', content: task.renderInitial(obs, info) },
      ],
      promptToolsOf(task),
    );
    if (prompt.length + 1 >= options.maxTotalTokens) {
      throw new RolloutConfigError(
        `the prompt alone has ${prompt.length} tokens but rollout.maxTotalTokens is ${options.maxTotalTokens}: ` +
          'raise rollout.maxTotalTokens, or shorten the prompt (env.compactTools: true for small models).',
      );
    }
    running.push({
      job,
      lastObs: obs,
      lastInfo: info,
      done: false,
      episode: {
        group: job.group,
        question: task.questionOf(obs, info),
        tokens: [...prompt],
        mask: prompt.map(() => 0),
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
      })),
      rng,
    );
    for (let i = 0; i < active.length; i++) {
      const r = active[i]!;
      const out = results[i]!;
      const ep = r.episode;
      ep.tokens.push(...out.tokens);
      ep.mask.push(...out.tokens.map(() => 1));
      ep.generatedTokens += out.tokens.length;
      const text = codec.decode(out.tokens);
      const { action, parsed } = actionFromText(text);
      let turn: TurnRecord;
      let ended = false;
      try {
        const [obs, reward, terminated, truncated, info] = await r.job.env.step(action);
        r.lastObs = obs;
        r.lastInfo = info;
        for (const [k, v] of Object.entries(numberRecord(info['reward_components']))) ep.rewardComponents[k] = (ep.rewardComponents[k] ?? 0) + v;
        const resultText = task.renderStepResult(obs, info);
        turn = {
          text,
          action: typeof action === 'string' ? action : JSON.stringify(action),
          result: resultText.length > RESULT_TEXT_LIMIT ? resultText.slice(0, RESULT_TEXT_LIMIT) + '…' : resultText,
          reward,
          repairs: repairKinds(info['repairs']),
          parsedToolCall: parsed,
          ...(typeof info['error_type'] === 'string' ? { errorType: info['error_type'] } : {}),
        };
        if (terminated || truncated) {
          ended = true;
          ep.finished = true;
          ep.correct = info['is_correct'] === true;
        } else if (ep.turns.length + 1 >= options.maxTurns) {
          ended = true;
        } else {
          const response = codec.encodeToolResponses([resultText], out.finishReason === 'stop');
          if (ep.tokens.length + response.length >= options.maxTotalTokens) {
            ended = true;
            ep.truncatedByTokens = true;
          } else {
            ep.tokens.push(...response);
            ep.mask.push(...response.map(() => 0));
          }
        }
      } catch (err) {
        // An env that throws on an action ends the episode; the failure is recorded, not fatal.
        turn = { text, action: String(action), result: String((err as Error).message ?? err), reward: 0, errorType: 'env_exception', repairs: [], parsedToolCall: parsed };
        ended = true;
      }
      ep.turns.push(turn);
      if (!ended && out.finishReason === 'length' && ep.tokens.length >= options.maxTotalTokens) {
        ended = true;
        ep.truncatedByTokens = true;
      }
      r.done = ended;
    }
  }
  return running.map((r) => r.episode);
}
