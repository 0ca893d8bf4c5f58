import { describe, expect, it } from 'vitest';
import { compactAnswer } from '../../envs/sql/agents/compact-answer.js';
import { judgeValueAnswer } from '../../envs/sql/judge/judge-answer.js';

describe('compactAnswer', () => {
  it.each<[string, string, unknown[][], unknown]>([
    ['a single cell is the bare value', 'SELECT count(*) FROM singer', [[6]], 6],
    ['a single text cell', "SELECT name FROM singer WHERE age = 32", [['Timbaland, Jr.']], 'Timbaland, Jr.'],
    ['a single NULL cell', 'SELECT max(age) FROM singer WHERE 0', [[null]], null],
    ['one column is a flat list', 'SELECT name FROM singer ORDER BY age DESC', [['Joe Sharp'], ['Rose White'], ['Timbaland']], ['Joe Sharp', 'Rose White', 'Timbaland']],
    ['several columns stay rows', 'SELECT name, age FROM singer', [['Joe Sharp', 52], ['Timbaland', 32]], [['Joe Sharp', 52], ['Timbaland', 32]]],
    ['one row of several columns stays rows', 'SELECT name, age FROM singer LIMIT 1', [['Joe Sharp', 52]], [['Joe Sharp', 52]]],
    ['no rows stay empty', 'SELECT name FROM singer WHERE 0', [], []],
  ])('%s, and the judge accepts it', (_label, sql, rows, expected) => {
    const value = compactAnswer(rows);
    expect(value).toEqual(expected);
    expect(judgeValueAnswer(value, { sql, rows }).correct).toBe(true);
  });
});
