/**
 * Held-out evaluation: every configured eval split, with a metrics record and a trace of one
 * episode per split, and a printed summary line.
 */
import { evaluatePolicy } from '../eval/evaluate-policy.js';
import type { RunContext } from './run-context.js';
import type { SplitSuccess } from './run-types.js';
import { traceRecord } from './traces.js';

function pickEval(metrics: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(metrics)) {
    if (k.startsWith('tool_errors/') || k.startsWith('repairs/') || k.startsWith('reward_components/') || k === 'turns_mean' || k.startsWith('tools/')) out[k] = v;
  }
  return out;
}

/**
 * Evaluates the policy on every `env.evalSplits` split (`eval.episodes` episodes each) and
 * records the results under `label`.
 *
 * @example
 * ```ts
 * const success = await evaluateSplits(run, 'grpo', step);
 * ```
 */
export async function evaluateSplits<Obs>(run: RunContext<Obs>, label: string, step: number): Promise<SplitSuccess> {
  const cfg = run.config;
  const out: SplitSuccess = {};
  for (const split of cfg.env.evalSplits) {
    const episodes = Math.min(cfg.eval.episodes, run.questionCount(split));
    const r = await evaluatePolicy(run.policy, run.task, run.pool(split), split, episodes, cfg.rollout, run.rng);
    out[split] = { success: r.success, meanReturn: r.meanReturn, episodes };
    await run.emit({ kind: 'eval', step, label, split, episodes, success: r.success, mean_return: r.meanReturn, ...pickEval(r.metrics) });
    const first = r.episodes[0];
    if (first) await run.log.append(traceRecord(step, split, run.now(), { episode: first, reward: r.meanReturn === 0 && first.turns.length === 0 ? 0 : first.turns.reduce((a, t) => a + t.reward, 0) }));
  }
  run.print(`eval [${label}] ` + Object.entries(out).map(([s, v]) => `${s}: success ${(v.success * 100).toFixed(1)}% return ${v.meanReturn.toFixed(3)}`).join(' | '));
  return out;
}

/**
 * The evaluation phase at a milestone of the run (untrained, sft, final): evaluates when eval
 * splits and episodes are configured, and keeps the result in the run's summary.
 *
 * @example
 * ```ts
 * await evaluatePhase(run, 'untrained', 0);
 * ```
 */
export async function evaluatePhase<Obs>(run: RunContext<Obs>, label: string, step: number): Promise<void> {
  if (run.config.env.evalSplits.length > 0 && run.config.eval.episodes > 0) run.state.summary.evaluations[label] = await evaluateSplits(run, label, step);
}
