import { describe, expect, it } from 'vitest';
import { editDistance } from '../../src/base/edit-distance.js';
import { Rng } from '../../src/base/rng.js';
import { OracleAgent, SQLEnv, runEpisodes } from '../../envs/sql/index.js';
import { rehearsedMistake, type MistakeKind } from '../../envs/sql/agents/rehearsed-mistake.js';
import { useFixtureEnv } from './fixture-env.js';

describe('rehearsedMistake', () => {
  const gold = "SELECT count(*) FROM singer WHERE country = 'France'";
  const tables = ['singer', 'concert'];

  it('makes each kind, each wrong in exactly the way its kind says', () => {
    const seen = new Map<MistakeKind, string>();
    for (let seed = 0; seed < 60; seed++) {
      const m = rehearsedMistake(gold, tables, ['doctor', 'patient'], new Rng(seed));
      if (!m) continue;
      expect(m.sql).not.toBe(gold);
      seen.set(m.kind, m.sql);
      if (m.kind === 'misspelled_value') {
        const value = /'([^']*)'/.exec(m.sql)![1]!;
        expect(m.sql.replace(`'${value}'`, "'France'")).toBe(gold);
        expect(editDistance(value, 'France')).toBeLessThanOrEqual(2);
      } else if (m.kind === 'unknown_table') {
        const table = /FROM (\w+)/.exec(m.sql)![1]!;
        expect(tables).not.toContain(table);
        expect(m.sql.replace(`FROM ${table}`, 'FROM singer')).toBe(gold);
      } else {
        const column = /WHERE (\w+)/.exec(m.sql)![1]!;
        expect(column).not.toBe('country');
        expect(editDistance(column, 'country')).toBeLessThanOrEqual(2);
      }
    }
    expect([...seen.keys()].sort()).toEqual(['misspelled_value', 'unknown_column', 'unknown_table']);
  });

  it('renames every mention of the table, and leaves string literals and other tables alone', () => {
    const sql = (a: string, b: string) => `SELECT T1.name FROM ${a} AS T1 JOIN ${b} AS T2 ON T1.id = T2.singer_id WHERE T1.name = 'singer'`;
    const renamed = new Set<string>();
    for (let seed = 0; seed < 40; seed++) {
      const m = rehearsedMistake(sql('singer', 'concert'), tables, [], new Rng(seed));
      if (m?.kind === 'unknown_table') renamed.add(m.sql);
    }
    expect([...renamed].sort()).toEqual([sql('singer', 'concerts'), sql('singers', 'concert')]);
  });

  it('returns undefined where the SQL offers no mistake to rehearse, and for SQL it cannot lex', () => {
    expect(rehearsedMistake('SELECT 1', tables, ['doctor'], new Rng(0))).toBeUndefined();
    expect(rehearsedMistake("SELECT 'unterminated", tables, [], new Rng(0))).toBeUndefined();
  });

  it('is reproducible from the seed', () => {
    const a = Array.from({ length: 10 }, (_, s) => rehearsedMistake(gold, tables, ['doctor'], new Rng(s)));
    const b = Array.from({ length: 10 }, (_, s) => rehearsedMistake(gold, tables, ['doctor'], new Rng(s)));
    expect(a).toEqual(b);
  });
});

describe('the oracle with rehearsed mistakes', () => {
  const concert = useFixtureEnv();
  const questionIds = () => concert.dataset.questions.map((q) => q.id);

  it('recovers from every mistake: still always right, with the mistaken query failing first', async () => {
    const env = () => new SQLEnv({ dataset: concert.dataset, pool: concert.pool, answerMode: 'sql' });
    const oracle = new OracleAgent(concert.dataset, { describeTables: false, answerWithSql: true, mistakeShare: 1, mistakeSeed: 3 });
    const report = await runEpisodes(env, oracle, { episodes: 12, questionIds: questionIds() });
    expect(report.success_rate).toBe(1);
    // Query, query, answer where the gold SQL offers a mistake; query, answer where it does not.
    expect(report.mean_steps).toBeGreaterThan(2.5);
    expect(report.error_counts.sql_error ?? 0).toBeGreaterThan(0);
    const clean = await runEpisodes(env, new OracleAgent(concert.dataset, { describeTables: false, answerWithSql: true }), { episodes: 12, questionIds: questionIds() });
    expect(clean.mean_steps).toBe(2);
  });

  it('plays an episode without a drawn mistake exactly as the plain oracle does (what sql.sft.rehearsals "besides" relies on)', async () => {
    const env = new SQLEnv({ dataset: concert.dataset, pool: concert.pool, answerMode: 'sql' });
    const play = async (agent: OracleAgent, id: string): Promise<string[]> => {
      let [obs, info] = await env.reset({ options: { questionId: id } });
      await agent.reset(obs, info);
      const actions: string[] = [];
      for (let done = false; !done; ) {
        const action = agent.act(obs, info);
        actions.push(JSON.stringify(action));
        const [o, , terminated, truncated, i] = await env.step(action);
        [obs, info, done] = [o, i, terminated || truncated];
      }
      return actions;
    };
    try {
      const rehearsing = new OracleAgent(concert.dataset, { describeTables: false, answerWithSql: true, mistakeShare: 0.5, mistakeSeed: 7 });
      const plain = new OracleAgent(concert.dataset, { describeTables: false, answerWithSql: true });
      let rehearsed = 0;
      for (const id of questionIds()) {
        const [withDraws, clean] = [await play(rehearsing, id), await play(plain, id)];
        // Either the plain play, or one rehearsed query in front of it.
        if (withDraws.length === clean.length) expect(withDraws).toEqual(clean);
        else {
          expect(withDraws.slice(1)).toEqual(clean);
          rehearsed++;
        }
      }
      expect(rehearsed).toBeGreaterThan(0);
      expect(rehearsed).toBeLessThan(questionIds().length);
    } finally {
      await env.close();
    }
  });
});
