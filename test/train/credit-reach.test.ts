/**
 * Credit that reaches every decision: the correctness reward reaches the query that led to it, and
 * episodes the trainer cuts settle the env's shaping, so shaping sums to zero over every episode.
 */
import { describe, expect, it } from 'vitest';
import { SQLEnv, type SqlObservation } from '../../envs/sql/index.js';
import { Rng } from '../../src/base/rng.js';
import { resolveTrainConfig } from '../../src/train/config/load-config.js';
import { assignCredit, tokenCredit } from '../../src/train/grpo/credit-assignment.js';
import type { Group } from '../../src/train/grpo/sample-groups.js';
import type { Episode, TurnRecord } from '../../src/train/rollout/episode.js';
import { rolloutEpisodes, SHAPING_SETTLED_COMPONENT, unsettledShapingOf } from '../../src/train/rollout/multi-turn-rollout.js';
import type { RolloutTask } from '../../src/train/rollout/rollout-task.js';
import type { ChatCodec, GenerateRequest, GenerateResult } from '../../src/train/policy/trainable-policy.js';
import { GenerateOnlyPolicy } from './fixtures/generate-only-policy.js';
import { useFixtureEnv } from '../sql/fixture-env.js';

/** A two-turn episode (a query, then an answer) with SQLEnv-like step rewards: shaping on the query, correctness at the end. */
function episode(queryTokens: number[], rewards: [query: number, answer: number], correct: boolean): Episode {
  const prompt = [0, 0];
  const answer = [7, 8];
  const turn = (text: string, span: readonly [number, number], reward: number): TurnRecord => ({ text, tokenSpan: span, action: text, result: '', reward, repairs: [], parsedToolCall: true, malformedCall: false });
  const queryEnd = prompt.length + queryTokens.length;
  return {
    group: 0,
    question: 'q',
    tokens: [...prompt, ...queryTokens, 9, ...answer],
    mask: [...prompt.map(() => 0), ...queryTokens.map(() => 1), 0, ...answer.map(() => 1)],
    promptLength: prompt.length,
    turns: [turn(`query ${queryTokens.join(' ')}`, [prompt.length, queryEnd], rewards[0]), turn('answer', [queryEnd + 1, queryEnd + 1 + answer.length], rewards[1])],
    rewardComponents: {},
    finished: true,
    truncatedByTokens: false,
    correct,
    generatedTokens: queryTokens.length + answer.length,
  };
}

describe('credit that reaches the query', () => {
  // Two episodes of a group that differ only in their first query. The wrong query looks closer to
  // the gold result (more shaping) but the answer after it is wrong; the right one ends correct.
  const right = episode([1, 2, 3], [0.05, 1 - 0.05], true);
  const wrong = episode([4, 5, 6], [0.12, -0.12], false);
  const group: Group = { episodes: [right, wrong], rewards: [1, 0] };
  const queryAdvantage = (e: Episode, cfg: ReturnType<typeof resolveTrainConfig>) => {
    const spread = tokenCredit(e, assignCredit([group], cfg).get(e)!);
    return typeof spread === 'number' ? spread : spread[e.turns[0]!.tokenSpan[0]]!;
  };

  it("episode credit (the default) and turn credit with γ = 1 give the correct episode's query the higher advantage", () => {
    for (const grpo of [{}, { credit: 'turn', turnDiscount: 1 }]) {
      const cfg = resolveTrainConfig({ grpo });
      expect(queryAdvantage(right, cfg)).toBeGreaterThan(queryAdvantage(wrong, cfg));
      expect(queryAdvantage(right, cfg)).toBeGreaterThan(0);
    }
    expect(resolveTrainConfig({}).grpo.credit).toBe('episode');
  });

  it('turn credit with γ = 0 judges the query by its shaping alone, and ranks them the other way', () => {
    const cfg = resolveTrainConfig({ grpo: { credit: 'turn', turnDiscount: 0 } });
    expect(queryAdvantage(right, cfg)).toBeLessThan(queryAdvantage(wrong, cfg));
  });
});

/** A policy that writes the scripted replies in order, one per turn (token t decodes to reply t). */
class ScriptedPolicy extends GenerateOnlyPolicy {
  readonly codec: ChatCodec;
  private next = 0;
  constructor(replies: readonly string[]) {
    super();
    this.codec = {
      encodeStart: () => [0],
      encodeToolResponses: () => [0],
      decode: (tokens) => tokens.filter((t) => t > 0).map((t) => replies[t - 1]!).join(''),
      encodeAssistantTurn: () => [0],
    };
  }
  async generate(requests: readonly GenerateRequest[]): Promise<GenerateResult[]> {
    return requests.map(() => ({ tokens: [++this.next], logprobs: [0], finishReason: 'stop' as const }));
  }
}

const call = (name: string, args: Record<string, unknown>) => `<tool_call>${JSON.stringify({ name, arguments: args })}</tool_call>`;

/** The least a rollout needs to talk to SQLEnv; the trainer's side stays generic. */
const plainTask: RolloutTask<SqlObservation> = {
  systemPrompt: 'answer with the tools',
  tools: [],
  renderInitial: (obs) => obs.question,
  renderStepResult: (obs) => obs.result || obs.error,
  questionOf: (obs) => obs.question,
};

describe('shaping settles on episodes the trainer cuts', () => {
  const concert = useFixtureEnv();
  const options = { maxTurns: 2, maxNewTokensPerTurn: 4, maxTotalTokens: 100000, temperature: 1, topP: 1 };
  const exploring = [call('describe', { table_name: 'singer' }), call('query', { sql: 'SELECT count(*) FROM singer' }), call('answer', { value: 6 })];

  const play = async (replies: readonly string[], maxTurns: number) => {
    const env = new SQLEnv({ dataset: concert.dataset, pool: concert.pool, stepBudget: 6 });
    const [ep] = await rolloutEpisodes(new ScriptedPolicy(replies), plainTask, [{ env, spec: { seed: 0, options: { questionId: 'train-0000' } }, group: 0 }], { ...options, maxTurns }, new Rng(0));
    await env.close();
    return ep!;
  };

  it('at rollout.maxTurns below the step budget, the last turn takes back the shaping paid (progress sums to zero)', async () => {
    const cut = await play(exploring, 2);
    expect(cut.finished).toBe(false);
    expect(cut.turns).toHaveLength(2);
    // describe (+0.01 novelty) and the gold query (+0.15 Φ, +0.01 novelty) paid 0.17; both steps ran clean (operational 0).
    expect(cut.rewardComponents['progress']).toBeCloseTo(0.17, 12);
    expect(cut.rewardComponents[SHAPING_SETTLED_COMPONENT]).toBeCloseTo(-0.17, 12);
    expect(cut.turns.reduce((a, t) => a + t.reward, 0)).toBeCloseTo(0, 12);
    expect(cut.turns[0]!.reward).toBeCloseTo(0.01, 12); // earlier turns keep their shaping: credit moves, it is not removed
  });

  it('at the token limit too', async () => {
    const env = new SQLEnv({ dataset: concert.dataset, pool: concert.pool, stepBudget: 6 });
    // Prompt 1 token, a turn 1 token, a tool response 1 token: the first response does not fit in 3.
    const [cut] = await rolloutEpisodes(new ScriptedPolicy(exploring), plainTask, [{ env, spec: { seed: 0, options: { questionId: 'train-0000' } }, group: 0 }], { ...options, maxTurns: 5, maxTotalTokens: 3 }, new Rng(0));
    await env.close();
    expect(cut!.truncatedByTokens).toBe(true);
    expect(cut!.turns).toHaveLength(1);
    expect(cut!.turns[0]!.reward).toBeCloseTo(0, 12); // describe's +0.01 novelty, taken back
    expect(cut!.rewardComponents[SHAPING_SETTLED_COMPONENT]).toBeCloseTo(-0.01, 12);
  });

  it('an episode the env ends settles its own shaping, and the rollout adds nothing', async () => {
    const full = await play(exploring, 3);
    expect(full.finished).toBe(true);
    expect(full.correct).toBe(true);
    expect(full.rewardComponents[SHAPING_SETTLED_COMPONENT]).toBeUndefined();
    expect(full.rewardComponents['progress']).toBeCloseTo(0, 12);
    expect(full.turns.reduce((a, t) => a + t.reward, 0)).toBeCloseTo(1, 12);
  });

  it('reads the documented info key, and 0 from envs without shaping', () => {
    expect(unsettledShapingOf({ shaping_potential: 0.25 })).toBe(0.25);
    expect(unsettledShapingOf({ shaping_potential: 'x' })).toBe(0);
    expect(unsettledShapingOf({})).toBe(0);
  });
});
