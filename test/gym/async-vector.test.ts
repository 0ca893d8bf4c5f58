// AsyncVectorEnv workers run compiled JavaScript: `npm test` builds dist/ first
// (or run `npx tsc -p tsconfig.build.json` before `npx vitest run test/gym`).
import { afterEach, describe, expect, it } from 'vitest';
import {
  AsyncVectorEnv,
  AutoresetMode,
  Discrete,
  SyncVectorEnv,
  Text,
  VectorEnvWorkerError,
  make,
  makeVec,
  type VectorEnv,
  type VectorStepResult,
} from '../../src/gym/index.js';
import '../../envs/guess/index.js';

const GUESS_MODULE = new URL('../../dist/envs/guess/index.js', import.meta.url).href;
const BROKEN_MODULE = new URL('./fixtures/worker-envs.mjs', import.meta.url).href;

const owned: VectorEnv[] = [];
afterEach(async () => {
  await Promise.all(owned.splice(0).map((v) => v.close()));
});

function asyncEnv<O, A>(options: ConstructorParameters<typeof AsyncVectorEnv>[0]): AsyncVectorEnv<O, A> {
  const vec = new AsyncVectorEnv<O, A>({ importPackage: false, ...options });
  owned.push(vec);
  return vec;
}

/** Plain data of a step result, comparable with toEqual. */
function plain([obs, rewards, terminations, truncations, infos]: VectorStepResult<unknown>) {
  return { obs, rewards: [...rewards], terminations, truncations, infos };
}

describe('AsyncVectorEnv', () => {
  it.each(Object.values(AutoresetMode))('gives the same trajectories as SyncVectorEnv for the same seeds (%s)', async (mode) => {
    const numEnvs = 3;
    const kwargs = { maxNumber: 4 };
    // Two workers for three sub-envs: blocks [0] and [1, 2] exercise the placement bookkeeping.
    const async = asyncEnv<string, number>({ envId: 'GuessNumber-v0', numEnvs, numWorkers: 2, kwargs, imports: [GUESS_MODULE], autoresetMode: mode });
    const sync = new SyncVectorEnv<string, number>(
      Array.from({ length: numEnvs }, () => () => make('GuessNumber-v0', kwargs)),
      { autoresetMode: mode },
    );
    owned.push(sync);
    expect(await async.reset({ seed: 7 })).toEqual(await sync.reset({ seed: 7 }));
    expect(async.singleActionSpace.equals(new Discrete(4, 1))).toBe(true);
    expect(async.singleObservationSpace.equals(sync.singleObservationSpace)).toBe(true);
    const actions = new Discrete(4, 1, 99);
    let episodesEnded = 0;
    for (let t = 0; t < 40; t++) {
      const batch = Array.from({ length: numEnvs }, () => actions.sample());
      const a = plain(await async.step(batch));
      expect(a).toEqual(plain(await sync.step(batch)));
      episodesEnded += a.terminations.filter(Boolean).length + a.truncations.filter(Boolean).length;
    }
    expect(episodesEnded).toBeGreaterThan(0);
    const masked = { seed: 3, options: { resetMask: [false, true, true] } };
    expect(await async.reset(masked)).toEqual(await sync.reset(masked));
  });

  it('spreads sub-envs over numWorkers threads, one per sub-env when asked', async () => {
    expect(() => new AsyncVectorEnv({ envId: 'GuessNumber-v0', numEnvs: 2, numWorkers: 3 })).toThrow(/numWorkers/);
    const vec = asyncEnv<string, number>({ envId: 'GuessNumber-v0', numEnvs: 4, numWorkers: 4, imports: [GUESS_MODULE] });
    expect(vec.numWorkers).toBe(4);
    const [obs] = await vec.reset({ seed: 1 });
    expect(obs).toEqual(new Array(4).fill('Guess a number from 1 to 100.'));
  });

  it('makeVec builds an AsyncVectorEnv in async mode', async () => {
    const vec = makeVec<string, number>('GuessNumber-v0', { numEnvs: 2, vectorizationMode: 'async', imports: [GUESS_MODULE], importPackage: false });
    owned.push(vec);
    expect(vec).toBeInstanceOf(AsyncVectorEnv);
    expect((await vec.reset({ seed: 0 }))[0]).toHaveLength(2);
  });

  it('runs 8 envs for 10,000 steps and closes cleanly', async () => {
    const vec = asyncEnv<string, number>({ envId: 'GuessNumber-v0', numEnvs: 8, kwargs: { maxNumber: 8 }, imports: [GUESS_MODULE] });
    await vec.reset({ seed: 0 });
    const actions = vec.actionSpace;
    actions.seed(1);
    let steps = 0;
    let correct = 0;
    for (let t = 0; t < 10_000; t++) {
      const [obs] = await vec.step(actions.sample());
      steps += obs.length;
      correct += obs.filter((o) => o === 'Correct!').length;
    }
    expect(steps).toBe(80_000);
    expect(correct).toBeGreaterThan(1000); // a random guess out of 8 is right ~1/8 of the time
    expect(vec.runningWorkers).toBeGreaterThan(0);
    await vec.close();
    expect(vec.runningWorkers).toBe(0); // every worker thread has ended, not just refused work
    await vec.close();
    await expect(vec.step(actions.sample())).rejects.toThrow(/closed/);
  });

  it('imports the package entry by default and reports metadata and spaces after ready()', async () => {
    const vec = asyncEnv<string, number>({ envId: 'GuessNumber-v0', numEnvs: 1, imports: [GUESS_MODULE], importPackage: true });
    expect(() => vec.singleActionSpace).toThrow(/ready\(\)/);
    await vec.ready();
    expect(vec.metadata).toEqual({ renderModes: ['ansi'], autoresetMode: AutoresetMode.NEXT_STEP });
    expect(vec.singleObservationSpace.equals(new Text({ maxLength: 64, charset: 'any' }))).toBe(true);
  });

  it('a worker whose env throws in its constructor rejects with the cause', async () => {
    const vec = asyncEnv({ envId: 'test/Broken-constructor-v0', numEnvs: 2, imports: [BROKEN_MODULE] });
    const error = await vec.reset().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VectorEnvWorkerError);
    expect((error as Error).message).toMatch(/sub-env \d \(test\/Broken-constructor-v0\) could not be built: Error: constructor exploded on purpose/);
  });

  it('an unknown id or a bad import is reported, not hung on', async () => {
    const unknown = asyncEnv({ envId: 'NoSuchEnv-v0', numEnvs: 1, imports: [GUESS_MODULE] });
    await expect(unknown.reset()).rejects.toThrow(/EnvNotFoundError: no environment 'NoSuchEnv-v0'/);
    const badImport = asyncEnv({ envId: 'GuessNumber-v0', numEnvs: 1, imports: ['/nonexistent/module.js'] });
    await expect(badImport.reset()).rejects.toThrow(/could not import file:\/\/\/nonexistent\/module.js/);
  });

  it('an env that throws in step rejects that call with the remote error', async () => {
    // One worker: its sub-envs' failures are reported in sub-env order, so sub-env 0 is named.
    const vec = asyncEnv<number, number>({ envId: 'test/Broken-step-v0', numEnvs: 2, numWorkers: 1, imports: [BROKEN_MODULE] });
    await vec.reset();
    const error = (await vec.step([0, 0]).catch((e: unknown) => e)) as VectorEnvWorkerError;
    expect(error).toBeInstanceOf(VectorEnvWorkerError);
    expect(error.message).toMatch(/sub-env 0 \(test\/Broken-step-v0\) threw in step\(\): RangeError: step exploded on purpose/);
    expect(error.envIndices).toEqual([0]);
    expect(error.remoteStack).toMatch(/worker-envs\.mjs/);
  });

  it('a worker that calls process.exit rejects the pending call', async () => {
    const vec = asyncEnv<number, number>({ envId: 'test/Broken-exit-v0', numEnvs: 2, imports: [BROKEN_MODULE] });
    await vec.reset();
    await expect(vec.step([0, 0])).rejects.toThrow(/exited with code 3/);
    await expect(vec.reset()).rejects.toThrow(/exited with code 3/);
  });

  it('a worker hosting several sub-envs that exits names all of them', async () => {
    const vec = asyncEnv<number, number>({ envId: 'test/Broken-exit-v0', numEnvs: 3, numWorkers: 1, imports: [BROKEN_MODULE] });
    await vec.reset();
    const error = (await vec.step([0, 0, 0]).catch((e: unknown) => e)) as VectorEnvWorkerError;
    expect(error.message).toMatch(/sub-envs 0, 1, 2 \(test\/Broken-exit-v0\) exited: the worker thread exited with code 3/);
    expect(error.envIndices).toEqual([0, 1, 2]);
  });

  it('an uncaught exception in a worker (outside any call) rejects the pending call', async () => {
    const vec = asyncEnv<number, number>({ envId: 'test/Broken-uncaught-v0', numEnvs: 1, imports: [BROKEN_MODULE] });
    await vec.reset();
    await expect(vec.step([0])).rejects.toThrow(/sub-env 0 \(test\/Broken-uncaught-v0\) crashed: uncaught Error: timer exploded on purpose/);
  });

  it('a call that exceeds timeoutMs rejects and terminates the worker', async () => {
    const vec = asyncEnv<number, number>({ envId: 'test/Broken-hang-v0', numEnvs: 1, imports: [BROKEN_MODULE], timeoutMs: 300 });
    await vec.reset();
    await expect(vec.step([0])).rejects.toThrow(/step\(\) did not answer within 300 ms/);
  });

  it('an observation that cannot be cloned is reported as such', async () => {
    const vec = asyncEnv<number, number>({ envId: 'test/Broken-uncloneable-v0', numEnvs: 1, imports: [BROKEN_MODULE] });
    await vec.reset();
    await expect(vec.step([0])).rejects.toThrow(/cannot be sent to the main thread/);
  });
});
