/** The live one-line progress report printed while training. */

/** Inputs of {@link formatProgress}. */
export interface ProgressInput {
  phase: string;
  step: number;
  totalSteps: number;
  reward?: number;
  success?: number;
  tokensPerSecond?: number;
  /** Wall-clock milliseconds spent on the steps done in this process. */
  elapsedMs: number;
  /** Steps completed in this process (excludes steps restored from a checkpoint). */
  stepsThisProcess: number;
}

/**
 * Formats a duration as `1h02m`, `3m12s` or `45s`.
 *
 * @example
 * ```ts
 * formatDuration(192_000); // '3m12s'
 * ```
 */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s >= 3600) return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
  if (s >= 60) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${s}s`;
}

/**
 * One progress line: step, reward, success, throughput and an ETA from the mean step time.
 *
 * @example
 * ```ts
 * formatProgress({ phase: 'grpo', step: 2, totalSteps: 4, reward: 0.5, success: 0.25, tokensPerSecond: 800, elapsedMs: 4000, stepsThisProcess: 2 });
 * // 'grpo step 2/4 | reward 0.500 | success 25.0% | 800 tok/s | ETA 4s'
 * ```
 */
export function formatProgress(p: ProgressInput): string {
  const parts = [`${p.phase} step ${p.step}/${p.totalSteps}`];
  if (p.reward !== undefined) parts.push(`reward ${p.reward.toFixed(3)}`);
  if (p.success !== undefined) parts.push(`success ${(p.success * 100).toFixed(1)}%`);
  if (p.tokensPerSecond !== undefined) parts.push(`${Math.round(p.tokensPerSecond)} tok/s`);
  if (p.stepsThisProcess > 0) {
    const perStep = p.elapsedMs / p.stepsThisProcess;
    parts.push(`ETA ${formatDuration(perStep * Math.max(0, p.totalSteps - p.step))}`);
  }
  return parts.join(' | ');
}
