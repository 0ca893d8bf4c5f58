/**
 * The procedural stage (examples/grpo-sql/procedural-stage.ts): its option checks (the corpus it
 * trains on is test/data/generated-split.test.ts's). The stage itself is a demo run (SFT
 * only); the rebuild of the committed weights from it is measured in docs/train.md, Attempt 8.
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { describe, expect, it } from 'vitest';
import { flagOverrides } from '../../examples/grpo-sql/demo.js';
import { proceduralStage, PROCEDURAL_STAGE_DEFAULTS, stageDemoArgs } from '../../examples/grpo-sql/procedural-stage.js';
import { packageRoot } from '../../src/base/package-root.js';
import { loadTrainConfig } from '../../src/train/config/load-config.js';
import { grpoTrainSplit } from '../../src/train/config/schema.js';

describe('proceduralStage options', () => {
  const base = { ...PROCEDURAL_STAGE_DEFAULTS, from: 'models/tiny-sql', out: '/tmp/never-written', runDir: '/tmp/never-run', print: () => {} };
  it('refuses a non-positive count and a share outside [0, 1] before building anything', async () => {
    await expect(proceduralStage({ ...base, perDb: 0 })).rejects.toThrow(/--per-db must be a positive integer/);
    await expect(proceduralStage({ ...base, inventedNames: 1.5 })).rejects.toThrow(/--invented-names is a share between 0 and 1/);
  });
});

describe('the stage\'s demo run', () => {
  it('is SFT only on the stage\'s corpus, on one thread, and reads no split the corpus lacks (the demo\'s GRPO corpus)', async () => {
    const args = stageDemoArgs({ ...PROCEDURAL_STAGE_DEFAULTS, from: '/models/first', runDir: '/runs/stage' }, '/tmp/stage/dataset', 4800);
    const { values } = parseArgs({ args, options: { seed: { type: 'string' }, 'run-dir': { type: 'string' }, set: { type: 'string', multiple: true } } });
    const config = await loadTrainConfig(join(packageRoot(), 'examples', 'grpo-sql', 'config.json'), flagOverrides(values));
    expect(config.env.dataset).toBe('/tmp/stage/dataset');
    expect(config.model).toMatchObject({ path: '/models/first', threads: 1 });
    expect(config.grpo.steps).toBe(0);
    expect(config.env.evalSplits).toEqual([]);
    expect(config.env.generated.split).toBe('');
    expect(grpoTrainSplit(config)).toBe('train'); // the demo's 'procedural' split is not in the stage's dataset
    expect(config.sft).toMatchObject({ questions: 4800, epochs: PROCEDURAL_STAGE_DEFAULTS.epochs, minEpochs: 1, validationEpisodes: 0 });
  });
});
