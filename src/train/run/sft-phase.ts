/**
 * The SFT warm-up: the setup's SFT data builder plays scripted agents on the train split, the
 * solved episodes that fit become token sequences, and the policy learns them for `sft.epochs` epochs.
 */
import { evaluatePolicy, type EvaluationResult } from '../eval/evaluate-policy.js';
import { formatProgress } from '../metrics/progress-line.js';
import { decodingOf } from '../rollout/multi-turn-rollout.js';
import { learningRateAt } from '../optim/lr-schedule.js';
import { agentTrajectory, type SftSequence } from '../sft/oracle-trajectories.js';
import type { SftDataBuilder, SftPlayer } from '../sft/sft-data.js';
import { paddingShare, sftBatches, sftStep } from '../sft/sft-epoch.js';
import { TrainError } from '../train-error.js';
import type { TrainConfig } from '../config/schema.js';
import type { GreedyEvaluations } from './evaluate-phase.js';
import type { RunContext } from './run-context.js';

/**
 * How many train questions SFT turns into oracle trajectories: the first `sft.questions` (0: all).
 *
 * @example
 * ```ts
 * const count = sftQuestionCount(config, run.questionCount(config.env.trainSplit));
 * ```
 */
export function sftQuestionCount(cfg: TrainConfig, available: number): number {
  return cfg.sft.questions > 0 ? Math.min(cfg.sft.questions, available) : available;
}

/**
 * The trainer's player for a setup's SFT data builder: it plays scripted agents on the train split's questions, one
 * episode each, in order, and returns every trajectory, solved or not (see {@link keptTrajectories}).
 */
function sftPlayer<Obs>(run: RunContext<Obs>): SftPlayer<Obs> {
  const cfg = run.config;
  const covered = sftQuestionCount(cfg, run.questionCount(cfg.env.trainSplit));
  return {
    questions: Array.from({ length: covered }, (_, i) => i),
    play: async (agent, questions) => {
      const env = run.pool(cfg.env.trainSplit).take(1)[0]!;
      const played: SftSequence[] = [];
      for (const i of questions) {
        const spec = run.task.episodeSpec?.(i, cfg.env.trainSplit) ?? { seed: i };
        // The scripted agent ends its own episodes; the env's step budget bounds them.
        played.push(await agentTrajectory(env, agent, run.task, run.policy.codec, spec, Math.max(cfg.rollout.maxTurns, cfg.env.stepBudget)));
      }
      return played;
    },
    print: (line) => run.print(line),
  };
}

/**
 * The trajectories SFT can learn: the solved ones that fit `rollout.maxTotalTokens`. The dropped ones are
 * reported; none left is an error that says why.
 */
function keptTrajectories<Obs>(run: RunContext<Obs>, played: readonly SftSequence[]): SftSequence[] {
  const cfg = run.config;
  const trajectories: SftSequence[] = [];
  let wrong = 0;
  const tooLong: number[] = [];
  for (const t of played) {
    if (!t.correct) wrong++;
    else if (t.tokens.length > cfg.rollout.maxTotalTokens) tooLong.push(t.tokens.length);
    else trajectories.push(t);
  }
  const dropped = [
    wrong > 0 ? `${wrong} not solved by the scripted agent (is env.stepBudget large enough?)` : '',
    tooLong.length > 0 ? `${tooLong.length} longer than rollout.maxTotalTokens = ${cfg.rollout.maxTotalTokens} (longest ${Math.max(...tooLong)} tokens)` : '',
  ].filter(Boolean);
  const rehearsed = trajectories.filter((t) => t.rehearsed).length;
  run.print(`SFT: ${trajectories.length} correct scripted trajectories${rehearsed > 0 ? ` (${rehearsed} with a rehearsed mistake)` : ''} from ${played.length} played${dropped.length ? `; dropped ${dropped.join(', ')}` : ''}`);
  if (trajectories.length === 0) {
    throw new TrainError(
      `SFT has no trajectory to learn from: ${dropped.join(', ') || 'the setup built none'}. ` +
        (tooLong.length > 0 ? `Raise rollout.maxTotalTokens to at least ${Math.max(...tooLong)}, or shorten the task's prompt.` : "Check the scripted agent, the step budget and the setup's sftData."),
    );
  }
  return trajectories;
}

/** The validation splits early stopping follows: `sft.validationSplits`, or all of `env.validationSplits`. */
function earlyStoppingSplits(cfg: TrainConfig): readonly string[] {
  return cfg.sft.validationSplits.length > 0 ? cfg.sft.validationSplits : cfg.env.validationSplits;
}

/**
 * Mean greedy success over the early-stopping validation splits on their first `sft.validationEpisodes`
 * questions: the signal SFT's early stopping follows. The evaluations themselves are returned too.
 */
async function validationSuccess<Obs>(run: RunContext<Obs>, epoch: number): Promise<{ mean: number; evaluations: GreedyEvaluations }> {
  const cfg = run.config;
  const evaluations = new Map<string, EvaluationResult>();
  for (const split of earlyStoppingSplits(cfg)) {
    const episodes = Math.min(cfg.sft.validationEpisodes, run.questionCount(split));
    evaluations.set(split, await evaluatePolicy(run.policy, run.task, run.pool(split), split, episodes, cfg.rollout, run.evaluationRng(`sft-epoch-${epoch}/${split}`)));
  }
  const values = [...evaluations.values()].map((r) => r.success);
  return { mean: values.reduce((a, b) => a + b, 0) / Math.max(1, values.length), evaluations };
}

/** What {@link sftPhase} returns: the steps it ran and the greedy validation of the weights it kept. */
export interface SftPhaseResult {
  steps: number;
  /** The kept epoch's early-stopping evaluations (empty without early stopping). */
  validation: GreedyEvaluations;
}

/**
 * Trains on the trajectories the setup's builder plays (the solved ones that fit) and returns the number of SFT steps run. With
 * `sft.validationEpisodes` > 0 it validates after every epoch from epoch `sft.minEpochs` on, stops
 * once validation success has not risen for `sft.patience` epochs, and leaves the policy with the
 * best validated epoch's weights.
 *
 * @example
 * ```ts
 * const sft = await sftPhase(run, run.requireSftData());
 * run.state.summary.sftSteps = sft.steps;
 * ```
 */
export async function sftPhase<Obs>(run: RunContext<Obs>, sftData: SftDataBuilder<Obs>): Promise<SftPhaseResult> {
  const cfg = run.config;
  const trajectories = keptTrajectories(run, await sftData(sftPlayer(run)));
  const totalSteps = cfg.sft.epochs * Math.ceil(trajectories.length / cfg.sft.batchSize);
  const validate = cfg.sft.validationEpisodes > 0 && earlyStoppingSplits(cfg).length > 0;
  let best: { epoch: number; step: number; weights: Awaited<ReturnType<typeof run.policy.readParameters>>; mean: number; evaluations: GreedyEvaluations } | undefined;
  let step = 0;
  const started = Date.now();
  for (let epoch = 0; epoch < cfg.sft.epochs; epoch++) {
    const batches = sftBatches(trajectories, cfg.sft.batchSize, run.rng, { groupByLength: cfg.sft.groupByLength });
    if (epoch === 0) run.print(`SFT: ${(paddingShare(batches) * 100).toFixed(1)}% of the token positions a step computes are padding${cfg.sft.groupByLength ? ' (batches grouped by length)' : ' (sft.groupByLength would batch similar lengths together: faster steps, less mixed batches)'}`);
    for (const batch of batches) {
      const t0 = Date.now();
      const lr = learningRateAt(step, { lr: cfg.sft.lr, warmupSteps: cfg.optim.warmupSteps, totalSteps, decay: 'linear', minRatio: 0.1 });
      const r = await sftStep(run.policy, run.optimizer, batch, { lr, maxGradNorm: cfg.optim.maxGradNorm, microBatches: cfg.optim.gradAccumulation });
      step++;
      const seconds = (Date.now() - t0) / 1000;
      await run.emit({ kind: 'sft', step, loss: r.loss, grad_norm: r.gradNorm, learning_rate: lr, tokens_per_second: r.tokens / Math.max(seconds, 1e-3), step_seconds: seconds, skipped: r.skippedBecause.length ? 1 : 0 });
      if (r.skippedBecause.length) await run.event(step, 'nan_skip', `SFT step ${step} skipped: non-finite ${r.skippedBecause.slice(0, 3).join(', ')}`);
      if (cfg.logging.progress && (step % 5 === 0 || step === totalSteps)) {
        run.print(formatProgress({ phase: 'sft', step, totalSteps, tokensPerSecond: r.tokens / Math.max(seconds, 1e-3), elapsedMs: Date.now() - started, stepsThisProcess: step }) + ` | loss ${r.loss.toFixed(3)}`);
      }
    }
    if (!validate || epoch + 1 < cfg.sft.minEpochs) continue;
    const v = await validationSuccess(run, epoch + 1);
    const rising = best === undefined || v.mean > best.mean;
    const detail = [...v.evaluations].map(([s, r]) => `${s} ${(r.success * 100).toFixed(1)}%`).join(', ');
    await run.event(step, 'sft_validation', `SFT epoch ${epoch + 1}: validation success (${decodingOf(run.task, cfg.rollout, 'evaluation')}) ${detail} (mean ${(v.mean * 100).toFixed(1)}%)${rising ? ' — best so far' : ''}`, v.mean);
    if (rising) best = { epoch: epoch + 1, step, weights: await run.policy.readParameters(), ...v };
    else if (epoch + 1 - best!.epoch >= cfg.sft.patience) break;
  }
  if (best && best.step !== step) {
    // Validation stopped rising: go back to the best epoch's weights.
    await run.policy.loadParameters(best.weights);
    run.print(`SFT: validation success stopped rising; kept epoch ${best.epoch}'s weights (mean ${(best.mean * 100).toFixed(1)}%)`);
  }
  return { steps: step, validation: best?.evaluations ?? new Map() };
}
