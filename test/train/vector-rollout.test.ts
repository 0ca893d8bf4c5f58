/**
 * Rollouts on a vector env (VectorEnvSlots): the same episodes as on separate envs, one vector
 * step per turn, idle slots given the idle action, and a clear error when slots run out.
 */
import { afterEach, describe, expect, it } from 'vitest';
import '../../envs/sql/index.js';
import { readSplit, bundledRoot } from '../../data/lib/spider-layout.js';
import type { Env } from '../../src/gym/env.js';
import { make } from '../../src/gym/registry.js';
import { Rng } from '../../src/base/rng.js';
import { makeVec } from '../../src/gym/vector/make-vec.js';
import type { VectorEnv } from '../../src/gym/vector/vector-env.js';
import type { Episode } from '../../src/train/rollout/episode.js';
import { rolloutEpisodes } from '../../src/train/rollout/multi-turn-rollout.js';
import { VectorEnvSlots, VectorSlotsExhaustedError } from '../../src/train/rollout/vector-env-slots.js';
import type { ChatCodec, GenerateRequest, GenerateResult } from '../../src/train/policy/trainable-policy.js';
import { GenerateOnlyPolicy } from './fixtures/generate-only-policy.js';
import { sqlRolloutTask } from '../../src/recipes/sql/task/sql-task.js';
import type { SqlObservation } from '../../envs/sql/index.js';

const call = (name: string, args: Record<string, unknown>) => `<tool_call>${JSON.stringify({ name, arguments: args })}</tool_call>`;
/** Turn t of every episode writes REPLIES[t]: a query, a malformed call, then an answer. */
const REPLIES = [call('query', { sql: 'SELECT count(*) FROM sqlite_master' }), 'DESCRIBE', call('answer', { value: '3' })];

/** Token t + 1 is reply t; a turn's index is the number of replies already in the sequence. */
class TurnCodec implements ChatCodec {
  encodeStart(): number[] {
    return [0];
  }
  encodeToolResponses(): number[] {
    return [0];
  }
  decode(tokens: readonly number[]): string {
    return tokens.filter((t) => t > 0).map((t) => REPLIES[t - 1]!).join('');
  }
  encodeAssistantTurn(): number[] {
    return [0];
  }
}

class TurnPolicy extends GenerateOnlyPolicy {
  readonly codec = new TurnCodec();
  generateCalls = 0;
  async generate(requests: readonly GenerateRequest[]): Promise<GenerateResult[]> {
    this.generateCalls++;
    return requests.map((r) => ({ tokens: [Math.min(r.prompt.filter((t) => t > 0).length, REPLIES.length - 1) + 1], logprobs: [0], finishReason: 'stop' as const }));
  }
}

const KWARGS = { dataset: 'bundled', split: 'smoke', stepBudget: 5 };
const questionIds = readSplit(bundledRoot(), 'smoke').slice(0, 3).map((_, i) => `smoke-${String(i).padStart(4, '0')}`);
const task = sqlRolloutTask(() => questionIds);
const options = { maxTurns: 5, maxNewTokensPerTurn: 4, maxTotalTokens: 64, temperature: 1, topP: 1 };

async function rollout(envs: Env<SqlObservation, unknown>[], policy = new TurnPolicy()): Promise<Episode[]> {
  // Two groups of sizes 2 and 1: slots of one vector env serve episodes of different questions.
  const jobs = envs.map((env, i) => ({ env, spec: task.episodeSpec!(i < 2 ? 0 : 1, 'smoke'), group: i < 2 ? 0 : 1 }));
  return rolloutEpisodes(policy, task, jobs, options, new Rng(3));
}

const summary = (eps: Episode[]) => eps.map((e) => ({ question: e.question, turns: e.turns.map((t) => [t.action, t.reward, t.errorType ?? null]), correct: e.correct, finished: e.finished }));

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of closers.splice(0)) await c();
});

describe('rollouts on a vector env (VectorEnvSlots)', () => {
  it.each(['sync', 'async'] as const)('%s: the same episodes as separate envs, one vector step per turn', async (mode) => {
    const separate = Array.from({ length: 3 }, () => make<SqlObservation, unknown>('SQLEnv-v0', KWARGS));
    closers.push(async () => void (await Promise.all(separate.map((e) => e.close()))));
    const expected = await rollout(separate);
    expect(expected.every((e) => e.finished && e.turns.length === 3)).toBe(true);
    expect(expected[0]!.turns[1]!.errorType).toBe('parse_error');

    // One more sub-env than episodes: the idle slot is stepped with the idle action and ignored.
    const vec = makeVec<SqlObservation, unknown>('SQLEnv-v0', { numEnvs: 4, vectorizationMode: mode, kwargs: KWARGS });
    const slots = new VectorEnvSlots(vec);
    closers.push(() => slots.close());
    let vectorSteps = 0;
    const step = vec.step.bind(vec);
    (vec as { step: VectorEnv<SqlObservation, unknown>['step'] }).step = async (actions) => {
      vectorSteps++;
      expect(actions[3]).toBeNull();
      return step(actions);
    };
    const got = await rollout([slots.take(), slots.take(), slots.take()]);
    expect(summary(got)).toEqual(summary(expected));
    expect(got.map((e) => e.tokens)).toEqual(expected.map((e) => e.tokens));
    expect(vectorSteps).toBe(3); // three turns, each one batched vector step
  }, 60_000);

  it('names the remedy when a rollout needs more episodes than the vector env has sub-envs', async () => {
    const slots = new VectorEnvSlots(makeVec<SqlObservation, unknown>('SQLEnv-v0', { numEnvs: 2, kwargs: KWARGS }));
    closers.push(() => slots.close());
    slots.take();
    slots.take();
    expect(() => slots.take()).toThrow(VectorSlotsExhaustedError);
    expect(() => slots.take()).toThrow(/numGenerations × rollout.questionsPerStep/);
  });
});
