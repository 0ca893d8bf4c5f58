/**
 * Gym layer throughput: steps per second of the toy env (GuessNumber-v0) raw, through make()'s
 * wrappers, and in Sync/Async vector envs of 8 sub-envs, with a plain synchronous loop of the
 * same game as the reference for what the async Env API itself costs.
 */
import { availableParallelism } from 'node:os';
import { AsyncVectorEnv, Discrete, SyncVectorEnv, make, type Env, type VectorEnv } from '../src/gym/index.js';
import { GuessNumber } from '../envs/guess/index.js';
import { mdTable, type BenchSection } from './harness.js';

const GUESS_MODULE = new URL('../envs/guess/index.js', import.meta.url).href;
const RUN_MS = 1500;
const NUM_ENVS = 8;

/** Steps/s of `step` called in a loop for about RUN_MS after a warm-up. */
async function stepsPerSecond(step: () => number | Promise<number>): Promise<number> {
  const warmupEnd = performance.now() + 200;
  while (performance.now() < warmupEnd) await step();
  let steps = 0;
  const start = performance.now();
  let now = start;
  while (now - start < RUN_MS) {
    for (let i = 0; i < 100; i++) steps += await step();
    now = performance.now();
  }
  return (steps / (now - start)) * 1000;
}

/** The game logic as a plain synchronous loop: no promises, no spaces, no wrappers. */
function referenceStepper(): () => number {
  let secret = 0;
  let state = 12345;
  const random = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const reset = () => (secret = 1 + Math.floor(random() * 100));
  reset();
  return () => {
    const guess = 1 + Math.floor(random() * 100);
    if (guess === secret) reset();
    return 1;
  };
}

function envStepper(env: Env<string, number>): () => Promise<number> {
  const actions = new Discrete(100, 1, 0);
  let needsReset = true;
  return async () => {
    if (needsReset) {
      await env.reset();
      needsReset = false;
    }
    const [, , terminated, truncated] = await env.step(actions.sample());
    needsReset = terminated || truncated;
    return 1;
  };
}

async function vectorStepper(vec: VectorEnv<string, number>): Promise<() => Promise<number>> {
  await vec.reset({ seed: 0 });
  const actions = new Discrete(100, 1, 0);
  return async () => {
    await vec.step(Array.from({ length: vec.numEnvs }, () => actions.sample()));
    return vec.numEnvs;
  };
}

export default async function gymBench(): Promise<BenchSection> {
  const rows: [string, number][] = [];
  rows.push(['reference: the same game as a plain synchronous loop', await stepsPerSecond(referenceStepper())]);
  rows.push(['GuessNumber, raw env', await stepsPerSecond(envStepper(new GuessNumber()))]);
  rows.push(["make('GuessNumber-v0') (PassiveEnvChecker → OrderEnforcing → TimeLimit)", await stepsPerSecond(envStepper(make('GuessNumber-v0')))]);

  const sync = new SyncVectorEnv<string, number>(Array.from({ length: NUM_ENVS }, () => () => make<string, number>('GuessNumber-v0')));
  try {
    rows.push([`SyncVectorEnv, ${NUM_ENVS} envs (env-steps/s)`, await stepsPerSecond(await vectorStepper(sync))]);
  } finally {
    await sync.close();
  }
  for (const numWorkers of [availableParallelism(), NUM_ENVS]) {
    const vec = new AsyncVectorEnv<string, number>({ envId: 'GuessNumber-v0', numEnvs: NUM_ENVS, numWorkers, imports: [GUESS_MODULE], importPackage: false });
    try {
      rows.push([`AsyncVectorEnv, ${NUM_ENVS} envs on ${numWorkers} worker threads (env-steps/s)`, await stepsPerSecond(await vectorStepper(vec))]);
    } finally {
      await vec.close();
    }
  }

  const raw = rows[1]![1];
  return {
    title: 'Gym layer: GuessNumber-v0 steps per second',
    markdown: [
      'Random actions, auto-reset at episode end. The reference row runs the same game logic as a',
      'synchronous loop, to show what the async `Env` API costs; the ratio column compares with the raw env.',
      'GuessNumber does almost no work per step, so these rows measure the layer\'s own overhead:',
      'AsyncVectorEnv pays a structured-clone round trip per worker per step (the default puts the 8 envs on',
      '`availableParallelism()` workers; one worker per env is Gymnasium\'s layout) and pays off only for envs',
      'whose steps cost much more than that (CPU-heavy envs; I/O-bound envs overlap fine in SyncVectorEnv).',
      '',
      mdTable(
        ['configuration', 'steps/s', 'vs raw env'],
        rows.map(([name, rate]) => [name, Math.round(rate).toLocaleString('en-US'), `${(rate / raw).toPrecision(2)}×`]),
      ),
    ].join('\n'),
  };
}
