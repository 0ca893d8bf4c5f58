/**
 * SQLEnv's reset options are checked as strictly as make's: every documented key works in both
 * spellings (split included, which used to be ignored), and a caller's mistake is an
 * InvalidResetOptionsError that says what to pass instead, leaving the env usable.
 */
import { describe, expect, it } from 'vitest';
import { SQLEnv, resolveSqlResetOptions } from '../../envs/sql/index.js';
import { InvalidResetOptionsError } from '../../src/gym/index.js';
import { useFixtureEnv } from './fixture-env.js';

const concert = useFixtureEnv();
const envWith = () => new SQLEnv({ dataset: concert.dataset, pool: concert.pool });

describe('resolveSqlResetOptions', () => {
  it('brings both spellings of each key to one', () => {
    expect(resolveSqlResetOptions({ question_id: 'smoke-0018', split: 'smoke', db_id: 'x' })).toEqual({ questionId: 'smoke-0018', split: 'smoke', dbId: 'x' });
    expect(resolveSqlResetOptions({ questionId: 'q', dbId: 'd' })).toEqual({ questionId: 'q', dbId: 'd' });
    expect(resolveSqlResetOptions({ questionId: 'q', question_id: 'q', dbId: null })).toEqual({ questionId: 'q' });
    expect(resolveSqlResetOptions(undefined)).toEqual({});
  });

  it('refuses unknown keys with the closest known one, seed with where it goes, bad values and disagreeing spellings', () => {
    const problems = (options: unknown) => {
      try {
        resolveSqlResetOptions(options);
      } catch (e) {
        expect(e).toBeInstanceOf(InvalidResetOptionsError);
        return (e as InvalidResetOptionsError).problems;
      }
      throw new Error('no error');
    };
    expect(problems({ spilt: 'eval' })).toEqual([{ option: 'spilt', message: expect.stringContaining('unknown SQLEnv reset option "spilt" (did you mean "split"?)') }]);
    expect(problems({ questionid: 'q' })[0]!.message).toContain('(did you mean "questionId"?)');
    expect(problems({ seed: 3 })[0]!.message).toContain('reset({ seed: 3 })');
    expect(problems({ split: 3 })[0]).toEqual({ option: 'split', message: 'reset option split must be a non-empty string, got 3' });
    expect(problems({ questionId: '' })[0]!.option).toBe('questionId');
    expect(problems({ dbId: 'a', db_id: 'b' })[0]!.message).toContain('disagree');
    expect(problems([1])[0]!.option).toBe('options');
    expect(problems({ spilt: 1, dbid: 2 })).toHaveLength(2);
    // A huge value is refused before any closest-name search could spend time on it.
    expect(problems({ questionId: 'x'.repeat(100_000) })[0]!.message).toBe('reset option questionId is 100000 characters long; ids, databases and splits have at most 256');
    expect(problems({ split: 10n })[0]!.message).toBe('reset option split must be a non-empty string, got bigint');
  });
});

describe('SQLEnv reset options', () => {
  it('plays a question of another split of the same source (split used to be ignored)', async () => {
    const env = envWith();
    try {
      const [obs, info] = await env.reset({ options: { question_id: 'smoke-0001', split: 'smoke' } });
      expect(info).toMatchObject({ question_id: 'smoke-0001', split: 'smoke' });
      expect(obs.question).toBe(concert.dataset.question('train-0001')!.question);
      const [, seeded] = await env.reset({ seed: 1, options: { split: 'smoke' } });
      expect(seeded.split).toBe('smoke');
      expect(String(seeded.question_id)).toMatch(/^smoke-/);
      // Without split the env's own split is back.
      const [, own] = await env.reset({ seed: 1 });
      expect(own.split).toBe('train');
      const [, byDb] = await env.reset({ seed: 2, options: { db_id: 'concert_singer', split: 'train' } });
      expect(byDb).toMatchObject({ db_id: 'concert_singer', split: 'train' });
    } finally {
      await env.close();
    }
  });

  it('refuses unknown keys, splits and questions with a suggestion, and keeps working after', async () => {
    const env = envWith();
    try {
      await expect(env.reset({ seed: 1, options: { spilt: 'smoke' } as never })).rejects.toThrow(/"spilt" \(did you mean "split"\?\)/);
      await expect(env.reset({ options: { split: 'smok' } })).rejects.toThrow(/no split "smok" \(did you mean "smoke"\?\) in .*; splits: smoke, train/);
      const missing = env.reset({ options: { questionId: 'smoke-0001' } });
      await expect(missing).rejects.toThrow(InvalidResetOptionsError);
      await expect(missing).rejects.toThrow(/no question "smoke-0001" \(did you mean "train-0001"\?\) in .*\/train; to play a question of another split, pass split: 'smoke' too/);
      await expect(env.reset({ options: { questionId: 'train-0000', dbId: 'other' } })).rejects.toThrow(/is about database "concert_singer", not "other"/);
      const [, info] = await env.reset({ seed: 1 });
      expect(info.split).toBe('train');
      const [, , , , step] = await env.step({ name: 'query', arguments: { sql: 'SELECT 1' } });
      expect(step.error_type).toBeNull();
    } finally {
      await env.close();
    }
  });
});
