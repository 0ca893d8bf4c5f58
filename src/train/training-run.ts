/**
 * A complete training run: SFT warm-up on scripted trajectories (with the format check before
 * and after), then GRPO, with held-out evaluation, metrics, traces, alarms, checkpoints (and
 * resume) and the live dashboard. `sqlenv train` and the bundled example both call this.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Env } from '../gym/env.js';
import { Rng } from '../gym/rng.js';
import { SafetensorsFile } from '../lm/safetensors/reader.js';
import { writeSafetensors } from '../lm/safetensors/writer.js';
import { CheckpointStore, type CheckpointTensor } from './checkpoint/checkpoint-store.js';
import type { TrainConfig } from './config/schema.js';
import { writeDashboard } from './dashboard/dashboard-page.js';
import { AlarmMonitor } from './diagnostics/alarms.js';
import { smallGroupWarning } from './diagnostics/dead-groups.js';
import { checkToolCallFormat, type FormatCheckResult } from './diagnostics/format-check.js';
import { evaluatePolicy, type EvaluationResult } from './eval/evaluate-policy.js';
import { grpoStep, type ScoredEpisode } from './grpo/grpo-step.js';
import { MetricsLog, type MetricRecord } from './metrics/metrics-log.js';
import { formatProgress } from './metrics/progress-line.js';
import { AdamW } from './optim/adamw.js';
import { learningRateAt } from './optim/lr-schedule.js';
import type { TrainablePolicy } from './policy/trainable-policy.js';
import { EnvPool } from './rollout/env-pool.js';
import type { RolloutOptions } from './rollout/multi-turn-rollout.js';
import type { RolloutTask } from './rollout/rollout-task.js';
import { agentTrajectory, type ScriptedAgent, type SftSequence } from './sft/oracle-trajectories.js';
import { sftBatches, sftStep } from './sft/sft-epoch.js';

/** What a training run is given. The caller owns the policy; the run owns the envs it creates. */
export interface TrainingSetup<Obs> {
  config: TrainConfig;
  policy: TrainablePolicy;
  task: RolloutTask<Obs>;
  /** Creates an environment on a split (called as many times as episodes run concurrently). */
  makeEnv(split: string): Env<Obs, unknown>;
  /** Number of questions in a split. */
  questionCount(split: string): number;
  /** A scripted agent for SFT trajectories (required when mode includes sft). */
  makeOracle?(): ScriptedAgent<Obs>;
  /** Where progress lines and warnings go (default: console.log). */
  print?(line: string): void;
  /** Test hook passed to the checkpoint store. */
  beforeCheckpointCommit?(): Promise<void>;
}

/** Success per split at one point of the run. */
export type SplitSuccess = Record<string, { success: number; meanReturn: number; episodes: number }>;

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

interface RunState {
  phase: 'sft_done' | 'grpo';
  grpoStep: number;
  metricsCount: number;
  clock: number;
  summary: Omit<TrainingSummary, 'wallSeconds' | 'resumedFromStep'>;
}

function weightsOf(policy: TrainablePolicy): Map<string, CheckpointTensor> {
  return new Map(policy.parameters().map((p) => [p.name, { shape: p.shape, data: p.value }]));
}

function loadWeights(policy: TrainablePolicy, weights: ReadonlyMap<string, CheckpointTensor>): void {
  for (const p of policy.parameters()) {
    const w = weights.get(p.name);
    if (!w || w.data.length !== p.value.length) {
      throw new Error(`checkpoint has no tensor "${p.name}" of ${p.value.length} values: it was written for another model or LoRA setup`);
    }
    p.value.set(w.data);
  }
}

/** The credit assignment in words, for the run's first line. */
function creditLabel(cfg: TrainConfig): string {
  if (cfg.grpo.credit === 'episode') return 'episode-level credit';
  const baseline = cfg.grpo.turnBaseline === 'observations' ? ', same-observation baseline' : '';
  return `turn-level credit (γ ${cfg.grpo.turnDiscount}${baseline})`;
}

function trace(step: number, split: string, time: number, s: ScoredEpisode | { episode: ScoredEpisode['episode']; reward: number; advantage?: number }): MetricRecord {
  return {
    kind: 'trace',
    step,
    time,
    split,
    question: s.episode.question,
    turns: s.episode.turns.map((t, i) => {
      const advantage = 'turnAdvantages' in s ? s.turnAdvantages?.[i] : undefined;
      return { action: t.text, result: t.result, reward: t.reward, ...(t.errorType ? { error_type: t.errorType } : {}), ...(advantage !== undefined ? { advantage } : {}) };
    }),
    total_reward: s.reward,
    correct: s.episode.correct,
    advantage: s.advantage ?? null,
  };
}

/**
 * Runs (or resumes) the configured training and returns its summary.
 *
 * @example
 * ```ts
 * const summary = await runTraining({ config, policy, task: sqlTask(), makeEnv, questionCount, makeOracle: () => new OracleAgent() });
 * ```
 */
export async function runTraining<Obs>(setup: TrainingSetup<Obs>): Promise<TrainingSummary> {
  const cfg = setup.config;
  const print = setup.print ?? ((line: string) => console.log(line));
  const policy = setup.policy;
  const runDir = cfg.runDir;
  await mkdir(runDir, { recursive: true });
  const log = new MetricsLog(join(runDir, 'metrics.jsonl'));
  const store = new CheckpointStore(runDir, { keep: cfg.checkpoint.keep, ...(setup.beforeCheckpointCommit ? { beforeCommit: setup.beforeCheckpointCommit } : {}) });
  const rng = new Rng(cfg.seed);
  const started = Date.now();
  const pools = new Map<string, EnvPool<Obs>>();
  const pool = (split: string) => {
    let p = pools.get(split);
    if (!p) pools.set(split, (p = new EnvPool(() => setup.makeEnv(split))));
    return p;
  };
  const rollout: RolloutOptions = cfg.rollout;
  const referencePath = join(runDir, 'reference.safetensors');

  let state: RunState = { phase: 'sft_done', grpoStep: 0, metricsCount: 0, clock: 0, summary: { formatCheck: {}, sftSteps: 0, grpoSteps: 0, evaluations: {} } };
  let resumedFromStep: number | undefined;
  const checkpoint = await store.loadLatest();
  const sftOptimizer = () => new AdamW(policy.parameters(), { beta1: cfg.optim.beta1, beta2: cfg.optim.beta2, eps: cfg.optim.eps, weightDecay: cfg.optim.weightDecay });
  let optimizer = sftOptimizer();
  if (checkpoint) {
    state = checkpoint.extra as unknown as RunState;
    resumedFromStep = state.grpoStep;
    if (state.phase === 'grpo' && cfg.grpo.loss.beta > 0) {
      // The KL reference is the policy as GRPO started; restore it before the current weights.
      const ref = await SafetensorsFile.open(referencePath);
      try {
        const weights = new Map<string, CheckpointTensor>();
        for (const name of ref.names()) weights.set(name, await ref.read(name));
        loadWeights(policy, weights);
      } finally {
        await ref.close();
      }
      await policy.freezeReference();
    }
    loadWeights(policy, checkpoint.weights);
    optimizer.importState(checkpoint.optimizer);
    rng.setState(checkpoint.rngState);
    await log.truncateTo(state.metricsCount);
  }
  const clock0 = state.clock;
  const now = () => clock0 + (Date.now() - started) / 1000;
  const emit = async (record: Omit<MetricRecord, 'time'>) => log.append({ ...record, time: Math.round(now() * 1000) / 1000 } as MetricRecord);
  const event = async (step: number, name: string, message: string, value?: number) => {
    print(message);
    await emit({ kind: 'event', step, event: name, message, ...(value !== undefined ? { value } : {}) });
  };
  const refreshDashboard = async (live: boolean) => {
    if (cfg.logging.dashboard) await writeDashboard(runDir, await log.readAll(), { title: `sqlenv training run — ${runDir}`, live });
  };
  const evaluateSplits = async (label: string, step: number): Promise<SplitSuccess> => {
    const out: SplitSuccess = {};
    for (const split of cfg.env.evalSplits) {
      const episodes = Math.min(cfg.eval.episodes, setup.questionCount(split));
      const r: EvaluationResult = await evaluatePolicy(policy, setup.task, pool(split), split, episodes, rollout, rng);
      out[split] = { success: r.success, meanReturn: r.meanReturn, episodes };
      await emit({ kind: 'eval', step, label, split, episodes, success: r.success, mean_return: r.meanReturn, ...pickEval(r.metrics) });
      const first = r.episodes[0];
      if (first) await log.append(trace(step, split, now(), { episode: first, reward: r.meanReturn === 0 && first.turns.length === 0 ? 0 : first.turns.reduce((a, t) => a + t.reward, 0) }));
    }
    print(`eval [${label}] ` + Object.entries(out).map(([s, v]) => `${s}: success ${(v.success * 100).toFixed(1)}% return ${v.meanReturn.toFixed(3)}`).join(' | '));
    return out;
  };
  const formatCheck = async (label: string): Promise<FormatCheckResult> => {
    const n = Math.min(cfg.sft.formatCheckSamples, setup.questionCount(cfg.env.trainSplit));
    const r = await evaluatePolicy(policy, setup.task, pool(cfg.env.trainSplit), cfg.env.trainSplit, n, rollout, rng);
    const result = checkToolCallFormat(r.episodes.flatMap((e) => e.turns.map((t) => t.text)), setup.task.tools);
    await event(0, 'format_check', `format check (${label}): ${(result.share * 100).toFixed(1)}% of tool calls parse with exactly the schema's arguments (${result.exact}/${result.calls + result.turnsWithoutCall}; ${result.turnsWithoutCall} turns without a call)`, result.share);
    return result;
  };

  try {
    // ---- SFT warm-up -------------------------------------------------------------------
    if (!checkpoint) {
      await event(0, 'phase', `run ${runDir}: mode ${cfg.mode}, K = ${cfg.rollout.numGenerations}, ${cfg.rollout.questionsPerStep} questions/step, ${cfg.grpo.steps} GRPO steps, ${creditLabel(cfg)}`);
      if (cfg.env.evalSplits.length > 0 && cfg.eval.episodes > 0) state.summary.evaluations['untrained'] = await evaluateSplits('untrained', 0);
      if (cfg.mode !== 'grpo') {
        if (!setup.makeOracle) throw new Error("mode includes 'sft' but no scripted agent was given (makeOracle) to produce trajectories");
        state.summary.formatCheck.before = await formatCheck('before SFT');
        const oracle = setup.makeOracle();
        const available = setup.questionCount(cfg.env.trainSplit);
        const count = cfg.sft.questions > 0 ? Math.min(cfg.sft.questions, available) : available;
        const env = pool(cfg.env.trainSplit).take(1)[0]!;
        const trajectories: SftSequence[] = [];
        let wrong = 0;
        const tooLong: number[] = [];
        for (let i = 0; i < count; i++) {
          const spec = setup.task.episodeSpec?.(i, cfg.env.trainSplit) ?? { seed: i };
          // The scripted agent ends its own episodes; the env's step budget bounds them.
          const t = await agentTrajectory(env, oracle, setup.task, policy.codec, spec, Math.max(cfg.rollout.maxTurns, cfg.env.stepBudget));
          if (!t.correct) wrong++;
          else if (t.tokens.length > cfg.rollout.maxTotalTokens) tooLong.push(t.tokens.length);
          else trajectories.push(t);
        }
        const dropped = [
          wrong > 0 ? `${wrong} not solved by the scripted agent (is env.stepBudget large enough?)` : '',
          tooLong.length > 0 ? `${tooLong.length} longer than rollout.maxTotalTokens = ${cfg.rollout.maxTotalTokens} (longest ${Math.max(...tooLong)} tokens)` : '',
        ].filter(Boolean);
        print(`SFT: ${trajectories.length} correct oracle trajectories from ${count} questions${dropped.length ? `; dropped ${dropped.join(', ')}` : ''}`);
        if (trajectories.length === 0) {
          throw new Error(
            `SFT has no trajectory to learn from: ${dropped.join(', ')}. ` +
              (tooLong.length > 0 ? `Raise rollout.maxTotalTokens to at least ${Math.max(...tooLong)}${cfg.env.compactTools ? '' : ', or set env.compactTools: true to shorten the prompt'}.` : 'Check the scripted agent and the step budget.'),
          );
        }
        const totalSteps = cfg.sft.epochs * Math.ceil(trajectories.length / cfg.sft.batchSize);
        let sftStepNo = 0;
        const sftStart = Date.now();
        for (let epoch = 0; epoch < cfg.sft.epochs; epoch++) {
          for (const batch of sftBatches(trajectories, cfg.sft.batchSize, rng)) {
            const t0 = Date.now();
            const lr = learningRateAt(sftStepNo, { lr: cfg.sft.lr, warmupSteps: cfg.optim.warmupSteps, totalSteps, decay: 'linear', minRatio: 0.1 });
            const r = await sftStep(policy, optimizer, batch, { lr, maxGradNorm: cfg.optim.maxGradNorm, microBatches: cfg.optim.gradAccumulation });
            sftStepNo++;
            const seconds = (Date.now() - t0) / 1000;
            await emit({ kind: 'sft', step: sftStepNo, loss: r.loss, grad_norm: r.gradNorm, learning_rate: lr, tokens_per_second: r.tokens / Math.max(seconds, 1e-3), step_seconds: seconds, skipped: r.skippedBecause.length ? 1 : 0 });
            if (r.skippedBecause.length) await event(sftStepNo, 'nan_skip', `SFT step ${sftStepNo} skipped: non-finite ${r.skippedBecause.slice(0, 3).join(', ')}`);
            if (cfg.logging.progress && (sftStepNo % 5 === 0 || sftStepNo === totalSteps)) {
              print(formatProgress({ phase: 'sft', step: sftStepNo, totalSteps, tokensPerSecond: r.tokens / Math.max(seconds, 1e-3), elapsedMs: Date.now() - sftStart, stepsThisProcess: sftStepNo }) + ` | loss ${r.loss.toFixed(3)}`);
            }
          }
        }
        state.summary.sftSteps = sftStepNo;
        state.summary.formatCheck.after = await formatCheck('after SFT');
        if (cfg.env.evalSplits.length > 0 && cfg.eval.episodes > 0) state.summary.evaluations['sft'] = await evaluateSplits('sft', 0);
      }
      state.phase = 'sft_done';
      state.clock = now();
      state.metricsCount = await log.count();
      await store.save({ step: 0, weights: weightsOf(policy), optimizer: optimizer.exportState(), rngState: rng.getState(), extra: { ...state } });
      await refreshDashboard(true);
    }

    // ---- GRPO --------------------------------------------------------------------------
    if (cfg.mode !== 'sft' && cfg.grpo.steps > 0) {
      if (state.phase === 'sft_done') {
        optimizer = sftOptimizer(); // fresh moments for RL
        if (cfg.grpo.loss.beta > 0) {
          await writeSafetensors(referencePath, weightsOf(policy));
          await policy.freezeReference();
        }
        // Small-group guard, with a quick estimate of the current success rate.
        const k = cfg.rollout.numGenerations;
        let p: number | undefined;
        if (k < 4 && cfg.eval.baselineEpisodes > 0) {
          const n = Math.min(cfg.eval.baselineEpisodes, setup.questionCount(cfg.env.trainSplit));
          p = (await evaluatePolicy(policy, setup.task, pool(cfg.env.trainSplit), cfg.env.trainSplit, n, { ...rollout }, rng)).success;
        }
        const warning = smallGroupWarning(k, p);
        if (warning) await event(0, 'small_group_warning', warning, p);
      } else {
        print(`resumed from checkpoint at GRPO step ${state.grpoStep}`);
        await emit({ kind: 'event', step: state.grpoStep, event: 'resumed', message: `resumed from checkpoint at GRPO step ${state.grpoStep}` });
      }
      const alarms = new AlarmMonitor({
        rewardFlatSteps: cfg.alarms.rewardFlatSteps,
        zeroStdFraction: cfg.alarms.zeroStdFraction,
        identicalGroupFraction: cfg.alarms.identicalGroupFraction,
        toolErrorRise: cfg.alarms.toolErrorRise,
        klMax: cfg.alarms.klMax,
      });
      const ctx = { policy, task: setup.task, pool: pool(cfg.env.trainSplit), questionCount: setup.questionCount(cfg.env.trainSplit), config: cfg, optimizer, rng };
      const grpoStart = Date.now();
      let stepsThisProcess = 0;
      for (let step = state.grpoStep + 1; step <= cfg.grpo.steps; step++) {
        const t0 = Date.now();
        const lr = learningRateAt(step - 1, { lr: cfg.optim.lr, warmupSteps: cfg.optim.warmupSteps, totalSteps: cfg.grpo.steps, decay: cfg.optim.decay });
        const r = await grpoStep(ctx, lr);
        const seconds = (Date.now() - t0) / 1000;
        stepsThisProcess++;
        const m: Record<string, number> = { ...r.metrics, tokens_per_second: r.tokens / Math.max(seconds, 1e-3), step_seconds: seconds };
        await emit({ kind: 'train', step, ...m });
        state.summary.firstReward ??= m['reward'];
        state.summary.lastReward = m['reward'];
        state.summary.grpoSteps = step;
        if (r.skippedBecause.length) await event(step, 'nan_skip', `GRPO step ${step}: update skipped, non-finite ${r.skippedBecause.slice(0, 3).join(', ')} (loss or gradients). Lower the learning rate or check the rewards.`);
        for (const a of alarms.observe({ step, rewardMean: m['reward'] ?? 0, fracRewardZeroStd: m['frac_reward_zero_std'] ?? 0, fracIdenticalGroups: m['frac_identical_groups'] ?? 0, toolErrorRate: m['tools/failure_frequency'] ?? 0, kl: m['kl'] ?? 0 })) {
          await event(step, `alarm:${a.kind}`, `ALARM [${a.kind}] step ${step}: ${a.message}`);
        }
        // Traces: the best and the worst episode of the step, then any others up to the limit.
        const sorted = [...r.episodes].sort((a, b) => b.reward - a.reward);
        const picks = sorted.length > 1 ? [sorted[0]!, sorted[sorted.length - 1]!, ...sorted.slice(1, -1)] : sorted;
        for (const s of picks.slice(0, cfg.logging.tracesPerStep)) await log.append(trace(step, cfg.env.trainSplit, now(), s));
        if (cfg.logging.progress) {
          print(formatProgress({ phase: 'grpo', step, totalSteps: cfg.grpo.steps, reward: m['reward'], success: m['success'], tokensPerSecond: m.tokens_per_second, elapsedMs: Date.now() - grpoStart, stepsThisProcess }) +
            ` | zero-std ${((m['frac_reward_zero_std'] ?? 0) * 100).toFixed(0)}% | kl ${(m['kl'] ?? 0).toFixed(4)}`);
        }
        const isLast = step === cfg.grpo.steps;
        if (cfg.eval.everySteps > 0 && step % cfg.eval.everySteps === 0 && !isLast) await evaluateSplits('grpo', step);
        if ((cfg.checkpoint.everySteps > 0 && step % cfg.checkpoint.everySteps === 0) || isLast) {
          state.phase = 'grpo';
          state.grpoStep = step;
          state.clock = now();
          state.metricsCount = await log.count();
          await store.save({ step, weights: weightsOf(policy), optimizer: optimizer.exportState(), rngState: rng.getState(), extra: { ...state } });
        }
        await refreshDashboard(true);
      }
    }
    if (cfg.env.evalSplits.length > 0 && cfg.eval.episodes > 0) state.summary.evaluations['final'] = await evaluateSplits('final', state.summary.grpoSteps);
    await refreshDashboard(false);
    return { ...state.summary, wallSeconds: (Date.now() - started) / 1000, ...(resumedFromStep !== undefined ? { resumedFromStep } : {}) };
  } finally {
    for (const p of pools.values()) await p.close();
  }
}

function pickEval(metrics: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(metrics)) {
    if (k.startsWith('tool_errors/') || k.startsWith('repairs/') || k.startsWith('reward_components/') || k === 'turns_mean' || k.startsWith('tools/')) out[k] = v;
  }
  return out;
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
