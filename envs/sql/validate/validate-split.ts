import type { Info } from '../../../src/gym/env.js';
import type { SqlAgent } from '../agents/agent.js';
import { OracleAgent } from '../agents/oracle-agent.js';
import { RandomAgent } from '../agents/random-agent.js';
import type { SqlDataset } from '../datasets/sql-dataset.js';
import type { SqlQuestion } from '../datasets/sql-question.js';
import type { SqlObservation } from '../observation/sql-observation.js';
import type { RewardComponents } from '../reward/step-reward.js';
import { resolveRewardConfig, type RewardConfig } from '../reward/reward-config.js';
import type { QueryPool } from '../sandbox/query-pool.js';
import { SQLEnv } from '../sql-env.js';
import { DEGENERATE_POLICIES } from './degenerate-policies.js';
import type { CheckResult, SplitStats, ValidationReport } from './validation-report.js';

/** Options of {@link validateSplit}. */
export interface ValidateOptions {
  /** Query pool shared by the envs (the caller's; left open). */
  pool: QueryPool;
  /** Questions per policy for the degenerate, canary and replay checks (default: all). The golden check always plays every question. */
  sampleSize?: number;
  /** Step budget of the episodes (default 10, the env's). */
  stepBudget?: number;
  /** Reward constants to validate (default: SQLEnv's). */
  reward?: Partial<RewardConfig>;
}

/** Slack for float sums of rewards (every constant is far above it). */
const EPS = 1e-9;

/** One step as recorded by {@link playEpisode}. */
interface StepRecord {
  obs: SqlObservation;
  reward: number;
  terminated: boolean;
  truncated: boolean;
  info: Info;
}

interface EpisodeTrace {
  questionId: string;
  reset: [SqlObservation, Info];
  steps: StepRecord[];
  /** Sum of the rewards up to and including the step that ended the episode. */
  episodeReturn: number;
  /** Sum of every reward, calls after the end included. */
  totalReturn: number;
  correct: boolean;
}

/**
 * Play one episode of `agent` on `questionId` with `seed`, then `stepsAfterEnd` more calls,
 * recording every observation, reward and info.
 */
async function playEpisode(env: SQLEnv, agent: SqlAgent, questionId: string, seed: number, stepsAfterEnd = 0): Promise<EpisodeTrace> {
  const reset = await env.reset({ seed, options: { questionId } });
  let [obs, info] = reset;
  await agent.reset(obs, info);
  const steps: StepRecord[] = [];
  let episodeReturn = 0;
  let totalReturn = 0;
  let ended = false;
  let after = 0;
  let correct = false;
  // The env truncates at its step budget, so the loop ends; the bound is a guard against a bug.
  for (let guard = 0; guard < 10_000 && (!ended || after < stepsAfterEnd); guard++) {
    if (ended) after++;
    const action = await agent.act(obs, info);
    const [next, reward, terminated, truncated, stepInfo] = await env.step(action);
    steps.push({ obs: next, reward, terminated, truncated, info: stepInfo });
    totalReturn += reward;
    if (!ended) {
      episodeReturn += reward;
      correct = stepInfo.is_correct === true;
    }
    ended ||= terminated || truncated;
    obs = next;
    info = stepInfo;
  }
  return { questionId, reset, steps, episodeReturn, totalReturn, correct };
}

const components = (info: Info) => info.reward_components as RewardComponents;

/**
 * Validate the reward of SQLEnv on one loaded split: golden (the oracle earns the best return on
 * every question, value and SQL answers; its gold result is non-empty or flagged), degenerate
 * policies (none earns more than the floor or is judged correct), shaping canaries (progress
 * sums to zero over every episode; operational parts within their clip), replay (same seed and
 * actions, same trajectory) and gold leaks (never in an observation or info before the end).
 *
 * @example
 * ```ts
 * const report = await validateSplit(dataset, { pool, sampleSize: 50 });
 * report.checks.filter((c) => c.status === 'fail');
 * ```
 */
export async function validateSplit(dataset: SqlDataset, options: ValidateOptions): Promise<ValidationReport> {
  const reward = resolveRewardConfig(options.reward);
  const stepBudget = options.stepBudget ?? 10;
  const makeEnv = (answerMode: 'value' | 'sql' = 'value') => new SQLEnv({ dataset, pool: options.pool, stepBudget, reward, answerMode });
  const split = dataset.split;
  const all = dataset.questions;
  const sample = sampleQuestions(all, options.sampleSize);
  const checks: CheckResult[] = [];
  const canary = new CanaryTally(reward);

  // Broken gold SQL: the loader skipped these questions.
  checks.push(
    result(split, 'gold SQL runs', dataset.skipped.length === 0 ? 'pass' : 'fail', all.length + dataset.skipped.length,
      dataset.skipped.length === 0 ? 'every gold query ran' : `${dataset.skipped.length} question(s) skipped`,
      dataset.skipped.map((s) => `${s.id}: ${s.reason}`)),
  );

  // Golden: the oracle, as values and as SQL, on every question.
  for (const mode of ['value', 'sql'] as const) {
    const env = makeEnv(mode);
    const agent = new OracleAgent(dataset, { answerWithSql: mode === 'sql', stepBudget });
    const failures: string[] = [];
    try {
      for (const [i, q] of all.entries()) {
        const trace = await playEpisode(env, agent, q.id, i);
        canary.add(trace);
        const best = bestReturn(trace.steps.length, reward);
        if (!trace.correct) failures.push(`${q.id}: judged wrong`);
        else if (Math.abs(trace.episodeReturn - best) > EPS) failures.push(`${q.id}: return ${fmt(trace.episodeReturn)}, best ${fmt(best)}`);
      }
    } finally {
      await env.close();
    }
    checks.push(
      result(split, `golden (${mode} answers)`, failures.length ? 'fail' : 'pass', all.length,
        failures.length ? `${failures.length} question(s) below the best return` : `oracle correct with the best return (${fmt(reward.correct)} + per-step costs) on all`,
        failures),
    );
  }
  const empty: string[] = [];
  for (const q of all) if ((await dataset.goldResult(q)).rows.length === 0) empty.push(q.id);
  checks.push(
    result(split, 'gold result non-empty', empty.length ? 'flag' : 'pass', all.length,
      empty.length ? `${empty.length} gold result(s) empty: an empty answer cannot tell right from wrong there` : 'every gold result has rows', empty),
  );

  // Degenerate policies.
  const floor = floorReturn(reward);
  const env = makeEnv();
  try {
    for (const policy of DEGENERATE_POLICIES) {
      const agent = policy.agent(dataset);
      const failures: string[] = [];
      let best = -Infinity;
      for (const [i, q] of sample.entries()) {
        const trace = await playEpisode(env, agent, q.id, i, policy.stepsAfterEnd);
        canary.add(trace);
        if (!policy.usesGold) canary.checkLeaks(trace, q);
        best = Math.max(best, trace.totalReturn);
        if (trace.correct) failures.push(`${q.id}: judged correct`);
        else if (trace.totalReturn > floor + EPS) failures.push(`${q.id}: return ${fmt(trace.totalReturn)} > floor ${fmt(floor)}`);
      }
      checks.push(
        result(split, `degenerate: ${policy.name}`, failures.length ? 'fail' : 'pass', sample.length,
          `${policy.description}; best return ${fmt(best)} (floor ${fmt(floor)})`, failures),
      );
    }

    // Replay, with a seeded random agent (it also exercises malformed and odd calls).
    const replayFailures: string[] = [];
    for (const [i, q] of sample.entries()) {
      const first = await playEpisode(env, new RandomAgent(i), q.id, i);
      const second = await playEpisode(env, new RandomAgent(i), q.id, i);
      canary.add(first);
      canary.checkLeaks(first, q);
      if (JSON.stringify(strip(first)) !== JSON.stringify(strip(second))) replayFailures.push(`${q.id}: the replay differs`);
    }
    checks.push(
      result(split, 'replay', replayFailures.length ? 'fail' : 'pass', sample.length,
        'same seed and actions → identical observations, rewards and info', replayFailures),
    );
  } finally {
    await env.close();
  }

  checks.push(...canary.results(split));
  return { checks, stats: [await splitStats(dataset)] };
}

/**
 * The best return an episode of `steps` steps can earn: a correct answer, every step having run
 * without repeating (the shaping potentials telescope to zero over a whole episode).
 */
export function bestReturn(steps: number, reward: RewardConfig): number {
  return reward.correct + steps * clip(reward.execOk - reward.stepCost, reward);
}

/** The floor: the return of one harmless step that ends the episode without a correct answer. */
export function floorReturn(reward: RewardConfig): number {
  return clip(reward.execOk - reward.stepCost, reward) + Math.max(reward.wrong, -reward.outOfBudgetPenalty);
}

function clip(x: number, reward: RewardConfig): number {
  return Math.min(reward.operationalClip[1], Math.max(reward.operationalClip[0], x));
}

/** Shaping canaries gathered over every episode the validation plays. */
class CanaryTally {
  episodes = 0;
  private readonly telescoping: string[] = [];
  private readonly clipped: string[] = [];
  private readonly leaks: string[] = [];
  private leakEpisodes = 0;

  constructor(private readonly reward: RewardConfig) {}

  add(trace: EpisodeTrace): void {
    this.episodes++;
    let progress = 0;
    const [lo, hi] = this.reward.operationalClip;
    for (const step of trace.steps) {
      const c = components(step.info);
      progress += c.progress;
      if (c.operational < lo - EPS || (c.operational > hi + EPS && step.info.error_type !== 'episode_over')) {
        this.clipped.push(`${trace.questionId}: operational ${fmt(c.operational)} outside [${lo}, ${hi}]`);
      }
    }
    if (Math.abs(progress) > EPS) this.telescoping.push(`${trace.questionId}: progress sums to ${fmt(progress)} over the episode`);
  }

  /** The gold SQL and the verdict must not appear before the episode ends. */
  checkLeaks(trace: EpisodeTrace, question: SqlQuestion): void {
    this.leakEpisodes++;
    const gold = squash(question.goldSql);
    const before = [{ obs: trace.reset[0], info: trace.reset[1], done: false }, ...trace.steps.map((s) => ({ obs: s.obs, info: s.info, done: s.terminated || s.truncated }))];
    for (const { obs, info, done } of before) {
      if (done) break;
      if ('gold_sql' in info || 'is_correct' in info || 'gold_result_seen' in info) this.leaks.push(`${trace.questionId}: info has the verdict or gold before the end`);
      else if (gold.length > 0 && squash(JSON.stringify(obs)).includes(gold)) this.leaks.push(`${trace.questionId}: the observation shows the gold SQL`);
    }
  }

  results(split: string): CheckResult[] {
    return [
      result(split, 'canary: progress telescopes', this.telescoping.length ? 'fail' : 'pass', this.episodes,
        'Σ progress = 0 over every episode (alternating and oscillating queries included)', this.telescoping),
      result(split, 'canary: operational within clip', this.clipped.length ? 'fail' : 'pass', this.episodes,
        `every step's operational part in [${this.reward.operationalClip.join(', ')}]`, this.clipped),
      result(split, 'no gold leak before the end', this.leaks.length ? 'fail' : 'pass', this.leakEpisodes,
        'no gold SQL in observations, no verdict or gold in info until the episode ends', this.leaks),
    ];
  }
}

/** Distribution of one split: difficulty mix, empty gold results, duplicate questions. */
async function splitStats(dataset: SqlDataset): Promise<SplitStats> {
  const difficulty: Record<string, number> = {};
  const texts = new Map<string, number>();
  let empty = 0;
  for (const q of dataset.questions) {
    const d = q.difficulty ?? 'unknown';
    difficulty[d] = (difficulty[d] ?? 0) + 1;
    const key = questionKey(q);
    texts.set(key, (texts.get(key) ?? 0) + 1);
    if ((await dataset.goldResult(q)).rows.length === 0) empty++;
  }
  const duplicates = [...texts.values()].reduce((s, n) => s + (n - 1), 0);
  return {
    split: dataset.split,
    questions: dataset.questions.length,
    skipped: dataset.skipped.length,
    databases: dataset.dbIds.length,
    difficulty,
    emptyGoldRate: dataset.questions.length ? empty / dataset.questions.length : 0,
    duplicateQuestions: duplicates,
  };
}

/**
 * What makes two questions the same: the database and the text up to case and spacing.
 *
 * @example
 * ```ts
 * questionKey(q1) === questionKey(q2); // a duplicate
 * ```
 */
export function questionKey(question: SqlQuestion): string {
  return `${question.dbId}\u0000${squash(question.question)}`;
}

function sampleQuestions(all: readonly SqlQuestion[], size: number | undefined): SqlQuestion[] {
  if (size === undefined || size >= all.length) return [...all];
  // Evenly spaced, so every database and difficulty of an ordered file is represented.
  return Array.from({ length: size }, (_, i) => all[Math.floor((i * all.length) / size)]!);
}

function result(split: string, check: string, status: CheckResult['status'], episodes: number, detail: string, failures: string[]): CheckResult {
  return { split, check, status, episodes, detail, failures };
}

/** Whitespace-collapsed, lower-cased text, for leak and duplicate matching. */
function squash(text: string): string {
  return text.replace(/\s+/g, ' ').trim().toLowerCase();
}

/** A trace without timing-dependent fields, for replay comparison. */
function strip(trace: EpisodeTrace): unknown {
  return { reset: trace.reset, steps: trace.steps };
}

function fmt(x: number): string {
  return Number.isFinite(x) ? x.toFixed(3) : String(x);
}
