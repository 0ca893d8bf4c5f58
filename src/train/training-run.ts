/**
 * A complete training run, as a story: evaluate the untrained policy → format check → SFT
 * warm-up on scripted trajectories → format check and evaluation again → GRPO → final
 * evaluation. The run context (run/run-context.ts) carries what the phases share: metrics and
 * events, traces, checkpoints (and resume), the dashboard. `sqlenv train` and the bundled
 * example both call this.
 */
import { join } from 'node:path';
import { grpoTrainSplit, type TrainConfig } from './config/schema.js';
import { MetricsLog, type MetricRecord } from './metrics/metrics-log.js';
import { evaluatePhase } from './run/evaluate-phase.js';
import { formatCheckPhase } from './run/format-check-phase.js';
import { grpoPhase } from './run/grpo-phase.js';
import { RunContext } from './run/run-context.js';
import type { TrainingSetup, TrainingSummary } from './run/run-types.js';
import { sftPhase } from './run/sft-phase.js';

export type { SplitSuccess, TrainingSetup, TrainingSummary } from './run/run-types.js';

/** The credit assignment in words, for the run's first line. */
function creditLabel(cfg: TrainConfig): string {
  if (cfg.grpo.credit === 'episode') return 'episode-level credit';
  const baseline = cfg.grpo.turnBaseline === 'observations' ? ', same-observation baseline' : '';
  return `turn-level credit (γ ${cfg.grpo.turnDiscount}${baseline})`;
}

/**
 * Runs (or resumes) the configured training and returns its summary.
 *
 * @example
 * ```ts
 * const summary = await runTraining({ config, policy, task, makeEnv, questionCount, sftData });
 * ```
 */
export async function runTraining<Obs>(setup: TrainingSetup<Obs>): Promise<TrainingSummary> {
  const cfg = setup.config;
  const run = await RunContext.open(setup);
  const summary = run.state.summary;
  try {
    if (!run.resumed) {
      // Counting GRPO's questions here also fails a split without any before SFT spends its time, not after.
      const grpoSplit = cfg.mode !== 'sft' && cfg.grpo.steps > 0 ? ` on split ${grpoTrainSplit(cfg)} (${run.questionCount(grpoTrainSplit(cfg))} questions)` : '';
      await run.event(0, 'phase', `run ${cfg.runDir}: mode ${cfg.mode}, K = ${cfg.rollout.numGenerations}, ${cfg.rollout.questionsPerStep} questions/step, ${cfg.grpo.steps} GRPO steps${grpoSplit}, ${creditLabel(cfg)}`);
      if (cfg.eval.untrained) await evaluatePhase(run, 'untrained', 0);
      if (cfg.mode !== 'grpo') {
        const sftData = run.requireSftData();
        summary.formatCheck.before = await formatCheckPhase(run, 'before SFT');
        const sft = await sftPhase(run, sftData);
        summary.sftSteps = sft.steps;
        summary.formatCheck.after = await formatCheckPhase(run, 'after SFT');
        await evaluatePhase(run, 'sft', 0, sft.validation);
      }
      await run.checkpoint('sft_done', 0);
      await run.refreshDashboard(true);
    }
    if (cfg.mode !== 'sft' && cfg.grpo.steps > 0) await grpoPhase(run);
    await evaluatePhase(run, 'final', summary.grpoSteps);
    await run.refreshDashboard(false);
    return run.summary();
  } finally {
    await run.close();
  }
}

/**
 * Reads a run's metrics file (for reports and tests).
 *
 * @example
 * ```ts
 * (await readRunMetrics('runs/demo')).filter((r) => r.kind === 'train');
 * ```
 */
export async function readRunMetrics(runDir: string): Promise<MetricRecord[]> {
  return new MetricsLog(join(runDir, 'metrics.jsonl')).readAll();
}
