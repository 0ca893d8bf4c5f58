/**
 * The procedural stage's corpus (examples/grpo-sql/procedural-stage.ts): which questions of the
 * generated databases it trains on, and its option checks. The stage itself is a demo run (SFT
 * only); the rebuild of the committed weights from it is measured in docs/train.md, Attempt 8.
 */
import { describe, expect, it } from 'vitest';
import { corpusQuestions, proceduralStage, PROCEDURAL_STAGE_DEFAULTS, type CorpusQuestion } from '../../examples/grpo-sql/procedural-stage.js';

const q = (db: string, template: string, difficulty = 'easy'): CorpusQuestion => ({ db_id: db, difficulty, template });

describe('corpusQuestions', () => {
  it('takes every k-th easy question of a database, so the picks spread over its templates', () => {
    const questions = [...'abcdefgh'].map((t) => q('d1', t));
    expect(corpusQuestions(questions, 4).map((x) => x['template'])).toEqual(['a', 'c', 'e', 'g']);
  });
  it('leaves out medium and hard questions', () => {
    expect(corpusQuestions([q('d1', 'a', 'medium'), q('d1', 'b'), q('d1', 'c', 'hard')], 8).map((x) => x['template'])).toEqual(['b']);
  });
  it('goes round-robin over the databases, one of each before a second of any', () => {
    const questions = [q('d1', 'a'), q('d1', 'b'), q('d2', 'x'), q('d2', 'y'), q('d3', 'p')];
    expect(corpusQuestions(questions, 2).map((x) => `${x.db_id}:${String(x['template'])}`)).toEqual(['d1:a', 'd2:x', 'd3:p', 'd1:b', 'd2:y']);
  });
});

describe('proceduralStage options', () => {
  const base = { ...PROCEDURAL_STAGE_DEFAULTS, from: 'models/tiny-sql', out: '/tmp/never-written', runDir: '/tmp/never-run', print: () => {} };
  it('refuses a non-positive count and a share outside [0, 1] before building anything', async () => {
    await expect(proceduralStage({ ...base, perDb: 0 })).rejects.toThrow(/--per-db must be a positive integer/);
    await expect(proceduralStage({ ...base, inventedNames: 1.5 })).rejects.toThrow(/--invented-names is a share between 0 and 1/);
  });
});
