import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A scratch directory removed by `cleanup()`. */
export function scratchDir(prefix = 'sqlenv-sandbox-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * A small concert database: singer, concert (foreign key to stadium), stadium, a 1,000-row
 * `big` table for cartesian joins, and a `wide` table with a long text and a blob.
 */
export function buildConcertDb(path: string): void {
  const db = new Database(path);
  db.exec(`
    CREATE TABLE stadium (stadium_id INTEGER PRIMARY KEY, name TEXT NOT NULL, capacity INTEGER DEFAULT 0);
    CREATE TABLE singer (singer_id INTEGER PRIMARY KEY, name TEXT, country TEXT, age INTEGER);
    CREATE TABLE concert (concert_id INTEGER PRIMARY KEY, title TEXT, year INTEGER,
      stadium_id INTEGER REFERENCES stadium(stadium_id), singer_id INTEGER REFERENCES singer);
    CREATE TABLE big (n INTEGER, label TEXT);
    CREATE TABLE wide (id INTEGER, long_text TEXT, data BLOB, huge INTEGER);
  `);
  const stadium = db.prepare('INSERT INTO stadium VALUES (?, ?, ?)');
  stadium.run(1, 'Wembley', 90000);
  stadium.run(2, 'Olympiastadion', 74000);
  const singer = db.prepare('INSERT INTO singer VALUES (?, ?, ?, ?)');
  const singers: [string, string, number][] = [
    ['Adele', 'UK', 35],
    ['Rosalía', 'Spain', 31],
    ['Björk', 'Iceland', 58],
    ['Youssou N’Dour', 'Senegal', 64],
    ['Ed', 'UK', 33],
    ['Paris', 'France', 40],
  ];
  singers.forEach(([name, country, age], i) => singer.run(i + 1, name, country, age));
  const concert = db.prepare('INSERT INTO concert VALUES (?, ?, ?, ?, ?)');
  for (let i = 1; i <= 12; i++) concert.run(i, `Tour ${i}`, 2010 + (i % 5), (i % 2) + 1, (i % 6) + 1);
  const big = db.prepare('INSERT INTO big VALUES (?, ?)');
  db.transaction(() => {
    for (let i = 0; i < 1000; i++) big.run(i, `label-${i}`);
  })();
  db.prepare('INSERT INTO wide VALUES (?, ?, ?, ?)').run(1, 'x'.repeat(5000), Buffer.from([0, 1, 254, 255]), 2n ** 62n);
  db.close();
}

/** Write a Spider-layout dataset: `database/<id>/<id>.sqlite` and `<split>.json` files. */
export function buildSpiderLayout(root: string, splits: Record<string, unknown[]>, dbIds: string[] = ['concert']): void {
  for (const id of dbIds) {
    mkdirSync(join(root, 'database', id), { recursive: true });
    buildConcertDb(join(root, 'database', id, `${id}.sqlite`));
  }
  for (const [split, entries] of Object.entries(splits)) writeFileSync(join(root, `${split}.json`), JSON.stringify(entries));
}

/** sha256 of every file under `dir` (recursively), keyed by relative path: detects changes and new files. */
export function hashTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string): void => {
    for (const entry of readdirSync(join(dir, rel), { withFileTypes: true })) {
      const path = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(path);
      else out[path] = createHash('sha256').update(readFileSync(join(dir, path))).digest('hex');
    }
  };
  walk('');
  return out;
}
