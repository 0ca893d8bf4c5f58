/**
 * The procedural stage (scripts/model/procedural-stage.ts): its option checks and its training
 * config (the corpus it trains on is test/data/generated-split.test.ts's). The stage itself is the
 * demo's SFT, run on the stage's corpus.
 */
import { describe, expect, it } from 'vitest';
import { proceduralStage, PROCEDURAL_STAGE_DEFAULTS, stageConfig } from '../../scripts/model/procedural-stage.js';
import { grpoTrainSplit } from '../../src/train/config/schema.js';

describe('proceduralStage options', () => {
  const base = { ...PROCEDURAL_STAGE_DEFAULTS, from: 'models/tiny-sql', out: '/tmp/never-written', runDir: '/tmp/never-run', print: () => {} };
  it('refuses a non-positive count and a share outside [0, 1] before building anything', async () => {
    await expect(proceduralStage({ ...base, perDb: 0 })).rejects.toThrow(/--per-db must be a positive integer/);
    await expect(proceduralStage({ ...base, inventedNames: 1.5 })).rejects.toThrow(/--invented-names is a share between 0 and 1/);
  });
});

describe('the stage\'s training run', () => {
  it('is the demo\'s SFT only, on the stage\'s corpus, on one thread, and reads no split the corpus lacks (the demo\'s GRPO corpus)', async () => {
    const config = await stageConfig({ ...PROCEDURAL_STAGE_DEFAULTS, from: '/models/first', runDir: '/runs/stage', seed: 3 }, '/tmp/stage/dataset', 4800);
    expect(config).toMatchObject({ seed: 3, runDir: '/runs/stage' });
    expect(config.env.dataset).toBe('/tmp/stage/dataset');
    expect(config.model).toMatchObject({ path: '/models/first', threads: 1 });
    expect(config.grpo.steps).toBe(0);
    expect(config.env.evalSplits).toEqual([]);
    expect(config.sql.generated).toMatchObject({ split: '', heldOutSplit: '' });
    expect(grpoTrainSplit(config)).toBe('train'); // the demo's generated splits are not in the stage's dataset
    expect(config.sft).toMatchObject({ questions: 4800, epochs: PROCEDURAL_STAGE_DEFAULTS.epochs, minEpochs: 1, validationEpisodes: 0 });
  });
});
