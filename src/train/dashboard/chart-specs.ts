/**
 * Which charts the dashboard shows and how they are derived from metrics records. Like
 * `lineChartSvg`, `dashboardCharts` is self-contained so the page can embed its source and
 * recompute the charts from freshly fetched metrics in the browser.
 */
import type { ChartSpec } from './line-chart-svg.js';

/** A metrics record as the charts read it (a parsed metrics.jsonl line). */
export type DashboardRecord = Record<string, unknown>;

/**
 * The key charts of a run, keyed by a file-friendly id: reward with components, train vs
 * held-out success (guided evaluations with their unguided figure), the task's outcomes (train and held-out),
 * frac_reward_zero_std, KL, entropy, the sampler's gap to the policy, tool errors by type, SFT loss.
 *
 * @example
 * ```ts
 * dashboardCharts([{ kind: 'train', step: 1, time: 0, reward: 0.2 }]).reward.series[0].points; // [[1, 0.2]]
 * ```
 */
export function dashboardCharts(records: DashboardRecord[]): Record<string, ChartSpec> {
  const train = records.filter((r) => r.kind === 'train');
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
  const line = (rows: DashboardRecord[], field: string, name?: string) => ({
    name: name ?? field,
    points: rows.flatMap((r) => {
      const y = num(r[field]);
      const x = num(r.step);
      return y === undefined || x === undefined ? [] : [[x, y] as [number, number]];
    }),
  });
  const prefixed = (prefix: string) => {
    const names = new Set<string>();
    for (const r of train) for (const k of Object.keys(r)) if (k.startsWith(prefix)) names.add(k);
    return [...names].sort().map((k) => line(train, k, k.slice(prefix.length)));
  };
  // The untrained evaluation is also at step 0; the curve starts from the SFT checkpoint.
  const evalRows = records.filter((r) => r.kind === 'eval' && typeof r.split === 'string' && r.label !== 'untrained');
  const splits = [...new Set(evalRows.map((r) => String(r.split)))].sort();
  return {
    reward: { title: 'Reward (mean episode reward and components)', xLabel: 'GRPO step', series: [line(train, 'reward', 'total'), ...prefixed('reward_components/')] },
    success: {
      title: 'Success: train rollouts vs held-out',
      xLabel: 'GRPO step',
      yMin: 0,
      yMax: 1,
      series: [
        line(train, 'success', 'train (sampled)'),
        ...splits.map((s) => line(evalRows.filter((r) => r.split === s), 'success', `${s} (greedy${evalRows.some((r) => r.split === s && r['decoding'] === 'guided') ? ', guided' : ''})`)),
        ...splits.filter((s) => evalRows.some((r) => r.split === s && typeof r['unguided_success'] === 'number'))
          .map((s) => line(evalRows.filter((r) => r.split === s), 'unguided_success', `${s} (greedy, unguided)`)),
        ...splits.filter((s) => evalRows.some((r) => r.split === s && typeof r['pass_at_k'] === 'number'))
          .map((s) => line(evalRows.filter((r) => r.split === s), 'pass_at_k', `${s} pass@K (sampled)`)),
      ],
    },
    outcomes: {
      title: "Outcomes besides success (the task's yes/no facts; SQLEnv: a query found the gold result)",
      xLabel: 'GRPO step',
      yMin: 0,
      yMax: 1,
      series: [
        ...prefixed('outcomes/').map((l) => ({ ...l, name: `train ${l.name} (sampled)` })),
        ...splits.flatMap((s) => {
          const rows = evalRows.filter((r) => r.split === s);
          const names = [...new Set(rows.flatMap((r) => Object.keys(r).filter((k) => k.startsWith('outcomes/'))))].sort();
          return names.map((k) => line(rows, k, `${s} ${k.slice('outcomes/'.length)} (greedy)`));
        }),
      ],
    },
    zero_std: { title: 'frac_reward_zero_std (groups with no signal)', xLabel: 'GRPO step', yMin: 0, yMax: 1, series: [line(train, 'frac_reward_zero_std'), line(train, 'frac_identical_groups')] },
    kl: { title: 'KL to reference', xLabel: 'GRPO step', series: [line(train, 'kl')] },
    entropy: { title: 'Entropy (nats/token)', xLabel: 'GRPO step', series: [line(train, 'entropy')] },
    sampler: {
      title: "Sampler vs policy: |log π − log q| over trained tokens, and the share the cap corrected",
      xLabel: 'GRPO step',
      series: [
        line(train, 'sampling/sampling_logp_difference/mean', 'mean |log π − log q|'),
        line(train, 'sampling/sampling_logp_difference/max', 'max |log π − log q|'),
        line(train, 'sampling/corrected_share', 'share truncated or masked'),
      ],
    },
    tool_errors: { title: 'Tool errors per episode, by type', xLabel: 'GRPO step', series: prefixed('tool_errors/') },
    tool_calls: {
      title: 'Share of tool calls that failed, and that were malformed (what tool_errors_rising watches)',
      xLabel: 'GRPO step',
      yMin: 0,
      yMax: 1,
      series: [line(train, 'tools/failure_frequency', 'failed'), line(train, 'tools/malformed_frequency', 'malformed')],
    },
    sft_loss: { title: 'SFT loss', xLabel: 'SFT step', series: [line(records.filter((r) => r.kind === 'sft'), 'loss', 'token NLL')] },
  };
}
