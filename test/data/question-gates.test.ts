import { describe, expect, it } from 'vitest';
import { goldResultProblem, MAX_GOLD_ROWS } from '../../data/lib/gold-quality.js';
import { normalizeQuestion, sqlInQuestion } from '../../data/lib/question-lint.js';

describe('sqlInQuestion', () => {
  it('accepts plain English, including lower-case "from" and quoted titles', () => {
    expect(sqlInQuestion('How many flights go from Lisbon to Paris?')).toEqual([]);
    expect(sqlInQuestion('Tell me the page count of the book "Silent Bridge".')).toEqual([]);
    expect(sqlInQuestion("What is the team's founding year?")).toEqual([]);
  });

  it('flags SQL keywords, operators, snake_case identifiers and SQL string literals', () => {
    expect(sqlInQuestion('SELECT COUNT(*) FROM singer')).toContain('SQL keyword');
    expect(sqlInQuestion('How many rows have age = 3?')).toContain('operator');
    expect(sqlInQuestion('Average of ticket_price?')).toContain('snake_case identifier');
    expect(sqlInQuestion("Count singers whose country is 'France'.")).toContain('SQL string quote');
    expect(sqlInQuestion('select name from t where x')).toContain('select-from pattern');
  });
});

describe('normalizeQuestion', () => {
  it('ignores case, punctuation and spacing', () => {
    expect(normalizeQuestion('How many  Singers?')).toBe(normalizeQuestion('how many singers'));
    expect(normalizeQuestion('How many singers?')).not.toBe(normalizeQuestion('How many songs?'));
  });
});

describe('goldResultProblem', () => {
  it('accepts small informative answers', () => {
    expect(goldResultProblem([['Jazz', 4], ['Rock', 9]])).toBeUndefined();
    expect(goldResultProblem([[12.5]])).toBeUndefined();
  });

  it('rejects empty, oversized, NULL-holding and zero-count answers', () => {
    expect(goldResultProblem([])).toBe('empty result');
    expect(goldResultProblem(Array.from({ length: MAX_GOLD_ROWS + 1 }, (_, i) => [i]))).toMatch(/more than/);
    expect(goldResultProblem([[null]])).toBe('NULL cell');
    expect(goldResultProblem([['a', null]])).toBe('NULL cell');
    expect(goldResultProblem([[0]])).toBe('zero count');
    expect(goldResultProblem([['x'.repeat(500)]])).toBe('cell too long');
  });
});
