import { afterAll, beforeAll } from 'vitest';
import { QueryPool, loadDataset, type SqlDataset } from '../../envs/sql/index.js';
import { createConcertFixture, type ConcertFixture } from './concert-fixture.js';

/** The concert fixture with a shared query pool and its loaded `train` dataset, for one test file. */
export interface FixtureEnv {
  readonly fixture: ConcertFixture;
  readonly pool: QueryPool;
  readonly dataset: SqlDataset;
}

/** Options of {@link useFixtureEnv}. */
export interface FixtureEnvOptions {
  /** Runs right after the fixture is written, before the pool opens the database (e.g. to hash the untouched file). */
  onCreated?: (fixture: ConcertFixture) => void;
}

/**
 * Register `beforeAll`/`afterAll` hooks that build the concert fixture, open a 2-worker
 * {@link QueryPool} and load the fixture's `train` split, then close and remove them all. Call it
 * at the top level of a test file; read the fields inside tests (they are set once `beforeAll` ran).
 */
export function useFixtureEnv(options: FixtureEnvOptions = {}): FixtureEnv {
  let fixture: ConcertFixture | undefined;
  let pool: QueryPool | undefined;
  let dataset: SqlDataset | undefined;

  beforeAll(async () => {
    fixture = createConcertFixture();
    options.onCreated?.(fixture);
    pool = new QueryPool({ size: 2 });
    dataset = await loadDataset(fixture.dir, 'train', { pool });
  });

  afterAll(async () => {
    await dataset?.close();
    await pool?.close();
    fixture?.cleanup();
  });

  // Getters, not a snapshot: the hooks above run after this returns.
  return {
    get fixture() {
      return fixture!;
    },
    get pool() {
      return pool!;
    },
    get dataset() {
      return dataset!;
    },
  };
}
