import type { AnySpace } from '../spaces/space.js';
import { EnvCheckError } from './env-check-error.js';
import { preview } from './preview.js';

/** A problem that does not break the API contract but probably is a bug (Gymnasium warns). */
export interface CheckWarning {
  check: string;
  message: string;
}

/**
 * Check the shape of what `reset()` resolved to: a 2-element array `[obs, info]` with `info` a
 * plain object. Throws {@link EnvCheckError}; returns a warning when `obs` is outside the space.
 *
 * @example
 * ```ts
 * const warnings = checkResetResult(await env.reset(), env.observationSpace);
 * ```
 */
export function checkResetResult(result: unknown, observationSpace: AnySpace): CheckWarning[] {
  if (!Array.isArray(result) || result.length !== 2) {
    throw new EnvCheckError(
      'reset-returns-tuple',
      `reset() resolved to ${describe(result)}, not a 2-element array`,
      'return `[observation, info]` from reset(), e.g. `return [obs, {}]`',
    );
  }
  const [obs, info] = result as [unknown, unknown];
  if (!isPlainObject(info)) {
    throw new EnvCheckError('reset-info-is-object', `reset()'s info is ${describe(info)}`, 'return a plain object as info (use `{}` when there is nothing to report)');
  }
  return observationSpace.contains(obs)
    ? []
    : [{ check: 'reset-obs-in-space', message: `reset()'s observation ${preview(obs, 80)} is not in the observation space ${String(observationSpace)}` }];
}

/**
 * Check the shape of what `step()` resolved to: `[obs, reward, terminated, truncated, info]`
 * with a numeric reward, boolean flags and a plain-object info. Throws {@link EnvCheckError};
 * returns warnings for an observation outside the space or a non-finite reward.
 *
 * @example
 * ```ts
 * const warnings = checkStepResult(await env.step(action), env.observationSpace);
 * ```
 */
export function checkStepResult(result: unknown, observationSpace: AnySpace): CheckWarning[] {
  if (!Array.isArray(result) || result.length !== 5) {
    throw new EnvCheckError(
      'step-returns-tuple',
      `step() resolved to ${describe(result)}, not a 5-element array`,
      'return `[observation, reward, terminated, truncated, info]` from step() (Gymnasium ≥ 0.26 API; split the old `done` into terminated and truncated)',
    );
  }
  const [obs, reward, terminated, truncated, info] = result as unknown[];
  for (const [name, flag] of [
    ['terminated', terminated],
    ['truncated', truncated],
  ] as const) {
    if (typeof flag !== 'boolean') {
      throw new EnvCheckError('step-flags-are-boolean', `step()'s ${name} is ${describe(flag)}`, `return a boolean ${name} (e.g. \`Boolean(x)\`)`);
    }
  }
  if (typeof reward !== 'number') {
    throw new EnvCheckError('step-reward-is-number', `step()'s reward is ${describe(reward)}`, 'return the reward as a number');
  }
  if (!isPlainObject(info)) {
    throw new EnvCheckError('step-info-is-object', `step()'s info is ${describe(info)}`, 'return a plain object as info (use `{}` when there is nothing to report)');
  }
  const warnings: CheckWarning[] = [];
  if (!Number.isFinite(reward)) warnings.push({ check: 'step-reward-is-finite', message: `step()'s reward is ${reward}` });
  if (!observationSpace.contains(obs)) {
    warnings.push({ check: 'step-obs-in-space', message: `step()'s observation ${preview(obs, 80)} is not in the observation space ${String(observationSpace)}` });
  }
  return warnings;
}

/** Whether `x` is a plain object (an `info` dict): not null, not an array, not a class instance. */
export function isPlainObject(x: unknown): x is Record<string, unknown> {
  if (typeof x !== 'object' || x === null || Array.isArray(x)) return false;
  const proto = Object.getPrototypeOf(x) as unknown;
  return proto === Object.prototype || proto === null;
}

function describe(x: unknown): string {
  if (Array.isArray(x)) return `an array of length ${x.length}`;
  if (x === null) return 'null';
  return typeof x === 'object' ? `an object (${x.constructor?.name ?? 'no prototype'})` : `${typeof x} ${preview(x, 80)}`;
}
