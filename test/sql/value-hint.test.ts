import { describe, expect, it } from 'vitest';
import { SQLEnv } from '../../envs/sql/index.js';
import { bigramSimilarity, closestValues, foundNothing, questionNames, textComparisons, valueFeedback, type ValueHintSource } from '../../envs/sql/episode/value-hint.js';
import { renderFeedback } from '../../envs/sql/feedback/render-feedback.js';

/** The hint's text as the observation shows it: each value not found rendered, a line each; undefined for none. */
async function valueHint(sql: string, source: ValueHintSource): Promise<string | undefined> {
  const feedback = await valueFeedback(sql, source);
  return feedback.length > 0 ? feedback.map(renderFeedback).join('\n') : undefined;
}
import { useFixtureEnv } from './fixture-env.js';

describe('value hints: the pure parts', () => {
  it('textComparisons finds column = text and wildcard-free LIKE, whatever the qualifier and quoting', () => {
    expect(textComparisons("SELECT age FROM singer AS T1 WHERE T1.name = 'Joe' AND country LIKE 'F%' OR \"Country\" LIKE 'france' AND x == 'It''s'")).toEqual([
      { column: 'name', value: 'Joe', ignoresCase: false },
      { column: 'Country', value: 'france', ignoresCase: true },
      { column: 'x', value: "It's", ignoresCase: false },
    ]);
    expect(textComparisons("SELECT 'a' = 'a', age FROM singer WHERE age = 3")).toEqual([]);
    expect(textComparisons("SELECT 'unterminated")).toEqual([]);
  });

  it('bigramSimilarity is 1 for equal strings (any case), 0 without a common bigram, symmetric', () => {
    expect(bigramSimilarity('France', 'FRANCE')).toBe(1);
    expect(bigramSimilarity('abc', 'xyz')).toBe(0);
    expect(bigramSimilarity('Span', 'Spain')).toBeCloseTo((2 * 2) / (3 + 4), 12);
    expect(bigramSimilarity('Spain', 'Span')).toBe(bigramSimilarity('Span', 'Spain'));
  });

  it('closestValues finds a misspelled name inside a longer one, where edit distance would not', () => {
    expect(closestValues('Brooksi Is', ['Ivy Lane', 'Victor Brooks', 'Brice Ison', 'Otto Brandt'], 1)).toEqual(['Victor Brooks']);
    expect(closestValues('Span', ['France', 'Spain', 'Japan'])).toEqual(['Spain', 'Japan', 'France']);
  });

  it('foundNothing: no rows, or one row of zeros and NULLs', () => {
    expect(foundNothing([])).toBe(true);
    expect(foundNothing([[0, null]])).toBe(true);
    expect(foundNothing([[0], [0]])).toBe(false);
    expect(foundNothing([[3]])).toBe(false);
    expect(foundNothing([['0']])).toBe(false);
  });

  it('valueHint names only values that are in no row, looked up in the tables the query names', async () => {
    const looked: string[] = [];
    const source: ValueHintSource = {
      tables: ['singer', 'stadium'],
      columns: (t) => (t === 'singer' ? ['name', 'country'] : ['name', 'location']),
      textValues: async (t, c) => {
        looked.push(`${t}.${c}`);
        return t === 'singer' && c === 'country' ? ['France', 'Spain', 'Netherlands'] : ['Joe Sharp', "Stark's Park"];
      },
    };
    expect(await valueHint("SELECT count(*) FROM singer WHERE COUNTRY = 'Span'", source)).toBe("No row has COUNTRY = 'Span'. Closest values of singer.country: 'Spain', 'France', 'Netherlands'.");
    expect(await valueHint("SELECT count(*) FROM singer WHERE country = 'France' AND name = 'Joe'", source)).toBe("No row has name = 'Joe'. Closest values of singer.name: 'Joe Sharp', 'Stark''s Park'.");
    expect(await valueHint("SELECT count(*) FROM singer WHERE country LIKE 'france'", source)).toBeUndefined();
    // A column of a table the query does not name is not looked up.
    looked.length = 0;
    expect(await valueHint("SELECT count(*) FROM singer WHERE location = 'Ayr'", source)).toBeUndefined();
    expect(looked).toEqual([]);
  });
});

describe('value hints: the column that holds the value', () => {
  const values: Record<string, string[]> = { 'port.name': ['Lisbon Quay', 'Leith'], 'port.city': ['lisbon', 'Perth'], 'port.region': ['Lisbon', 'Fife'], 'ship.home': ['Oslo'] };
  const source: ValueHintSource = {
    tables: ['port', 'ship'],
    columns: (t) => (t === 'port' ? ['id', 'name', 'city', 'region'] : ['id', 'name', 'home']),
    textValues: async (t, c) => values[`${t}.${c}`] ?? [],
  };

  it('names the other columns of the queried tables that have the value (any case, their spelling), up to two', async () => {
    expect(await valueHint("SELECT COUNT(*) FROM port WHERE name = 'Lisbon'", source)).toBe(
      "No row has name = 'Lisbon'. Closest values of port.name: 'Lisbon Quay', 'Leith'. port.city and port.region have 'lisbon'.",
    );
    expect(await valueHint("SELECT COUNT(*) FROM port WHERE region = 'Leith'", source)).toBe("No row has region = 'Leith'. Closest values of port.region: 'Lisbon', 'Fife'. port.name has 'Leith'.");
    // Only the tables the query names: ship.home has 'Oslo', but the query reads port.
    expect(await valueHint("SELECT COUNT(*) FROM port WHERE name = 'Oslo'", source)).toBe("No row has name = 'Oslo'. Closest values of port.name: 'Lisbon Quay', 'Leith'.");
  });

  it('reports each value not found as data: the column looked up, its closest values, the columns holding the value, the linked question values', async () => {
    expect(await valueFeedback("SELECT COUNT(*) FROM port WHERE name = 'Lisbon'", source)).toEqual([
      { kind: 'value_not_found', column: 'name', value: 'Lisbon', lookedUpIn: 'port.name', closest: ['Lisbon Quay', 'Leith'], heldBy: [{ column: 'port.city', value: 'lisbon' }, { column: 'port.region', value: 'Lisbon' }], questionValues: [] },
    ]);
    expect(await valueFeedback("SELECT COUNT(*) FROM port WHERE city = 'Sals'", { ...source, question: 'How many ports are in Fife, near Lisbon Quay?' })).toEqual([
      { kind: 'value_not_found', column: 'city', value: 'Sals', lookedUpIn: 'port.city', closest: ['lisbon', 'Perth'], heldBy: [], questionValues: [{ column: 'port.name', value: 'Lisbon Quay' }, { column: 'port.city', value: 'lisbon' }] },
    ]);
    expect(await valueFeedback("SELECT COUNT(*) FROM port WHERE name = 'Leith'", source)).toEqual([]);
  });

  it("where no column has the value, links the question's values to the queried tables' columns (the compared one too), longest first", async () => {
    const asked = { ...source, question: 'How many ports are in Fife, near Lisbon Quay?' };
    expect(await valueHint("SELECT COUNT(*) FROM port WHERE city = 'Sals'", asked)).toBe(
      "No row has city = 'Sals'. Closest values of port.city: 'lisbon', 'Perth'. The question's 'Lisbon Quay' is in port.name. The question's 'lisbon' is in port.city.",
    );
    // A value the question names only as part of a word is not linked; a hint that found the compared value elsewhere says only that.
    expect(await valueHint("SELECT COUNT(*) FROM port WHERE city = 'Sals'", { ...source, question: 'Ports of Lisbonia or Fifeshire?' })).toBe("No row has city = 'Sals'. Closest values of port.city: 'lisbon', 'Perth'.");
    expect(await valueHint("SELECT COUNT(*) FROM port WHERE name = 'Perth'", asked)).toBe("No row has name = 'Perth'. Closest values of port.name: 'Leith', 'Lisbon Quay'. port.city has 'Perth'.");
  });

  it('reads each column once per hint, however many of its parts look at it', async () => {
    const reads: string[] = [];
    const counted: ValueHintSource = { ...source, question: 'Ports in Fife?', textValues: async (t, c) => (reads.push(`${t}.${c}`), values[`${t}.${c}`] ?? []) };
    await valueHint("SELECT COUNT(*) FROM port WHERE city = 'Sals' AND name = 'Oslo'", counted);
    expect(reads.sort()).toEqual(['port.city', 'port.id', 'port.name', 'port.region']);
  });

  it('questionNames matches whole words in any case, not a part of one', () => {
    expect(questionNames('how many ports are in lisbon?', 'Lisbon')).toBe(true);
    expect(questionNames('how many ports are in lisbon?', 'Lis')).toBe(false);
    expect(questionNames('tickets for a', 'a')).toBe(false);
  });
});

describe('value hints in SQLEnv', () => {
  const concert = useFixtureEnv();
  const firstQuery = async (sql: string, options: ConstructorParameters<typeof SQLEnv>[0] = {}) => {
    const env = new SQLEnv({ dataset: concert.dataset, pool: concert.pool, ...options });
    try {
      await env.reset({ options: { questionId: 'train-0002' } });
      const [obs] = await env.step({ name: 'query', arguments: { sql } });
      return obs;
    } finally {
      await env.close();
    }
  };

  it('follows a query that found nothing with the closest values of the misspelled value', async () => {
    const obs = await firstQuery("SELECT avg(age) FROM singer WHERE country = 'Frnace'");
    expect(obs.error).toBe('');
    expect(obs.result).toContain('| NULL |');
    expect(obs.result).toMatch(/\nNo row has country = 'Frnace'\. Closest values of singer\.country: 'France', /);
    const names = await firstQuery("SELECT count(*) FROM singer WHERE name = 'Sharp Joe'");
    expect(names.result).toContain("Closest values of singer.name: 'Joe Sharp'");
  });

  it("links the question's value to the column that holds it, from the real database", async () => {
    // train-0002's question names a country of the singer table ('France' is among its values, as in the fixture).
    const env = new SQLEnv({ dataset: concert.dataset, pool: concert.pool });
    try {
      const [first] = await env.reset({ options: { questionId: 'train-0002' } });
      const named = /France|Netherlands|Spain|United States/.exec(first.question)?.[0];
      const [obs] = await env.step({ name: 'query', arguments: { sql: "SELECT count(*) FROM singer WHERE name = 'Zzyzx'" } });
      if (named) expect(obs.result).toContain(`The question's '${named}' is in singer.country.`);
      else expect(obs.result).not.toContain("The question's");
    } finally {
      await env.close();
    }
  });

  it('says which column of the queried table has a value compared with the wrong one, from the real database', async () => {
    const obs = await firstQuery("SELECT count(*) FROM singer WHERE name = 'france'");
    expect(obs.result).toMatch(/\nNo row has name = 'france'\. Closest values of singer\.name: .*\. singer\.country has 'France'\.$/);
  });

  it('says nothing when the result has rows, when the value exists, or with valueHints: false', async () => {
    expect((await firstQuery("SELECT avg(age) FROM singer WHERE country = 'France'")).result).not.toContain('No row has');
    expect((await firstQuery("SELECT count(*) FROM singer WHERE country = 'France' AND age > 90")).result).not.toContain('No row has');
    expect((await firstQuery("SELECT avg(age) FROM singer WHERE country = 'Frnace'", { valueHints: false })).result).not.toContain('No row has');
  });
});
