import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkEnv, InvalidResetOptionsError, make } from '../../src/gym/index.js';
import { QueryResultCache, SQLEnv, SqlDataset, SqlEnvError, type SqlEnvOptions, capObservationText, SQL_ERROR_TYPES, renderObservation, type SqlErrorType } from '../../envs/sql/index.js';
import { useFixtureEnv } from './fixture-env.js';

let dbHash: string;

const hashFile = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

const concert = useFixtureEnv({ onCreated: (fixture) => (dbHash = hashFile(fixture.dbPath)) });

const envWith = (options: ConstructorParameters<typeof SQLEnv>[0] = {}) => new SQLEnv({ dataset: concert.dataset, pool: concert.pool, ...options });
const COUNT_QUESTION = 'train-0000'; // How many singers are there? → 6

describe('SQLEnv episodes', () => {
  it('loads the fixture and skips the broken gold SQL', () => {
    expect(concert.dataset.questions).toHaveLength(6);
    expect(concert.dataset.skipped.map((s) => s.id)).toEqual(['train-0006']);
  });

  it('picks questions deterministically from the seed, or by id / database', async () => {
    const env = envWith();
    const [a, infoA] = await env.reset({ seed: 7 });
    const [b, infoB] = await env.reset({ seed: 7 });
    expect(b).toEqual(a);
    expect(infoB.question_id).toBe(infoA.question_id);
    const picked = new Set<unknown>();
    for (let seed = 0; seed < 20; seed++) picked.add((await env.reset({ seed }))[1].question_id);
    expect(picked.size).toBeGreaterThan(1);
    const [, byId] = await env.reset({ options: { questionId: 'train-0003' } });
    expect(byId.question_id).toBe('train-0003');
    const [byDb] = await env.reset({ seed: 1, options: { dbId: 'concert_singer' } });
    expect(byDb.dbId).toBe('concert_singer');
    await expect(env.reset({ options: { questionId: 'nope' } })).rejects.toThrow(InvalidResetOptionsError);
    await expect(env.reset({ options: { dbId: 'nope' } })).rejects.toThrow(/no questions about database "nope"/);
    await env.close();
  });

  it('plays an episode: observation, rewards, answer terminates', async () => {
    const env = envWith();
    const [obs0] = await env.reset({ options: { questionId: COUNT_QUESTION } });
    expect(obs0).toMatchObject({ question: 'How many singers are there?', dbId: 'concert_singer', tables: ['stadium', 'singer', 'concert'], step: 0, budgetRemaining: 10, error: '', result: '' });
    expect(env.observationSpace.contains(obs0)).toBe(true);

    let [obs, reward, terminated, truncated, info] = await env.step({ name: 'describe', arguments: { table_name: 'singer' } });
    expect(reward).toBeCloseTo(0.01, 12); // +exec_ok −step_cost, +new_info as novelty shaping
    expect(info.reward_components).toEqual({ operational: 0, progress: 0.01, correctness: 0 });
    expect(obs.schema).toContain('TABLE singer (6 rows)');
    expect(obs.schema).toContain('singer_id INTEGER PRIMARY KEY');
    expect([terminated, truncated]).toEqual([false, false]);

    [obs, reward, , , info] = await env.step({ name: 'describe', arguments: { table_name: 'SINGER' } });
    expect(reward).toBeCloseTo(-0.03, 12); // repeated (table names match case-insensitively): +exec_ok −repeat −step_cost

    [obs, reward, , , info] = await env.step({ name: 'query', arguments: { sql: 'SELECT count(*) FROM singer' } });
    expect(info.potential).toBe(1);
    expect((info.reward_components as { progress: number }).progress).toBeCloseTo(0.15 + 0.01, 12); // Φ 0 → 1, a new result
    expect(obs.result).toContain('| 6 |');
    expect(obs.history).toHaveLength(3);
    expect(obs.budgetRemaining).toBe(7);

    [obs, reward, terminated, truncated, info] = await env.step({ name: 'answer', arguments: { value: 6 } });
    expect([terminated, truncated]).toEqual([true, false]);
    expect(info.is_correct).toBe(true);
    expect(info.gold_sql).toBe('SELECT count(*) FROM singer');
    // The episode's end returns the shaping: Φ (0.15) and the two things seen (0.02).
    expect(reward).toBeCloseTo(1 - 0.15 - 0.02, 12);
    expect(info.reward_components).toEqual({ operational: 0, progress: -0.17, correctness: 1 });
    expect(info.potential).toBe(0);
    expect(env.observationSpace.contains(obs)).toBe(true);
    await env.close();
  });

  it('reports the shaping not yet settled as info.shaping_potential: the progress paid so far, 0 once the episode is over', async () => {
    const env = envWith();
    const [, resetInfo] = await env.reset({ options: { questionId: COUNT_QUESTION } });
    expect(resetInfo.shaping_potential).toBe(0);
    let paid = 0;
    for (const action of [
      { name: 'describe', arguments: { table_name: 'singer' } },
      { name: 'query', arguments: { sql: 'SELECT count(*) FROM stadium' } },
      { name: 'query', arguments: { sql: 'SELECT count(*) FROM singer' } },
    ]) {
      const [, , , , info] = await env.step(action);
      paid += (info.reward_components as { progress: number }).progress;
      expect(info.shaping_potential).toBeCloseTo(paid, 12);
    }
    expect(paid).toBeGreaterThan(0);
    const [, , terminated, , info] = await env.step({ name: 'answer', arguments: { value: 6 } });
    expect(terminated).toBe(true);
    expect(paid + (info.reward_components as { progress: number }).progress).toBeCloseTo(0, 12);
    expect(info.shaping_potential).toBe(0);
    await env.close();
  });

  it('reports at the end whether a query found the gold result, answered or not', async () => {
    const env = envWith({ answerMode: 'sql' });
    await env.reset({ options: { questionId: COUNT_QUESTION } });
    let [, , , , info] = await env.step({ name: 'query', arguments: { sql: 'SELECT count(*) FROM stadium' } });
    expect('gold_result_seen' in info).toBe(false); // privileged: only at the end
    [, , , , info] = await env.step({ name: 'query', arguments: { sql: 'SELECT COUNT(singer_id) FROM singer' } });
    expect('gold_result_seen' in info).toBe(false);
    [, , , , info] = await env.step({ name: 'answer', arguments: { value: 'SELECT count(*) FROM stadium' } });
    // The gold result was on screen, and the answer threw it away.
    expect(info).toMatchObject({ is_correct: false, gold_result_seen: true });

    await env.reset({ options: { questionId: COUNT_QUESTION } });
    await env.step({ name: 'query', arguments: { sql: 'SELECT count(*) FROM stadium' } });
    [, , , , info] = await env.step({ name: 'answer', arguments: { value: 'SELECT count(*) FROM singer' } });
    // Answered right without having run it: the answer's own execution is not a query.
    expect(info).toMatchObject({ is_correct: true, gold_result_seen: false });

    const budget = envWith({ stepBudget: 1 });
    await budget.reset({ options: { questionId: COUNT_QUESTION } });
    [, , , , info] = await budget.step({ name: 'query', arguments: { sql: 'SELECT count(*) FROM singer' } });
    expect(info).toMatchObject({ is_correct: false, gold_result_seen: true }); // out of budget after finding it
    await budget.close();
    await env.close();
  });

  it('reports at the end whether the answer repeated the latest query (whitespace and a final semicolon aside)', async () => {
    const env = envWith({ answerMode: 'sql' });
    const play = async (...calls: { name: string; arguments: Record<string, unknown> }[]) => {
      await env.reset({ options: { questionId: COUNT_QUESTION } });
      let info: Record<string, unknown> = {};
      for (const call of calls) {
        [, , , , info] = await env.step(call);
        if (call.name !== 'answer') expect('answer_repeats_query' in info).toBe(false); // only at the end
      }
      return info;
    };
    const query = (sql: string) => ({ name: 'query', arguments: { sql } });
    const answer = (value: string) => ({ name: 'answer', arguments: { value } });
    // The latest query, reformatted: a repeat.
    expect(await play(query('SELECT count(*) FROM stadium'), query('SELECT count(*) FROM singer'), answer('SELECT  count(*)\nFROM singer;'))).toMatchObject({ answer_repeats_query: true, is_correct: true });
    // An earlier query, not the latest: written afresh as far as the outcome goes.
    expect(await play(query('SELECT count(*) FROM singer'), query('SELECT count(*) FROM stadium'), answer('SELECT count(*) FROM singer'))).toMatchObject({ answer_repeats_query: false, is_correct: true });
    // Letter case counts (literals): not a repeat. A query that failed is not a query the answer can repeat.
    expect(await play(query("SELECT count(*) FROM singer WHERE country = 'France'"), answer("SELECT count(*) FROM singer WHERE country = 'france'"))).toMatchObject({ answer_repeats_query: false });
    expect(await play(query('SELECT count(*) FROM nowhere'), answer('SELECT count(*) FROM nowhere'))).toMatchObject({ answer_repeats_query: false });
    // No query at all.
    expect(await play(answer('SELECT count(*) FROM singer'))).toMatchObject({ answer_repeats_query: false, is_correct: true });
    await env.close();
  });

  it("reports at the end whether a query wrote the gold SQL's literal values, run or not", async () => {
    const env = envWith({ answerMode: 'sql' });
    const FRANCE = 'train-0002'; // SELECT avg(age) FROM singer WHERE country = 'France'
    const play = async (questionId: string, ...sqls: string[]) => {
      await env.reset({ options: { questionId } });
      let info: Record<string, unknown> = {};
      for (const sql of sqls) {
        [, , , , info] = await env.step({ name: 'query', arguments: { sql } });
        expect('gold_literals_written' in info).toBe(false); // only at the end
      }
      [, , , , info] = await env.step({ name: 'answer', arguments: { value: 'SELECT 1' } });
      return info['gold_literals_written'];
    };
    expect(await play(FRANCE, "SELECT count(*) FROM singer WHERE country = 'France'")).toBe(true); // the value, in another query
    expect(await play(FRANCE, "SELECT avg(age) FROM singer WHERE country = 'Frence'")).toBe(false);
    expect(await play(FRANCE, "SELECT avg(age) FROM singer WHERE country = 'Frence'", "SELECT age FROM nowhere WHERE country = 'France'")).toBe(true); // failed, but copied
    expect(await play(FRANCE)).toBe(false); // no query
    expect(await play(COUNT_QUESTION, 'SELECT name FROM singer')).toBe(true); // nothing to copy
    await env.close();
  });

  it('reports at the end whether a query followed a failed or empty one, and whether that one found the gold result', async () => {
    const env = envWith({ answerMode: 'sql' });
    const FRANCE = 'train-0002'; // SELECT avg(age) FROM singer WHERE country = 'France'
    const play = async (...sqls: string[]) => {
      await env.reset({ options: { questionId: FRANCE } });
      let info: Record<string, unknown> = {};
      for (const sql of sqls) {
        [, , , , info] = await env.step({ name: 'query', arguments: { sql } });
        expect('retried_after_failure' in info).toBe(false); // only at the end
      }
      [, , , , info] = await env.step({ name: 'answer', arguments: { value: 'SELECT 1' } });
      return [info['retried_after_failure'], info['recovered_after_failure']];
    };
    const gold = "SELECT avg(age) FROM singer WHERE country = 'France'";
    expect(await play(gold)).toEqual([false, false]);
    // Found nothing (avg over no rows is NULL), then the gold query: a recovery.
    expect(await play("SELECT avg(age) FROM singer WHERE country = 'Frence'", gold)).toEqual([true, true]);
    // An error, then another query that is not the gold one: a retry, no recovery.
    expect(await play('SELECT age FROM nowhere', 'SELECT avg(age) FROM singer')).toEqual([true, false]);
    // A query with rows, then the gold query: not a retry after a failure.
    expect(await play('SELECT avg(age) FROM singer', gold)).toEqual([false, false]);
    // A failure with nothing after it.
    expect(await play('SELECT age FROM nowhere')).toEqual([false, false]);
    await env.close();
  });

  it('never shows the gold SQL or answer before the end', async () => {
    const env = envWith();
    for (let seed = 0; seed < 6; seed++) {
      const [obs, info] = await env.reset({ seed });
      const gold = concert.dataset.question(String(info.question_id))!.goldSql;
      const seen = [JSON.stringify(obs), JSON.stringify(info)];
      for (const action of ['DESCRIBE singer', 'sample(concert)', 'QUERY: SELECT 1', 'nonsense']) {
        const [o, , , , i] = await env.step(action);
        seen.push(JSON.stringify(o), JSON.stringify(i));
      }
      for (const text of seen) {
        expect(text).not.toContain(gold);
        expect(text).not.toContain('gold');
      }
    }
    await env.close();
  });

  it('truncates when the step budget runs out, with the configured penalty', async () => {
    const env = envWith({ stepBudget: 2, reward: { outOfBudgetPenalty: 0.5 } });
    await env.reset({ options: { questionId: COUNT_QUESTION } });
    let result = await env.step('DESCRIBE singer');
    expect([result[2], result[3]]).toEqual([false, false]);
    result = await env.step('DESCRIBE concert');
    expect([result[2], result[3]]).toEqual([false, true]);
    expect(result[4].is_correct).toBe(false);
    expect((result[4].reward_components as { correctness: number }).correctness).toBe(-0.5);
    expect(result[0].result).toMatch(/step budget is used up/);
    await env.close();
  });

  it('refuses steps after the end with episode_over (and keeps the flags)', async () => {
    const env = envWith();
    await env.reset({ options: { questionId: COUNT_QUESTION } });
    await env.step({ name: 'answer', arguments: { value: 5 } });
    const [obs, reward, terminated, truncated, info] = await env.step('DESCRIBE singer');
    expect(info.error_type).toBe('episode_over');
    expect(obs.error).toMatch(/reset\(\)/);
    expect(reward).toBe(-0.1);
    expect([terminated, truncated]).toEqual([true, false]);
    expect(info.is_correct).toBe(false);
    await env.close();
  });

  it('throws ResetNeeded-style errors only for a step before any reset', async () => {
    const env = envWith();
    await expect(env.step('DESCRIBE singer')).rejects.toThrow(/before reset/);
    await env.close();
  });

  it('shows long results cut to the row limit with the full count, and a compact history', async () => {
    const env = envWith();
    await env.reset({ options: { questionId: COUNT_QUESTION } });
    const [obs] = await env.step({ name: 'query', arguments: { sql: 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 1234) SELECT x FROM c' } });
    expect(obs.result.split('\n')).toHaveLength(2 + 20 + 1);
    expect(obs.result).toMatch(/\(showing 20 of 1,234 rows\)$/);
    const [after] = await env.step('DESCRIBE nowhere');
    expect(after.history).toEqual([
      '1. query(WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 1234) SE...) → 1,234 rows',
      '2. describe(nowhere) → error: unknown_table',
    ]);
    const text = renderObservation(after);
    expect(text).toContain('Error: No table named "nowhere"');
    expect(text).toContain('Step 2; 8 steps left.');
    await env.close();
  });

  it("shows a question's evidence (BIRD) in the observation and its rendering", async () => {
    const bird = new SqlDataset({
      name: 'bird-like',
      split: 'dev',
      format: 'bird',
      databaseDir: join(concert.fixture.dir, 'database'),
      questions: [{ id: 'dev-1', question: 'How many French singers?', goldSql: "SELECT count(*) FROM singer WHERE country = 'France'", dbId: 'concert_singer', evidence: 'French refers to country = \'France\'' }],
      skipped: [],
      pool: concert.pool,
    });
    const env = new SQLEnv({ dataset: bird, pool: concert.pool });
    const [obs] = await env.reset({ seed: 0 });
    expect(obs.evidence).toBe("French refers to country = 'France'");
    expect(renderObservation(obs)).toContain("Evidence: French refers to country = 'France'");
    expect((await env.step({ name: 'answer', arguments: { value: 4 } }))[4].is_correct).toBe(true);
    await env.close();
    await bird.close();
  });

  it('lists each table\'s columns in every observation with listColumns, and none by default', async () => {
    const plain = envWith();
    const [before] = await plain.reset({ options: { questionId: COUNT_QUESTION } });
    expect(before.columns).toEqual([]);
    expect(renderObservation(before)).not.toContain('Columns:');
    await plain.close();
    const env = envWith({ listColumns: true });
    const [obs] = await env.reset({ options: { questionId: COUNT_QUESTION } });
    expect(obs.columns).toHaveLength(obs.tables.length);
    expect(obs.columns[obs.tables.indexOf('singer')]).toMatch(/^singer_id, name, /);
    expect(env.observationSpace.contains(obs)).toBe(true);
    expect(renderObservation(obs)).toMatch(/^Tables: stadium, singer, concert\n\nColumns: stadium\(stadium_id, [^)]*\); singer\(singer_id, name, [^)]*\); concert\(/m);
    const [next] = await env.step({ name: 'query', arguments: { sql: 'SELECT count(*) FROM singer' } });
    expect(next.columns).toEqual(obs.columns);
    await env.close();
  });

  it('caps observation text so observations stay in their space', () => {
    expect(capObservationText('abc', 10)).toBe('abc');
    const cut = capObservationText('x'.repeat(100), 60);
    expect(cut.length).toBeLessThanOrEqual(60);
    expect(cut).toMatch(/cut: 100 characters in all/);
  });

  it('renders ansi text', async () => {
    const env = envWith({ renderMode: 'ansi' });
    const [obs] = await env.reset({ options: { questionId: COUNT_QUESTION } });
    expect(env.render()).toBe(renderObservation(obs));
    expect(env.render()).toContain('Question: How many singers are there?');
    expect(() => new SQLEnv({ renderMode: 'human' as 'ansi' })).toThrow(SqlEnvError);
    // A misspelt option (a kwarg from JSON or Python) is refused with the name it was meant to be, not ignored.
    expect(() => new SQLEnv({ listColumn: true } as SqlEnvOptions)).toThrow(/unknown SQLEnv option "listColumn" \(did you mean "listColumns"\?\); SQLEnv reads dataset, split, /);
    await env.close();
  });
});

describe('SQLEnv error taxonomy', () => {
  const cases: [SqlErrorType, unknown, ConstructorParameters<typeof SQLEnv>[0]?][] = [
    ['parse_error', 'what tables are there?'],
    ['unknown_tool', { name: 'drop_everything', arguments: {} }],
    ['missing_argument', { name: 'describe', arguments: { sql: null } }],
    ['invalid_argument', { name: 'sample', arguments: { table_name: 'singer', n: 'many' } }],
    ['unknown_table', { name: 'describe', arguments: { table_name: 'singers_table' } }],
    ['sql_error', { name: 'query', arguments: { sql: 'SELECT no_such_column FROM singer' } }],
    ['forbidden_sql', { name: 'query', arguments: { sql: 'DELETE FROM singer' } }],
    ['forbidden_sql', 'DROP TABLE singer'],
    ['timeout', { name: 'query', arguments: { sql: 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c' } }, { queryLimits: { timeoutMs: 300 } }],
    [
      'result_too_large',
      { name: 'query', arguments: { sql: "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 5000) SELECT x, printf('%.200c', 'a') FROM c" } },
      { queryLimits: { maxResultBytes: 20_000 } },
    ],
  ];

  it.each(cases)('%s is reachable, costs a step and explains itself', async (type, action, options) => {
    const env = envWith(options);
    await env.reset({ options: { questionId: COUNT_QUESTION } });
    const [obs, reward, terminated, truncated, info] = await env.step(action as never);
    expect(info.error_type).toBe(type);
    expect(obs.error.length).toBeGreaterThan(20);
    expect(obs.result).toBe('');
    expect(obs.step).toBe(1);
    expect(reward).toBeCloseTo(-0.02, 12);
    expect([terminated, truncated]).toEqual([false, false]);
    // The env still works after the error.
    const [next, , , , nextInfo] = await env.step({ name: 'query', arguments: { sql: 'SELECT count(*) FROM singer' } });
    expect(nextInfo.error_type).toBeNull();
    expect(next.result).toContain('6');
    await env.close();
  });

  it('covers every error type (episode_over is tested above)', () => {
    expect(new Set([...cases.map(([t]) => t), 'episode_over'])).toEqual(new Set(SQL_ERROR_TYPES));
  });

  it('an unknown table lists the tables and suggests a call', async () => {
    const env = envWith();
    await env.reset({ options: { questionId: COUNT_QUESTION } });
    const [obs] = await env.step({ name: 'describe', arguments: { table_name: 'singers' } });
    expect(obs.error).toBe('No table named "singers". Tables: stadium, singer, concert. Call it as {"name": "describe", "arguments": {"table_name": "singer"}}.');
    await env.close();
  });

  it('matches table names case-insensitively in tolerant mode, not in strict mode', async () => {
    const tolerant = envWith();
    await tolerant.reset({ options: { questionId: COUNT_QUESTION } });
    const [, , , , info] = await tolerant.step({ name: 'describe', arguments: { table_name: 'SINGER' } });
    expect(info.error_type).toBeNull();
    expect(info.repairs).toEqual([{ kind: 'table_name_case', detail: 'table "SINGER" read as "singer"' }]);
    await tolerant.close();

    const strict = envWith({ actionMode: 'strict' });
    await strict.reset({ options: { questionId: COUNT_QUESTION } });
    expect((await strict.step({ name: 'describe', arguments: { table_name: 'SINGER' } }))[4].error_type).toBe('unknown_table');
    expect((await strict.step('DESCRIBE singer'))[4].error_type).toBe('unknown_tool');
    expect((await strict.step({ name: 'describe', arguments: { table_name: 'singer' } }))[4].error_type).toBeNull();
    await strict.close();
  });
});

describe('SQLEnv answer modes', () => {
  it('judges SQL answers by execution match in sql mode', async () => {
    const env = envWith({ answerMode: 'sql' });
    await env.reset({ options: { questionId: 'train-0001' } }); // names by age, ordered
    const [, , terminated, , info] = await env.step({ name: 'answer', arguments: { value: 'SELECT name FROM singer ORDER BY age DESC' } });
    expect(terminated).toBe(true);
    expect(info.is_correct).toBe(true);
    await env.reset({ options: { questionId: 'train-0001' } });
    expect((await env.step({ name: 'answer', arguments: { value: 'SELECT name FROM singer ORDER BY age' } }))[4].is_correct).toBe(false);
    await env.reset({ options: { questionId: 'train-0001' } });
    const failing = await env.step({ name: 'answer', arguments: { value: 'SELECT nope FROM singer' } });
    expect([failing[2], failing[4].is_correct, failing[4].error_type]).toEqual([true, false, 'sql_error']);
    await env.close();
  });

  it('accepts values or SQL in either mode', async () => {
    const env = envWith({ answerMode: 'either' });
    await env.reset({ options: { questionId: COUNT_QUESTION } });
    expect((await env.step({ name: 'answer', arguments: { value: 'SELECT count(*) FROM singer' } }))[4].is_correct).toBe(true);
    await env.reset({ options: { questionId: COUNT_QUESTION } });
    expect((await env.step({ name: 'answer', arguments: { value: 'six? no: 6' } }))[4].is_correct).toBe(false);
    await env.reset({ options: { questionId: COUNT_QUESTION } });
    expect((await env.step('ANSWER: 6'))[4].is_correct).toBe(true);
    await env.close();
  });
});

describe('SQLEnv query result cache', () => {
  it('answers a repeated query from the cache with the same observation and reward; false turns it off', async () => {
    const cache = new QueryResultCache();
    const play = async (env: SQLEnv) => {
      await env.reset({ options: { questionId: COUNT_QUESTION } });
      const step = await env.step({ name: 'query', arguments: { sql: 'SELECT name, age FROM singer ORDER BY age' } });
      return [step[0].result, step[1], step[4].potential];
    };
    const cached = envWith({ queryCache: cache });
    const first = await play(cached);
    expect(await play(cached)).toEqual(first);
    expect([cache.misses, cache.hits]).toEqual([1, 1]);
    const uncached = envWith({ queryCache: false });
    expect(await play(uncached)).toEqual(first);
    expect(cache.hits).toBe(1);
    await cached.close();
    await uncached.close();
  });
});

describe('SQLEnv resources and registration', () => {
  it('leaves a shared pool open and re-opens its own after close', async () => {
    const env = envWith();
    await env.reset({ seed: 0 });
    await env.close();
    await env.close(); // idempotent
    await expect(concert.pool.run(concert.fixture.dbPath, 'SELECT 1')).resolves.toMatchObject({ rows: [[1]] });

    const owning = new SQLEnv({ dataset: concert.fixture.dir });
    await owning.reset({ options: { questionId: COUNT_QUESTION } });
    expect((await owning.step('QUERY: SELECT count(*) FROM singer'))[0].result).toContain('6');
    await owning.close();
    await owning.reset({ options: { questionId: COUNT_QUESTION } });
    expect((await owning.step('QUERY: SELECT count(*) FROM singer'))[0].result).toContain('6');
    await owning.close();
  });

  it('passes checkEnv when made from the registry', async () => {
    const env = make('SQLEnv-v0', { dataset: concert.fixture.dir });
    await expect(checkEnv(env)).resolves.not.toThrow();
    await env.close();
  });

  it('never modified the database', () => {
    expect(hashFile(concert.fixture.dbPath)).toBe(dbHash);
  });
});

describe('SQLEnv-v0 on the bundled data', () => {
  it('passes checkEnv with the registered defaults (smoke split)', async () => {
    const env = make('SQLEnv-v0', { split: 'smoke' });
    await expect(checkEnv(env)).resolves.not.toThrow();
    await env.close();
  }, 60_000);
});
