/** The format check: how many of the policy's tool calls parse with exactly the schema's arguments. */
import { checkToolCallFormat, type FormatCheckResult } from '../diagnostics/format-check.js';
import { evaluatePolicy } from '../eval/evaluate-policy.js';
import type { RunContext } from './run-context.js';

/**
 * Plays `sft.formatCheckSamples` train-split episodes and records the share of well-formed tool calls.
 *
 * @example
 * ```ts
 * run.state.summary.formatCheck.before = await formatCheckPhase(run, 'before SFT');
 * ```
 */
export async function formatCheckPhase<Obs>(run: RunContext<Obs>, label: string): Promise<FormatCheckResult> {
  const cfg = run.config;
  const split = cfg.env.trainSplit;
  const n = Math.min(cfg.sft.formatCheckSamples, run.questionCount(split));
  const r = await evaluatePolicy(run.policy, run.task, run.pool(split), split, n, cfg.rollout, run.evaluationRng(`format-check/${label}`));
  const result = checkToolCallFormat(r.episodes.flatMap((e) => e.turns.map((t) => t.text)), run.task.tools);
  await run.event(0, 'format_check', `format check (${label}): ${(result.share * 100).toFixed(1)}% of tool calls parse with exactly the schema's arguments (${result.exact}/${result.calls + result.turnsWithoutCall}; ${result.turnsWithoutCall} turns without a call)`, result.share);
  return result;
}
