/**
 * When a vector env resets a sub-environment whose episode ended, as Gymnasium's `AutoresetMode`:
 *
 * - `NEXT_STEP` (default): the step that ends the episode returns its final observation; the
 *   *next* `step()` resets that sub-env instead of stepping it (its action is ignored) and returns
 *   the reset observation with reward 0 and both flags false.
 * - `SAME_STEP`: the sub-env is reset within the step that ends the episode; that step returns
 *   the reset observation, and the final observation and info go into the sub-env's info as
 *   `final_obs` and `final_info`.
 * - `DISABLED`: never reset automatically; call `reset({ options: { resetMask } })` yourself.
 *
 * @example
 * ```ts
 * new SyncVectorEnv(fns, { autoresetMode: AutoresetMode.SAME_STEP });
 * ```
 */
export const AutoresetMode = {
  NEXT_STEP: 'next_step',
  SAME_STEP: 'same_step',
  DISABLED: 'disabled',
} as const;

/** One of the {@link AutoresetMode} values. */
export type AutoresetMode = (typeof AutoresetMode)[keyof typeof AutoresetMode];

/** Whether `x` names an autoreset mode. */
export function isAutoresetMode(x: unknown): x is AutoresetMode {
  return Object.values(AutoresetMode).includes(x as AutoresetMode);
}
