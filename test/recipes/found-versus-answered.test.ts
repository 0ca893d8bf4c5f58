import { describe, expect, it } from 'vitest';
import { foundVersusAnswered } from '../../src/recipes/sql/found-versus-answered.js';

describe('foundVersusAnswered', () => {
  const result = (success: number, found?: number, repeats?: number, copied?: number) => ({
    success, meanReturn: 0, episodes: 10,
    ...(found === undefined ? {} : { outcomes: { found_gold_result: found, ...(repeats === undefined ? {} : { answer_repeats_query: repeats }), ...(copied === undefined ? {} : { gold_literals_written: copied }) } }),
  });
  it('puts the share of episodes whose query found the gold result beside the share answered right', () => {
    const summary = { formatCheck: {}, sftSteps: 1, grpoSteps: 1, wallSeconds: 1, evaluations: { sft: { validation: result(0.1, 0.4), eval: result(0.05) }, final: { validation: result(0.3, 0.45, 0.6) } } };
    expect(foundVersusAnswered(summary, ['validation', 'eval'])).toBe(
      'a query returned the gold result (greedy) vs answered right — after SFT: validation 40.0% found, 10.0% answered; after GRPO: validation 45.0% found, 30.0% answered (60.0% repeating the query)',
    );
  });
  it("adds the share whose query wrote the gold SQL's values when the task reports it", () => {
    const summary = { formatCheck: {}, sftSteps: 1, grpoSteps: 1, wallSeconds: 1, evaluations: { sft: { eval: result(0.5, 0.6, 0.7, 0.55) } } };
    expect(foundVersusAnswered(summary, ['eval'])).toBe(
      "a query returned the gold result (greedy) vs answered right — after SFT: eval 60.0% found, 50.0% answered (70.0% repeating the query; 55.0% writing the gold SQL's values)",
    );
  });
  it('says nothing when no evaluation reported the outcome (no episode finished, or a task without outcomes)', () => {
    expect(foundVersusAnswered({ formatCheck: {}, sftSteps: 1, grpoSteps: 0, wallSeconds: 1, evaluations: { sft: { eval: result(0) } } }, ['eval'])).toBeUndefined();
  });
});
