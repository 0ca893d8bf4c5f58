/** The nudge for the next token (the trainer's `TokenNudge`): `bias` is added to the logit of every token `favours` accepts. */
export interface SqlTokenNudge {
  readonly bias: number;
  favours(tokenText: string): boolean;
}
