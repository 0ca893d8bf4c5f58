/** What the SQL guide reads from an episode, once a turn: the question, the listed tables, the shown columns, the latest query. */
import { describe, expect, it } from 'vitest';
import type { SqlFeedback, ValueNotFoundFeedback } from '../../envs/sql/feedback/sql-feedback.js';
import { mentions, readConversation, tablesNamed } from '../../src/recipes/sql/guide/conversation.js';
import { prefixSet } from '../../src/recipes/sql/guide/word-groups.js';
import { guideEpisode, queryTurn, type SketchStep } from './guide-episode.js';

const unknownColumn = (column: string, candidates: { table: string; columns: string[]; more?: number }[] = []): SqlFeedback => ({
  kind: 'unknown_column',
  column,
  candidates: candidates.map((c) => ({ table: c.table, columns: c.columns, more: c.more ?? 0 })),
});
const query = (sql: string, response: Omit<SketchStep, 'turn'> = { result: '| 1 |' }): SketchStep => ({ turn: queryTurn(sql), tool: 'query', ...response });
const failedQuery = (sql: string, feedback: SqlFeedback): SketchStep => query(sql, { failed: true, feedback: [feedback] });

describe('readConversation', () => {
  it('reads the first observation: the question, the listed tables, and the transcript from it on', () => {
    const c = readConversation(guideEpisode({ question: 'How many Ports?', tables: ['port', 'chef', 'vehicle'] }));
    expect(c.text.startsWith('Question: How many Ports?')).toBe(true);
    expect(c.question).toBe('how many ports?');
    expect(c.questionText).toBe('How many Ports?');
    expect(c.tables).toEqual(['port', 'chef', 'vehicle']);
    expect(readConversation({ observations: [], infos: [], turns: [], transcript: [] }).tables).toBeUndefined();
  });

  it('reads columns from the listed columns, described tables and unknown-column feedback, but not a list cut short', () => {
    const c = readConversation(
      guideEpisode({ question: 'q', tables: ['a', 'b', 'c', 'd'], columns: ['x, Y'] }, [
        { turn: '<tool_call>{"name": "describe", "arguments": {"table_name": "b"}}</tool_call>', tool: 'describe', result: 'TABLE b (3 rows)\n  id INTEGER PRIMARY KEY\n  label TEXT\n  FOREIGN KEY id → a.x' },
        failedQuery('SELECT z FROM c, d', unknownColumn('z', [{ table: 'c', columns: ['id', 'code'] }, { table: 'd', columns: ['id', 'w1', 'w2'], more: 3 }])),
      ]),
    );
    expect(Object.fromEntries(c.columns)).toEqual({ a: ['x', 'y'], b: ['id', 'label'], c: ['id', 'code'] });
  });

  it('reads the latest query and whether a step after it failed', () => {
    const opening = '<tool_call>\n{"name": "query", "arguments": {"sql":"';
    const ok = readConversation(guideEpisode({ question: 'q' }, [query('SELECT 1')]));
    expect(ok.latestQuery).toEqual({ sql: 'SELECT 1', tables: [], failed: false, opening, unknownColumn: undefined, misplacedValue: undefined, linkedRewrite: undefined });
    expect(ok.rewritesAsked).toBe(0);
    const x = unknownColumn('x');
    const failed = readConversation(guideEpisode({ question: 'q' }, [failedQuery('SELECT \\"x\\"', x), query('SELECT 1'), failedQuery('SELECT \\"x\\"', x)]));
    expect(failed.latestQuery).toEqual({ sql: 'SELECT \\"x\\"', tables: [], failed: true, opening, unknownColumn: 'x', misplacedValue: undefined, linkedRewrite: undefined });
    expect(failed.rewritesAsked).toBe(2);
    // The unknown column of a qualified name is the column's own.
    expect(readConversation(guideEpisode({ question: 'q' }, [failedQuery('SELECT T1.x FROM t AS T1', unknownColumn('T1.x', [{ table: 't', columns: ['a'] }]))])).latestQuery?.unknownColumn).toBe('x');
    expect(readConversation(guideEpisode({ question: 'q' })).latestQuery).toBeUndefined();
    // Its tables, as the FROM and JOIN clauses name them, lower case: what the repair and the schema check scope to.
    expect(readConversation(guideEpisode({ question: 'q' }, [query('SELECT T1.a FROM Port AS T1 JOIN chef AS T2 ON T1.id = T2.port_id')])).latestQuery?.tables).toEqual(['port', 'chef']);
    // A call written without its tag has no opening of its own (not an earlier call's).
    expect(readConversation(guideEpisode({ question: 'q' }, [{ ...query('SELECT 1'), turn: `${queryTurn('SELECT 1')}{"sql":"SELECT 2"}` }])).latestQuery?.opening).toBeUndefined();
    // Only what the policy wrote is a query: SQLEnv's example calls in its error messages are not.
    const example = 'query needs "sql". Call it as {"name": "query", "arguments": {"sql": "SELECT * FROM port LIMIT 5"}}.';
    expect(readConversation(guideEpisode({ question: 'q' }, [query('SELECT 1'), { turn: '<tool_call>{"name": "query"}</tool_call>', failed: true, result: example }])).latestQuery?.sql).toBe('SELECT 1');
  });
});

describe('readConversation: a value another column holds', () => {
  const empty = '| COUNT(*) |\n| 0 |';
  const notFound = (column: string, value: string, lookedUpIn: string, more: Partial<ValueNotFoundFeedback>): ValueNotFoundFeedback => ({
    kind: 'value_not_found',
    column,
    value,
    lookedUpIn,
    closest: ['Lisbon Quay', 'Leith', 'Bilbao'],
    heldBy: [],
    questionValues: [],
    ...more,
  });

  it("reads the hint's compared column, where it stands in the SQL, and the columns that hold the value", () => {
    const sql = "SELECT COUNT(*) FROM port AS T1 WHERE T1.name = 'Lisbon'";
    const hint = notFound('name', 'Lisbon', 'port.name', { heldBy: [{ column: 'port.city', value: 'Lisbon' }, { column: 'port.region', value: 'Lisbon' }] });
    const c = readConversation(guideEpisode({ question: 'How many ports are in Lisbon?' }, [query(sql, { result: empty, feedback: [hint] })]));
    expect(c.latestQuery?.misplacedValue).toEqual({ column: 'name', at: sql.indexOf("name = 'Lisbon'"), holders: ['city', 'region'] });
    expect(c.latestQuery?.failed).toBe(false);
    expect(c.rewritesAsked).toBe(1);
  });

  it('finds the comparison, not an earlier use of the same column, and reads a quoted value', () => {
    const sql = "SELECT name FROM chef WHERE name = 'O''Hara'";
    const hint = notFound('name', "O'Hara", 'chef.name', { closest: ['Ada', 'Bo', 'Cy'], heldBy: [{ column: 'chef.surname', value: "O'Hara" }] });
    const c = readConversation(guideEpisode({ question: 'q' }, [query(sql, { result: '| name |', feedback: [hint] })]));
    expect(c.latestQuery?.misplacedValue).toEqual({ column: 'name', at: sql.lastIndexOf('name'), holders: ['surname'] });
  });

  it("reads a value of the question the hint links to a column: the query with that comparison instead", () => {
    const sql = "SELECT name, founded_year FROM port WHERE name = 'Sales' AND founded_year > 1900";
    const hint = notFound('name', 'Sales', 'port.name', { closest: ['Salt Quay', 'Leith', 'Bilbao'], questionValues: [{ column: 'port.city', value: 'Lisbon' }] });
    const c = readConversation(guideEpisode({ question: 'Ports in Lisbon founded after 1900?' }, [query(sql, { result: '| name | founded_year |\n(0 rows)', feedback: [hint] })]));
    expect(c.latestQuery?.linkedRewrite).toBe("SELECT name, founded_year FROM port WHERE city = 'Lisbon' AND founded_year > 1900");
    expect(c.latestQuery?.misplacedValue).toBeUndefined();
    expect(c.rewritesAsked).toBe(1);
  });

  it('asks for nothing where the hint names no other column, or there is no hint', () => {
    const sql = "SELECT COUNT(*) FROM port WHERE name = 'Lisbn'";
    const hint = notFound('name', 'Lisbn', 'port.name', { closest: ['Lisbon', 'Leith', 'Bilbao'] });
    expect(readConversation(guideEpisode({ question: 'q' }, [query(sql, { result: empty, feedback: [hint] })])).latestQuery?.misplacedValue).toBeUndefined();
    expect(readConversation(guideEpisode({ question: 'q' }, [query(sql, { result: empty })])).rewritesAsked).toBe(0);
  });
});

describe('tablesNamed', () => {
  it('reads the names after FROM and JOIN, lower case, and not a subquery or a longer word', () => {
    expect(tablesNamed('SELECT T1.name FROM port AS T1 JOIN Chef')).toEqual(['port', 'chef']);
    expect(tablesNamed('SELECT x FROM (SELECT y FROM inner_t)')).toEqual(['inner_t']);
    expect(tablesNamed('SELECT fromage FROM')).toEqual([]);
  });
});

describe('mentions', () => {
  it('finds a name as a whole word: itself, its plurals, with spaces for underscores', () => {
    expect(mentions('how many readings are there?', 'reading')).toBe(true);
    expect(mentions('list the categories.', 'category')).toBe(true);
    expect(mentions('count the boxes.', 'box')).toBe(true);
    expect(mentions('the ticket sales of 2020', 'ticket_sale')).toBe(true);
    expect(mentions('how many readers?', 'reading')).toBe(false);
    expect(mentions('the portal', 'port')).toBe(false);
  });
});

describe('prefixSet', () => {
  it('holds every prefix of every string', () => {
    expect([...prefixSet(['ab', 'ac'])].sort()).toEqual(['a', 'ab', 'ac']);
  });
});
