import { describe, expect, it } from 'vitest';
import { agentTrajectory } from '../../src/train/sft/oracle-trajectories.js';
import { resolveSqlTrainConfig } from '../../src/recipes/sql/sql-config.js';
import { createSqlTrainingSetup } from '../../src/recipes/sql/sql-training-setup.js';
import { useTempDirs } from '../helpers/temp-dirs.js';

const tempDir = useTempDirs('sqlenv-sft-oracle-');

/** The assistant turns of the SFT trajectory that the run's oracle plays on the first smoke question. */
async function oracleTurns(overrides: Record<string, unknown>): Promise<{ texts: string[]; correct: boolean; learned: number[] }> {
  const runDir = tempDir();
  const res = await createSqlTrainingSetup(resolveSqlTrainConfig({ runDir, model: { tiny: { layers: 1, hidden: 32, heads: 2, kvHeads: 1, intermediate: 64, vocabSize: 400 } }, ...overrides }));
  const env = res.setup.makeEnv('smoke');
  try {
    const seq = await agentTrajectory(env, res.makeOracle(), res.setup.task, res.setup.policy.codec, res.setup.task.episodeSpec!(0, 'smoke'), 10);
    // Learned tokens per assistant turn: the mask's runs of ones (tool responses between them are masked).
    const learned: number[] = [];
    seq.mask.forEach((m, i) => {
      if (m === 1 && seq.mask[i - 1] !== 1) learned.push(0);
      if (m === 1) learned[learned.length - 1]!++;
    });
    return { texts: seq.assistantTexts, correct: seq.correct, learned };
  } finally {
    await env.close();
    await res.close();
  }
}

describe('the SFT oracle of a SQLEnv run follows the config', () => {
  const env = { trainSplit: 'smoke', evalSplits: [] };

  it('by default describes the gold tables, queries, and answers with the value', async () => {
    const { texts, correct } = await oracleTurns({ env });
    expect(correct).toBe(true);
    expect(texts[0]).toMatch(/"name": "describe"/);
    expect(texts.at(-2)).toMatch(/"name": "query"/);
    expect(texts.at(-1)).toMatch(/"name": "answer"/);
    expect(texts.at(-1)).not.toMatch(/SELECT/);
  });

  it('sql.sft.describeTables: false skips the describes; answerMode sql makes it answer with the SQL', async () => {
    const { texts, correct } = await oracleTurns({ env: { ...env, kwargs: { answerMode: 'sql' } }, sql: { sft: { describeTables: false } } });
    expect(correct).toBe(true);
    expect(texts).toHaveLength(2);
    expect(texts[0]).toMatch(/"name": "query"/);
    const sql = /"sql":("(?:[^"\\]|\\.)*")/.exec(texts[0]!)![1]!;
    // The answer is the very SQL the query ran, spelled the same way.
    expect(texts[1]).toBe(`<tool_call>\n{"name": "answer", "arguments": {"value":${sql}}}\n</tool_call>`);
  });

  it('sql.sft.mistakeShare 1 plays a mistaken query first and learns only the recovery', async () => {
    const { texts, correct, learned } = await oracleTurns({ env: { ...env, kwargs: { answerMode: 'sql' } }, sql: { sft: { describeTables: false, mistakeShare: 1 } } });
    expect(correct).toBe(true);
    expect(texts).toHaveLength(3);
    expect(texts[0]).toMatch(/"name": "query"/);
    expect(texts[1]).toMatch(/"name": "query"/);
    expect(texts[0]).not.toBe(texts[1]);
    // Two learned turns, the gold query and the answer: the mistake's tokens are all masked.
    expect(learned).toHaveLength(2);
    const clean = await oracleTurns({ env: { ...env, kwargs: { answerMode: 'sql' } }, sql: { sft: { describeTables: false } } });
    expect(texts[1]).toBe(clean.texts[0]);
    expect(learned).toEqual(clean.learned);
  });
});
