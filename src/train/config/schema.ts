/**
 * The training configuration: its TypeScript type and the JSON Schema that validates it. Every
 * option carries a `description` and a `default`; docs/train.md's option table is generated from
 * this schema (see `configDocsTable`), so the schema is the single source of truth.
 */
import type { AdvantageEstimator, AdvantageScale, EpisodeRewardMode, StdKind } from '../math/advantages.js';
import type { KlEstimator } from '../math/kl.js';
import type { ImportanceLevel, LossAggregation } from '../math/policy-loss.js';
import type { SamplerCorrection, SamplerCorrectionLevel } from '../math/sampler-correction.js';
import type { LrDecay } from '../optim/lr-schedule.js';
import type { GuidedDecoding } from '../rollout/multi-turn-rollout.js';
import { schemaBoolean as bool, schemaEnum as oneOf, schemaInt as int, schemaNumber as num, schemaObject as obj, schemaString as str, type ConfigSchemaNode } from './schema-nodes.js';

export type { ConfigSchemaNode } from './schema-nodes.js';

/** What a run does: SFT warm-up only, GRPO only, or SFT followed by GRPO. */
export type TrainMode = 'sft' | 'grpo' | 'sft+grpo';

/** Whether advantages are given per episode or per assistant turn (see `turnAdvantages`). */
export type CreditAssignment = 'episode' | 'turn';

/** Which episodes a turn is compared with under turn-level credit (see `TurnCreditOptions.stateKeys`). */
export type TurnBaseline = 'index' | 'observations';

/** What to do with groups whose rewards are all equal. */
export type ZeroVarianceMode = 'keep' | 'drop' | 'dynamic_sampling';
/** Which train questions GRPO samples (`grpo.questions`). */
export type GrpoQuestionPool = 'all' | 'beyond_sft';

/** The full, defaults-applied training configuration. */
export interface TrainConfig {
  mode: TrainMode;
  runDir: string;
  seed: number;
  model: {
    path: string;
    device: 'cpu' | 'cuda' | 'webgpu';
    threads: number;
    lora: { rank: number; alpha: number; targets: string[] };
    tiny: { layers: number; hidden: number; heads: number; kvHeads: number; intermediate: number; vocabSize: number };
  };
  env: { id: string; dataset: string; trainSplit: string; evalSplits: string[]; validationSplits: string[]; stepBudget: number; kwargs: Record<string, unknown> };
  rollout: {
    numGenerations: number;
    questionsPerStep: number;
    maxTurns: number;
    maxNewTokensPerTurn: number;
    maxTotalTokens: number;
    temperature: number;
    topP: number;
    maskTruncated: boolean;
    continueTurns: boolean;
    guidedDecoding: GuidedDecoding;
  };
  grpo: {
    steps: number;
    advantage: { estimator: AdvantageEstimator; scale?: AdvantageScale; std: StdKind; epsilon: number; clip?: number };
    rewardMode: EpisodeRewardMode;
    credit: CreditAssignment;
    turnDiscount: number;
    turnBaseline: TurnBaseline;
    loss: {
      epsilonLow: number;
      epsilonHigh: number;
      aggregation: LossAggregation;
      importanceLevel: ImportanceLevel;
      beta: number;
      klEstimator: KlEstimator;
      entropyCoef: number;
      samplerCorrection: SamplerCorrection;
      samplerCorrectionLevel: SamplerCorrectionLevel;
      samplerCap: number;
    };
    muIterations: number;
    zeroVariance: ZeroVarianceMode;
    maxResampleRounds: number;
    questions: GrpoQuestionPool;
    trainSplit: string;
  };
  optim: {
    lr: number;
    weightDecay: number;
    beta1: number;
    beta2: number;
    eps: number;
    warmupSteps: number;
    decay: LrDecay;
    gradAccumulation: number;
    maxGradNorm: number;
  };
  sft: { epochs: number; questions: number; lr: number; batchSize: number; formatCheckSamples: number; describeTables: boolean; validationEpisodes: number; validationSplits: string[]; patience: number; minEpochs: number; groupByLength: boolean };
  eval: { untrained: boolean; everySteps: number; curveSplits: string[]; episodes: number; baselineEpisodes: number; samples: number; sampledQuestions: number };
  checkpoint: { everySteps: number; keep: number };
  alarms: {
    rewardFlatSteps: number;
    zeroStdFraction: number;
    identicalGroupFraction: number;
    alarmGroups: number;
    toolErrorRise: number;
    klMax: number;
  };
  logging: { progress: boolean; tracesPerStep: number; dashboard: boolean };
}

/**
 * The split GRPO samples its questions from: `grpo.trainSplit`, or `env.trainSplit` when that is empty.
 *
 * @example
 * ```ts
 * grpoTrainSplit(resolveTrainConfig({ grpo: { trainSplit: 'procedural' } })); // 'procedural'
 * grpoTrainSplit(resolveTrainConfig({})); // 'train'
 * ```
 */
export function grpoTrainSplit(config: TrainConfig): string {
  return config.grpo.trainSplit || config.env.trainSplit;
}

/**
 * The JSON Schema of {@link TrainConfig}.
 *
 * @example
 * ```ts
 * TRAIN_CONFIG_SCHEMA.properties!.rollout!.properties!.numGenerations!.default; // 8
 * ```
 */
export const TRAIN_CONFIG_SCHEMA: ConfigSchemaNode = {
  ...obj('sqlenv training configuration', {
    mode: oneOf("'sft' (warm-up only), 'grpo' (RL only) or 'sft+grpo' (warm-up, then RL from the SFT weights)", ['sft', 'grpo', 'sft+grpo'], 'sft+grpo'),
    runDir: str('Run directory: metrics.jsonl, checkpoints/, dashboard.html. Resuming reuses it.', 'runs/grpo-sql'),
    seed: int('Seed for sampling, question order and initial weights; stored in checkpoints with the RNG state.', 0),
    model: obj('The policy model.', {
      path: str("'tiny' builds a randomly initialised tiny model (shape: model.tiny); 'tiny-sql' loads the bundled pre-trained tiny base (models/tiny-sql, `npm run model:pretrain`); otherwise a Hugging Face model directory (config.json, safetensors, tokenizer).", 'tiny'),
      device: oneOf('Execution provider for onnxruntime.', ['cpu', 'cuda', 'webgpu'], 'cpu'),
      threads: int('CPU threads per op of the scoring and gradient graphs (SFT steps, GRPO updates, log-probs); generation always runs one, and so do the shared-prompt graphs of a small model (hidden size ≤ 256: one prompt row is too little work to split). A seed reproduces its run bit for bit at a given count; another count may change the last bits of some sums, and so the run.', 1, 1),
      lora: obj('LoRA adapters (used for real models; the tiny model trains all weights when rank is 0).', {
        rank: int('Adapter rank r; 0 trains the full weights.', 0),
        alpha: num('Adapter scale numerator (effective scale alpha / rank).', 16, { minimum: 0 }),
        targets: { type: 'array', items: { type: 'string' }, description: 'Projection names to adapt.', default: ['q_proj', 'k_proj', 'v_proj', 'o_proj'] },
      }),
      tiny: obj("Shape of the bundled tiny model (used when path is 'tiny'; built in the run directory on first use).", {
        layers: int('Decoder layers.', 2, 1),
        hidden: int('Hidden size (a multiple of heads).', 128, 8),
        heads: int('Attention heads.', 4, 1),
        kvHeads: int('Key/value heads (divides heads: grouped-query attention).', 2, 1),
        intermediate: int('MLP width.', 384, 8),
        vocabSize: int('Tokenizer vocabulary trained on the bundled corpus, added tokens included.', 1024, 300),
      }),
    }),
    env: obj('The environment rolled out against.', {
      id: str('Registered environment id.', 'SQLEnv-v0'),
      dataset: str("'bundled', 'spider:DIR', 'bird:DIR' or a directory in the bundled layout.", 'bundled'),
      trainSplit: str('Split whose questions are trained on.', 'train'),
      evalSplits: { type: 'array', items: { type: 'string' }, description: 'Held-out test splits, evaluated before training, after SFT and at the end (reported; never chosen on).', default: ['eval', 'eval_unseen_db'] },
      validationSplits: { type: 'array', items: { type: 'string' }, description: 'Held-out validation splits (settings are chosen on these), evaluated after SFT, every eval.everySteps GRPO steps (the held-out curve) and at the end; empty = none.', default: [] },
      stepBudget: int('Tool calls per episode before it is cut off.', 10, 1),
      kwargs: { type: 'object', description: 'Extra keyword arguments passed to make(id, kwargs) (e.g. reward weights, actionMode); the recipe checks them against the options the environment reads.', default: {} },
    }),
    rollout: obj('How episodes are sampled.', {
      numGenerations: int('K: completions (episodes) sampled per question. K < 4 prints a warning with the expected dead-group rate.', 8, 1),
      questionsPerStep: int('Questions (groups) per optimizer step.', 4, 1),
      maxTurns: int('Assistant turns per episode (also bounded by the env step budget).', 6, 1),
      maxNewTokensPerTurn: int('Tokens generated per assistant turn.', 96, 1),
      maxTotalTokens: int('Cap on prompt + all turns; the episode is truncated beyond it.', 1024, 16),
      temperature: num('Sampling temperature T. The GRPO loss scores the policy, old and reference log-probs at T too (log-softmax(logits / T), as TRL does): the gradient of the policy that drew the samples.', 1.0, { exclusiveMinimum: 0 }),
      topP: num('Nucleus sampling threshold.', 1.0, { exclusiveMinimum: 0, maximum: 1 }),
      maskTruncated: bool('Exclude episodes cut off by the token limit from the loss (DAPO overlong filtering).', true),
      continueTurns: bool("Each turn continues the previous turn's keys and values and runs only the tool reply's tokens, instead of reading the whole conversation again (same tokens, log-probs to float rounding; CPU provider). false: every turn prefills its whole prompt.", true),
      guidedDecoding: oneOf(
        "When the task's decoding guide nudges the policy's tokens (SQLEnv: copies from the conversation favoured inside string literals and numbers, a listed table after FROM/JOIN, the schema's names where the conversation shows them, the latest query in an answer; docs/sql.md). 'off' (default): every episode is the policy's own, so figures compare with anyone else's. 'evaluation': held-out episodes and SFT's early stopping are guided (evaluations then also report the unguided figure beside the guided one). 'always': GRPO's rollouts too; their tokens come from the nudged distribution q, which grpo.loss.samplerCorrection weighs back to the policy π.",
        ['off', 'evaluation', 'always'],
        'off',
      ),
    }),
    grpo: obj('The GRPO update.', {
      steps: int('Optimizer steps of GRPO.', 40),
      advantage: obj('Advantage estimation.', {
        estimator: oneOf('grpo (group z-score), dr_grpo (no std), rloo (leave-one-out), reinforce_pp (batch whitening), reinforce_pp_baseline (group mean, then batch whitening).', ['grpo', 'dr_grpo', 'rloo', 'reinforce_pp', 'reinforce_pp_baseline'], 'grpo'),
        scale: { type: 'string', enum: ['group', 'batch', 'none'], description: 'Divide centred rewards by the group std, the batch std or nothing (default per estimator: grpo→group, others→none).' },
        std: oneOf("'sample' (n−1, TRL) or 'population' (n) standard deviation.", ['sample', 'population'], 'sample'),
        epsilon: num('Added to the std before dividing.', 1e-4, { minimum: 0 }),
        clip: { type: 'number', exclusiveMinimum: 0, description: 'Clip advantages to ±clip (unset: no clipping).' },
      }),
      rewardMode: oneOf("Episode reward seen by the advantage: 'sum' of step rewards (dense shaping kept) or the 'final' step's.", ['sum', 'final'], 'sum'),
      credit: oneOf(
        "'episode' (default): every token of an episode gets the episode's advantage, so the correctness reward reaches every turn that led to it. 'turn': each assistant turn gets the advantage of its discounted reward-to-go against the same turn of the group's other episodes; with grpo.turnDiscount 1 that is the return from the turn on (the first turn's equals the episode's), with γ < 1 a discounted return that the final answer's reward reaches less the earlier the turn.",
        ['episode', 'turn'],
        'episode',
      ),
      turnDiscount: num("γ of the reward-to-go under credit 'turn': 1 (default) = a turn sees every later reward, correctness included; 0 = only its own step reward, so intermediate turns optimise the env's dense shaping and never see whether the episode ended correct.", 1, { minimum: 0, maximum: 1 }),
      turnBaseline: oneOf(
        "Under credit 'turn', which turns of the group a turn is compared with: 'index' = turn t of every episode; 'observations' = turn t of the episodes that saw the same tool results before it (an answer after the gold result competes with answers after the gold result).",
        ['index', 'observations'],
        'index',
      ),
      loss: obj('The clipped surrogate loss.', {
        epsilonLow: num('Lower clip range ε_low.', 0.2, { minimum: 0 }),
        epsilonHigh: num('Upper clip range ε_high (DAPO clip-higher: 0.28).', 0.28, { minimum: 0 }),
        aggregation: oneOf('token_mean (DAPO), sequence_mean (GRPO) or constant (Dr. GRPO: divide the summed token losses by (episodes in the batch) × (rollout.maxTurns × rollout.maxNewTokensPerTurn), the completion budget, whatever the sampled lengths).', ['token_mean', 'sequence_mean', 'constant'], 'token_mean'),
        importanceLevel: oneOf("'token' ratios (PPO/GRPO) or one 'sequence' ratio per episode (GSPO).", ['token', 'sequence'], 'token'),
        beta: num('KL coefficient β toward the reference (SFT weights; adapters off with LoRA). 0 skips the reference pass.', 0.04, { minimum: 0 }),
        klEstimator: oneOf('KL estimator: k1, k2 or k3.', ['k1', 'k2', 'k3'], 'k3'),
        entropyCoef: num('Entropy bonus coefficient c_H: the loss subtracts c_H × the entropy of the full next-token distribution on completion tokens, differentiated through the model (0: off).', 0, { minimum: 0 }),
        samplerCorrection: oneOf(
          "Importance weighting of tokens drawn from a sampler q other than the policy π at the rollout temperature (rollout.guidedDecoding 'always', rollout.topP < 1), as TRL and verl do for vLLM: each token's surrogate term is multiplied by the constant ρ = π_old/q, 'truncate'd to min(ρ, samplerCap) or 'mask'ed to 0 outside [1/samplerCap, samplerCap]. 'none' trains on q's tokens as if π had drawn them: the gradient of neither π nor q. The sampling/* metrics report the gap either way.",
          ['truncate', 'mask', 'none'],
          'truncate',
        ),
        samplerCorrectionLevel: oneOf(
          "'sequence': one ratio per episode, π(episode)/q(episode) (its expected update is the exact gradient of π's objective while the cap does not bind; TRL's default level); 'token': each token's own ratio π_t/q_t (lower variance, biased when q differs from π at several positions).",
          ['sequence', 'token'],
          'sequence',
        ),
        samplerCap: num('C of grpo.loss.samplerCorrection (TRL: vllm_importance_sampling_clip_max, 3).', 3, { exclusiveMinimum: 1 }),
      }),
      muIterations: int('μ: optimizer passes over each sampled batch (ratios against the stored old log-probs).', 1, 1),
      zeroVariance: oneOf("Groups with equal rewards: 'keep' (advantage 0), 'drop' from the loss, or 'dynamic_sampling' (resample to fill the batch with informative groups).", ['keep', 'drop', 'dynamic_sampling'], 'keep'),
      maxResampleRounds: int('Bound on dynamic-sampling rounds per step.', 3),
      questions: oneOf("Which train questions GRPO samples: 'all', or 'beyond_sft' (those after the first sft.questions, which SFT's oracle trajectories did not cover; in mode sft+grpo).", ['all', 'beyond_sft'], 'all'),
      trainSplit: str("The split GRPO samples its questions from ('' = env.trainSplit, the split SFT learns from). Another split, such as one a recipe generates, lets GRPO practise on material SFT never saw.", ''),
    }),
    optim: obj('AdamW and the learning-rate schedule.', {
      lr: num('Peak learning rate.', 1e-4, { exclusiveMinimum: 0 }),
      weightDecay: num('AdamW decoupled weight decay.', 0, { minimum: 0 }),
      beta1: num('Adam β1.', 0.9, { minimum: 0, maximum: 1 }),
      beta2: num('Adam β2.', 0.999, { minimum: 0, maximum: 1 }),
      eps: num('Adam ε.', 1e-8, { exclusiveMinimum: 0 }),
      warmupSteps: int('Linear warm-up steps.', 2),
      decay: oneOf('LR decay after warm-up.', ['constant', 'linear', 'cosine'], 'constant'),
      gradAccumulation: int('Micro-batches accumulated per optimizer step.', 1, 1),
      maxGradNorm: num('Global-norm gradient clipping (0: off).', 1.0, { minimum: 0 }),
    }),
    sft: obj('Supervised warm-up on the trajectories the recipe builds (a scripted agent\'s solved episodes).', {
      epochs: int('Passes over the SFT trajectories.', 3, 0),
      questions: int('Train questions turned into oracle trajectories (0: all).', 0),
      lr: num('SFT learning rate.', 1e-3, { exclusiveMinimum: 0 }),
      batchSize: int('Trajectories per SFT step.', 8, 1),
      formatCheckSamples: int('Questions sampled for the post-SFT format check.', 16, 0),
      validationEpisodes: int(
        'Early stopping: after every SFT epoch, greedy success on the first N questions of each validation split (sft.validationSplits); SFT stops when it has not risen for sft.patience epochs and keeps the best epoch\'s weights (sft.epochs is then the maximum). 0: off, all sft.epochs run.',
        0,
        0,
      ),
      validationSplits: { type: 'array', items: { type: 'string' }, description: 'The validation splits early stopping follows (with sft.validationEpisodes): each must be one of env.validationSplits; empty = all of them.', default: [] },
      patience: int('Epochs without a rise of validation success before SFT stops (with sft.validationEpisodes).', 1, 1),
      minEpochs: int('Epochs trained before the first validation (with sft.validationEpisodes): early stopping cannot end SFT sooner, and the epochs before it cost no evaluation. Guards against a noisy early dip on a small validation split.', 1, 1),
      groupByLength: bool('Batch trajectories of similar length together (each window of 32 batches\' worth of shuffled trajectories sorted by length, the batches then shuffled), so less of each step is padding.', false),
    }),
    eval: obj('Held-out evaluation.', {
      untrained: bool('Evaluate the policy before any training (the "base model" row); false saves that evaluation\'s time when the base is known.', true),
      everySteps: int('Evaluate held-out splits every N GRPO steps (0: only at the end); the validation splits when there are any, else the test splits.', 10),
      curveSplits: {
        type: 'array',
        items: { type: 'string' },
        description: 'The splits of the held-out curve (every eval.everySteps GRPO steps), some of env.validationSplits; empty = all of them (or the test splits when there are none). After SFT and at the end every split is evaluated regardless.',
        default: [],
      },
      episodes: int('Episodes per split per evaluation (greedy decoding).', 20, 1),
      baselineEpisodes: int('Episodes used for the quick baseline success estimate behind the small-K warning.', 16, 0),
      samples: int('K for pass@K: after SFT and at the end, each of eval.sampledQuestions questions per held-out split is also played K times at rollout.temperature (pass@1, pass@K, majority vote); 0 or 1: greedy only.', 0, 0),
      sampledQuestions: int('Questions per split in the sampled (pass@K) evaluation, the first ones of the greedy evaluation (0: as many as eval.episodes).', 0, 0),
    }),
    checkpoint: obj('Checkpoints.', {
      everySteps: int('Checkpoint every N steps (0: only at the end).', 10),
      keep: int('Checkpoints kept on disk (older ones deleted), besides the one after SFT (step 0), which is always kept.', 2, 1),
    }),
    alarms: obj('Training alarms.', {
      rewardFlatSteps: int('Steps of unchanged mean reward that raise reward_flat.', 20, 2),
      zeroStdFraction: num('Share of zero-std groups (frac_reward_zero_std, pooled over alarms.alarmGroups groups) above this raises zero_std_high.', 0.8, { minimum: 0, maximum: 1 }),
      identicalGroupFraction: num('Share of groups with K identical completions (pooled over alarms.alarmGroups groups) that raises identical_completions.', 0.5, { minimum: 0, maximum: 1 }),
      alarmGroups: int('Groups that zero_std_high and identical_completions judge at once, pooled over the latest whole steps (1: every step alone).', 8, 1),
      toolErrorRise: num('Rise of the tool-error rate between two 10-step windows that raises tool_errors_rising.', 0.2, { minimum: 0 }),
      klMax: num('KL above this raises kl_exploding.', 1.0, { exclusiveMinimum: 0 }),
    }),
    logging: obj('Console and dashboard.', {
      progress: bool('Print the live progress line.', true),
      tracesPerStep: int('Episode traces kept per step for the dashboard.', 2),
      dashboard: bool('Write dashboard.html into the run directory.', true),
    }),
  }),
};
