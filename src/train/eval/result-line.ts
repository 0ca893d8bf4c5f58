/**
 * A training run's outcome as one machine-readable record: for every held-out split, its role in
 * the experiment, the decoding its figures came from, success after SFT and after GRPO on the same
 * questions, and the exact McNemar test of the questions gained and lost. Benchmarks read it over
 * seeds; people read the table the same data prints.
 */
import type { Decoding } from '../rollout/multi-turn-rollout.js';
import type { SplitResult, TrainingSummary } from '../run/run-types.js';
import { pairedChange } from './paired-change.js';

/**
 * What a held-out split measures in an experiment:
 * - `adapt_practice`: the questions GRPO practised on;
 * - `adapt_heldout`: other questions about the same databases, never practised (did it learn the databases?);
 * - `transfer`: databases GRPO never practised on (does it carry over?);
 * - `seen`: the databases SFT trained on (did it forget?).
 */
export type SplitRole = 'adapt_practice' | 'adapt_heldout' | 'transfer' | 'seen';

/** One split at one decoding: success as fractions in [0, 1], and the paired test between them. */
export interface SplitOutcome {
  split: string;
  role: SplitRole;
  decoding: Decoding;
  questions: number;
  sft: number;
  grpo: number;
  /** Questions wrong after SFT and right after GRPO. */
  gained: number;
  lost: number;
  /** Two-sided exact McNemar p-value of gained against lost. */
  p_value: number;
}

/** The record a run ends with. */
export interface TrainingResultLine {
  seed: number;
  seconds: number;
  /** The decoding GRPO's rollouts used. */
  trained_decoding: 'unguided' | 'guided';
  results: SplitOutcome[];
}

/** Greedy per-question results of one decoding of a split result, or undefined when it has none. */
function byDecoding(result: SplitResult, decoding: Decoding): { success: number; correct: boolean[] } | undefined {
  const own = result.decoding ?? 'unguided';
  if (own === decoding) return result.correct ? { success: result.success, correct: result.correct } : undefined;
  if (decoding === 'unguided' && result.unguided) return result.unguided;
  return undefined;
}

/**
 * The run's result line: one outcome per split of `roles` and per decoding both evaluations
 * recorded (guided evaluations also carry the unguided figure, so a guided run yields both).
 * Splits evaluated on different questions, or without per-question results, are left out.
 *
 * @example
 * ```ts
 * const line = trainingResultLine(summary, { adapt_heldout: 'adapt_heldout', eval: 'seen' }, { seed: 0, seconds: 812, trainedDecoding: 'unguided' });
 * console.log(JSON.stringify(line)); // {"seed":0,"seconds":812,"trained_decoding":"unguided","results":[…]}
 * ```
 */
export function trainingResultLine(
  summary: TrainingSummary,
  roles: Readonly<Record<string, SplitRole>>,
  run: { seed: number; seconds: number; trainedDecoding: 'unguided' | 'guided' },
): TrainingResultLine {
  const results: SplitOutcome[] = [];
  const before = summary.evaluations['sft'] ?? {};
  const after = summary.evaluations['final'] ?? {};
  for (const [split, role] of Object.entries(roles)) {
    const [b, a] = [before[split], after[split]];
    if (!b || !a || b.episodes !== a.episodes) continue;
    for (const decoding of ['guided', 'unguided'] as const) {
      const [sb, sa] = [byDecoding(b, decoding), byDecoding(a, decoding)];
      if (!sb || !sa || sb.correct.length !== sa.correct.length) continue;
      const paired = pairedChange(sb.correct, sa.correct);
      results.push({ split, role, decoding, questions: sb.correct.length, sft: sb.success, grpo: sa.success, gained: paired.gained, lost: paired.lost, p_value: paired.pValue });
    }
  }
  return { seed: run.seed, seconds: run.seconds, trained_decoding: run.trainedDecoding, results };
}
