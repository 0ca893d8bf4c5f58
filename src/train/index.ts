/**
 * The trainer: GRPO and its relatives for multi-turn tool-using agents — rollouts, advantage
 * estimators, clipped losses with KL, SFT warm-up, diagnostics, config, metrics, checkpoints
 * and the dashboard. See docs/train.md.
 */
export * from './math/advantages.js';
export * from './math/turn-advantages.js';
export * from './math/kl.js';
export * from './math/policy-loss.js';
export * from './optim/adamw.js';
export * from './optim/grad-clip.js';
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
export * from './rollout/rollout-task.js';
export * from './rollout/episode.js';
export * from './rollout/env-pool.js';
export * from './rollout/multi-turn-rollout.js';
export * from './sft/oracle-trajectories.js';
export * from './sft/sft-epoch.js';
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
export * from './tasks/sql-task.js';
export * from './tasks/sql-training-setup.js';
export * from './training-run.js';
