/**
 * The GRPO phase: from the step after the last checkpoint to `grpo.steps`, each step sampled,
 * credited and applied by `grpoStep`, then recorded (metrics, alarms, traces, progress),
 * evaluated every `eval.everySteps` and checkpointed every `checkpoint.everySteps`.
 */
import { ALARM_EVENT_PREFIX, AlarmMonitor, alarmInputOf } from '../diagnostics/alarms.js';
import { smallGroupWarning } from '../diagnostics/dead-groups.js';
import { evaluatePolicy } from '../eval/evaluate-policy.js';
import { grpoStep, type GrpoStepContext, type GrpoStepResult } from '../grpo/grpo-step.js';
import { formatProgress } from '../metrics/progress-line.js';
import { learningRateAt } from '../optim/lr-schedule.js';
import { TrainError } from '../train-error.js';
import { grpoTrainSplit, type TrainConfig } from '../config/schema.js';
import { evaluateSplits } from './evaluate-phase.js';
import type { RunContext } from './run-context.js';
import { sftQuestionCount } from './sft-phase.js';
import { traceRecord, tracePicks } from './traces.js';

/**
 * Prepares GRPO after the warm-up: fresh optimizer moments, the KL reference, and the
 * small-group warning (with a quick estimate of the current success rate when K < 4).
 *
 * @example
 * ```ts
 * if (run.state.phase === 'sft_done') await startGrpo(run);
 * ```
 */
export async function startGrpo<Obs>(run: RunContext<Obs>): Promise<void> {
  const cfg = run.config;
  await run.resetOptimizer();
  if (cfg.grpo.loss.beta > 0) await run.freezeReference();
  const k = cfg.rollout.numGenerations;
  let p: number | undefined;
  if (k < 4 && cfg.eval.baselineEpisodes > 0) {
    const split = grpoTrainSplit(cfg);
    const n = Math.min(cfg.eval.baselineEpisodes, run.questionCount(split));
    p = (await evaluatePolicy(run.policy, run.task, run.pool(split), split, n, { ...cfg.rollout }, run.evaluationRng('grpo-start/baseline'))).success;
  }
  const warning = smallGroupWarning(k, p);
  if (warning) await run.event(0, 'small_group_warning', warning, p);
}

/** Records a step: metrics, summary, NaN skips, alarms, traces and the progress line. */
async function recordStep<Obs>(run: RunContext<Obs>, step: number, r: GrpoStepResult, seconds: number, alarms: AlarmMonitor, progress: { started: number; stepsThisProcess: number }): Promise<void> {
  const cfg = run.config;
  const m: Record<string, number> = { ...r.metrics, tokens_per_second: r.tokens / Math.max(seconds, 1e-3), step_seconds: seconds };
  await run.emit({ kind: 'train', step, ...m });
  const summary = run.state.summary;
  summary.firstReward ??= m['reward'];
  summary.lastReward = m['reward'];
  summary.grpoSteps = step;
  if (r.skippedBecause.length) await run.event(step, 'nan_skip', `GRPO step ${step}: update skipped, non-finite ${r.skippedBecause.slice(0, 3).join(', ')} (loss or gradients). Lower the learning rate or check the rewards.`);
  for (const a of alarms.observe(alarmInputOf(step, m, run.config.rollout.questionsPerStep))) {
    await run.event(step, `${ALARM_EVENT_PREFIX}${a.kind}`, `ALARM [${a.kind}] step ${step}: ${a.message}`);
  }
  for (const s of tracePicks(r.episodes, cfg.logging.tracesPerStep)) await run.log.append(traceRecord(step, grpoTrainSplit(cfg), run.now(), s));
  if (cfg.logging.progress) {
    run.print(formatProgress({ phase: 'grpo', step, totalSteps: cfg.grpo.steps, reward: m['reward'], success: m['success'], tokensPerSecond: m.tokens_per_second, elapsedMs: Date.now() - progress.started, stepsThisProcess: progress.stepsThisProcess }) +
      ` | zero-std ${((m['frac_reward_zero_std'] ?? 0) * 100).toFixed(0)}% | kl ${(m['kl'] ?? 0).toFixed(4)}`);
  }
}

/**
 * The first train-question index GRPO samples: 0, or under `grpo.questions: 'beyond_sft'` the
 * number SFT's oracle trajectories cover, so GRPO meets questions as new as the held-out ones.
 *
 * @example
 * ```ts
 * grpoFirstQuestion(config, 2950); // 1200 with sft.questions 1200 and grpo.questions 'beyond_sft'
 * ```
 */
export function grpoFirstQuestion(cfg: TrainConfig, questionCount: number): number {
  if (cfg.grpo.questions === 'all') return 0;
  const first = sftQuestionCount(cfg, questionCount);
  if (first >= questionCount) {
    throw new TrainError(
      `grpo.questions 'beyond_sft' leaves GRPO no question: the train split "${cfg.env.trainSplit}" has ${questionCount} (after the setup's question filters) and SFT covers the first ${first}. ` +
        `Set sft.questions below ${questionCount}, or grpo.questions 'all'.`,
    );
  }
  return first;
}

/**
 * The splits of the held-out curve: `eval.curveSplits`, else the validation splits, else the test
 * splits (the test splits stay for the milestones when there are validation splits).
 *
 * @example
 * ```ts
 * curveSplits(config); // ['validation'] with eval.curveSplits ['validation']
 * ```
 */
export function curveSplits(cfg: TrainConfig): string[] {
  if (cfg.eval.curveSplits.length > 0) return cfg.eval.curveSplits;
  return cfg.env.validationSplits.length > 0 ? cfg.env.validationSplits : cfg.env.evalSplits;
}

/**
 * Runs the GRPO steps that remain (all of them, or those after a resumed checkpoint).
 *
 * @example
 * ```ts
 * if (config.mode !== 'sft' && config.grpo.steps > 0) await grpoPhase(run);
 * ```
 */
export async function grpoPhase<Obs>(run: RunContext<Obs>): Promise<void> {
  const cfg = run.config;
  if (run.state.phase === 'sft_done') await startGrpo(run);
  else {
    run.print(`resumed from checkpoint at GRPO step ${run.state.grpoStep}`);
    await run.emit({ kind: 'event', step: run.state.grpoStep, event: 'resumed', message: `resumed from checkpoint at GRPO step ${run.state.grpoStep}` });
  }
  const alarms = new AlarmMonitor({
    rewardFlatSteps: cfg.alarms.rewardFlatSteps,
    zeroStdFraction: cfg.alarms.zeroStdFraction,
    identicalGroupFraction: cfg.alarms.identicalGroupFraction,
    alarmGroups: cfg.alarms.alarmGroups,
    toolErrorRise: cfg.alarms.toolErrorRise,
    klMax: cfg.alarms.klMax,
  });
  const split = grpoTrainSplit(cfg);
  const questionCount = run.questionCount(split);
  const firstQuestion = grpoFirstQuestion(cfg, questionCount);
  const ctx: GrpoStepContext<Obs> = { policy: run.policy, task: run.task, pool: run.pool(split), questionCount, firstQuestion, config: cfg, optimizer: run.optimizer, rng: run.rng };
  const progress = { started: Date.now(), stepsThisProcess: 0 };
  for (let step = run.state.grpoStep + 1; step <= cfg.grpo.steps; step++) {
    const t0 = Date.now();
    const lr = learningRateAt(step - 1, { lr: cfg.optim.lr, warmupSteps: cfg.optim.warmupSteps, totalSteps: cfg.grpo.steps, decay: cfg.optim.decay });
    const r = await grpoStep(ctx, lr);
    progress.stepsThisProcess++;
    await recordStep(run, step, r, (Date.now() - t0) / 1000, alarms, progress);
    const isLast = step === cfg.grpo.steps;
    if (cfg.eval.everySteps > 0 && step % cfg.eval.everySteps === 0 && !isLast) await evaluateSplits(run, 'grpo', step, curveSplits(cfg));
    if ((cfg.checkpoint.everySteps > 0 && step % cfg.checkpoint.everySteps === 0) || isLast) await run.checkpoint('grpo', step);
    await run.refreshDashboard(true);
  }
}
