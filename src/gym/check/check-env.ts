import { Env, type ResetResult, type StepResult } from '../env.js';
import { spaceFromJSONSchema } from '../spaces/from-json-schema.js';
import { Space, type AnySpace } from '../spaces/space.js';
import { deepEqual } from '../utils/deep-equal.js';
import { EnvCheckError } from './env-check-error.js';
import { preview } from './preview.js';
import { checkResetResult, checkStepResult, type CheckWarning } from './result-checks.js';

/** Options of {@link checkEnv}. */
export interface CheckEnvOptions {
  /** Skip the render checks (Gymnasium's `skip_render_check`). */
  skipRenderCheck?: boolean;
  /** Skip the close-twice check, e.g. to keep using the env afterwards. */
  skipCloseCheck?: boolean;
}

/** What {@link checkEnv} found short of failure. */
export interface CheckEnvReport {
  /** Problems that probably are bugs but do not break the API (Gymnasium's warnings). */
  warnings: CheckWarning[];
  /** The checks that ran, in order. */
  checks: string[];
}

const SEED_A = 123;
const SEED_B = 456;

/**
 * Check that an environment follows the Gymnasium API, as Gymnasium's `check_env`, in its order:
 *
 * 1. `is-env` — an {@link Env}; a wrapped env only gets a warning (`wrapped`).
 * 2. `action-space`, `observation-space` — {@link Space} instances whose samples they contain and
 *    whose JSON Schema round-trips (a warning if not).
 * 3. `reset-returns-tuple`, `reset-info-is-object`, `reset-obs-in-space` — reset's result.
 * 4. `reset-accepts-seed-and-options` — `reset({ seed, options })` works.
 * 5. `reset-seed-determinism` — `reset({ seed: 123 })` twice gives equal observations and equal
 *    RNG states; seed 456 gives a different RNG state (i.e. `super.reset()` re-seeds `npRandom`).
 * 6. `step-returns-tuple`, `step-flags-are-boolean`, `step-reward-is-number`,
 *    `step-reward-is-finite`, `step-info-is-object`, `step-obs-in-space` — step's result.
 * 7. `step-determinism` — the same seed and action give the same observation, reward, flags and
 *    RNG state (skipped when `spec.nondeterministic`; differing infos are a warning).
 * 8. `render` — `metadata.renderModes` is an array of strings, `renderMode` is one of them (or
 *    unset), `renderFps` is positive, and `render()` works (unless `skipRenderCheck`).
 * 9. `close-twice` — `close()` twice does not throw (unless `skipCloseCheck`).
 *
 * Failures throw {@link EnvCheckError} naming the check and saying what to fix; warnings are
 * returned. The env is reset and stepped along the way, and closed at the end.
 *
 * @example
 * ```ts
 * const { warnings } = await checkEnv(new GuessNumber());
 * ```
 */
export async function checkEnv(env: Env<unknown, unknown>, options: CheckEnvOptions = {}): Promise<CheckEnvReport> {
  const report: CheckEnvReport = { warnings: [], checks: [] };
  const ran = (check: string) => report.checks.push(check);
  const warn = (check: string, message: string) => report.warnings.push({ check, message });

  if (!(env instanceof Env)) {
    throw new EnvCheckError('is-env', `got ${String(env)}, which does not extend Env`, 'make the environment class `extends Env<Obs, Act>` (from sqlenv)');
  }
  ran('is-env');
  if (env.unwrapped !== env) {
    warn('wrapped', `${env.toString()} is wrapped; wrappers may hide problems of the environment itself. Check env.unwrapped for a complete check`);
  }

  checkSpace(env.actionSpace, 'action-space', 'actionSpace', warn);
  ran('action-space');
  checkSpace(env.observationSpace, 'observation-space', 'observationSpace', warn);
  ran('observation-space');

  const first = await call('reset-returns-tuple', 'reset()', () => env.reset());
  for (const w of checkResetResult(first, env.observationSpace)) report.warnings.push(w);
  ran('reset-returns-tuple');

  await call('reset-accepts-seed-and-options', 'reset({ seed, options })', () => env.reset({ seed: SEED_A, options: {} }));
  ran('reset-accepts-seed-and-options');

  await checkResetSeedDeterminism(env);
  ran('reset-seed-determinism');

  await env.reset({ seed: SEED_A });
  env.actionSpace.seed(SEED_A);
  const stepped = await call('step-returns-tuple', 'step(actionSpace.sample())', () => env.step(env.actionSpace.sample()));
  for (const w of checkStepResult(stepped, env.observationSpace)) report.warnings.push(w);
  ran('step-returns-tuple');

  if (env.spec?.nondeterministic) {
    warn('step-determinism', 'skipped: the spec says the environment is nondeterministic');
  } else {
    await checkStepDeterminism(env, warn);
    ran('step-determinism');
  }

  if (!options.skipRenderCheck) {
    checkRender(env, warn);
    ran('render');
  }

  if (!options.skipCloseCheck) {
    await call('close-twice', 'the first close()', () => env.close());
    await call('close-twice', 'the second close()', () => env.close());
    ran('close-twice');
  }
  return report;
}

function checkSpace(space: unknown, check: string, field: string, warn: (check: string, message: string) => void): void {
  if (!(space instanceof Space)) {
    throw new EnvCheckError(check, `env.${field} is ${String(space)}, not a Space`, `assign a Space to ${field} in the constructor (e.g. \`${field} = new Discrete(3)\`)`);
  }
  const typed = space as AnySpace;
  let sample: unknown;
  try {
    sample = typed.sample();
  } catch (error) {
    throw new EnvCheckError(check, `env.${field}.sample() threw: ${(error as Error).message}`, `give ${field} parameters it can sample from`);
  }
  if (!typed.contains(sample)) {
    throw new EnvCheckError(check, `env.${field} does not contain its own sample ${JSON.stringify(sample)}`, `make ${String(space)}.contains() accept what sample() produces`);
  }
  try {
    if (!spaceFromJSONSchema(typed.toJSONSchema()).equals(typed)) {
      warn(check, `env.${field}'s JSON Schema does not rebuild an equal space; remote clients will see a different space`);
    }
  } catch (error) {
    warn(check, `env.${field}'s JSON Schema cannot be rebuilt (${(error as Error).message}); remote clients cannot reconstruct it`);
  }
}

async function checkResetSeedDeterminism(env: Env<unknown, unknown>): Promise<void> {
  const check = 'reset-seed-determinism';
  const [obsA] = (await env.reset({ seed: SEED_A })) as ResetResult<unknown>;
  const stateA = env.unwrapped.npRandom.getState();
  const [obsB] = (await env.reset({ seed: SEED_A })) as ResetResult<unknown>;
  const stateB = env.unwrapped.npRandom.getState();
  if (!deepEqual(obsA, obsB)) {
    throw new EnvCheckError(
      check,
      `reset({ seed: ${SEED_A} }) twice gave different observations (${preview(obsA, 60)} vs ${preview(obsB, 60)})`,
      'draw all randomness from this.npRandom and call `await super.reset(options)` first in reset()',
    );
  }
  if (!deepEqual(stateA, stateB)) {
    throw new EnvCheckError(check, `reset({ seed: ${SEED_A} }) twice left npRandom in different states`, 'call `await super.reset(options)` first in reset() so the seed re-seeds npRandom');
  }
  await env.reset({ seed: SEED_B });
  if (deepEqual(env.unwrapped.npRandom.getState(), stateA)) {
    throw new EnvCheckError(
      check,
      `reset({ seed: ${SEED_B} }) left npRandom in the same state as seed ${SEED_A}: the seed is ignored`,
      'pass the options to `await super.reset(options)` at the start of reset()',
    );
  }
}

async function checkStepDeterminism(env: Env<unknown, unknown>, warn: (check: string, message: string) => void): Promise<void> {
  const check = 'step-determinism';
  const run = async (): Promise<{ result: StepResult<unknown>; state: number[] }> => {
    await env.reset({ seed: SEED_A });
    env.actionSpace.seed(SEED_A);
    const result = await env.step(env.actionSpace.sample());
    return { result, state: env.unwrapped.npRandom.getState() };
  };
  const a = await run();
  const b = await run();
  const fields = ['observation', 'reward', 'terminated', 'truncated'];
  fields.forEach((field, i) => {
    if (!deepEqual(a.result[i], b.result[i])) {
      throw new EnvCheckError(
        check,
        `the same seed and action gave different ${field}s (${preview(a.result[i], 60)} vs ${preview(b.result[i], 60)})`,
        'draw all randomness from this.npRandom (not Math.random), or register the env with `nondeterministic: true`',
      );
    }
  });
  if (!deepEqual(a.state, b.state)) {
    throw new EnvCheckError(check, 'the same seed and action left npRandom in different states', 'draw all randomness from this.npRandom, seeded by super.reset()');
  }
  if (!deepEqual(a.result[4], b.result[4])) {
    const keys = Object.keys(a.result[4]).filter((k) => !deepEqual(a.result[4][k], b.result[4][k]));
    warn(check, `the same seed and action gave different infos (keys: ${keys.join(', ')}); fine for timings, a bug otherwise`);
  }
}

function checkRender(env: Env<unknown, unknown>, warn: (check: string, message: string) => void): void {
  const check = 'render';
  const modes = env.metadata?.renderModes as unknown;
  if (!Array.isArray(modes) || !modes.every((m) => typeof m === 'string')) {
    throw new EnvCheckError(check, `metadata.renderModes is ${preview(modes, 60)}, not an array of strings`, "declare `metadata = { renderModes: ['ansi'] }` (or `renderModes: []`)");
  }
  const fps = env.metadata.renderFps;
  if (fps !== undefined && !(typeof fps === 'number' && fps > 0)) warn(check, `metadata.renderFps is ${preview(fps, 60)}; use a positive number or leave it out`);
  if (env.renderMode === undefined) return;
  if (!modes.includes(env.renderMode)) {
    throw new EnvCheckError(check, `renderMode '${env.renderMode}' is not in metadata.renderModes [${modes.join(', ')}]`, 'add the mode to metadata.renderModes or reject it in the constructor');
  }
  let rendered: unknown;
  try {
    rendered = env.render();
  } catch (error) {
    throw new EnvCheckError(check, `render() threw in mode '${env.renderMode}': ${(error as Error).message}`, 'make render() work after reset()');
  }
  if (env.renderMode === 'ansi' && typeof rendered !== 'string') {
    throw new EnvCheckError(check, `render() in mode 'ansi' returned ${preview(rendered, 60)}`, "return a string from render() when renderMode is 'ansi'");
  }
}

async function call<T>(check: string, what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof EnvCheckError) throw error;
    throw new EnvCheckError(check, `${what} threw ${(error as Error).name}: ${(error as Error).message}`, `make ${what} succeed on a fresh environment`);
  }
}
