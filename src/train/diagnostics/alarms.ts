/**
 * Training alarms: a monitor that watches per-step metrics and reports the failure patterns that
 * preceded real GRPO collapses (flat reward, dead groups, identical completions, tool errors
 * climbing, KL blowing up). The trainer owns one monitor per run.
 */

/** The kind of an alarm. */
export type AlarmKind = 'reward_flat' | 'zero_std_high' | 'identical_completions' | 'tool_errors_rising' | 'kl_exploding';

/** What starts the metrics.jsonl event name of an alarm: `alarm:<kind>`. */
export const ALARM_EVENT_PREFIX = 'alarm:';

/** One alarm raised at a step, with a message that says what to try. */
export interface TrainingAlarm {
  kind: AlarmKind;
  step: number;
  message: string;
}

/** Thresholds of {@link AlarmMonitor}; every field has a default. */
export interface AlarmThresholds {
  /** Steps over which the reward must move by more than `rewardFlatTolerance` (default 20). */
  rewardFlatSteps: number;
  /** Max − min of the mean reward over the window below which it counts as flat (default 1e-3). */
  rewardFlatTolerance: number;
  /** Share of the pooled groups with identical rewards above this raises `zero_std_high` (default 0.8). */
  zeroStdFraction: number;
  /** Share of the pooled groups whose completions are all identical above this raises an alarm (default 0.5). */
  identicalGroupFraction: number;
  /**
   * Groups that `zero_std_high` and `identical_completions` judge at once, taken from whole recent
   * steps (default 8). One step of two groups is no evidence: a healthy policy whose groups are
   * each equal-rewarded 40% of the time has both equal at 16% of its steps, and a confident one
   * samples identical completions for an easy question; so the shares are pooled over the latest
   * steps until they hold this many groups. 1: judge every step alone.
   */
  alarmGroups: number;
  /** Window (steps) for the malformed-call trend (default 10). */
  toolErrorWindow: number;
  /** Rise of the malformed-call rate (recent window mean minus previous window mean) that alarms (default 0.2). */
  toolErrorRise: number;
  /** KL above this raises `kl_exploding` (default 1.0)… */
  klMax: number;
  /**
   * …as does KL above 0.05 and this many times the mean of the previous `klWindow` steps (default 10). A step's KL is
   * measured on its own few sampled episodes and moves by 10× between neighbouring steps of a steady run (0.005, then
   * 0.056, then 0.013 on the demo's two questions a step), so one previous step is no baseline.
   */
  klGrowthFactor: number;
  /** Steps whose mean KL is the baseline of `klGrowthFactor` (default 5); growth is judged once that many are seen. */
  klWindow: number;
}

/** What the monitor needs from one step's metrics. */
export interface AlarmStepInput {
  step: number;
  rewardMean: number;
  fracRewardZeroStd: number;
  /** Share of groups whose K completions were textually identical. */
  fracIdenticalGroups: number;
  /** Groups this step sampled (the shares above are of these). */
  groups: number;
  /**
   * Malformed tool calls / all tool calls this step (`tools/malformed_frequency`). Calls that were
   * well formed but failed (a query with an unknown column) are left out: how many of those a step
   * has depends on which questions it drew, and on unseen databases their share swings by 20 points
   * between 10-step windows of a healthy run.
   */
  malformedCallRate: number;
  kl: number;
}

/**
 * The monitor's input from a GRPO step's metrics record (the names of metric-fields.ts).
 *
 * @example
 * ```ts
 * monitor.observe(alarmInputOf(step, metrics, config.rollout.questionsPerStep));
 * ```
 */
export function alarmInputOf(step: number, metrics: Readonly<Record<string, number>>, groups: number): AlarmStepInput {
  return {
    step,
    rewardMean: metrics['reward'] ?? 0,
    fracRewardZeroStd: metrics['frac_reward_zero_std'] ?? 0,
    fracIdenticalGroups: metrics['frac_identical_groups'] ?? 0,
    groups,
    malformedCallRate: metrics['tools/malformed_frequency'] ?? 0,
    kl: metrics['kl'] ?? 0,
  };
}

const DEFAULTS: AlarmThresholds = {
  rewardFlatSteps: 20,
  rewardFlatTolerance: 1e-3,
  zeroStdFraction: 0.8,
  identicalGroupFraction: 0.5,
  alarmGroups: 8,
  toolErrorWindow: 10,
  toolErrorRise: 0.2,
  klMax: 1.0,
  klGrowthFactor: 10,
  klWindow: 5,
};

/**
 * Watches step metrics and returns the alarms each step raises. An alarm of a kind is repeated
 * at most once per `rewardFlatSteps` steps so the log is not flooded.
 *
 * @example
 * ```ts
 * const monitor = new AlarmMonitor({ zeroStdFraction: 0.5 });
 * monitor.observe({ step: 1, rewardMean: 0, fracRewardZeroStd: 0.9, fracIdenticalGroups: 0, groups: 8, malformedCallRate: 0, kl: 0 });
 * // → [{ kind: 'zero_std_high', step: 1, message: '…' }]
 * ```
 */
export class AlarmMonitor {
  readonly thresholds: AlarmThresholds;
  private readonly rewards: number[] = [];
  private readonly toolErrors: number[] = [];
  /** The latest steps' group counts, as few as hold `alarmGroups` groups. */
  private readonly recentGroups: { groups: number; zeroStd: number; identical: number }[] = [];
  /** The KL of the latest `klWindow` steps. */
  private readonly recentKl: number[] = [];
  private readonly lastRaised = new Map<AlarmKind, number>();

  constructor(thresholds: Partial<AlarmThresholds> = {}) {
    this.thresholds = { ...DEFAULTS, ...thresholds };
  }

  /** Record one step; returns the alarms it raises (possibly none). */
  observe(input: AlarmStepInput): TrainingAlarm[] {
    const th = this.thresholds;
    const raised: TrainingAlarm[] = [];
    const raise = (kind: AlarmKind, message: string) => {
      const last = this.lastRaised.get(kind);
      if (last !== undefined && input.step - last < th.rewardFlatSteps) return;
      this.lastRaised.set(kind, input.step);
      raised.push({ kind, step: input.step, message });
    };

    this.rewards.push(input.rewardMean);
    if (this.rewards.length > th.rewardFlatSteps) this.rewards.shift();
    if (this.rewards.length === th.rewardFlatSteps) {
      const spread = Math.max(...this.rewards) - Math.min(...this.rewards);
      if (spread <= th.rewardFlatTolerance) {
        raise('reward_flat', `mean reward has stayed at ${input.rewardMean.toFixed(4)} for ${th.rewardFlatSteps} steps: no learning signal. ` +
          'Check frac_reward_zero_std and the episode traces; try more SFT warm-up, a larger K, or a denser reward.');
      }
    }
    const pooled = this.poolGroups(input);
    if (pooled && pooled.zeroStd > th.zeroStdFraction) {
      raise('zero_std_high', `${(pooled.zeroStd * 100).toFixed(0)}% of the last ${pooled.groups} groups have identical rewards (advantage 0, no gradient). ` +
        "Increase K, use zero_variance: 'dynamic_sampling', or make the reward denser.");
    }
    if (pooled && pooled.identical > th.identicalGroupFraction) {
      raise('identical_completions', `${(pooled.identical * 100).toFixed(0)}% of the last ${pooled.groups} groups sampled K identical completions: ` +
        'the policy has collapsed to one output. Raise the temperature, add an entropy bonus or KL penalty, or lower the learning rate.');
    }
    this.toolErrors.push(input.malformedCallRate);
    const w = th.toolErrorWindow;
    if (this.toolErrors.length > 2 * w) this.toolErrors.shift();
    if (this.toolErrors.length === 2 * w) {
      const before = this.toolErrors.slice(0, w).reduce((a, b) => a + b, 0) / w;
      const recent = this.toolErrors.slice(w).reduce((a, b) => a + b, 0) / w;
      if (recent - before > th.toolErrorRise) {
        raise('tool_errors_rising', `the share of malformed tool calls rose from ${(before * 100).toFixed(0)}% to ${(recent * 100).toFixed(0)}% ` +
          'over the last steps: the policy is drifting off the tool format. See tools/malformed_frequency and tool_errors/* in the metrics; add a KL penalty (beta) or lower the learning rate.');
      }
    }
    const baseline = this.recentKl.length === th.klWindow ? this.recentKl.reduce((a, b) => a + b, 0) / th.klWindow : undefined;
    if (input.kl > th.klMax || (baseline !== undefined && baseline > 0 && input.kl > 0.05 && input.kl / baseline > th.klGrowthFactor)) {
      const before = baseline !== undefined ? ` (mean of the previous ${th.klWindow} steps ${baseline.toFixed(4)})` : '';
      raise('kl_exploding', `KL to the reference is ${input.kl.toFixed(4)}${before}: ` +
        'the policy is running away from the reference. Lower the learning rate, raise beta, or tighten clipping.');
    }
    this.recentKl.push(input.kl);
    if (this.recentKl.length > th.klWindow) this.recentKl.shift();
    return raised;
  }

  /** The zero-std and identical shares over the latest steps holding `alarmGroups` groups; undefined until they do. */
  private poolGroups(input: AlarmStepInput): { groups: number; zeroStd: number; identical: number } | undefined {
    const want = this.thresholds.alarmGroups;
    const recent = this.recentGroups;
    recent.push({ groups: input.groups, zeroStd: input.fracRewardZeroStd * input.groups, identical: input.fracIdenticalGroups * input.groups });
    const total = (): number => recent.reduce((a, r) => a + r.groups, 0);
    while (recent.length > 1 && total() - recent[0]!.groups >= want) recent.shift();
    const groups = total();
    if (groups < want) return undefined;
    return { groups, zeroStd: recent.reduce((a, r) => a + r.zeroStd, 0) / groups, identical: recent.reduce((a, r) => a + r.identical, 0) / groups };
  }
}
