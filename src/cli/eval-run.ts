/**
 * `sqlenv eval --run DIR`: a trained model, from the run directory `sqlenv train` or the demo
 * wrote, on a held-out split: greedy success (the run's own evaluation, reproduced from the same
 * weights), mean return, how often a query found the gold result, and with `--samples K`
 * pass@1 / pass@K / majority vote at the run's rollout temperature.
 */
import { Rng } from '../base/rng.js';
import { openTrainedRun } from '../recipes/sql/trained-run.js';
import { SqlenvError } from '../base/sqlenv-error.js';
import { TrainConfigError } from '../train/config/load-config.js';
import { loadSqlTrainConfig } from '../recipes/sql/sql-config.js';
import { evaluatePolicy, evaluateSampled, outcomesOf } from '../train/eval/evaluate-policy.js';
import { sharpeningHeadroom, type PassAtKPoint } from '../train/eval/pass-at-k.js';
import { writeFileAtomic } from '../train/checkpoint/durable-fs.js';
import { episodeReward } from '../train/math/advantages.js';
import { stepRewardsOf } from '../train/rollout/episode.js';
import { traceRecord } from '../train/run/traces.js';
import { EnvPool } from '../train/rollout/env-pool.js';
import { decodingOf } from '../train/rollout/multi-turn-rollout.js';

/** What `sqlenv eval --run` was asked for. */
export interface EvaluateRunOptions {
  runDir: string;
  /** Checkpoint step (default: the newest). */
  step?: number;
  /** Split (default: the run's first test split). */
  split?: string;
  /** Another dataset source than the run's. */
  dataset?: string;
  /** The run's config file, for a run directory without config.json. */
  configFile?: string;
  episodes: number;
  /** Every question of the split (after the run's difficulty tiers) instead of the first `episodes`. */
  all: boolean;
  samples: number;
  seed: number;
  json: boolean;
  /**
   * Decode with the task's guide (default: unguided, whatever the run's `rollout.guidedDecoding`
   * says); the unguided figure is then measured too and reported beside the guided one.
   */
  guided?: boolean;
  /** Write each greedy episode's trace (the question, every turn and the tool's answer to it, rewards, the verdict) as one JSON line to this file. */
  tracesFile?: string;
}

const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;

/** `pass@k: k=1 56.8%, k=2 64.9%, …`, the line both `sqlenv eval` forms print for `--samples K`. */
export function passAtKCurveLine(curve: readonly PassAtKPoint[]): string {
  return `pass@k: ${curve.map((p) => `k=${p.k} ${pct(p.passAtK)}`).join(', ')}`;
}

/**
 * Evaluates a run's model and prints the report; returns the exit code (1 with a message for a
 * run that cannot be opened, 2 for a config file that does not parse).
 *
 * @example
 * ```ts
 * await evaluateRun({ runDir: 'runs/grpo-sql-demo', split: 'eval', episodes: 119, all: false, samples: 4, seed: 0, json: false });
 * ```
 */
export async function evaluateRun(o: EvaluateRunOptions): Promise<number> {
  let config: unknown;
  if (o.configFile !== undefined) {
    try {
      config = await loadSqlTrainConfig(o.configFile);
    } catch (err) {
      if (!(err instanceof TrainConfigError)) throw err;
      console.error(`sqlenv eval: ${err.message}`);
      return 2;
    }
  }
  await import('../../envs/sql/index.js');
  let run;
  try {
    run = await openTrainedRun(o.runDir, {
      ...(o.split === undefined ? {} : { splits: [o.split] }),
      ...(o.step === undefined ? {} : { step: o.step }),
      ...(o.dataset === undefined ? {} : { dataset: o.dataset }),
      ...(config === undefined ? {} : { config }),
    });
  } catch (err) {
    // A missing run, config, checkpoint or split: say which, not a stack trace.
    if (!(err instanceof SqlenvError)) throw err;
    console.error(`sqlenv eval: ${err.message}`);
    return 1;
  }
  // The split asked for, else the run's first test split.
  const split = run.config.env.evalSplits[0]!;
  const pool = new EnvPool(() => run.makeEnv(split));
  try {
    const { policy, task } = run.setup;
    const available = run.setup.questionCount(split);
    const episodes = o.all ? available : Math.min(o.episodes, available);
    const tiers = run.config.sql.evalDifficulties;
    const unguidedRollout = { ...run.config.rollout, guidedDecoding: 'off' as const };
    const rollout = o.guided ? { ...run.config.rollout, guidedDecoding: 'evaluation' as const } : unguidedRollout;
    const decoding = decodingOf(task, rollout, 'evaluation');
    if (!o.json) {
      console.log(`model of ${o.runDir} (checkpoint of step ${run.step}) on ${run.config.env.dataset}/${split}: ${episodes} of ${available} questions${tiers.length ? ` (difficulty ${tiers.join(', ')}: the run's sql.evalDifficulties)` : ''}, greedy, ${decoding} decoding`);
      if (o.guided && decoding === 'unguided') console.log("(the run's task has no decoding guide: --guided decodes as without it)");
    }
    const greedy = await evaluatePolicy(policy, task, pool, split, episodes, rollout, new Rng(o.seed));
    // A guided figure is the guide's and the model's together: the model's own goes beside it.
    const unguided = decoding === 'guided' ? await evaluatePolicy(policy, task, pool, split, episodes, unguidedRollout, new Rng(o.seed)) : undefined;
    if (o.tracesFile !== undefined) {
      // The dashboard's trace records, one line an episode in the split's order: failures can be read question by question.
      const lines = greedy.episodes.map((episode) => JSON.stringify(traceRecord(run.step, split, 0, { episode, reward: episodeReward(stepRewardsOf(episode), 'sum') })));
      await writeFileAtomic(o.tracesFile, lines.map((l) => `${l}\n`).join(''));
    }
    const outcomes = outcomesOf(greedy.metrics);
    let sampled;
    if (o.samples > 1) {
      if (!o.json) console.log(`sampling ${o.samples} episodes of each question at temperature ${run.config.rollout.temperature}…`);
      const s = await evaluateSampled(policy, task, pool, split, episodes, o.samples, rollout, new Rng(o.seed));
      sampled = {
        questions: episodes, samples: o.samples, k: o.samples, temperature: run.config.rollout.temperature, passAt1: s.passAt1, passAtK: s.passAtK, majority: s.majority,
        curve: s.curve, headroom: sharpeningHeadroom(greedy.episodes.map((e) => e.correct), s.correctPerQuestion),
      };
    }
    const summary = {
      agent: 'model', run: o.runDir, checkpoint_step: run.step, dataset: run.config.env.dataset, split, episodes, decoding,
      success_rate: greedy.success, mean_return: greedy.meanReturn, outcomes,
      ...(unguided ? { unguided: { success_rate: unguided.success, mean_return: unguided.meanReturn, correct: unguided.episodes.map((e) => e.correct) } } : {}),
      // Question by question, so two checkpoints can be compared on the same questions (which were gained, which lost).
      correct: greedy.episodes.map((e) => e.correct),
      ...(sampled ? { sampled } : {}),
    };
    if (o.json) {
      console.log(JSON.stringify(summary));
    } else {
      const found = outcomes['found_gold_result'];
      const copied = outcomes['gold_literals_written'];
      const retried = outcomes['retried_after_failure'];
      const recovered = outcomes['recovered_after_failure'] ?? 0;
      console.log(
        `success rate ${pct(greedy.success)} (${decoding}${unguided ? `; unguided ${pct(unguided.success)}` : ''}), mean return ${greedy.meanReturn.toFixed(3)}${found === undefined ? '' : `, a query returned the gold result in ${pct(found)}`}` +
          `${copied === undefined ? '' : `, a query wrote the gold SQL's values in ${pct(copied)}`}` +
          `${retried === undefined ? '' : `, queried again after a failed or empty query in ${pct(retried)} (and found the gold result so in ${pct(recovered)})`}`,
      );
      if (sampled) {
        const h = sampled.headroom;
        console.log(`${sampled.questions} questions × ${sampled.samples} samples at temperature ${sampled.temperature}, ${decoding}: pass@1 ${pct(sampled.passAt1)}, pass@${sampled.k} ${pct(sampled.passAtK)}, majority vote ${pct(sampled.majority)}`);
        console.log(passAtKCurveLine(sampled.curve));
        console.log(
          `sharpening headroom: greedy missed ${h.questions - h.greedyRight} questions, ${h.missedButSampled} of them answered right by at least one sample; ` +
            `ceiling ${pct(h.ceiling)} (+${(100 * h.missedButSampled / h.questions).toFixed(1)} points over greedy)` +
            `${h.rightButNeverSampled ? `; ${h.rightButNeverSampled} greedy-right questions had no right sample` : ''}`,
        );
      }
    }
    return 0;
  } finally {
    await pool.close();
    await run.close();
  }
}
