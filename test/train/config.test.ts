import { describe, expect, it } from 'vitest';
import { applyOverrides, configDocsTable, parseConfigText, resolveTrainConfig, TrainConfigError } from '../../src/train/config/load-config.js';
import { editDistance } from '../../src/base/edit-distance.js';
import { suggestName } from '../../src/train/config/did-you-mean.js';
import { curveSplits } from '../../src/train/run/grpo-phase.js';
import type { ConfigSection } from '../../src/train/config/config-section.js';
import { schemaBoolean, schemaInt, schemaObject } from '../../src/train/config/schema-nodes.js';
import { SQL_CONFIG_SECTION } from '../../src/recipes/sql/sql-config.js';

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

describe('a recipe\'s config section', () => {
  /** A toy recipe's section: the trainer must validate, default, check and document it without knowing it. */
  const section: ConfigSection<'guess', { hints: boolean; range: { max: number } }> = {
    key: 'guess',
    schema: schemaObject('The guessing recipe.', { hints: schemaBoolean('Say higher or lower.', true), range: schemaObject('The range.', { max: schemaInt('Largest number.', 10, 1) }) }),
    moved: { 'env.maxNumber': 'guess.range.max' },
    check: (config) => (config.guess.range.max > config.env.stepBudget * 100 ? [`guess.range.max ${config.guess.range.max} is too large for env.stepBudget ${config.env.stepBudget}`] : []),
  };
  const problems = (input: unknown, given = section): string[] => {
    try {
      resolveTrainConfig(input, given);
    } catch (e) {
      expect(e).toBeInstanceOf(TrainConfigError);
      return (e as TrainConfigError).problems;
    }
    return [];
  };

  it('is defaulted and typed under its key, and the trainer\'s sections stay as they are', () => {
    const cfg = resolveTrainConfig({ guess: { range: { max: 50 } } }, section);
    expect(cfg.guess).toEqual({ hints: true, range: { max: 50 } });
    expect(cfg.rollout.numGenerations).toBe(8);
  });

  it('refuses a bad value and an unknown key with a suggestion, with its full path', () => {
    expect(problems({ guess: { range: { max: 0 } } })).toEqual(['guess.range.max: must be >= 1']);
    expect(problems({ guess: { hint: false } })).toEqual(['unknown option "guess.hint" — did you mean "hints"?']);
  });

  it('names the new path of an option that moved into it, once, beside the other problems', () => {
    expect(problems({ env: { maxNumber: 20 }, rollout: { numGeneration: 4 } })).toEqual([
      'option "env.maxNumber" has moved to "guess.range.max" (the guess recipe\'s section): write it there instead',
      'unknown option "rollout.numGeneration" — did you mean "numGenerations"?',
    ]);
  });

  it('runs the section\'s checks across options', () => {
    expect(problems({ env: { stepBudget: 1 }, guess: { range: { max: 500 } } })).toEqual(['guess.range.max 500 is too large for env.stepBudget 1']);
  });

  it('is an unknown option without the recipe, and cannot take a trainer section\'s name', () => {
    expect(() => resolveTrainConfig({ guess: {} })).toThrow(/unknown option "guess"/);
    expect(problems({}, { ...section, key: 'rollout' as 'guess' })).toEqual([`a recipe's config section cannot be named "rollout": the trainer has a section of that name`]);
  });

  it('is documented in the same table, after the trainer\'s options', () => {
    const table = configDocsTable(section);
    expect(table.startsWith(configDocsTable())).toBe(true);
    expect(table).toMatch(/\| `guess\.range\.max` \| integer \| `10` \| Largest number\. \|$/);
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
    // The trainer's options and the SQL recipe's section, as `sqlenv train --options` prints them.
    expect(doc).toContain(configDocsTable(SQL_CONFIG_SECTION));
    expect(doc).toContain(metricFieldsTable());
  });
});
