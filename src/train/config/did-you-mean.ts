/** "Did you mean …?" suggestions for mistyped option names. */
import { editDistance } from '../../base/edit-distance.js';

/**
 * The candidate closest to `name`, compared case-insensitively and ignoring `_`/`-` (so
 * `num_generations` finds `numGenerations`), or undefined when nothing is within a third of
 * the name's length.
 *
 * @example
 * ```ts
 * suggestName('lerning_rate', ['lr', 'learningRate']); // 'learningRate'
 * ```
 */
export function suggestName(name: string, candidates: readonly string[]): string | undefined {
  const norm = (s: string) => s.toLowerCase().replace(/[_-]/g, '');
  const target = norm(name);
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const c of candidates) {
    const d = editDistance(target, norm(c));
    if (d < bestDistance) {
      bestDistance = d;
      best = c;
    }
  }
  return bestDistance <= Math.max(2, Math.floor(target.length / 3)) ? best : undefined;
}
