/**
 * Sampled held-out evaluation: K episodes per question at the rollout temperature, scored as
 * pass@1, pass@K and majority vote over the answers the episodes submitted.
 */
import { describe, expect, it } from 'vitest';
import { Env, type ResetOptions, type ResetResult, type StepResult } from '../../src/gym/env.js';
import { Rng } from '../../src/base/rng.js';
import { Discrete } from '../../src/gym/spaces/discrete.js';
import { Text } from '../../src/gym/spaces/text.js';
import { evaluateSampled, finalAnswerOf, outcomesOf } from '../../src/train/eval/evaluate-policy.js';
import type { ChatCodec, GenerateRequest, GenerateResult } from '../../src/train/policy/trainable-policy.js';
import { EnvPool } from '../../src/train/rollout/env-pool.js';
import type { RolloutTask } from '../../src/train/rollout/rollout-task.js';
import { GenerateOnlyPolicy } from './fixtures/generate-only-policy.js';

const answer = (value: string) => `<tool_call>${JSON.stringify({ name: 'answer', arguments: { value } })}</tool_call>`;

/** One step: the answer "right" is correct, anything else is wrong; the episode ends. */
class AnswerEnv extends Env<string, unknown> {
  override actionSpace = new Discrete(1) as never;
  override observationSpace = new Text({ maxLength: 64, minLength: 0, charset: 'any' }) as never;
  override async reset(options: ResetOptions = {}): Promise<ResetResult<string>> {
    await super.reset(options);
    return ['question', {}];
  }
  override async step(action: unknown): Promise<StepResult<string>> {
    const value = (action as { arguments?: { value?: string } }).arguments?.value;
    return ['over', value === 'right' ? 1 : 0, true, false, { is_correct: value === 'right' }];
  }
}

/** Token t decodes to replies[t - 1]; the n-th generated turn (over all calls) is reply n mod replies. */
class CyclingPolicy extends GenerateOnlyPolicy {
  readonly codec: ChatCodec;
  private n = 0;
  constructor(readonly replies: readonly string[]) {
    super();
    this.codec = {
      encodeStart: () => [0],
      encodeToolResponses: () => [0],
      encodeAssistantTurn: () => [0],
      decode: (tokens: readonly number[]) => tokens.filter((t) => t > 0).map((t) => replies[t - 1]!).join(''),
    };
  }
  async generate(requests: readonly GenerateRequest[]): Promise<GenerateResult[]> {
    return requests.map(() => ({ tokens: [(this.n++ % this.replies.length) + 1], logprobs: [0], finishReason: 'stop' as const }));
  }
}

const task: RolloutTask<string> = { systemPrompt: 's', tools: [], renderInitial: (o) => o, renderStepResult: (o) => o, questionOf: (o) => o };
const options = { maxTurns: 2, maxNewTokensPerTurn: 4, maxTotalTokens: 64, temperature: 1, topP: 1 };

describe('evaluateSampled', () => {
  it('scores K samples per question: pass@1, pass@K, and the majority vote of the submitted answers', async () => {
    // Per question (4 samples): right once, "w1" twice, "w2" once → the vote picks the wrong "w1".
    const pool = new EnvPool(() => new AnswerEnv());
    const r = await evaluateSampled(new CyclingPolicy([answer('right'), answer('w1'), answer('w1'), answer('w2')]), task, pool, 'eval', 3, 4, options, new Rng(0), 8);
    expect(r.episodes).toHaveLength(12);
    expect(r).toMatchObject({ questions: 3, samples: 4, k: 4, majority: 0 });
    expect(r.passAt1).toBeCloseTo(0.25, 12);
    expect(r.passAtK).toBe(1);
    // Right twice of four: the vote ties at 2–1–1 and goes to the answer seen first.
    const twice = await evaluateSampled(new CyclingPolicy([answer('right'), answer('w1'), answer('right'), answer('w2')]), task, pool, 'eval', 2, 4, options, new Rng(0));
    expect(twice.majority).toBe(1);
    expect(twice.passAt1).toBeCloseTo(0.5, 12);
    await pool.close();
  });

  it('finalAnswerOf: the last action of a finished episode, none when cut off by tokens', async () => {
    const pool = new EnvPool(() => new AnswerEnv());
    const r = await evaluateSampled(new CyclingPolicy([answer('right')]), task, pool, 'eval', 1, 1, options, new Rng(0));
    const e = r.episodes[0]!;
    expect(finalAnswerOf(e)).toBe('{"name":"answer","arguments":{"value":"right"}}');
    expect(finalAnswerOf({ ...e, truncatedByTokens: true })).toBeUndefined();
    expect(finalAnswerOf({ ...e, finished: false })).toBeUndefined();
    await pool.close();
  });
});

describe('outcomesOf', () => {
  it('keeps the outcomes/ metrics of an evaluation, without their prefix', () => {
    expect(outcomesOf({ success: 0.5, 'outcomes/found_gold_result': 0.6, 'outcomes/answer_repeats_query': 0.25, 'tools/call_frequency': 2 }))
      .toEqual({ found_gold_result: 0.6, answer_repeats_query: 0.25 });
    expect(outcomesOf({ success: 0 })).toEqual({});
  });
});
