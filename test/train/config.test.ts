import { describe, expect, it } from 'vitest';
import { applyOverrides, configDocsTable, parseConfigText, resolveTrainConfig, TrainConfigError } from '../../src/train/config/load-config.js';
import { editDistance } from '../../src/base/edit-distance.js';
import { suggestName } from '../../src/train/config/did-you-mean.js';
import { curveSplits } from '../../src/train/run/grpo-phase.js';

describe('did-you-mean', () => {
  it('computes edit distances and suggests close names', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(suggestName('numGeneration', ['numGenerations', 'maxTurns'])).toBe('numGenerations');
    expect(suggestName('num_generations', ['numGenerations'])).toBe('numGenerations');
    expect(suggestName('zzzzzz', ['numGenerations'])).toBeUndefined();
  });
});

describe('resolveTrainConfig', () => {
  it('fills every default from an empty object', () => {
    const cfg = resolveTrainConfig({});
    expect(cfg.rollout.numGenerations).toBe(8);
    expect(cfg.grpo.loss.klEstimator).toBe('k3');
    expect(cfg.env.evalSplits).toEqual(['eval', 'eval_unseen_db']);
    expect(cfg.optim.maxGradNorm).toBe(1);
  });

  it('rejects an unknown key with a suggestion and its full path', () => {
    try {
      resolveTrainConfig({ rollout: { numGeneration: 4 } });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(TrainConfigError);
      expect((e as TrainConfigError).problems[0]).toBe('unknown option "rollout.numGeneration" — did you mean "numGenerations"?');
    }
  });

  it('refuses sft.minEpochs above sft.epochs when early stopping is on, saying what to change', () => {
    expect(() => resolveTrainConfig({ sft: { epochs: 2, minEpochs: 3, validationEpisodes: 10 } })).toThrow(/sft\.minEpochs \(3\) exceeds sft\.epochs \(2\).*Lower sft\.minEpochs or raise sft\.epochs/);
    expect(resolveTrainConfig({ sft: { epochs: 3, minEpochs: 3, validationEpisodes: 10 } }).sft.minEpochs).toBe(3);
    // Without early stopping the option has no effect, so it is not an error.
    expect(resolveTrainConfig({ sft: { epochs: 2, minEpochs: 3 } }).sft.minEpochs).toBe(3);
  });

  it('refuses an early-stopping split that is not a validation split', () => {
    expect(() => resolveTrainConfig({ env: { validationSplits: ['validation'] }, sft: { validationSplits: ['eval'] } })).toThrow(
      /sft\.validationSplits: "eval" is not one of env\.validationSplits \("validation"\)\. Add it there or remove it here\./,
    );
    expect(resolveTrainConfig({ env: { validationSplits: ['validation', 'validation_unseen_db'] }, sft: { validationSplits: ['validation'] } }).sft.validationSplits).toEqual(['validation']);
  });

  it('refuses a held-out curve split that is not a validation split, and picks the curve splits', () => {
    expect(() => resolveTrainConfig({ env: { validationSplits: [] }, eval: { curveSplits: ['validation'] } })).toThrow(
      /eval\.curveSplits: "validation" is not one of env\.validationSplits \(none\)\. Add it there or remove it here\./,
    );
    const both = { validationSplits: ['validation', 'validation_unseen_db'], evalSplits: ['eval'] };
    expect(curveSplits(resolveTrainConfig({ env: both, eval: { curveSplits: ['validation'] } }))).toEqual(['validation']);
    expect(curveSplits(resolveTrainConfig({ env: both }))).toEqual(['validation', 'validation_unseen_db']);
    expect(curveSplits(resolveTrainConfig({ env: { validationSplits: [], evalSplits: ['eval'] } }))).toEqual(['eval']);
  });

  it('reports every problem at once, with enum choices', () => {
    try {
      resolveTrainConfig({ grpo: { advantage: { estimator: 'ppo' } }, rollout: { numGenerations: 0 }, lr: 1 });
      expect.unreachable();
    } catch (e) {
      const problems = (e as TrainConfigError).problems.join('\n');
      expect(problems).toMatch(/grpo\.advantage\.estimator: must be one of "grpo", "dr_grpo"/);
      expect(problems).toMatch(/rollout\.numGenerations: must be >= 1/);
      expect(problems).toMatch(/unknown option "lr"/);
    }
  });

  it('does not mutate its input', () => {
    const input = { rollout: { numGenerations: 4 } };
    resolveTrainConfig(input);
    expect(input).toEqual({ rollout: { numGenerations: 4 } });
  });
});

describe('overrides and parsing', () => {
  it('applies dotted overrides with JSON values', () => {
    const raw = applyOverrides({ grpo: { steps: 3 } }, ['grpo.steps=5', 'env.trainSplit=smoke', 'env.evalSplits=["eval"]']);
    expect(raw).toEqual({ grpo: { steps: 5 }, env: { trainSplit: 'smoke', evalSplits: ['eval'] } });
    expect(() => applyOverrides({}, ['novalue'])).toThrow(/key\.path=value/);
  });

  it('parses YAML and JSON', () => {
    expect(parseConfigText('grpo:\n  steps: 7\n', 'c.yaml')).toEqual({ grpo: { steps: 7 } });
    expect(parseConfigText('{"seed": 3}', 'c.json')).toEqual({ seed: 3 });
    expect(() => parseConfigText('{bad', 'c.json')).toThrow(TrainConfigError);
  });
});

describe('configDocsTable', () => {
  it('lists every leaf option with its default', () => {
    const table = configDocsTable();
    expect(table).toMatch(/\| `rollout\.numGenerations` \| integer \| `8` \|/);
    expect(table).toMatch(/`grpo\.zeroVariance` \| `keep` \\\| `drop` \\\| `dynamic_sampling`/);
  });
});

describe('docs/train.md', () => {
  it('contains the generated option and metrics tables verbatim', async () => {
    const { readFile } = await import('node:fs/promises');
    const { metricFieldsTable } = await import('../../src/train/metrics/metric-fields.js');
    const doc = await readFile(new URL('../../docs/train.md', import.meta.url), 'utf8');
    expect(doc).toContain(configDocsTable());
    expect(doc).toContain(metricFieldsTable());
  });
});
