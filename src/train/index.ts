/**
 * `sqlenv/train`: GRPO and its relatives for multi-turn tool-using agents. The curated public
 * API, grouped by what a user does with it; docs/api.md lists every name (a test holds the two
 * equal). Internals (the run's phases, trace records, file helpers…) are imported by path inside
 * the project and are not promised.
 */

// Running training: a whole run, its setup and results, and the configured policy.
export { runTraining, readRunMetrics, type TrainingSetup, type TrainingSummary, type SplitSuccess } from './training-run.js';
export { createTrainablePolicy, resolveModelDir, ensureTinyModel, type ConfiguredPolicy } from './policy/create-policy.js';
export { TrainError } from './train-error.js';

// Configuration.
export { resolveTrainConfig, loadTrainConfig, parseConfigText, applyOverrides, TrainConfigError } from './config/load-config.js';
export { type ConfigSection } from './config/config-section.js';
export { type ConfigSchemaNode } from './config/schema-nodes.js';
export { TRAIN_CONFIG_SCHEMA, type TrainConfig, type TrainMode, type CreditAssignment, type TurnBaseline, type ZeroVarianceMode, type GrpoQuestionPool } from './config/schema.js';

// Connecting an environment and a model: the task, scripted agents, the policy interface.
export { type RolloutTask, type EpisodeSpec } from './rollout/rollout-task.js';
export { type DecodingGuide, type GuideContext } from './rollout/guide-context.js';
export { type ScriptedAgent, type SftSequence, agentTrajectory } from './sft/oracle-trajectories.js';
export { scriptedAgentData, type SftDataBuilder, type SftPlayer } from './sft/sft-data.js';
export {
  type TrainablePolicy,
  type ParameterValue,
  type TokenScores,
  type ChatCodec,
  type PolicyChatMessage,
  type PolicyTool,
  type GenerateRequest,
  type GenerateResult,
} from './policy/trainable-policy.js';
export { LmTrainablePolicy } from './policy/lm-policy-adapter.js';
export { TemplateChatCodec } from './policy/template-chat-codec.js';

// The loop's pieces, for custom loops: rollouts, one GRPO step and its phases, SFT, evaluation.
export { rolloutEpisodes, RolloutConfigError, SHAPING_POTENTIAL_INFO_KEY, decodingOf, type RolloutOptions, type EpisodeJob, type Decoding } from './rollout/multi-turn-rollout.js';
export { type Episode, type TurnRecord } from './rollout/episode.js';
export { EnvPool } from './rollout/env-pool.js';
export { VectorEnvSlots, VectorSlotsExhaustedError, type VectorEnvSlotsOptions } from './rollout/vector-env-slots.js';
export { grpoStep, type GrpoStepContext, type GrpoStepResult } from './grpo/grpo-step.js';
export { sampleGroups, type SamplingContext, type SampledGroups, type Group } from './grpo/sample-groups.js';
export { assignCredit, type EpisodeCredit, type ScoredEpisode } from './grpo/credit-assignment.js';
export { grpoUpdate, completionTokenBudget, type GrpoUpdateResult } from './grpo/grpo-update.js';
export { sftStep, type SftStepResult } from './sft/sft-epoch.js';
export { evaluatePolicy, type EvaluationResult } from './eval/evaluate-policy.js';
export { pairedChange, mcnemarExactP, type PairedChange } from './eval/paired-change.js';
export { resultsTable, percent, type ResultRow } from './eval/results-table.js';
export { trainingVerdict, splitChanges, SIGNIFICANCE, type SplitChange } from './eval/training-verdict.js';
export { headroomLine } from './eval/headroom-line.js';
export { trainingResultLine, type TrainingResultLine, type SplitOutcome, type SplitRole } from './eval/result-line.js';

// The math: advantages, losses, KL — pure functions with their exact derivatives.
export {
  computeAdvantages,
  episodeReward,
  isZeroVarianceGroup,
  AdvantageInputError,
  type AdvantageEstimator,
  type AdvantageOptions,
  type AdvantageScale,
  type StdKind,
  type EpisodeRewardMode,
} from './math/advantages.js';
export { turnAdvantages, type TurnCreditOptions } from './math/turn-advantages.js';
export { policyLoss, sftLoss, PolicyLossInputError, type LossSequence, type PolicyLossOptions, type PolicyLossMetrics, type PolicyLossResult, type LossAggregation, type ImportanceLevel } from './math/policy-loss.js';
export { klEstimate, type KlEstimator } from './math/kl.js';
export {
  samplerCorrectionWeights,
  type SamplerCorrection,
  type SamplerCorrectionLevel,
  type SamplerCorrectionOptions,
  type SamplerCorrectionResult,
  type SamplerCorrectionMetrics,
  type SamplerSequence,
} from './math/sampler-correction.js';

// Optimisation.
export type { PolicyOptimizer, AdamWOptions, AdamWState, OptimizerStepReport } from './optim/policy-optimizer.js';
export { learningRateAt, type LrScheduleOptions, type LrDecay } from './optim/lr-schedule.js';

// Diagnostics.
export { AlarmMonitor, type AlarmKind, type AlarmThresholds, type AlarmStepInput, type TrainingAlarm } from './diagnostics/alarms.js';
export { expectedDeadGroupRate, smallGroupWarning } from './diagnostics/dead-groups.js';
export { checkToolCallFormat, type FormatCheckResult } from './diagnostics/format-check.js';
export { estimateTrainingMemory, formatBytes, type MemoryEstimate, type MemoryEstimateInput } from './diagnostics/memory-estimate.js';
export { formatDuration } from './metrics/progress-line.js';

// Metrics, checkpoints and the dashboard.
export { MetricsLog, parseMetrics, type MetricRecord } from './metrics/metrics-log.js';
export { METRIC_FIELDS, isDocumentedMetric, type MetricField, type MetricRecordKind } from './metrics/metric-fields.js';
export { CheckpointStore, CheckpointError, type CheckpointData, type CheckpointTensor } from './checkpoint/checkpoint-store.js';
export { writeDashboard, type DashboardPageOptions } from './dashboard/dashboard-page.js';
export { DashboardServer } from './dashboard/dashboard-server.js';
