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
 * Reads a row's prompt and the text it has generated so far in this call, and returns the nudge
 * for its next token — or several, whose biases add up where more than one favours a token — or
 * undefined for none. Pure: the same texts give the same nudges.
 *
 * @example
 * ```ts
 * // Inside a single-quoted literal, favour the tokens that continue a word of the prompt.
 * const guide: DecodingGuide = (prompt, text) =>
 *   (text.split("'").length - 1) % 2 === 1 ? { bias: 4, favours: (t) => prompt.includes(text.slice(text.lastIndexOf("'") + 1) + t) } : undefined;
 * ```
 */
export type DecodingGuide = (promptText: string, generatedText: string) => TokenNudge | readonly TokenNudge[] | undefined;

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
  const out = Float32Array.from(logits);
  for (const n of Array.isArray(nudge) ? (nudge as readonly TokenNudge[]) : [nudge as TokenNudge]) {
    for (let id = 0; id < out.length; id++) {
      const text = tokenTexts[id];
      if (text && n.favours(text)) out[id] = out[id]! + n.bias;
    }
  }
  return out;
}
