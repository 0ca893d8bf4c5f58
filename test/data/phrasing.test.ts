import { describe, expect, it } from 'vitest';
import { Rng } from '../../src/base/rng.js';
import {
  an, capitalize, humanDate, pluralize, roundThreshold, say, sqlLiteral, threshold, where,
} from '../../data/generator/questions/phrasing.js';
import { category, date, integer, nameColumn, real } from '../../data/generator/columns.js';
import { addDays, isoDateBetween, roundTo, weightedChoice } from '../../data/generator/random-values.js';
import { stableHash } from '../../data/generator/stable-hash.js';

describe('phrasing helpers', () => {
  it('writes SQL literals with doubled quotes', () => {
    expect(sqlLiteral("O'Brien")).toBe("'O''Brien'");
    expect(sqlLiteral(4.5)).toBe('4.5');
    expect(sqlLiteral(null)).toBe('NULL');
  });

  it('says values as people write them', () => {
    expect(humanDate('2021-03-04')).toBe('March 4, 2021');
    expect(say(real('price', 'price', 1, 2, 2, { currency: '$' }), 45.5)).toBe('$45.50');
    expect(say(real('price', 'price', 1, 2, 2, { currency: '$' }), 45)).toBe('$45');
    expect(say(nameColumn('title', 'title', () => 'x', { quoted: true }), 'Blue Harbor')).toBe('"Blue Harbor"');
    expect(say(date('d', 'date', '2020-01-01', '2020-02-01'), '2020-01-31')).toBe('January 31, 2020');
    expect(say(category('c', 'city', ['Lisbon']), 'Lisbon')).toBe('Lisbon');
  });

  it('inflects English', () => {
    expect(pluralize('genre')).toBe('genres');
    expect(pluralize('city')).toBe('cities');
    expect(pluralize('status')).toBe('statuses');
    expect(pluralize('day')).toBe('days');
    expect(an('age')).toBe('an age');
    expect(an('price')).toBe('a price');
    expect(an('user')).toBe('a user');
    expect(an('update')).toBe('an update');
    expect(capitalize('how many')).toBe('How many');
  });

  it('rounds thresholds to two significant digits', () => {
    expect(roundThreshold(1234.5)).toBe(1200);
    expect(roundThreshold(0.0467)).toBeCloseTo(0.047, 10);
    expect(roundThreshold(87)).toBe(87);
    expect(roundThreshold(0)).toBe(0);
  });

  it('picks thresholds inside the value range so filters split the rows', () => {
    const values = Array.from({ length: 100 }, (_, i) => i * 10);
    const rng = new Rng(1);
    for (let i = 0; i < 20; i++) {
      const x = threshold(values, rng);
      expect(x).toBeGreaterThan(100);
      expect(x).toBeLessThan(900);
    }
  });

  it('joins WHERE conditions and skips missing ones', () => {
    expect(where(['a = 1', undefined, 'b > 2'])).toBe(' WHERE a = 1 AND b > 2');
    expect(where([undefined])).toBe('');
    const col = integer('n', 'n', 1, 2, { nullRate: 0.5 });
    expect(col.nullable).toBe(true);
  });
});

describe('random values', () => {
  it('moves and draws ISO dates', () => {
    expect(addDays('2024-02-28', 2)).toBe('2024-03-01');
    const rng = new Rng(3);
    for (let i = 0; i < 50; i++) {
      const d = isoDateBetween(rng, '2020-01-01', '2020-01-10');
      expect(d >= '2020-01-01' && d <= '2020-01-10').toBe(true);
    }
  });

  it('rounds without float noise, also to tens and thousands', () => {
    expect(roundTo(12.3456, 2)).toBe(12.35);
    expect(roundTo(245_380, -3)).toBe(245_000);
  });

  it('respects weights', () => {
    const rng = new Rng(5);
    const draws = Array.from({ length: 2000 }, () => weightedChoice(rng, ['a', 'b'], [9, 1]));
    const share = draws.filter((d) => d === 'a').length / draws.length;
    expect(share).toBeGreaterThan(0.85);
    expect(share).toBeLessThan(0.95);
    expect(() => weightedChoice(rng, ['a'], [])).toThrow(RangeError);
  });

  it('hashes names to stable, distinct seeds', () => {
    expect(stableHash('concerts:venue')).toBe(stableHash('concerts:venue'));
    expect(stableHash('concerts:venue')).not.toBe(stableHash('concerts:artist'));
    expect(stableHash('')).toBe(0x811c9dc5);
  });
});
