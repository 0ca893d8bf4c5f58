import Database from 'better-sqlite3';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A question entry in the bundled (Spider) layout. */
interface FixtureQuestion {
  question: string;
  query: string;
  db_id: string;
  difficulty?: string;
}

/** Questions of the fixture; the last one's gold SQL fails on purpose (it must be skipped). */
export const FIXTURE_QUESTIONS: FixtureQuestion[] = [
  { question: 'How many singers are there?', query: 'SELECT count(*) FROM singer', db_id: 'concert_singer', difficulty: 'easy' },
  { question: 'List singer names from oldest to youngest.', query: 'SELECT name FROM singer ORDER BY age DESC', db_id: 'concert_singer', difficulty: 'easy' },
  { question: 'What is the average age of singers from France?', query: "SELECT avg(age) FROM singer WHERE country = 'France'", db_id: 'concert_singer', difficulty: 'medium' },
  { question: 'Which stadium has the largest capacity?', query: 'SELECT name FROM stadium ORDER BY capacity DESC LIMIT 1', db_id: 'concert_singer', difficulty: 'medium' },
  {
    question: 'How many concerts were held in each stadium? Give the stadium name and the count.',
    query: 'SELECT T2.name, count(*) FROM concert AS T1 JOIN stadium AS T2 ON T1.stadium_id = T2.stadium_id GROUP BY T1.stadium_id',
    db_id: 'concert_singer',
    difficulty: 'hard',
  },
  { question: 'Which countries do singers come from?', query: 'SELECT DISTINCT country FROM singer', db_id: 'concert_singer', difficulty: 'easy' },
  { question: 'Broken gold SQL.', query: 'SELECT no_such_column FROM singer', db_id: 'concert_singer' },
];

/** A temporary dataset directory in the bundled layout, removed by `cleanup()`. */
export interface ConcertFixture {
  dir: string;
  dbPath: string;
  cleanup(): void;
}

/**
 * Build a small concert database (singer, concert, stadium) and its question files (`train`,
 * `smoke`) in a temporary directory, in the bundled (Spider) layout.
 */
export function createConcertFixture(): ConcertFixture {
  const dir = mkdtempSync(join(tmpdir(), 'sqlenv-concert-'));
  const dbDir = join(dir, 'database', 'concert_singer');
  mkdirSync(dbDir, { recursive: true });
  const dbPath = join(dbDir, 'concert_singer.sqlite');
  const db = new Database(dbPath);
  db.exec(`
    CREATE TABLE stadium (stadium_id INTEGER PRIMARY KEY, name TEXT NOT NULL, location TEXT, capacity INTEGER);
    CREATE TABLE singer (singer_id INTEGER PRIMARY KEY, name TEXT NOT NULL, country TEXT, age INTEGER, net_worth REAL);
    CREATE TABLE concert (
      concert_id INTEGER PRIMARY KEY, concert_name TEXT, stadium_id INTEGER REFERENCES stadium(stadium_id),
      year INTEGER, singer_id INTEGER REFERENCES singer(singer_id)
    );
    INSERT INTO stadium VALUES (1, 'Stark''s Park', 'Raith Rovers', 10104), (2, 'Somerset Park', 'Ayr United', 11998),
      (3, 'Glebe Park', 'Brechin City', 3960);
    INSERT INTO singer VALUES (1, 'Joe Sharp', 'Netherlands', 52, 1234.5), (2, 'Timbaland', 'United States', 32, 99.25),
      (3, 'Justin Brown', 'France', 29, 10.0), (4, 'Rose White', 'France', 41, NULL), (5, 'John Nizinik', 'France', 43, 7.75),
      (6, 'Tribal King', 'France', 25, 3.5);
    INSERT INTO concert VALUES (1, 'Auditions', 1, 2014, 1), (2, 'Super bootcamp', 2, 2014, 2), (3, 'Home Visits', 2, 2015, 3),
      (4, 'Week 1', 1, 2014, 4), (5, 'Week 2', 3, 2015, 5);
  `);
  db.close();
  const questions = JSON.stringify(FIXTURE_QUESTIONS, null, 1);
  writeFileSync(join(dir, 'train.json'), questions);
  writeFileSync(join(dir, 'smoke.json'), JSON.stringify(FIXTURE_QUESTIONS.slice(0, 2), null, 1));
  return { dir, dbPath, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
