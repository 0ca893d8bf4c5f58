import type { Env } from '../../../src/gym/env.js';
import type { SqlErrorType } from '../actions/action-types.js';
import type { SqlObservation } from '../observation/sql-observation.js';
import type { SqlAction } from '../sql-env.js';
import type { SqlResetOptions } from '../sql-reset-options.js';
import type { SqlAgent } from './agent.js';

/** Options of {@link runEpisodes}. */
export interface RunEpisodesOptions {
  episodes: number;
  /** Episode `i` resets with seed `seed + i` (default 0). */
  seed?: number;
  /** Play these questions in turn instead of seeded random picks (episode `i` plays `questionIds[i % n]`). */
  questionIds?: readonly string[];
  /** Called after each episode (progress bars, logging). */
  onEpisode?: (episode: EpisodeRecord) => void;
}

/** One finished episode. */
export interface EpisodeRecord {
  questionId: string;
  return: number;
  steps: number;
  correct: boolean;
  truncated: boolean;
  /** The submitted answer (the `answer` call's value as JSON, whitespace collapsed); absent when the episode never answered. */
  answer?: string;
}

/**
 * The answer an action submits, as comparable text: the `value` of an `answer` call (JSON of
 * the value, whitespace collapsed), or the text of a string action. Majority votes group
 * episodes by it.
 *
 * @example
 * ```ts
 * submittedAnswer({ name: 'answer', arguments: { value: 'SELECT  1' } }); // '"SELECT 1"'
 * ```
 */
export function submittedAnswer(action: unknown): string {
  const value = action && typeof action === 'object' && 'arguments' in action
    ? ((action as { arguments?: { value?: unknown } }).arguments?.value ?? null)
    : action;
  const collapse = (t: string) => t.replace(/\s+/g, ' ').trim();
  if (typeof action === 'string') return collapse(action);
  return JSON.stringify(typeof value === 'string' ? collapse(value) : value);
}

/** Aggregate results, in the shape `sqlenv eval --json` prints. */
export interface EvaluationReport {
  agent: string;
  episodes: number;
  success_rate: number;
  mean_return: number;
  mean_steps: number;
  /** How many steps ended in each error type. */
  error_counts: Partial<Record<SqlErrorType, number>>;
  /** How many repairs the tolerant parser made, by kind. */
  repair_counts: Record<string, number>;
  records: EpisodeRecord[];
}

/**
 * Play `episodes` episodes of an agent and aggregate success rate, mean return, mean steps, and
 * error and repair counts. The env comes from `envFactory` (called once) and is closed at the end.
 *
 * @example
 * ```ts
 * const report = await runEpisodes(() => make('SQLEnv-v0'), new RandomAgent(0), { episodes: 20, seed: 0 });
 * console.log(report.success_rate, report.mean_return);
 * ```
 */
export async function runEpisodes(
  envFactory: () => Env<SqlObservation, SqlAction>,
  agent: SqlAgent,
  options: RunEpisodesOptions,
): Promise<EvaluationReport> {
  const env = envFactory();
  const records: EpisodeRecord[] = [];
  const errorCounts: Partial<Record<SqlErrorType, number>> = {};
  const repairCounts: Record<string, number> = {};
  try {
    for (let i = 0; i < options.episodes; i++) {
      const questionId = options.questionIds?.[i % options.questionIds.length];
      const resetOptions: SqlResetOptions = questionId === undefined ? {} : { questionId };
      let [obs, info] = await env.reset({ seed: (options.seed ?? 0) + i, options: resetOptions as Record<string, unknown> });
      const playing = String(info.question_id ?? questionId ?? '');
      await agent.reset(obs, info);
      let total = 0;
      let steps = 0;
      let terminated = false;
      let truncated = false;
      let answer: string | undefined;
      while (!terminated && !truncated) {
        const action = await agent.act(obs, info);
        let reward: number;
        [obs, reward, terminated, truncated, info] = await env.step(action);
        total += reward;
        steps++;
        if (info.tool === 'answer') answer = submittedAnswer(action);
        const errorType = info.error_type as SqlErrorType | null | undefined;
        if (errorType) errorCounts[errorType] = (errorCounts[errorType] ?? 0) + 1;
        for (const repair of (info.repairs as { kind: string }[] | undefined) ?? []) {
          repairCounts[repair.kind] = (repairCounts[repair.kind] ?? 0) + 1;
        }
      }
      const record: EpisodeRecord = { questionId: playing, return: total, steps, correct: info.is_correct === true, truncated, ...(answer === undefined ? {} : { answer }) };
      records.push(record);
      options.onEpisode?.(record);
    }
  } finally {
    await env.close();
  }
  const n = Math.max(1, records.length);
  return {
    agent: agent.name,
    episodes: records.length,
    success_rate: records.filter((r) => r.correct).length / n,
    mean_return: records.reduce((s, r) => s + r.return, 0) / n,
    mean_steps: records.reduce((s, r) => s + r.steps, 0) / n,
    error_counts: errorCounts,
    repair_counts: repairCounts,
    records,
  };
}
