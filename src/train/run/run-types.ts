/** The inputs, results and checkpointed state of a training run. */
import type { Env } from '../../gym/env.js';
import type { TrainConfig } from '../config/schema.js';
import type { FormatCheckResult } from '../diagnostics/format-check.js';
import type { TrainablePolicy } from '../policy/trainable-policy.js';
import type { RolloutTask } from '../rollout/rollout-task.js';
import type { Decoding } from '../rollout/multi-turn-rollout.js';
import type { SftDataBuilder } from '../sft/sft-data.js';

/** What a training run is given. The caller owns the policy; the run owns the envs it creates. */
export interface TrainingSetup<Obs> {
  config: TrainConfig;
  policy: TrainablePolicy;
  task: RolloutTask<Obs>;
  /** Creates an environment on a split (called as many times as episodes run concurrently). */
  makeEnv(split: string): Env<Obs, unknown>;
  /** Number of questions in a split. */
  questionCount(split: string): number;
  /** Builds SFT's trajectories (required when mode includes sft; {@link scriptedAgentData} plays one scripted agent). */
  sftData?: SftDataBuilder<Obs>;
  /** Where progress lines and warnings go (default: console.log). */
  print?(line: string): void;
  /** Test hook passed to the checkpoint store. */
  beforeCheckpointCommit?(): Promise<void>;
}

/** One split's result at one point of the run: greedy success, and pass@K when sampled. */
export interface SplitResult {
  /** Greedy success (pass@1 at temperature 0). */
  success: number;
  meanReturn: number;
  episodes: number;
  /**
   * Greedy result per question, in the split's order (the first `episodes` questions), so two
   * evaluations of the same questions can be paired (`pairedChange`). Absent in runs from before it.
   */
  correct?: boolean[];
  /** Greedy share of episodes for which each of the task's outcomes is true (`outcomes/<name>`; SQLEnv: `found_gold_result`). */
  outcomes?: Record<string, number>;
  /**
   * The sampled evaluation (eval.samples K > 1, after SFT and at the end): K, questions, pass@1 of one sample, pass@K, majority
   * vote, and against greedy on the same questions: greedy's success on them, how many greedy missed that a sample answered
   * right, and the sharpening ceiling that makes (`sharpeningHeadroom`).
   */
  sampled?: { k: number; questions: number; passAt1: number; passAtK: number; majority: number; greedy: number; missedButSampled: number; ceiling: number };
  /** The decoding of these figures (`rollout.guidedDecoding`); absent in runs from before it. */
  decoding?: Decoding;
  /** When `decoding` is 'guided': the same greedy evaluation without the guide, the policy's own figure. */
  unguided?: { success: number; meanReturn: number; correct: boolean[] };
}

/** Success per split at one point of the run. */
export type SplitSuccess = Record<string, SplitResult>;

/** What a run achieved. */
export interface TrainingSummary {
  resumedFromStep?: number;
  formatCheck: { before?: FormatCheckResult; after?: FormatCheckResult };
  sftSteps: number;
  grpoSteps: number;
  /** Mean train reward of the first and last GRPO steps run. */
  firstReward?: number;
  lastReward?: number;
  /** Held-out results by label: untrained, sft, final. */
  evaluations: Record<string, SplitSuccess>;
  wallSeconds: number;
}

/** What a checkpoint carries besides weights, optimizer and RNG state. */
export interface RunState {
  /** The last phase completed: the warm-up ('sft_done') or GRPO up to `grpoStep`. */
  phase: 'sft_done' | 'grpo';
  grpoStep: number;
  /** Metrics records written up to the checkpoint (a resumed run truncates to this). */
  metricsCount: number;
  /** Training seconds up to the checkpoint. */
  clock: number;
  summary: Omit<TrainingSummary, 'wallSeconds' | 'resumedFromStep'>;
}
