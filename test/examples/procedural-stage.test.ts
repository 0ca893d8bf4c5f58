/**
 * The procedural stage (examples/grpo-sql/procedural-stage.ts): its option checks (the corpus it
 * trains on is test/data/generated-split.test.ts's). The stage itself is a demo run (SFT
 * only); the rebuild of the committed weights from it is measured in docs/train.md, Attempt 8.
 */
import { describe, expect, it } from 'vitest';
import { proceduralStage, PROCEDURAL_STAGE_DEFAULTS } from '../../examples/grpo-sql/procedural-stage.js';

describe('proceduralStage options', () => {
  const base = { ...PROCEDURAL_STAGE_DEFAULTS, from: 'models/tiny-sql', out: '/tmp/never-written', runDir: '/tmp/never-run', print: () => {} };
  it('refuses a non-positive count and a share outside [0, 1] before building anything', async () => {
    await expect(proceduralStage({ ...base, perDb: 0 })).rejects.toThrow(/--per-db must be a positive integer/);
    await expect(proceduralStage({ ...base, inventedNames: 1.5 })).rejects.toThrow(/--invented-names is a share between 0 and 1/);
  });
});
