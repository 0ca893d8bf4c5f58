/** The SQL recipe's config section `sql`, and `env.kwargs` checked as SQLEnv's options. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generatedSeed, loadSqlTrainConfig, resolveSqlTrainConfig, SQL_CONFIG_SECTION, sqlEnvKwargs } from '../../src/recipes/sql/sql-config.js';
import { TRAIN_CONFIG_SCHEMA, type ConfigSchemaNode } from '../../src/train/config/schema.js';
import { RecipeError } from '../../src/recipes/recipe-error.js';
import { parseConfigText, resolveTrainConfig, TrainConfigError } from '../../src/train/config/load-config.js';

const root = new URL('../..', import.meta.url).pathname;

function problems(input: unknown): string[] {
  try {
    resolveSqlTrainConfig(input);
  } catch (e) {
    expect(e).toBeInstanceOf(TrainConfigError);
    return (e as TrainConfigError).problems;
  }
  return [];
}

describe('the sql section', () => {
  it('defaults every option, beside the trainer\'s', () => {
    const config = resolveSqlTrainConfig({});
    expect(config.sql).toEqual({
      compactTools: false,
      trainDifficulties: [],
      evalDifficulties: [],
      generated: { split: '', databases: 200, questionsPerDb: 8, seed: 1001, inventedNames: 0.5, heldOutSplit: '', heldOutPerDb: 8 },
      sft: { describeTables: true, mistakeShare: 0, rehearsals: 'instead' },
    });
    expect(config.sft.epochs).toBe(3);
    expect(generatedSeed(resolveSqlTrainConfig({ seed: 2, sql: { generated: { seed: -1 } } }))).toBe(10200);
  });

  it('refuses a bad value and an unknown key with a suggestion', () => {
    expect(problems({ sql: { sft: { mistakeShare: 1.5 }, generated: { databases: 0 } } })).toEqual(['sql.generated.databases: must be >= 1', 'sql.sft.mistakeShare: must be <= 1']);
    expect(problems({ sql: { sft: { rehearsals: 'both' } } })).toEqual(['sql.sft.rehearsals: must be one of "instead", "besides"']);
    expect(problems({ sql: { compactTool: true } })).toEqual(['unknown option "sql.compactTool" — did you mean "compactTools"?']);
    expect(problems({ sql: { generated: { questionsPerDB: 3 } } })).toEqual(['unknown option "sql.generated.questionsPerDB" — did you mean "questionsPerDb"?']);
  });

  it('tells a config with an old path the new one', () => {
    expect(problems({ env: { generated: { split: 'p' }, compactTools: true, trainDifficulties: ['easy'], evalDifficulties: [] }, sft: { describeTables: false, mistakeShare: 0.2, rehearsals: 'besides' } })).toEqual([
      'option "env.compactTools" has moved to "sql.compactTools" (the sql recipe\'s section): write it there instead',
      'option "env.trainDifficulties" has moved to "sql.trainDifficulties" (the sql recipe\'s section): write it there instead',
      'option "env.evalDifficulties" has moved to "sql.evalDifficulties" (the sql recipe\'s section): write it there instead',
      'option "env.generated" has moved to "sql.generated" (the sql recipe\'s section): write it there instead',
      'option "sft.describeTables" has moved to "sql.sft.describeTables" (the sql recipe\'s section): write it there instead',
      'option "sft.mistakeShare" has moved to "sql.sft.mistakeShare" (the sql recipe\'s section): write it there instead',
      'option "sft.rehearsals" has moved to "sql.sft.rehearsals" (the sql recipe\'s section): write it there instead',
    ]);
  });

  it('refuses a held-out generated split without the split whose databases it is on', () => {
    expect(problems({ sql: { generated: { heldOutSplit: 'held' } } })).toEqual([
      'sql.generated.heldOutSplit "held" needs sql.generated.split: the held-out questions are on that split\'s databases. Set sql.generated.split, or sql.generated.heldOutSplit "".',
    ]);
  });

  it('is not the generic trainer\'s: without the recipe it is an unknown option, and no option it took is left there', () => {
    expect(() => resolveTrainConfig({ sql: {} })).toThrow(/unknown option "sql"/);
    const at = (path: string) => path.split('.').reduce<ConfigSchemaNode | undefined>((node, key) => node?.properties?.[key], TRAIN_CONFIG_SCHEMA);
    for (const [from, to] of Object.entries(SQL_CONFIG_SECTION.moved ?? {})) {
      expect(at(from), from).toBeUndefined();
      expect(at(to.replace(/^sql\./, '')), to).toBeUndefined();
    }
  });
});

describe('env.kwargs', () => {
  it('are checked as SQLEnv checks its options, with a suggestion', () => {
    expect(problems({ env: { kwargs: { answermode: 'sql' } } })).toEqual([
      expect.stringMatching(/^env\.kwargs: unknown SQLEnv option "answermode" \(did you mean "answerMode"\?\); SQLEnv reads dataset, split, /),
    ]);
    expect(problems({ env: { kwargs: { renderMode: 'html' } } })).toEqual([`env.kwargs: renderMode must be 'ansi' or undefined, got "html"`]);
  });

  it('may not set what the run sets itself, and say which option to use', () => {
    expect(problems({ env: { kwargs: { stepBudget: 3, dataset: 'bundled' } } })).toEqual([
      "env.kwargs.stepBudget: the run sets SQLEnv's stepBudget itself; use env.stepBudget instead",
      "env.kwargs.dataset: the run sets SQLEnv's dataset itself; use env.dataset instead",
    ]);
  });

  it('come back typed as SQLEnv options once checked', () => {
    expect(sqlEnvKwargs(resolveSqlTrainConfig({ env: { kwargs: { answerMode: 'sql' } } })).answerMode).toBe('sql');
    expect(() => sqlEnvKwargs(resolveTrainConfig({ env: { kwargs: { stepbudget: 3 } } }))).toThrow(RecipeError);
  });
});

describe('every config in the repository', () => {
  const files = [
    ...readdirSync(join(root, 'examples', 'grpo-sql')).filter((f) => f.endsWith('.json')).map((f) => join(root, 'examples', 'grpo-sql', f)),
    ...readdirSync(join(root, 'scripts', 'model')).filter((f) => /\.(json|ya?ml)$/.test(f)).map((f) => join(root, 'scripts', 'model', f)),
    ...readdirSync(join(root, 'bench')).filter((f) => /config.*\.(json|ya?ml)$/.test(f)).map((f) => join(root, 'bench', f)),
  ];

  it('resolves with the sql section', async () => {
    expect(files.length).toBeGreaterThanOrEqual(2);
    for (const file of files) {
      expect(() => resolveSqlTrainConfig(parseConfigText(readFileSync(file, 'utf8'), file)), file).not.toThrow();
    }
    expect((await loadSqlTrainConfig(join(root, 'examples', 'grpo-sql', 'config.json'))).sql.generated).toMatchObject({ split: 'adapt_practice', heldOutSplit: 'adapt_heldout', seed: -1 });
  });
});
