/**
 * The trainer: GRPO and its relatives for multi-turn tool-using agents — rollouts, advantage
 * estimators, clipped losses with KL, SFT warm-up, diagnostics, config, metrics, checkpoints
 * and the dashboard. See docs/train.md.
 */
export * from './math/advantages.js';
export * from './math/turn-advantages.js';
export * from './math/kl.js';
export * from './math/policy-loss.js';
export * from './optim/policy-optimizer.js';
export * from './optim/lr-schedule.js';
export * from './diagnostics/alarms.js';
export * from './diagnostics/dead-groups.js';
export * from './diagnostics/finite-guard.js';
export * from './diagnostics/format-check.js';
export * from './diagnostics/memory-estimate.js';
export * from './config/schema.js';
export * from './config/load-config.js';
export * from './config/did-you-mean.js';
export * from './policy/trainable-policy.js';
export * from './policy/template-chat-codec.js';
export * from './policy/lm-policy-adapter.js';
export * from './policy/create-policy.js';
export * from './rollout/rollout-task.js';
export * from './rollout/episode.js';
export * from './rollout/env-pool.js';
export * from './rollout/multi-turn-rollout.js';
export * from './sft/oracle-trajectories.js';
export * from './sft/sft-epoch.js';
export * from './grpo/sample-groups.js';
export * from './grpo/credit-assignment.js';
export * from './grpo/step-metrics.js';
export * from './grpo/grpo-update.js';
export * from './grpo/grpo-step.js';
export * from './grpo/policy-update.js';
export * from './eval/evaluate-policy.js';
export * from './metrics/metric-fields.js';
export * from './metrics/metrics-log.js';
export * from './metrics/episode-metrics.js';
export * from './metrics/progress-line.js';
export * from './checkpoint/checkpoint-store.js';
export * from './checkpoint/durable-fs.js';
export * from './dashboard/line-chart-svg.js';
export * from './dashboard/chart-specs.js';
export * from './dashboard/dashboard-page.js';
export * from './dashboard/dashboard-server.js';
export * from './run/run-context.js';
export * from './run/evaluate-phase.js';
export * from './run/format-check-phase.js';
export * from './run/sft-phase.js';
export * from './run/grpo-phase.js';
export * from './run/traces.js';
export * from './training-run.js';
export * from './train-error.js';
