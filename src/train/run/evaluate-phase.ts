/**
 * Held-out evaluation: the test splits (`env.evalSplits`) and validation splits
 * (`env.validationSplits`), greedy, with a metrics record and a trace of one episode per split,
 * each naming its decoding (guided ones with the unguided figure beside them);
 * after SFT and at the end also K samples per question at the rollout temperature (pass@1,
 * pass@K, majority vote) when `eval.samples` > 1; and a printed summary line.
 */
import { evaluatePolicy, evaluateSampled, outcomesOf, type EvaluationResult } from '../eval/evaluate-policy.js';
import { sharpeningHeadroom } from '../eval/pass-at-k.js';
import { decodingOf } from '../rollout/multi-turn-rollout.js';
import type { RunContext } from './run-context.js';
import type { SplitSuccess } from './run-types.js';
import { traceRecord } from './traces.js';

function pickEval(metrics: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(metrics)) {
    if (k.startsWith('outcomes/') || k.startsWith('tool_errors/') || k.startsWith('repairs/') || k.startsWith('reward_components/') || k === 'turns_mean' || k.startsWith('tools/')) out[k] = v;
  }
  return out;
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

/**
 * Greedy evaluations of the current weights by split, already played (SFT's early stopping plays
 * its kept epoch's validation): {@link evaluateSplits} takes one instead of playing the same
 * greedy episodes again when it covers the same number of questions.
 */
export type GreedyEvaluations = ReadonlyMap<string, EvaluationResult>;

/**
 * Evaluates the policy on `splits` (`eval.episodes` greedy episodes each, and with `sampled` the
 * pass@K evaluation of `eval.sampledQuestions` questions × `eval.samples`) and records the
 * results under `label`.
 *
 * @example
 * ```ts
 * const success = await evaluateSplits(run, 'grpo', step, run.config.env.validationSplits);
 * ```
 */
export async function evaluateSplits<Obs>(
  run: RunContext<Obs>,
  label: string,
  step: number,
  splits: readonly string[] = run.config.env.evalSplits,
  sampled = false,
  played: GreedyEvaluations = new Map(),
): Promise<SplitSuccess> {
  const cfg = run.config;
  const out: SplitSuccess = {};
  const decoding = decodingOf(run.task, cfg.rollout, 'evaluation');
  for (const split of splits) {
    const episodes = Math.min(cfg.eval.episodes, run.questionCount(split));
    // Greedy episodes of the first N questions are a function of the weights alone, so one
    // already played on the same questions is this evaluation.
    const known = played.get(split);
    const r = known?.episodes.length === episodes ? known : await evaluatePolicy(run.policy, run.task, run.pool(split), split, episodes, cfg.rollout, run.evaluationRng(`${label}/${step}/${split}/greedy`));
    const outcomes = outcomesOf(r.metrics);
    out[split] = { success: r.success, meanReturn: r.meanReturn, episodes, correct: r.episodes.map((e) => e.correct), decoding, ...(Object.keys(outcomes).length ? { outcomes } : {}) };
    const k = cfg.eval.samples;
    const record: Record<string, unknown> = { kind: 'eval', step, label, split, decoding, episodes, success: r.success, mean_return: r.meanReturn, ...pickEval(r.metrics) };
    if (decoding === 'guided') {
      // A guided figure is the guide's and the policy's together: the policy's own goes beside it.
      const u = await evaluatePolicy(run.policy, run.task, run.pool(split), split, episodes, { ...cfg.rollout, guidedDecoding: 'off' }, run.evaluationRng(`${label}/${step}/${split}/greedy-unguided`));
      out[split].unguided = { success: u.success, meanReturn: u.meanReturn, correct: u.episodes.map((e) => e.correct) };
      Object.assign(record, { unguided_success: u.success, unguided_mean_return: u.meanReturn });
    }
    if (sampled && k > 1) {
      // The sampled questions are the first of the greedy ones (capped at their count), so each has its greedy episode.
      const questions = Math.min(cfg.eval.sampledQuestions > 0 ? cfg.eval.sampledQuestions : cfg.eval.episodes, episodes);
      const s = await evaluateSampled(run.policy, run.task, run.pool(split), split, questions, k, cfg.rollout, run.evaluationRng(`${label}/${step}/${split}/sampled`));
      const h = sharpeningHeadroom(r.episodes.slice(0, questions).map((e) => e.correct), s.correctPerQuestion);
      out[split].sampled = { k, questions, passAt1: s.passAt1, passAtK: s.passAtK, majority: s.majority, greedy: h.greedyRight / questions, missedButSampled: h.missedButSampled, ceiling: h.ceiling };
      Object.assign(record, {
        samples: k, sampled_questions: questions, pass_at_1: s.passAt1, pass_at_k: s.passAtK, majority: s.majority,
        missed_but_sampled: h.missedButSampled, sharpening_ceiling: h.ceiling,
      });
    }
    await run.emit(record as Parameters<typeof run.emit>[0]);
    const first = r.episodes[0];
    if (first) await run.log.append(traceRecord(step, split, run.now(), { episode: first, reward: r.meanReturn === 0 && first.turns.length === 0 ? 0 : first.turns.reduce((a, t) => a + t.reward, 0) }));
  }
  run.print(`eval [${label}, ${decoding}] ` + Object.entries(out).map(([s, v]) => `${s}: success ${pct(v.success)}${v.unguided ? ` (unguided ${pct(v.unguided.success)})` : ''} return ${v.meanReturn.toFixed(3)}` +
    Object.entries(v.outcomes ?? {}).map(([o, x]) => ` ${o.replaceAll('_', ' ')} ${pct(x)}`).join('') +
    (v.sampled ? ` pass@1 ${pct(v.sampled.passAt1)} pass@${v.sampled.k} ${pct(v.sampled.passAtK)} vote ${pct(v.sampled.majority)}` : '')).join(' | '));
  return out;
}

/**
 * The evaluation phase at a milestone of the run (untrained, sft, final): the validation and
 * test splits, greedy; after SFT and at the end also sampled (pass@K). Keeps the result in the
 * run's summary.
 *
 * @example
 * ```ts
 * await evaluatePhase(run, 'untrained', 0);
 * ```
 */
export async function evaluatePhase<Obs>(run: RunContext<Obs>, label: string, step: number, played?: GreedyEvaluations): Promise<void> {
  const splits = [...run.config.env.validationSplits, ...run.config.env.evalSplits];
  if (splits.length > 0 && run.config.eval.episodes > 0) run.state.summary.evaluations[label] = await evaluateSplits(run, label, step, splits, label !== 'untrained', played);
}
