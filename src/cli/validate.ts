/**
 * `sqlenv validate`: the environment checks its own reward on a dataset (bundled, Spider or BIRD):
 * golden oracle episodes, degenerate policies against the floor, shaping canaries, replay, gold
 * leaks and split statistics. Prints a table; exits 1 when a check fails.
 */
import { availableSplits } from '../../envs/sql/datasets/dataset-layout.js';
import { describeDatasetSource, parseDatasetSource } from '../../envs/sql/datasets/dataset-source.js';
import { QueryPool } from '../../envs/sql/sandbox/query-pool.js';
import { validateDataset } from '../../envs/sql/validate/validate-dataset.js';
import { renderValidationReport, validationFailed } from '../../envs/sql/validate/validation-report.js';
import { parseCommandArgs } from './command-args.js';

const USAGE = `usage: sqlenv validate [--dataset bundled|spider:DIR|bird:DIR|DIR] [--split NAME ...]
                       [--sample N] [--step-budget N] [--json]

Checks that SQLEnv's reward means what it should on every question of each split (default: all
splits of the dataset):
  golden       the oracle is judged correct with the best return, answering values and SQL;
               every gold query runs; empty gold results are flagged
  degenerate   empty answer, the question text, answer spam, the same query repeated, SELECT *
               of every table, describe-only loops, calls after the end, SQL as a value answer,
               progress farming: none earns more than the floor or is judged correct
  canaries     progress sums to zero over every episode; operational parts stay in their clip
  replay       the same seed and actions give identical observations, rewards and info
  leaks        no gold SQL in observations, no verdict in info before the episode ends
  stats        per split: difficulty mix, empty-result rate, duplicate questions, overlap
--sample N plays the degenerate, replay and leak checks on N evenly spaced questions per split
(default 100; 0 = all); the golden check always plays every question. Exit 1 on any failure.`;

/** Entry point of `sqlenv validate`; returns the exit code. */
export async function run(argv: string[]): Promise<number> {
  const parsed = parseCommandArgs('validate', USAGE, {
    args: argv,
    options: {
      dataset: { type: 'string', default: 'bundled' },
      split: { type: 'string', multiple: true },
      sample: { type: 'string', default: '100' },
      'step-budget': { type: 'string', default: '10' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (!parsed.ok) return parsed.exitCode;
  const { values } = parsed.args;
  const sample = Number(values.sample);
  const stepBudget = Number(values['step-budget']);
  const problems = [
    Number.isInteger(sample) && sample >= 0 ? '' : `--sample must be a whole number ≥ 0, got "${values.sample}"`,
    Number.isInteger(stepBudget) && stepBudget >= 3 ? '' : `--step-budget must be an integer ≥ 3, got "${values['step-budget']}"`,
  ].filter(Boolean);
  if (problems.length > 0) {
    console.error(`sqlenv validate: ${problems.join('; ')}\n\n${USAGE}`);
    return 2;
  }
  const pool = new QueryPool();
  try {
    const source = parseDatasetSource(values.dataset);
    const splits = values.split ?? availableSplits(source);
    if (!values.json) console.log(`validating ${describeDatasetSource(source)}: ${splits.join(', ')}`);
    const report = await validateDataset(source, splits, {
      pool,
      stepBudget,
      ...(sample > 0 ? { sampleSize: sample } : {}),
      onSplit: values.json ? undefined : (split, seconds) => console.log(`  ${split}: ${seconds.toFixed(1)} s`),
    });
    console.log(values.json ? JSON.stringify(report) : `\n${renderValidationReport(report)}`);
    return validationFailed(report) ? 1 : 0;
  } catch (err) {
    console.error(`sqlenv validate: ${(err as Error).message}`);
    return 1;
  } finally {
    await pool.close();
  }
}
