import { describe, expect, it } from 'vitest';
import {
  answerCandidates,
  cellsEqual,
  cleanAnswerText,
  executionMatch,
  hasTopLevelOrderBy,
  judgeValueAnswer,
  looksLikeSql,
  normaliseCell,
  resultsMatch,
} from '../../envs/sql/judge/index.js';

const exact = { relative: 0, absolute: 0 };
const unordered = (sql = 'SELECT a FROM t') => sql;

describe('normaliseCell', () => {
  it.each<[unknown, unknown]>([
    ['1,234', 1234],
    ['42.0', 42],
    [' 42 ', 42],
    ['$5', 5],
    ['45%', 45],
    ['-3.5e2', -350],
    [true, 1],
    [false, 0],
    [BigInt(10), 10],
    ['NULL', null],
    [undefined, null],
    ['  "Paris"  ', 'paris'],
    ["'Joe  Sharp'", 'joe sharp'],
    ['Rose\nWhite', 'rose white'],
  ])('%s → %s', (input, expected) => {
    expect(normaliseCell(input)).toBe(expected);
  });
});

describe('cellsEqual', () => {
  const onePercent = { relative: 0.01, absolute: 1e-9 };
  it('compares integers exactly and floats within tolerance', () => {
    expect(cellsEqual(1000, 1005, onePercent)).toBe(false);
    expect(cellsEqual(33.3333, 33.33, onePercent)).toBe(true);
    expect(cellsEqual(33.3333, 34, onePercent)).toBe(false);
    expect(cellsEqual(0.1 + 0.2, 0.3, exact)).toBe(false);
    expect(cellsEqual(0.1 + 0.2, 0.3, { relative: 1e-9, absolute: 0 })).toBe(true);
    expect(cellsEqual(null, null, exact)).toBe(true);
    expect(cellsEqual(null, 0, onePercent)).toBe(false);
  });
});

describe('hasTopLevelOrderBy', () => {
  it('finds ORDER BY only at the top level', () => {
    expect(hasTopLevelOrderBy('SELECT name FROM singer ORDER BY age')).toBe(true);
    expect(hasTopLevelOrderBy('select a from t union select b from u order by 1')).toBe(true);
    expect(hasTopLevelOrderBy('SELECT * FROM (SELECT a FROM t ORDER BY a LIMIT 3)')).toBe(false);
    expect(hasTopLevelOrderBy("SELECT 'order by' FROM t -- order by x")).toBe(false);
    expect(hasTopLevelOrderBy('SELECT "order by" FROM t')).toBe(false);
  });
});

describe('resultsMatch (Spider test-suite semantics)', () => {
  it('compares bags: order ignored, duplicates counted', () => {
    expect(resultsMatch([[2], [1]], [[1], [2]], { ordered: false, numbers: exact })).toBe(true);
    expect(resultsMatch([[1], [1], [2]], [[1], [2], [2]], { ordered: false, numbers: exact })).toBe(false);
    expect(resultsMatch([[1], [2]], [[1], [2], [2]], { ordered: false, numbers: exact })).toBe(false);
  });

  it('respects order when asked', () => {
    expect(resultsMatch([[2], [1]], [[1], [2]], { ordered: true, numbers: exact })).toBe(false);
    expect(resultsMatch([[1], [2]], [[1], [2]], { ordered: true, numbers: exact })).toBe(true);
  });

  it('accepts any column permutation but not a different column count', () => {
    const gold = [['joe', 52], ['ann', 41]];
    expect(resultsMatch([[41, 'Ann'], [52, 'Joe']], gold, { ordered: false, numbers: exact })).toBe(true);
    expect(resultsMatch([['joe'], ['ann']], gold, { ordered: false, numbers: exact })).toBe(false);
    expect(resultsMatch([['joe', 52, 1], ['ann', 41, 2]], gold, { ordered: false, numbers: exact })).toBe(false);
    // Same bags per column, but rows pair the values differently: not a match.
    expect(resultsMatch([['joe', 41], ['ann', 52]], gold, { ordered: false, numbers: exact })).toBe(false);
  });

  it('treats NULL as equal to NULL', () => {
    expect(resultsMatch([[null, 1]], [[null, 1]], { ordered: false, numbers: exact })).toBe(true);
    expect(resultsMatch([[null]], [[0]], { ordered: false, numbers: exact })).toBe(false);
  });

  it('matches rows whose floats sort differently within tolerance', () => {
    const tolerance = { relative: 0.01, absolute: 0 };
    expect(resultsMatch([[1.0, 'b'], [1.001, 'a']], [[1.001, 'b'], [1.0, 'a']], { ordered: false, numbers: tolerance })).toBe(true);
  });

  it('can accept distinct rows for a gold bag with duplicates', () => {
    expect(resultsMatch([['france']], [['France'], ['France']], { ordered: false, numbers: exact })).toBe(false);
    expect(resultsMatch([['france']], [['France'], ['France']], { ordered: false, numbers: exact, ignoreDuplicates: true })).toBe(true);
  });

  it('matches empty results only with empty results', () => {
    expect(resultsMatch([], [], { ordered: false, numbers: exact })).toBe(true);
    expect(resultsMatch([], [[1]], { ordered: false, numbers: exact })).toBe(false);
  });
});

describe('answerCandidates and cleanAnswerText', () => {
  it('strips wrappers', () => {
    expect(cleanAnswerText('Answer: Paris')).toBe('Paris');
    expect(cleanAnswerText('The final answer is 42')).toBe('42');
    expect(cleanAnswerText('```\n42\n```')).toBe('42');
    expect(cleanAnswerText('**Paris**.')).toBe('Paris');
    expect(cleanAnswerText('3.5')).toBe('3.5');
  });

  it('reads a comma list as a column, a row, and one value', () => {
    expect(answerCandidates('1, 2, 3')).toEqual([[['1'], ['2'], ['3']], [['1', '2', '3']], [['1, 2, 3']]]);
  });

  it('gives no reading for an empty answer', () => {
    expect(answerCandidates('   ')).toEqual([]);
    expect(answerCandidates('Answer:')).toEqual([]);
  });
});

describe('judgeValueAnswer', () => {
  const single = { sql: 'SELECT count(*) FROM singer', rows: [[6]] };
  const names = { sql: unordered('SELECT name FROM singer'), rows: [['Joe Sharp'], ['Timbaland'], ['Rose White']] };
  const ordered = { sql: 'SELECT name FROM singer ORDER BY age DESC', rows: [['Joe Sharp'], ['Rose White'], ['Timbaland']] };
  const pairs = { sql: 'SELECT name, age FROM singer', rows: [['Joe Sharp', 52], ['Timbaland', 32]] };
  const avg = { sql: 'SELECT avg(age) FROM singer', rows: [[34.5]] };

  it.each<[string, unknown, { sql: string; rows: unknown[][] }, boolean]>([
    ['bare scalar for a single cell', 6, single, true],
    ['numeric text', '6', single, true],
    ['"Answer:" prefix', 'Answer: 6', single, true],
    ['"42.0" style', '6.0', single, true],
    ['thousands separator', '1,234', { sql: 'SELECT 1234', rows: [[1234]] }, true],
    ['list wrapped scalar', [6], single, true],
    ['rows wrapped scalar', [[6]], single, true],
    ['object', { count: 6 }, single, true],
    ['wrong number', 7, single, false],
    ['empty string', '', single, false],
    ['list in any order', ['Rose White', 'Joe Sharp', 'Timbaland'], names, true],
    ['comma text', 'rose white, joe sharp, timbaland', names, true],
    ['newline list with bullets', '- Joe Sharp\n- Timbaland\n- Rose White', names, true],
    ['missing item', ['Joe Sharp', 'Timbaland'], names, false],
    ['extra item', ['Joe Sharp', 'Timbaland', 'Rose White', 'Bob'], names, false],
    ['ordered gold, right order', ['Joe Sharp', 'Rose White', 'Timbaland'], ordered, true],
    ['ordered gold, wrong order', ['Timbaland', 'Rose White', 'Joe Sharp'], ordered, false],
    ['JSON rows, columns swapped', [[52, 'Joe Sharp'], [32, 'Timbaland']], pairs, true],
    ['JSON text rows', '[["Joe Sharp", 52], ["Timbaland", 32]]', pairs, true],
    ['list of objects', [{ name: 'Joe Sharp', age: 52 }, { name: 'Timbaland', age: 32 }], pairs, true],
    ['markdown table', '| name | age |\n|---|---|\n| Joe Sharp | 52 |\n| Timbaland | 32 |', pairs, true],
    ['CSV with header', 'name,age\nJoe Sharp,52\nTimbaland,32', pairs, true],
    ['CSV without header', 'Joe Sharp,52\nTimbaland,32', pairs, true],
    ['one row as a flat list', ['Joe Sharp', 52], { sql: 'SELECT name, age FROM singer LIMIT 1', rows: [['Joe Sharp', 52]] }, true],
    ['float at display precision', '34.50', avg, true],
    ['float within 1% but not equal', '34.4', avg, false],
    ['float outside 1%', '36', avg, false],
    ['code fence', '```\n34.5\n```', avg, true],
    ['a value ending in a full stop', 'Timbaland, Jr.', { sql: 'SELECT name FROM singer WHERE age = 32', rows: [['Timbaland, Jr.']] }, true],
    ['the full stop still stripped from a sentence', 'Timbaland.', { sql: 'SELECT name FROM singer WHERE age = 32', rows: [['Timbaland']] }, true],
    ['quoted string', '"Timbaland"', { sql: 'SELECT name FROM singer WHERE age = 32', rows: [['Timbaland']] }, true],
  ])('%s', (_label, value, gold, correct) => {
    expect(judgeValueAnswer(value, gold).correct).toBe(correct);
  });

  it('uses the configured tolerance', () => {
    expect(judgeValueAnswer('34.4', avg, { numbers: { relative: 0.01, absolute: 0 } }).correct).toBe(true);
    expect(judgeValueAnswer('34.4', avg, { numbers: { relative: 0, absolute: 0 } }).correct).toBe(false);
  });
});

describe('executionMatch and looksLikeSql', () => {
  it('is exact on floats by default and orders only when asked', () => {
    expect(executionMatch([[34.5]], [[34.5]], { ordered: false })).toBe(true);
    expect(executionMatch([[34.4]], [[34.5]], { ordered: false })).toBe(false);
    expect(executionMatch([[1], [2]], [[2], [1]], { ordered: true })).toBe(false);
  });

  it('recognises SQL answers', () => {
    expect(looksLikeSql('SELECT count(*) FROM singer')).toBe(true);
    expect(looksLikeSql('```sql\nWITH x AS (SELECT 1) SELECT * FROM x\n```')).toBe(true);
    expect(looksLikeSql('Selena Gomez')).toBe(false);
    expect(looksLikeSql(42)).toBe(false);
  });
});
