/**
 * How the rollout turns a model reply into an env action: through the shared parseAssistantReply,
 * one call per turn with the extra calls reported to the model, never a call written in <think>.
 */
import { describe, expect, it } from 'vitest';
import { SQLEnv } from '../../envs/sql/index.js';
import { Env, type Info, type ResetOptions, type ResetResult, type StepResult } from '../../src/gym/env.js';
import { Rng } from '../../src/base/rng.js';
import { Discrete } from '../../src/gym/spaces/discrete.js';
import { Text } from '../../src/gym/spaces/text.js';
import { episodeMetrics } from '../../src/train/metrics/episode-metrics.js';
import { actionFromText, extraCallsNotice, rolloutEpisodes } from '../../src/train/rollout/multi-turn-rollout.js';
import type { RolloutTask } from '../../src/train/rollout/rollout-task.js';
import { sqlRolloutTask } from '../../src/recipes/sql/task/sql-task.js';
import { REPAIR_SLOT_BIAS, RETRY_BIAS } from '../../src/recipes/sql/guide/sql-decoding-guide.js';
import type { ChatCodec, GenerateRequest, GenerateResult } from '../../src/train/policy/trainable-policy.js';
import { GenerateOnlyPolicy } from './fixtures/generate-only-policy.js';
import { evaluatePolicy, evaluateSampled } from '../../src/train/eval/evaluate-policy.js';
import { EnvPool } from '../../src/train/rollout/env-pool.js';
import { useFixtureEnv } from '../sql/fixture-env.js';

const call = (name: string, args: Record<string, unknown>) => `<tool_call>${JSON.stringify({ name, arguments: args })}</tool_call>`;

/** Token t (≥ 1) decodes to the t-th scripted reply; tool responses are recorded as text. */
class ScriptCodec implements ChatCodec {
  readonly responses: string[] = [];
  constructor(readonly replies: readonly string[]) {}
  encodeStart(): number[] {
    return [0];
  }
  encodeToolResponses(responses: readonly string[]): number[] {
    this.responses.push(...responses);
    return [0];
  }
  decode(tokens: readonly number[]): string {
    return tokens.filter((t) => t > 0).map((t) => this.replies[t - 1]!).join('');
  }
  encodeAssistantTurn(): number[] {
    return [0];
  }
}

/** A policy that writes the scripted replies in order, one per turn. */
class ScriptedPolicy extends GenerateOnlyPolicy {
  readonly codec: ScriptCodec;
  private next = 0;
  constructor(replies: readonly string[]) {
    super();
    this.codec = new ScriptCodec(replies);
  }
  async generate(requests: readonly GenerateRequest[]): Promise<GenerateResult[]> {
    return requests.map(() => ({ tokens: [++this.next], logprobs: [0], finishReason: 'stop' as const }));
  }
}

/** Records every action it is given; answers "ran <name>" and never ends the episode itself. */
class RecordingEnv extends Env<string, unknown> {
  override actionSpace = new Discrete(1) as never;
  override observationSpace = new Text({ maxLength: 64, minLength: 0, charset: 'any' }) as never;
  readonly actions: unknown[] = [];
  override async reset(options: ResetOptions = {}): Promise<ResetResult<string>> {
    await super.reset(options);
    return ['start', {}];
  }
  override async step(action: unknown): Promise<StepResult<string>> {
    this.actions.push(action);
    const name = typeof action === 'string' ? `text ${JSON.stringify(action)}` : (action as { name: string }).name;
    const info: Info = typeof action === 'string' ? { error_type: 'parse_error' } : {};
    return [`ran ${name}`, 0, false, false, info];
  }
}

const recordingTask: RolloutTask<string> = {
  systemPrompt: 'use the tools',
  tools: [],
  renderInitial: (obs) => obs,
  renderStepResult: (obs) => obs,
  questionOf: (obs) => obs,
};

const options = { maxTurns: 2, maxNewTokensPerTurn: 4, maxTotalTokens: 64, temperature: 1, topP: 1 };

describe('actionFromText (shared parseAssistantReply)', () => {
  it('runs the first call and counts every further block as an extra call', () => {
    expect(actionFromText(`${call('describe', { table_name: 'singer' })}\n${call('query', { sql: 'SELECT 1' })}${call('answer', { value: '6' })}`)).toEqual({
      action: { name: 'describe', arguments: { table_name: 'singer' } },
      parsed: true,
      extraCalls: 2,
    });
    expect(actionFromText(`${call('answer', { value: 'a' })}<tool_call>not json`).extraCalls).toBe(1);
    expect(actionFromText(call('answer', { value: 'a' })).extraCalls).toBe(0);
  });

  it('never takes a call written inside <think>, and hands text envs the reply without the thinking', () => {
    expect(actionFromText(`<think>maybe ${call('answer', { value: '6' })}</think>`)).toEqual({ action: '', parsed: false, extraCalls: 0 });
    expect(actionFromText(`<think>plan ${call('answer', { value: '6' })}</think>DESCRIBE singer`)).toEqual({ action: 'DESCRIBE singer', parsed: false, extraCalls: 0 });
    // Qwen3: the opening tag was in the prompt.
    expect(actionFromText(`plan ${call('answer', { value: '6' })}</think>\n${call('describe', { table_name: 'singer' })}`)).toMatchObject({
      action: { name: 'describe' },
      parsed: true,
      extraCalls: 0,
    });
    // Ran out of tokens while thinking: nothing to run.
    expect(actionFromText(`<think>${call('answer', { value: '6' })}`)).toEqual({ action: '', parsed: false, extraCalls: 0 });
  });
});

describe('rolloutEpisodes: one tool call per turn', () => {
  it('runs only the first of two calls and tells the model the other was ignored', async () => {
    const env = new RecordingEnv();
    const policy = new ScriptedPolicy([`${call('describe', { table_name: 'singer' })}${call('answer', { value: '6' })}`, call('answer', { value: '6' })]);
    const [ep] = await rolloutEpisodes(policy, recordingTask, [{ env, spec: { seed: 0 }, group: 0 }], options, new Rng(0));
    expect(env.actions).toEqual([
      { name: 'describe', arguments: { table_name: 'singer' } },
      { name: 'answer', arguments: { value: '6' } },
    ]);
    const notice = extraCallsNotice(1);
    expect(notice).toMatch(/1 extra call was ignored.*one tool per turn/);
    expect(policy.codec.responses[0]).toBe(`${notice}\nran describe`);
    const [first, second] = ep!.turns;
    expect(first).toMatchObject({ result: `${notice}\nran describe`, parsedToolCall: true, extraCallsIgnored: 1, repairs: ['extra_tool_calls_ignored'] });
    expect(first!.errorType).toBeUndefined();
    expect(second!.extraCallsIgnored).toBeUndefined();
    expect(second!.repairs).toEqual([]);
    const metrics = episodeMetrics([ep!], [0]);
    expect(metrics['repairs/extra_tool_calls_ignored']).toBe(1);
    expect(metrics['tools/failure_frequency']).toBe(0);
  });

  it('does not execute a call written inside <think>', async () => {
    const env = new RecordingEnv();
    const policy = new ScriptedPolicy([`<think>I could ${call('answer', { value: '6' })}</think>`, call('describe', { table_name: 'singer' })]);
    const [ep] = await rolloutEpisodes(policy, recordingTask, [{ env, spec: { seed: 0 }, group: 0 }], options, new Rng(0));
    expect(env.actions).toEqual(['', { name: 'describe', arguments: { table_name: 'singer' } }]);
    expect(ep!.turns[0]).toMatchObject({ parsedToolCall: false, errorType: 'parse_error' });
  });
});

describe('rolloutEpisodes on SQLEnv', () => {
  const concert = useFixtureEnv();
  const task = sqlRolloutTask(() => ['train-0000']); // How many singers are there? → 6

  it('a describe + answer turn runs only describe; the episode goes on and the model is told', async () => {
    const env = new SQLEnv({ dataset: concert.dataset, pool: concert.pool });
    const policy = new ScriptedPolicy([`${call('describe', { table_name: 'singer' })}\n${call('answer', { value: '6' })}`, call('answer', { value: '6' })]);
    const [ep] = await rolloutEpisodes(policy, task, [{ env, spec: task.episodeSpec!(0, 'train'), group: 0 }], { ...options, maxTotalTokens: 100000 }, new Rng(0));
    await env.close();
    expect(ep!.turns).toHaveLength(2);
    expect(ep!.turns[0]!.action).toContain('describe');
    expect(ep!.turns[0]!.result.startsWith(extraCallsNotice(1))).toBe(true);
    expect(ep!.turns[0]!.result).toMatch(/singer/i);
    expect(ep!.finished).toBe(true);
    expect(ep!.correct).toBe(true);
  });

  it('tells a malformed call from a well-formed query that failed, and only the former counts as malformed', async () => {
    const env = new SQLEnv({ dataset: concert.dataset, pool: concert.pool });
    const policy = new ScriptedPolicy([
      call('query', { sql: 'SELECT nosuchcolumn FROM singer' }), // well formed; the database refuses it
      call('describe', {}), // malformed: table_name is missing
      call('answer', { value: '6' }),
    ]);
    const [ep] = await rolloutEpisodes(policy, task, [{ env, spec: task.episodeSpec!(0, 'train'), group: 0 }], { ...options, maxTurns: 3, maxTotalTokens: 100000 }, new Rng(0));
    await env.close();
    expect(ep!.turns.map((t) => [t.errorType, t.malformedCall])).toEqual([['sql_error', false], ['missing_argument', true], [undefined, false]]);
    const m = episodeMetrics([ep!], [0]);
    expect(m['tools/failure_frequency']).toBeCloseTo(2 / 3, 12);
    expect(m['tools/malformed_frequency']).toBeCloseTo(1 / 3, 12); // what tool_errors_rising watches
  });

  it("guided: the turn after an unknown-column error asks for the rewrite, from SQLEnv's feedback data", async () => {
    const guides: GenerateRequest['guide'][] = [];
    class GuideKeepingPolicy extends ScriptedPolicy {
      override async generate(requests: readonly GenerateRequest[]): Promise<GenerateResult[]> {
        guides.push(...requests.map((r) => r.guide));
        return super.generate(requests);
      }
    }
    const env = new SQLEnv({ dataset: concert.dataset, pool: concert.pool });
    const failed = call('query', { sql: 'SELECT nam FROM singer' });
    const policy = new GuideKeepingPolicy([failed, call('answer', { value: '6' })]);
    await rolloutEpisodes(policy, task, [{ env, spec: task.episodeSpec!(0, 'train'), group: 0 }], { ...options, maxTotalTokens: 100000, guidedDecoding: 'always' }, new Rng(0));
    await env.close();
    expect(guides).toHaveLength(2);
    const nudgesOf = (guide: GenerateRequest['guide'], text: string) => [guide!(text) ?? []].flat();
    // Before any query: nothing to retry. After the failed one: its call's opening, then in the column's place singer's columns.
    expect(nudgesOf(guides[0], '').map((n) => n.bias)).toEqual([]);
    expect(nudgesOf(guides[1], '').map((n) => n.bias)).toEqual([RETRY_BIAS]);
    const opening = failed.slice(0, failed.indexOf('SELECT'));
    const slot = nudgesOf(guides[1], `${opening}SELECT `).find((n) => n.bias === REPAIR_SLOT_BIAS);
    expect(['name', 'country', 'nam', 'title'].filter((t) => slot?.favours(t) ?? false)).toEqual(['name', 'country', 'nam']); // title is concert's
  });

  it('an answer planned inside <think> is not submitted', async () => {
    const env = new SQLEnv({ dataset: concert.dataset, pool: concert.pool });
    const policy = new ScriptedPolicy([`<think>${call('answer', { value: '6' })}</think>`, call('describe', { table_name: 'singer' })]);
    const [ep] = await rolloutEpisodes(policy, task, [{ env, spec: task.episodeSpec!(0, 'train'), group: 0 }], { ...options, maxTotalTokens: 100000 }, new Rng(0));
    await env.close();
    expect(ep!.turns).toHaveLength(2);
    expect(ep!.turns[0]!.parsedToolCall).toBe(false);
    expect(ep!.turns[0]!.errorType).toBeDefined();
    expect(ep!.correct).toBe(false);
  });
});

describe('rolloutEpisodes: when the task decoding guide applies (rollout.guidedDecoding)', () => {
  /** Records whether each generate request carried the task's guide. */
  class GuideRecordingPolicy extends ScriptedPolicy {
    readonly guided: boolean[] = [];
    override async generate(requests: readonly GenerateRequest[]): Promise<GenerateResult[]> {
      this.guided.push(...requests.map((r) => r.guide !== undefined));
      return super.generate(requests);
    }
  }
  const guidedTask: RolloutTask<string> = { ...recordingTask, decodingGuide: () => () => undefined };

  for (const [mode, training, evaluation] of [
    [undefined, false, false],
    ['off', false, false],
    ['evaluation', false, true],
    ['always', true, true],
  ] as const) {
    it(`${mode ?? 'unset'}: training rollouts ${training ? 'guided' : 'unguided'}, evaluation ${evaluation ? 'guided' : 'unguided'}`, async () => {
      for (const [purpose, expected] of [['training', training], ['evaluation', evaluation]] as const) {
        const policy = new GuideRecordingPolicy([call('answer', { value: '6' }), call('answer', { value: '6' })]);
        await rolloutEpisodes(policy, guidedTask, [{ env: new RecordingEnv(), spec: { seed: 0 }, group: 0 }], { ...options, ...(mode ? { guidedDecoding: mode } : {}) }, new Rng(0), purpose);
        expect(policy.guided).toEqual([expected, expected]);
      }
    });
  }

  it("makes each turn's guide from the episode so far as data: observations, infos, the policy's turns, the transcript, the tools", async () => {
    const contexts: string[] = [];
    const tools = [{ name: 'describe', description: 'd', parameters: {} }];
    const recorded: RolloutTask<string> = { ...recordingTask, tools, decodingGuide: (context) => (contexts.push(JSON.stringify(context)), () => undefined) };
    const first = call('describe', { table_name: 'x' });
    const policy = new GuideRecordingPolicy([first, call('answer', { value: '6' })]);
    await rolloutEpisodes(policy, recorded, [{ env: new RecordingEnv(), spec: { seed: 0 }, group: 0 }], { ...options, maxTotalTokens: 100000, guidedDecoding: 'always' }, new Rng(0));
    expect(contexts.map((c) => JSON.parse(c))).toEqual([
      { observations: ['start'], infos: [{}], turns: [], transcript: ['start'], tools },
      { observations: ['start', 'ran describe'], infos: [{}, {}], turns: [first], transcript: ['start', first, 'ran describe'], tools },
    ]);
  });

  it('evaluatePolicy and evaluateSampled play evaluation episodes, GRPO training ones', async () => {
    const pool = new EnvPool(() => new RecordingEnv());
    try {
      const policy = new GuideRecordingPolicy(Array.from({ length: 8 }, () => call('answer', { value: '6' })));
      const greedy = await evaluatePolicy(policy, guidedTask, pool, 'eval', 1, { ...options, guidedDecoding: 'evaluation' }, new Rng(0));
      const sampled = await evaluateSampled(policy, guidedTask, pool, 'eval', 1, 2, { ...options, guidedDecoding: 'evaluation' }, new Rng(0));
      expect(policy.guided).toEqual(Array.from({ length: 6 }, () => true));
      // Each result names the decoding that produced it.
      expect([greedy.decoding, sampled.decoding]).toEqual(['guided', 'guided']);
      expect((await evaluatePolicy(policy, guidedTask, pool, 'eval', 1, options, new Rng(0))).decoding).toBe('unguided');
      expect((await evaluatePolicy(policy, recordingTask, pool, 'eval', 1, { ...options, guidedDecoding: 'always' }, new Rng(0))).decoding).toBe('unguided'); // no guide to apply
    } finally {
      await pool.close();
    }
  });
});
