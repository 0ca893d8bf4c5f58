/**
 * `sqlenv train --config FILE [--set key.path=value ...]`: GRPO (and SFT warm-up) on SQLEnv from
 * a JSON or YAML config; writes a run directory with metrics.jsonl, checkpoints and a dashboard.
 * Re-running with the same runDir resumes from its last checkpoint. Without `--config` it prints
 * its usage: a run on the built-in defaults starts only when asked for with `--defaults`.
 */
import { configDocsTable, TrainConfigError } from '../train/config/load-config.js';
import { loadSqlTrainConfig, SQL_CONFIG_SECTION } from '../recipes/sql/sql-config.js';
import { createSqlTrainingSetup } from '../recipes/sql/sql-training-setup.js';
import { runTraining } from '../train/training-run.js';
import { parseCommandArgs } from './command-args.js';

const USAGE = `usage: sqlenv train (--config FILE | --defaults) [--set key.path=value ...] [--print-config] [--options]

  --config FILE       JSON or YAML training config (unknown keys are errors, with suggestions);
                      examples/grpo-sql/config.json is the demo's (the run of \`npm run demo\`)
  --defaults          train with the built-in defaults instead of a config file (a randomly
                      initialised tiny model; --print-config shows them all)
  --set k.path=value  override one option (repeatable), e.g. --set grpo.steps=20 --set rollout.numGenerations=8
  --print-config      print the resolved config (all defaults filled) and exit
  --options           print the table of every option and exit`;

/** Entry point of `sqlenv train`. */
export async function run(argv: string[]): Promise<number> {
  const parsed = parseCommandArgs('train', USAGE, {
    args: argv,
    options: {
      config: { type: 'string' },
      defaults: { type: 'boolean', default: false },
      set: { type: 'string', multiple: true },
      'print-config': { type: 'boolean', default: false },
      options: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (!parsed.ok) return parsed.exitCode;
  const { values } = parsed.args;
  if (values.options) {
    console.log(configDocsTable(SQL_CONFIG_SECTION));
    return 0;
  }
  if (values.config !== undefined && values.defaults) {
    console.error('sqlenv train: pass --config FILE or --defaults, not both');
    return 2;
  }
  // A run is hours of work: it starts from a config the user chose, never from a bare command.
  if (values.config === undefined && !values.defaults && !values['print-config']) {
    console.error(`sqlenv train: no --config FILE given (or --defaults to train with the built-in defaults)\n\n${USAGE}`);
    return 2;
  }
  let config;
  try {
    config = await loadSqlTrainConfig(values.config, values.set ?? []);
  } catch (err) {
    if (err instanceof TrainConfigError) {
      console.error(`sqlenv train: ${err.message}`);
      return 2;
    }
    throw err;
  }
  if (values['print-config']) {
    console.log(JSON.stringify(config, null, 2));
    return 0;
  }
  await import('../../envs/sql/index.js');
  const resources = await createSqlTrainingSetup(config);
  try {
    const summary = await runTraining(resources.setup);
    console.log(JSON.stringify({ runDir: config.runDir, ...summary, formatCheck: { before: summary.formatCheck.before?.share, after: summary.formatCheck.after?.share } }));
    return 0;
  } finally {
    await resources.close();
  }
}
