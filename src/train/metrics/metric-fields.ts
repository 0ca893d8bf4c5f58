/**
 * The documented fields of `metrics.jsonl`. Every record the trainer writes uses only these
 * names (a test enforces it), and docs/train.md's field table is generated from this list.
 * A `*` in a name stands for a dynamic part (an error type, a reward component, a split…).
 */

/** One documented metrics field. */
export interface MetricField {
  name: string;
  /** Record types (`kind`) that carry the field. */
  kinds: readonly MetricRecordKind[];
  description: string;
}

/** Kinds of records in metrics.jsonl. */
export type MetricRecordKind = 'train' | 'sft' | 'eval' | 'trace' | 'event';

/**
 * All documented fields.
 *
 * @example
 * ```ts
 * METRIC_FIELDS.find((f) => f.name === 'frac_reward_zero_std')?.description;
 * ```
 */
export const METRIC_FIELDS: readonly MetricField[] = [
  { name: 'kind', kinds: ['train', 'sft', 'eval', 'trace', 'event'], description: 'Record type: train (one GRPO step), sft (one SFT step), eval (held-out evaluation), trace (one episode), event (warnings, alarms, skipped steps, format check).' },
  { name: 'step', kinds: ['train', 'sft', 'eval', 'trace', 'event'], description: 'Optimizer step the record belongs to (GRPO steps count from 1; SFT steps separately).' },
  { name: 'time', kinds: ['train', 'sft', 'eval', 'trace', 'event'], description: 'Seconds since the run started (resumed runs continue the clock).' },
  { name: 'reward', kinds: ['train'], description: 'Mean episode reward (per `grpo.rewardMode`) over all episodes of the step.' },
  { name: 'reward_std', kinds: ['train'], description: 'Standard deviation of episode rewards over the step.' },
  { name: 'reward_components/*', kinds: ['train', 'eval'], description: "Mean per-episode sum of each reward component reported by the env in info.reward_components (SQLEnv: operational, progress, correctness)." },
  { name: 'reward_components_std/*', kinds: ['train'], description: "Population standard deviation over the step's episodes of each reward component's per-episode sum (TRL's rewards/<name>/std)." },
  { name: 'turn_reward/*', kinds: ['train'], description: 'Mean reward of the n-th turn (1-based) over episodes that reached it: per-turn rewards.' },
  { name: 'outcomes/*', kinds: ['train', 'eval'], description: "Share of episodes for which each of the task's yes/no outcomes is true (RolloutTask.outcomes; SQLEnv: found_gold_result, a query returned the gold result, answered or not: outcomes/found_gold_result − success is the share that found the answer and did not give it; answer_repeats_query, the answer was the SQL of the episode's latest query; gold_literals_written, a query wrote every literal value of the gold SQL — the question's names, dates and numbers copied right; retried_after_failure, a query followed one that failed or found nothing; recovered_after_failure, such a query returned the gold result)." },
  { name: 'success', kinds: ['train', 'eval'], description: 'Share of episodes that ended correct (info.is_correct).' },
  { name: 'frac_reward_zero_std', kinds: ['train'], description: 'Share of groups whose K rewards were all equal (no GRPO signal).' },
  { name: 'frac_identical_groups', kinds: ['train'], description: 'Share of groups whose K completions were textually identical.' },
  { name: 'groups_dropped', kinds: ['train'], description: "Zero-variance groups excluded from the loss (zeroVariance 'drop' or 'dynamic_sampling')." },
  { name: 'resample_rounds', kinds: ['train'], description: 'Dynamic-sampling rounds used this step.' },
  { name: 'advantage_abs_mean', kinds: ['train'], description: 'Mean |advantage| over episodes.' },
  { name: 'loss', kinds: ['train', 'sft'], description: 'Loss of the last μ-iteration (GRPO surrogate + β·KL − entropy bonus; SFT: mean token NLL).' },
  { name: 'kl', kinds: ['train'], description: 'Mean per-token KL estimate to the reference (0 when beta is 0).' },
  { name: 'entropy', kinds: ['train'], description: "Mean per-token entropy (nats) of the policy's full next-token distribution on its completion tokens, last μ-iteration (a backend that returns no entropies logs the sampled-token estimate mean(−log p) instead)." },
  { name: 'clip_ratio/low_mean', kinds: ['train'], description: 'Share of tokens with ratio < 1 − ε_low and negative advantage.' },
  { name: 'clip_ratio/high_mean', kinds: ['train'], description: 'Share of tokens with ratio > 1 + ε_high and positive advantage.' },
  { name: 'clip_ratio/region_mean', kinds: ['train'], description: 'Share of tokens clipped either way.' },
  { name: 'sampling/sampling_logp_difference/mean', kinds: ['train'], description: "Mean |log π_old − log q| over trained tokens: how far the sampler's log-probs (rollout.temperature, a decoding guide's biases, top-p) are from the policy's (TRL's name). Near 0 when the policy sampled itself." },
  { name: 'sampling/sampling_logp_difference/max', kinds: ['train'], description: 'Largest |log π_old − log q| over trained tokens.' },
  { name: 'sampling/importance_sampling_ratio/min', kinds: ['train'], description: 'Smallest sampler-correction weight applied (per episode or per token, grpo.loss.samplerCorrectionLevel; 1 when the policy sampled itself).' },
  { name: 'sampling/importance_sampling_ratio/mean', kinds: ['train'], description: 'Mean sampler-correction weight applied.' },
  { name: 'sampling/importance_sampling_ratio/max', kinds: ['train'], description: 'Largest sampler-correction weight applied.' },
  { name: 'sampling/corrected_share', kinds: ['train'], description: "Share of trained tokens whose weight grpo.loss.samplerCap truncated or masked (a sequence-level ratio counts all its episode's tokens)." },
  { name: 'grad_norm', kinds: ['train', 'sft'], description: 'Global gradient norm before clipping.' },
  { name: 'learning_rate', kinds: ['train', 'sft'], description: 'Learning rate used for the step.' },
  { name: 'completions/mean_length', kinds: ['train'], description: 'Mean generated (trainable) tokens per episode.' },
  { name: 'completions/min_length', kinds: ['train'], description: 'Fewest generated tokens in an episode.' },
  { name: 'completions/max_length', kinds: ['train'], description: 'Most generated tokens in an episode.' },
  { name: 'completions/clipped_ratio', kinds: ['train'], description: 'Share of episodes cut by the token limit (rollout.maxTotalTokens).' },
  { name: 'turns_mean', kinds: ['train', 'eval'], description: 'Mean assistant turns per episode.' },
  { name: 'tools/call_frequency', kinds: ['train', 'eval'], description: 'Tool calls per episode.' },
  { name: 'tools/failure_frequency', kinds: ['train', 'eval'], description: 'Share of tool calls that failed (any error_type, parse failures included).' },
  { name: 'tools/malformed_frequency', kinds: ['train', 'eval'], description: "Share of tool calls that were malformed (the task's malformedCallErrors; SQLEnv: parse_error, unknown_tool, missing_argument, invalid_argument): drift off the tool format, which tool_errors_rising watches. A well-formed query that failed is not counted." },
  { name: 'tool_errors/*', kinds: ['train', 'eval'], description: "Failed tool calls per episode by type: the env's info.error_type (parse_error, unknown_tool, missing_argument, invalid_argument, unknown_table, sql_error, forbidden_sql, timeout, result_too_large, episode_over) and no_tool_call when the model wrote no parsable call." },
  { name: 'repairs/*', kinds: ['train', 'eval'], description: 'Tolerant-parsing repairs per episode by kind (info.repairs[].kind).' },
  { name: 'tokens_per_second', kinds: ['train', 'sft'], description: 'Tokens processed (generated + scored) per wall-clock second in the step.' },
  { name: 'step_seconds', kinds: ['train', 'sft'], description: 'Wall-clock seconds of the step.' },
  { name: 'skipped', kinds: ['train', 'sft'], description: '1 when the update was skipped because the loss or a gradient was NaN/Inf.' },
  { name: 'split', kinds: ['eval', 'trace'], description: 'Dataset split of an evaluation or trace (train for training rollouts).' },
  { name: 'decoding', kinds: ['eval'], description: "The decoding of the record's figures: 'unguided' (the policy's own tokens) or 'guided' (nudged by the task's decoding guide, rollout.guidedDecoding 'evaluation' or 'always')." },
  { name: 'unguided_success', kinds: ['eval'], description: 'Guided evaluations only: the same greedy episodes without the guide (the policy\'s own success), beside the guided figure.' },
  { name: 'unguided_mean_return', kinds: ['eval'], description: 'Guided evaluations only: mean return of the unguided greedy episodes.' },
  { name: 'label', kinds: ['eval'], description: 'What was evaluated: untrained, sft, grpo, random, oracle…' },
  { name: 'episodes', kinds: ['eval'], description: 'Episodes in the evaluation.' },
  { name: 'mean_return', kinds: ['eval'], description: 'Mean sum of step rewards.' },
  { name: 'samples', kinds: ['eval'], description: 'K of the sampled evaluation (eval.samples): episodes per question at rollout.temperature.' },
  { name: 'sampled_questions', kinds: ['eval'], description: 'Questions in the sampled evaluation.' },
  { name: 'pass_at_1', kinds: ['eval'], description: 'Sampled evaluation: mean success of one sample at rollout.temperature.' },
  { name: 'pass_at_k', kinds: ['eval'], description: 'Sampled evaluation: unbiased pass@K, the chance that at least one of K samples is right (pass@K − pass@1 is the headroom GRPO can use).' },
  { name: 'majority', kinds: ['eval'], description: 'Sampled evaluation: share of questions whose most frequent final answer was right.' },
  { name: 'missed_but_sampled', kinds: ['eval'], description: 'Sampled evaluation: questions greedy decoding got wrong that at least one of the K samples got right (what sharpening can win).' },
  { name: 'sharpening_ceiling', kinds: ['eval'], description: 'Sampled evaluation: share of the sampled questions answered right greedily or by at least one of the K samples — what sharpening this policy could reach at K samples (it grows with K).' },
  { name: 'question', kinds: ['trace'], description: 'The question text of the episode.' },
  { name: 'turns', kinds: ['trace'], description: "Per turn: the model text, the parsed action, the env result text (truncated), reward, error_type, and the turn's advantage under grpo.credit 'turn'." },
  { name: 'total_reward', kinds: ['trace'], description: 'Episode reward as seen by the advantage.' },
  { name: 'correct', kinds: ['trace'], description: 'Whether the episode ended correct.' },
  { name: 'advantage', kinds: ['trace'], description: "The advantage the episode received (under grpo.credit 'turn': the mean of its turns' advantages)." },
  { name: 'event', kinds: ['event'], description: 'Event name: small_group_warning, alarm:<kind>, nan_skip, format_check, sft_validation (mean validation success after an SFT epoch, in value), resumed, config_changed (a resume whose settings differ from its config.json: each change with its old value), phase.' },
  { name: 'message', kinds: ['event'], description: 'Human-readable text of the event.' },
  { name: 'value', kinds: ['event'], description: 'Numeric payload of the event (e.g. the format-check share).' },
];

/**
 * True when `name` is documented (exactly, or through a `prefix/*` pattern).
 *
 * @example
 * ```ts
 * isDocumentedMetric('tool_errors/sql_error'); // true
 * ```
 */
export function isDocumentedMetric(name: string): boolean {
  return METRIC_FIELDS.some((f) => (f.name.endsWith('/*') ? name.startsWith(f.name.slice(0, -1)) : f.name === name));
}

/**
 * A markdown table of the documented fields (for docs/train.md).
 *
 * @example
 * ```ts
 * metricFieldsTable().split('\n')[0]; // '| field | records | meaning |'
 * ```
 */
export function metricFieldsTable(): string {
  return [
    '| field | records | meaning |',
    '| --- | --- | --- |',
    ...METRIC_FIELDS.map((f) => `| \`${f.name}\` | ${f.kinds.join(', ')} | ${f.description.replace(/\|/g, '\\|')} |`),
  ].join('\n');
}
