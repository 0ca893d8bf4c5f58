/**
 * Guided decoding: a task looks at the text so far and nudges the next token, in the manner of
 * Hugging Face's logits processors and of PICARD's schema-checked decoding for text-to-SQL. A
 * small model that knows what to write but not how to spell it — a name from the question, a
 * table from the prompt's list — gets the spelling from its context instead of its memory.
 */

/** A nudge on the next token: `bias` is added to the logit of every token whose text `favours` accepts. */
export interface TokenNudge {
  readonly bias: number;
  favours(tokenText: string): boolean;
}

/**
 * A row's guide for one call: reads the text the row has generated so far in the call and returns the
 * nudge for its next token — or several, whose biases add up where more than one favours a token — or
 * undefined for none. Pure: the same text gives the same nudges. Whoever asks for the generation makes
 * it, once per row, from what it knows of the row (a rollout: the episode's observations and infos).
 *
 * @example
 * ```ts
 * // Inside a single-quoted literal, favour the tokens that continue a word of the question.
 * const question = 'Which ports are in Lisbon?';
 * const guide: NextTokenGuide = (text) =>
 *   (text.split("'").length - 1) % 2 === 1 ? { bias: 4, favours: (t) => question.includes(text.slice(text.lastIndexOf("'") + 1) + t) } : undefined;
 * ```
 */
export type NextTokenGuide = (generatedText: string) => TokenNudge | readonly TokenNudge[] | undefined;

/** The ids of the tokens `nudge` favours. `tokenTexts[id]` is token `id` decoded alone ('' for special tokens, never favoured). */
function favouredIds(nudge: TokenNudge, tokenTexts: readonly string[]): Int32Array {
  const ids: number[] = [];
  for (let id = 0; id < tokenTexts.length; id++) {
    const text = tokenTexts[id];
    if (text && nudge.favours(text)) ids.push(id);
  }
  return Int32Array.from(ids);
}

/**
 * The logits with `nudge` applied: a copy, `bias` added where the token's text is favoured (each
 * nudge's, for several).
 * `tokenTexts[id]` is token `id` decoded alone ('' for tokens that favour nothing, such as special
 * tokens, which are never nudged).
 *
 * @example
 * ```ts
 * nudgedLogits(new Float32Array([0, 0]), { bias: 2, favours: (t) => t === 'b' }, ['a', 'b']); // [0, 2]
 * ```
 */
export function nudgedLogits(logits: Float32Array, nudge: TokenNudge | readonly TokenNudge[], tokenTexts: readonly string[]): Float32Array {
  return new NudgeApplier(tokenTexts).apply(logits, nudge);
}

/**
 * {@link nudgedLogits} for one generation: each nudge object's favoured ids are found once. A guide that
 * returns the same nudge object for the same state (a schema check between two words, say) has the
 * vocabulary scanned once for it, not at every step. Owned by the call that made it.
 *
 * @example
 * ```ts
 * const nudges = new NudgeApplier(tokenizer.tokenTexts());
 * const nudged = nudges.apply(logits, nudge);
 * ```
 */
export class NudgeApplier {
  private readonly favoured = new WeakMap<TokenNudge, Int32Array>();

  constructor(private readonly tokenTexts: readonly string[]) {}

  /** The logits with `nudge` applied (a copy). */
  apply(logits: Float32Array, nudge: TokenNudge | readonly TokenNudge[]): Float32Array {
    const out = Float32Array.from(logits);
    for (const n of Array.isArray(nudge) ? (nudge as readonly TokenNudge[]) : [nudge as TokenNudge]) {
      let ids = this.favoured.get(n);
      if (!ids) this.favoured.set(n, (ids = favouredIds(n, this.tokenTexts)));
      for (const id of ids) if (id < out.length) out[id] = out[id]! + n.bias;
    }
    return out;
  }
}
