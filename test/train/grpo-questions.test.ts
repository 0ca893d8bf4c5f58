/**
 * `grpo.questions`: GRPO samples all train questions, or only those after SFT's (`beyond_sft`),
 * and says what to change when SFT leaves none. `grpo.trainSplit`: the split GRPO samples from.
 */
import { describe, expect, it } from 'vitest';
import { Rng } from '../../src/base/rng.js';
import { resolveTrainConfig } from '../../src/train/config/load-config.js';
import { grpoTrainSplit } from '../../src/train/config/schema.js';
import { sampleGroups } from '../../src/train/grpo/sample-groups.js';
import { EnvPool } from '../../src/train/rollout/env-pool.js';
import type { RolloutTask } from '../../src/train/rollout/rollout-task.js';
import { grpoFirstQuestion } from '../../src/train/run/grpo-phase.js';
import { TrainError } from '../../src/train/train-error.js';
import { BigramPolicy } from './fixtures/bigram-policy.js';
import { LetterEnv, letterTask } from './fixtures/letter-env.js';

const config = (grpo: Record<string, unknown>, sft: Record<string, unknown> = {}) =>
  resolveTrainConfig({
    mode: 'sft+grpo',
    runDir: '/tmp/unused',
    rollout: { numGenerations: 2, questionsPerStep: 8, maxTurns: 1, maxNewTokensPerTurn: 2, maxTotalTokens: 32 },
    sft: { questions: 15, ...sft },
    grpo,
  });

describe('grpoFirstQuestion', () => {
  it("is 0 under 'all' and the SFT question count under 'beyond_sft'", () => {
    expect(grpoFirstQuestion(config({}), 20)).toBe(0);
    expect(grpoFirstQuestion(config({ questions: 'beyond_sft' }), 20)).toBe(15);
  });

  it('refuses a pool SFT covers entirely, naming the fix', () => {
    for (const sft of [{ questions: 0 }, { questions: 20 }, { questions: 50 }]) {
      const run = () => grpoFirstQuestion(config({ questions: 'beyond_sft' }, sft), 20);
      expect(run).toThrow(TrainError);
      expect(run).toThrow(/Set sft\.questions below 20, or grpo\.questions 'all'/);
    }
  });

  it('rejects an unknown pool name at config time', () => {
    expect(() => config({ questions: 'unseen' })).toThrow(/beyond_sft/);
  });
});

describe('sampleGroups with a first question', () => {
  async function sampledIndices(firstQuestion: number | undefined): Promise<number[]> {
    const seen: number[] = [];
    const task: RolloutTask<string> = {
      ...letterTask,
      episodeSpec: (index) => {
        seen.push(index);
        return { seed: index };
      },
    };
    const pool = new EnvPool(() => new LetterEnv(2));
    try {
      const ctx = { policy: new BigramPolicy(() => 0), task, pool, questionCount: 20, config: config({}), rng: new Rng(3) };
      for (let step = 0; step < 5; step++) await sampleGroups(firstQuestion === undefined ? ctx : { ...ctx, firstQuestion });
    } finally {
      await pool.close();
    }
    return seen;
  }

  it('draws only indices in [firstQuestion, questionCount), and all of them over enough draws', async () => {
    const beyond = await sampledIndices(15);
    expect(beyond).toHaveLength(40);
    expect(Math.min(...beyond)).toBe(15);
    expect(Math.max(...beyond)).toBe(19);
    expect(new Set(beyond).size).toBe(5);
    const all = await sampledIndices(undefined);
    expect(Math.min(...all)).toBeLessThan(15);
  });
});

describe('grpo.trainSplit', () => {
  it("is env.trainSplit unless set", () => {
    expect(grpoTrainSplit(config({}))).toBe('train');
    expect(grpoTrainSplit(config({ trainSplit: 'procedural' }))).toBe('procedural');
  });

  it("refuses 'beyond_sft' on a split SFT did not learn from, naming both fixes", () => {
    expect(() => config({ questions: 'beyond_sft', trainSplit: 'procedural' })).toThrow(/grpo\.trainSplit "procedural" is another split\. Set grpo\.questions 'all', or grpo\.trainSplit ''/);
    expect(grpoFirstQuestion(config({ questions: 'beyond_sft', trainSplit: 'train' }), 20)).toBe(15);
  });

  it("is the split sampleGroups asks the task's episodes of", async () => {
    const splits = new Set<string>();
    const task: RolloutTask<string> = {
      ...letterTask,
      episodeSpec: (index, split) => {
        splits.add(split);
        return { seed: index };
      },
    };
    const pool = new EnvPool(() => new LetterEnv(2));
    try {
      await sampleGroups({ policy: new BigramPolicy(() => 0), task, pool, questionCount: 20, config: config({ trainSplit: 'procedural' }), rng: new Rng(3) });
    } finally {
      await pool.close();
    }
    expect([...splits]).toEqual(['procedural']);
  });
});
