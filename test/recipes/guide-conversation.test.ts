/** What the SQL guide reads from a prompt, once: the question, the listed tables, the shown columns, the latest query. */
import { describe, expect, it } from 'vitest';
import { mentions, readConversation, tablesNamed } from '../../src/recipes/sql/guide/conversation.js';
import { prefixSet } from '../../src/recipes/sql/guide/word-groups.js';

describe('readConversation', () => {
  it('starts at the first observation and reads its question and the last table list', () => {
    const c = readConversation('System: Question: not this one.\nQuestion: How many Ports?\n\nTables: port, chef<|im_end|>\nTables: port, chef, vehicle<|im_end|>');
    expect(c.text.startsWith('Question: How many Ports?')).toBe(true);
    expect(c.question).toBe('how many ports?');
    expect(c.tables).toEqual(['port', 'chef', 'vehicle']);
    expect(readConversation('no observation').tables).toBeUndefined();
    // Other chat templates' end tokens on the same line are not a table's name.
    for (const end of ['<|eot_id|>', '<end_of_turn>', '</s>', ' [/INST]']) expect(readConversation(`Question: q\nTables: port, chef${end}`).tables).toEqual(['port', 'chef']);
  });

  it('reads columns from the Columns line, described tables and unknown-column errors, but not a list cut short', () => {
    const c = readConversation([
      'Question: q',
      'Tables: a, b, c, d',
      'Columns: a(x, Y)',
      'TABLE b (3 rows)\n  id INTEGER PRIMARY KEY\n  label TEXT\n  FOREIGN KEY id → a.x',
      "Error: no such column: z. Columns of c: id, code; of d: id, w1, w2 and 3 more; write text values in single quotes: 'Paris'.",
    ].join('\n'));
    expect(Object.fromEntries(c.columns)).toEqual({ a: ['x', 'y'], b: ['id', 'label'], c: ['id', 'code'] });
  });

  it('reads the latest query and whether its response was an error', () => {
    const query = (sql: string, response: string) => `<tool_call>\n{"name": "query", "arguments": {"sql":"${sql}"}}\n</tool_call>\n<tool_response>\n${response}\n</tool_response>\n`;
    const opening = '<tool_call>\n{"name": "query", "arguments": {"sql":"';
    const ok = readConversation(`Question: q\n${query('SELECT 1', '| 1 |')}`);
    expect(ok.latestQuery).toEqual({ sql: 'SELECT 1', tables: [], failed: false, opening, unknownColumn: undefined, misplacedValue: undefined, linkedRewrite: undefined });
    expect(ok.rewritesAsked).toBe(0);
    const failed = readConversation(`Question: q\n${query("SELECT \\\"x\\\"", 'Error: no such column: x.')}${query('SELECT 1', '| 1 |')}${query("SELECT \\\"x\\\"", 'Error: no such column: x.')}`);
    expect(failed.latestQuery).toEqual({ sql: 'SELECT \\"x\\"', tables: [], failed: true, opening, unknownColumn: 'x', misplacedValue: undefined, linkedRewrite: undefined });
    expect(failed.rewritesAsked).toBe(2);
    // The unknown column of a qualified name is the column's own.
    expect(readConversation(`Question: q\n${query('SELECT T1.x FROM t AS T1', 'Error: no such column: T1.x. Columns of t: a')}`).latestQuery?.unknownColumn).toBe('x');
    expect(readConversation('Question: q').latestQuery).toBeUndefined();
    // Its tables, as the FROM and JOIN clauses name them, lower case: what the repair and the schema check scope to.
    expect(readConversation(`Question: q\n${query('SELECT T1.a FROM Port AS T1 JOIN chef AS T2 ON T1.id = T2.port_id', '| 1 |')}`).latestQuery?.tables).toEqual(['port', 'chef']);
    // A call written without its tag has no opening of its own (not an earlier call's).
    expect(readConversation(`Question: q\n${query('SELECT 1', '| 1 |')}{"sql":"SELECT 2"}`).latestQuery?.opening).toBeUndefined();
  });
});

describe('readConversation: a value another column holds', () => {
  const query = (sql: string, response: string) => `<tool_call>\n{"name": "query", "arguments": {"sql":"${sql}"}}\n</tool_call>\n<tool_response>\n${response}\n</tool_response>\n`;
  const empty = '| COUNT(*) |\n| 0 |';

  it("reads the hint's compared column, where it stands in the SQL, and the columns that hold the value", () => {
    const sql = "SELECT COUNT(*) FROM port AS T1 WHERE T1.name = 'Lisbon'";
    const hint = "No row has name = 'Lisbon'. Closest values of port.name: 'Lisbon Quay', 'Leith', 'Bilbao'. port.city and port.region have 'Lisbon'.";
    const c = readConversation(`Question: How many ports are in Lisbon?\n${query(sql, `${empty}\n${hint}`)}`);
    expect(c.latestQuery?.misplacedValue).toEqual({ column: 'name', at: sql.indexOf("name = 'Lisbon'"), holders: ['city', 'region'] });
    expect(c.latestQuery?.failed).toBe(false);
    expect(c.rewritesAsked).toBe(1);
  });

  it('finds the comparison, not an earlier use of the same column, and reads a quoted value', () => {
    const sql = "SELECT name FROM chef WHERE name = 'O''Hara'";
    const hint = "No row has name = 'O''Hara'. Closest values of chef.name: 'Ada', 'Bo', 'Cy'. chef.surname has 'O''Hara'.";
    const c = readConversation(`Question: q\n${query(sql, `| name |\n${hint}`)}`);
    expect(c.latestQuery?.misplacedValue).toEqual({ column: 'name', at: sql.lastIndexOf('name'), holders: ['surname'] });
  });

  it("reads a value of the question the hint links to a column: the query with that comparison instead", () => {
    const sql = "SELECT name, founded_year FROM port WHERE name = 'Sales' AND founded_year > 1900";
    const hint = "No row has name = 'Sales'. Closest values of port.name: 'Salt Quay', 'Leith', 'Bilbao'. The question's 'Lisbon' is in port.city.";
    const c = readConversation(`Question: Ports in Lisbon founded after 1900?\n${query(sql, `| name | founded_year |\n(0 rows)\n${hint}`)}`);
    expect(c.latestQuery?.linkedRewrite).toBe("SELECT name, founded_year FROM port WHERE city = 'Lisbon' AND founded_year > 1900");
    expect(c.latestQuery?.misplacedValue).toBeUndefined();
    expect(c.rewritesAsked).toBe(1);
  });

  it('asks for nothing where the hint names no other column, or there is no hint', () => {
    const sql = "SELECT COUNT(*) FROM port WHERE name = 'Lisbn'";
    const hint = "No row has name = 'Lisbn'. Closest values of port.name: 'Lisbon', 'Leith', 'Bilbao'.";
    expect(readConversation(`Question: q\n${query(sql, `${empty}\n${hint}`)}`).latestQuery?.misplacedValue).toBeUndefined();
    expect(readConversation(`Question: q\n${query(sql, empty)}`).rewritesAsked).toBe(0);
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
