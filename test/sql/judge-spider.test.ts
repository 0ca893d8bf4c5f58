import Database from 'better-sqlite3';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  QueryPool,
  SEED_FLOAT_TOLERANCE,
  SQLEnv,
  displayNumber,
  executionMatch,
  judgeValueAnswer,
  loadDataset,
  roundForDisplay,
  type SqlDataset,
} from '../../envs/sql/index.js';
import { useTempDirs } from '../helpers/temp-dirs.js';

/**
 * Real Spider questions (car_1, its dev split) on a database built here in Spider's car_1 shape,
 * with data chosen so that the gold results have the shapes that fooled the old judge: a result
 * with a repeated row, and averages that a 1% tolerance confused with their neighbours.
 */
const QUESTIONS = [
  {
    id: 'car-makers',
    question: 'How many countries has more than 2 car makers?',
    // Spider's own gold SQL for this question: one count per country, so the counts repeat.
    query: 'SELECT count(*) FROM countries AS T1 JOIN car_makers AS T2 ON T1.countryId = T2.Country GROUP BY T1.countryId HAVING count(*) > 2',
    db_id: 'car_1',
  },
  { id: 'avg-weight', question: 'What is the average weight of all cars?', query: 'SELECT avg(Weight) FROM cars_data', db_id: 'car_1' },
  { id: 'avg-hp-1970', question: 'What is the average horsepower of the cars made in 1970?', query: 'SELECT avg(Horsepower) FROM cars_data WHERE Year = 1970', db_id: 'car_1' },
  {
    id: 'makers-by-id',
    question: 'List the names of all car makers ordered by id.',
    query: 'SELECT Maker FROM car_makers ORDER BY Id',
    db_id: 'car_1',
  },
  {
    id: 'top-countries',
    question: 'Which countries have the most car makers? List the top two countries and their counts.',
    query: 'SELECT * FROM (SELECT T1.CountryName, count(*) AS n FROM countries AS T1 JOIN car_makers AS T2 ON T1.CountryId = T2.Country GROUP BY T1.CountryId ORDER BY n DESC, T1.CountryId LIMIT 2)',
    db_id: 'car_1',
  },
];

/** Twelve cars whose weights sum to 15,917: the average is 1326.4166…; the two 1970 cars average 133.5 hp. */
const CARS_1971 = [1200, 1300, 1400, 1250, 1350, 1320, 1330, 1280, 1380, 1310];
const CARS_1970 = [
  { horsepower: 133, weight: 1397 },
  { horsepower: 134, weight: 1400 },
];

const tempDir = useTempDirs('sqlenv-car-');

function createCarFixture(): string {
  const dir = tempDir();
  mkdirSync(join(dir, 'database', 'car_1'), { recursive: true });
  const db = new Database(join(dir, 'database', 'car_1', 'car_1.sqlite'));
  db.exec(`
    CREATE TABLE countries (CountryId INTEGER PRIMARY KEY, CountryName TEXT);
    CREATE TABLE car_makers (Id INTEGER PRIMARY KEY, Maker TEXT, FullName TEXT, Country INTEGER REFERENCES countries(CountryId));
    CREATE TABLE cars_data (Id INTEGER PRIMARY KEY, Horsepower INTEGER, Weight INTEGER, Year INTEGER);
  `);
  const countries = ['usa', 'germany', 'france', 'japan', 'italy', 'sweden'];
  countries.forEach((name, i) => db.prepare('INSERT INTO countries VALUES (?, ?)').run(i + 1, name));
  // Makers per country: usa 4, germany 4, france 3, japan 5, italy 1, sweden 2 → counts 4, 4, 3, 5.
  const perCountry = [4, 4, 3, 5, 1, 2];
  let id = 1;
  perCountry.forEach((count, c) => {
    for (let k = 0; k < count; k++, id++) db.prepare('INSERT INTO car_makers VALUES (?, ?, ?, ?)').run(id, `maker${id}`, `Maker ${id}`, c + 1);
  });
  const insertCar = db.prepare('INSERT INTO cars_data VALUES (?, ?, ?, ?)');
  CARS_1971.forEach((weight, i) => insertCar.run(i + 1, 90 + i, weight, 1971));
  CARS_1970.forEach((car, i) => insertCar.run(100 + i, car.horsepower, car.weight, 1970));
  db.close();
  writeFileSync(join(dir, 'dev.json'), JSON.stringify(QUESTIONS));
  return dir;
}

describe('the judge on real Spider questions (car_1)', () => {
  let dir: string;
  let pool: QueryPool;
  let dataset: SqlDataset;

  beforeAll(async () => {
    dir = createCarFixture();
    pool = new QueryPool({ size: 1 });
    dataset = await loadDataset(dir, 'dev', { pool });
  });

  afterAll(async () => {
    await dataset?.close();
    await pool?.close();
  });

  const gold = async (id: string) => {
    const question = dataset.question(id)!;
    return { sql: question.goldSql, rows: (await dataset.goldResult(question)).rows };
  };

  it('has the gold results the cases are about', async () => {
    expect((await gold('car-makers')).rows).toEqual([[4], [4], [3], [5]]);
    expect((await gold('avg-weight')).rows[0]![0]).toBeCloseTo(1326.4166666, 6);
    expect((await gold('avg-hp-1970')).rows).toEqual([[133.5]]);
  });

  it('counts duplicate rows: collapsing the repeated 4 is wrong', async () => {
    const g = await gold('car-makers');
    expect(judgeValueAnswer([4, 4, 3, 5], g).correct).toBe(true);
    expect(judgeValueAnswer('5, 4, 3, 4', g).correct).toBe(true);
    expect(judgeValueAnswer([4, 3, 5], g).correct).toBe(false);
    expect(judgeValueAnswer('4, 3, 5', g).correct).toBe(false);
    expect(judgeValueAnswer([4, 4, 4, 3, 5], g).correct).toBe(false);
    // The old behaviour stays available on request.
    expect(judgeValueAnswer([4, 3, 5], g, { acceptDistinctRows: true }).correct).toBe(true);
  });

  it('compares averages at display precision, not within 1%', async () => {
    const weight = await gold('avg-weight');
    const shown = displayNumber(weight.rows[0]![0] as number);
    expect(shown).toBe('1326.42');
    expect(judgeValueAnswer(shown, weight).correct).toBe(true);
    expect(judgeValueAnswer(1326.4166666666667, weight).correct).toBe(true);
    expect(judgeValueAnswer('1327.4', weight).correct).toBe(false);
    expect(judgeValueAnswer('1326.4', weight).correct).toBe(false);
    expect(judgeValueAnswer('1326', weight).correct).toBe(false);
    const hp = await gold('avg-hp-1970');
    expect(judgeValueAnswer('133.5', hp).correct).toBe(true);
    expect(judgeValueAnswer('134.5', hp).correct).toBe(false);
    expect(judgeValueAnswer('133', hp).correct).toBe(false);
    // The seed's 1% tolerance, when asked for, accepts the neighbours again.
    expect(judgeValueAnswer('1327.4', weight, { numbers: SEED_FLOAT_TOLERANCE }).correct).toBe(true);
    expect(judgeValueAnswer('134.5', hp, { numbers: SEED_FLOAT_TOLERANCE }).correct).toBe(true);
  });

  it('orders only at the top-level ORDER BY', async () => {
    const makers = await gold('makers-by-id');
    const names = makers.rows.map((r) => r[0]);
    expect(judgeValueAnswer(names, makers).correct).toBe(true);
    expect(judgeValueAnswer([...names].reverse(), makers).correct).toBe(false);
    // The ORDER BY inside the subquery picks the rows, it does not order the result.
    const top = await gold('top-countries');
    expect(top.rows).toEqual([['japan', 5], ['usa', 4]]);
    expect(judgeValueAnswer([['usa', 4], ['japan', 5]], top).correct).toBe(true);
    expect(judgeValueAnswer([[4, 'usa'], [5, 'japan']], top).correct).toBe(true);
    expect(judgeValueAnswer([['germany', 4], ['japan', 5]], top).correct).toBe(false);
  });

  it('uses the same comparison for SQL answers (execution match)', async () => {
    const run = async (sql: string) => (await pool.run(dataset.dbPath('car_1'), sql)).rows;
    const g = await gold('car-makers');
    const distinct = await run('SELECT DISTINCT count(*) FROM car_makers GROUP BY Country HAVING count(*) > 2');
    expect(executionMatch(distinct, g.rows, { ordered: false })).toBe(false);
    const right = await run('SELECT count(*) FROM car_makers GROUP BY Country HAVING count(*) > 2');
    expect(executionMatch(right, g.rows, { ordered: false })).toBe(true);
    // The same average computed another way differs in the last bits: equal at display precision.
    const weight = await gold('avg-weight');
    const other = await run('SELECT sum(Weight) * 1.0 / count(*) FROM cars_data');
    expect(executionMatch(other, weight.rows, { ordered: false })).toBe(true);
    const near = await run('SELECT avg(Weight) + 1 FROM cars_data');
    expect(executionMatch(near, weight.rows, { ordered: false })).toBe(false);
  });

  it('judges the same way inside SQLEnv, for value and SQL answers', async () => {
    const valueEnv = new SQLEnv({ dataset, pool });
    await valueEnv.reset({ options: { questionId: 'avg-weight' } });
    const [queried] = await valueEnv.step({ name: 'query', arguments: { sql: 'SELECT avg(Weight) FROM cars_data' } });
    // The observation shows the number at display precision; copying it is right.
    expect(queried.result).toContain('| 1326.42 |');
    const [, reward, , , info] = await valueEnv.step({ name: 'answer', arguments: { value: 1326.42 } });
    expect(info.is_correct).toBe(true);
    expect((info.reward_components as { correctness: number }).correctness).toBe(1);
    await valueEnv.reset({ options: { questionId: 'car-makers' } });
    const [, , , , wrong] = await valueEnv.step({ name: 'answer', arguments: { value: [4, 3, 5] } });
    expect(wrong.is_correct).toBe(false);
    await valueEnv.close();

    const sqlEnv = new SQLEnv({ dataset, pool, answerMode: 'sql' });
    await sqlEnv.reset({ options: { questionId: 'car-makers' } });
    const [, , , , distinct] = await sqlEnv.step({
      name: 'answer',
      arguments: { value: 'SELECT DISTINCT count(*) FROM car_makers GROUP BY Country HAVING count(*) > 2' },
    });
    expect(distinct.is_correct).toBe(false);
    await sqlEnv.reset({ options: { questionId: 'avg-hp-1970' } });
    const [, , , , avg] = await sqlEnv.step({ name: 'answer', arguments: { value: 'SELECT sum(Horsepower) / 2.0 FROM cars_data WHERE Year = 1970' } });
    expect(avg.is_correct).toBe(true);
    await sqlEnv.close();
  });
});

describe('roundForDisplay and displayNumber', () => {
  it.each<[number, string]>([
    [1326.4166666666667, '1326.42'],
    [133.5, '133.5'],
    [18.333333333333332, '18.3333'],
    [109915.3870967742, '109915.39'],
    [1234567.891, '1234567.89'],
    [0.00123456789, '0.00123457'],
    [0.1 + 0.2, '0.3'],
    [42, '42'],
    [-0.001, '-0.001'],
    [2 ** 60, String(2 ** 60)],
    [1e-120 / 3, '3.33333e-121'],
  ])('%s → %s', (x, shown) => {
    expect(displayNumber(x)).toBe(shown);
    expect(roundForDisplay(x)).toBe(Number(shown));
  });
});
