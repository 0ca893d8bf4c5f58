import type { Tokenizer } from '../tokenizer/tokenizer.js';
import { NudgeApplier, type DecodingGuide, type NextTokenGuide } from './decoding-guide.js';

/** What guidance reads of a row being generated: its prompt and the tokens drawn so far. */
export interface GuidedRow {
  readonly prompt: readonly number[];
  readonly tokens: readonly number[];
}

/**
 * A {@link DecodingGuide} applied to the rows of one generation call: each row's guide is made
 * once, when the row first asks, from the row's prompt; at each step it nudges the row's logits
 * from the text generated so far. This is the only place generation hands a guide its context.
 *
 * @example
 * const guidance = new RowGuidance(guide, tokenizer, rows);
 * const logits = guidance.nudged(0, rowLogits);
 */
export class RowGuidance {
  private readonly nudges: NudgeApplier;
  private readonly rowGuides: NextTokenGuide[] = [];

  constructor(
    private readonly guide: DecodingGuide,
    private readonly tokenizer: Tokenizer,
    private readonly rows: readonly GuidedRow[],
  ) {
    // Each token's text (special tokens: '', never nudged), read once per call.
    this.nudges = new NudgeApplier(tokenizer.tokenTexts());
  }

  /** Row `b`'s logits as its guide nudges them (the same array when the guide has nothing to say). */
  nudged(b: number, logits: Float32Array): Float32Array {
    const row = this.rows[b]!;
    const nudge = (this.rowGuides[b] ??= this.guide(this.tokenizer.decode(row.prompt)))(this.tokenizer.decode(row.tokens));
    return nudge ? this.nudges.apply(logits, nudge) : logits;
  }
}
