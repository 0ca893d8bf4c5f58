import { describe, expect, it } from 'vitest';
import { isoDates, numbersIn, questionNumbers, wordStarts } from '../../src/recipes/sql/guide/question-values.js';

describe('the values a question states, as a query writes them', () => {
  it('reads dates as ISO days and months, in the order the question says them', () => {
    expect(isoDates('Which students have a birth date between June 29, 2010 and July 7, 2010?')).toEqual(['2010-06-29', '2010-07-07']);
    expect(isoDates('Fees in January 2023, or after february 2 2024?')).toEqual(['2024-02-02', '2023-01']);
    expect(isoDates('How many in May?')).toEqual([]);
    // A month word without a year is not a date.
    expect(isoDates('Count the marches of 12 people.')).toEqual([]);
  });

  it('reads numbers without currency signs or thousands commas, and not from names or dates written as words', () => {
    expect(questionNumbers('Count the concerts with a ticket price from $39 to $65 (both included).')).toEqual(['39', '65']);
    expect(questionNumbers('Rated above 1.5, under 1,200 or at 2,000.25?')).toEqual(['1.5', '1200', '2000.25']);
    expect(questionNumbers('Which of the 3 teams, founded in 1900.')).toEqual(['3', '1900']);
    // A comma between two numbers of a list is not a thousands separator.
    expect(numbersIn('SELECT * FROM t1 WHERE col_2 IN (100,200) AND n > 7')).toEqual(['100', '200', '7']);
    expect(numbersIn("SELECT * FROM t WHERE code = 'EC-11' AND v2 = x3")).toEqual([]);
  });

  it('lists where each word starts, with what follows it', () => {
    expect(wordStarts('bronze, silver or gold?', 6)).toEqual(['bronze', 'silver', 'or gol', 'gold?']);
    expect(wordStarts('"Seminar"', 20)).toEqual(['Seminar"']);
  });
});
