/**
 * Per-step statistics of a batch of episodes, under the field names documented in
 * `metric-fields.ts`.
 */
import { isZeroVarianceGroup, mean, standardDeviation } from '../math/advantages.js';
import { completionText, type Episode } from '../rollout/episode.js';

/**
 * Reward, success, the task's outcomes (share of episodes where each is true), reward components (mean and std), per-turn rewards, completion lengths, tool-call
 * frequency, failures (all, malformed calls, by error type) and repairs by kind for a set of episodes.
 *
 * @example
 * ```ts
 * const stats = episodeMetrics(episodes, episodes.map((e) => episodeReward(stepRewardsOf(e), 'sum')));
 * stats['tools/failure_frequency'];
 * ```
 */
export function episodeMetrics(episodes: readonly Episode[], rewards: readonly number[]): Record<string, number> {
  const n = Math.max(1, episodes.length);
  const out: Record<string, number> = {
    reward: mean([...rewards]),
    reward_std: standardDeviation([...rewards], 'population'),
    success: episodes.filter((e) => e.correct).length / n,
  };
  const outcomes = new Map<string, number>();
  for (const e of episodes) for (const [k, v] of Object.entries(e.outcomes ?? {})) outcomes.set(k, (outcomes.get(k) ?? 0) + (v ? 1 : 0));
  // An episode that never finished counts as "no" for every outcome, as it does for success.
  for (const [k, v] of outcomes) out[`outcomes/${k}`] = v / n;
  const components = new Map<string, number>();
  const turnRewards = new Map<number, number[]>();
  const errors = new Map<string, number>();
  const repairs = new Map<string, number>();
  let calls = 0, failures = 0, malformed = 0, turns = 0;
  for (const e of episodes) {
    for (const [k, v] of Object.entries(e.rewardComponents)) components.set(k, (components.get(k) ?? 0) + v);
    e.turns.forEach((t, i) => {
      turns++;
      const list = turnRewards.get(i + 1) ?? [];
      list.push(t.reward);
      turnRewards.set(i + 1, list);
      calls++;
      const type = t.errorType ?? (t.parsedToolCall ? undefined : 'no_tool_call');
      if (t.errorType !== undefined) failures++;
      if (t.malformedCall) malformed++;
      if (type !== undefined) errors.set(type, (errors.get(type) ?? 0) + 1);
      for (const r of t.repairs) repairs.set(r, (repairs.get(r) ?? 0) + 1);
    });
  }
  for (const [k, v] of components) {
    out[`reward_components/${k}`] = v / n;
    // Spread of the component over episodes (an episode without it counts 0, as in the mean).
    out[`reward_components_std/${k}`] = standardDeviation(episodes.map((e) => e.rewardComponents[k] ?? 0), 'population');
  }
  for (const [t, list] of turnRewards) out[`turn_reward/${t}`] = mean(list);
  for (const [k, v] of errors) out[`tool_errors/${k}`] = v / n;
  for (const [k, v] of repairs) out[`repairs/${k}`] = v / n;
  const lengths = episodes.map((e) => e.generatedTokens);
  out['completions/mean_length'] = mean(lengths);
  out['completions/min_length'] = lengths.length ? Math.min(...lengths) : 0;
  out['completions/max_length'] = lengths.length ? Math.max(...lengths) : 0;
  out['completions/clipped_ratio'] = episodes.filter((e) => e.truncatedByTokens).length / n;
  out['turns_mean'] = turns / n;
  out['tools/call_frequency'] = calls / n;
  out['tools/failure_frequency'] = calls > 0 ? failures / calls : 0;
  out['tools/malformed_frequency'] = calls > 0 ? malformed / calls : 0;
  return out;
}

/**
 * Group-level signal statistics: the share of groups with all-equal rewards and the share
 * whose completions were all the same text.
 *
 * @example
 * ```ts
 * groupMetrics([[a1, a2], [b1, b2]], [[0, 0], [0, 1]])['frac_reward_zero_std']; // 0.5
 * ```
 */
export function groupMetrics(groups: readonly (readonly Episode[])[], rewards: readonly (readonly number[])[]): Record<string, number> {
  const n = Math.max(1, groups.length);
  const zero = rewards.filter((g) => isZeroVarianceGroup(g)).length;
  const identical = groups.filter((g) => g.length > 1 && new Set(g.map(completionText)).size === 1).length;
  return { frac_reward_zero_std: zero / n, frac_identical_groups: identical / n };
}
