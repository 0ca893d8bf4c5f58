/**
 * What a resumed run changed: the settings whose value differs between the config a run started
 * with (its `config.json`) and the one it is resumed with. Numbers a run recorded before a resume
 * were measured under the old settings, so a resume that changes settings must say which.
 */

/** One setting whose value differs between two configs. */
export interface ConfigChange {
  /** Dotted path of the setting, e.g. `rollout.guidedDecoding`. */
  path: string;
  /** The value the run started with (undefined: the setting was absent). */
  before: unknown;
  /** The value it is resumed with (undefined: the setting is absent now). */
  after: unknown;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The settings that differ between `before` and `after`, in `before`'s key order, then the keys only
 * `after` has. Objects are compared key by key; arrays and other values whole, by their JSON text (a
 * config is JSON: an undefined key and an absent one are the same).
 *
 * @example
 * ```ts
 * configChanges({ grpo: { steps: 30 }, seed: 0 }, { grpo: { steps: 120 }, seed: 0 });
 * // [{ path: 'grpo.steps', before: 30, after: 120 }]
 * ```
 */
export function configChanges(before: unknown, after: unknown, path = ''): ConfigChange[] {
  if (isPlainObject(before) && isPlainObject(after)) {
    const keys = [...Object.keys(before), ...Object.keys(after).filter((k) => !(k in before))];
    return keys.flatMap((k) => configChanges(before[k], after[k], path ? `${path}.${k}` : k));
  }
  return JSON.stringify(before) === JSON.stringify(after) ? [] : [{ path, before, after }];
}

/** A change as one line: `path before → after` (absent values print as `(unset)`). */
export function describeConfigChange(change: ConfigChange): string {
  const show = (v: unknown) => (v === undefined ? '(unset)' : JSON.stringify(v));
  return `${change.path} ${show(change.before)} → ${show(change.after)}`;
}
