import type { Tokenizer } from '../tokenizer/tokenizer.js';
import { NudgeApplier, type NextTokenGuide } from './decoding-guide.js';

/** What guidance reads of a row being generated: the tokens drawn so far. */
export interface GuidedRow {
  readonly tokens: readonly number[];
}

/**
 * The rows' guides applied in one generation call: at each step a row's guide nudges its logits
 * from the text the row has generated so far, the one thing only the decode loop knows (the caller
 * made each guide from the episode's own context). This is the only place generation calls a guide.
 *
 * @example
 * const guidance = new RowGuidance([guide, undefined], tokenizer, rows);
 * const logits = guidance.nudged(0, rowLogits);
 */
export class RowGuidance {
  private readonly nudges: NudgeApplier;

  constructor(
    private readonly guides: readonly (NextTokenGuide | undefined)[],
    private readonly tokenizer: Tokenizer,
    private readonly rows: readonly GuidedRow[],
  ) {
    // Each token's text (special tokens: '', never nudged), read once per call.
    this.nudges = new NudgeApplier(tokenizer.tokenTexts());
  }

  /** Row `b`'s logits as its guide nudges them (the same array when it has no guide or nothing to say). */
  nudged(b: number, logits: Float32Array): Float32Array {
    const guide = this.guides[b];
    if (!guide) return logits;
    const nudge = guide(this.tokenizer.decode(this.rows[b]!.tokens));
    return nudge ? this.nudges.apply(logits, nudge) : logits;
  }
}
