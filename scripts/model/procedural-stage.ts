/**
 * The procedural stage of the bundled base: `npm run model:procedural`.
 *
 * The bundled base `models/tiny-sql` is two stages: the query pre-training of 12bb90a (the gold SQL
 * of `train`'s first 1,758 questions), then this one. It continues from a base (`--from DIR`) with the
 * demo's own SFT — the same prompts, tools, oracle and optimizer settings — on 4,800 easy questions of
 * 600 procedurally generated databases (`data/generator/procedural/`, seeds 1–600, never a validation
 * database's; half of their tables and attribute columns renamed to invented words), 8 questions a
 * database, 2 epochs, and writes the result as a model directory (`--out`). The stage gives the demo's
 * SFT a base that has already met many schemas' shapes, not only the training databases'
 * (docs/experiments/ has the measurement). It does not teach the model to read an unseen schema: the
 * databases it learns from share the procedural catalog's nouns.
 *
 * Reproducible: the same options and the same code rebuild the same weights bit for bit (one
 * onnxruntime thread; the corpus is generated from seeds). The shipped weights were staged by the code
 * of 30c5164; today's code trains the same recipe with other rounding (`npm run model:pretrain`
 * rebuilds the shipped ones by their commits' code, rebuild-base.ts). The stage's run directory
 * (`--run-dir`) is an ordinary training run, so an interrupted stage resumes there.
 *
 * Options: --from DIR (required), --out DIR (default models/tiny-sql-staged), --run-dir DIR, --databases N, --per-db N, --invented-names SHARE,
 * --epochs N, --seed S.
 */
import { cp, mkdir, mkdtemp, readdir, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { writeGeneratedSplit } from '../../data/generator/procedural/generated-split.js';
import { bundledDataDir } from '../../envs/sql/datasets/bundled-data-dir.js';
import { packageRoot } from '../../src/base/package-root.js';
import { SqlenvError } from '../../src/base/sqlenv-error.js';
import '../../envs/sql/index.js';
import { CheckpointStore } from '../../src/train/checkpoint/checkpoint-store.js';
import { loadSqlTrainConfig, type SqlTrainConfig } from '../../src/recipes/sql/sql-config.js';
import { runTraining } from '../../src/train/training-run.js';
import { writeSafetensors } from '../../src/lm/safetensors/writer.js';
import { createSqlTrainingSetup } from '../../src/recipes/sql/sql-training-setup.js';
import { runWhenExecuted } from './run-when-executed.js';
import { stringFlags } from './string-flags.js';

/** Options of {@link proceduralStage}. */
export interface ProceduralStageOptions {
  /** The base model directory to continue from. */
  from: string;
  /** Where the staged model directory is written. */
  out: string;
  /** The stage's training run (checkpoints, metrics). */
  runDir: string;
  databases: number;
  perDb: number;
  inventedNames: number;
  epochs: number;
  seed: number;
  print: (line: string) => void;
}

/** The settings the bundled base was staged with. */
export const PROCEDURAL_STAGE_DEFAULTS = { databases: 600, perDb: 8, inventedNames: 0.5, epochs: 2, seed: 0 } as const;

/** A bad option of `npm run model:procedural`. */
export class ProceduralStageError extends SqlenvError {}

/**
 * Writes the stage's dataset: the procedural databases and their corpus as `train`, beside the
 * bundled databases and held-out splits (linked, not copied), which the run's validation reads.
 */
async function writeCorpus(dir: string, o: ProceduralStageOptions): Promise<number> {
  // Database ids `mix_NNN` appear in the prompts ("Database: mix_1"): part of what the stage trains on.
  const generated = await writeGeneratedSplit(`${dir}-generated`, 'mix', { databases: o.databases, questionsPerDb: o.perDb, seed: 1, inventedNames: o.inventedNames });
  const bundled = bundledDataDir();
  await mkdir(join(dir, 'database'), { recursive: true });
  for (const root of [bundled, generated.dir]) {
    for (const db of await readdir(join(root, 'database'))) await symlink(join(root, 'database', db), join(dir, 'database', db));
  }
  const tables = [
    ...(JSON.parse(await readFile(join(bundled, 'tables.json'), 'utf8')) as unknown[]),
    ...(JSON.parse(await readFile(join(generated.dir, 'tables.json'), 'utf8')) as unknown[]),
  ];
  await writeFile(join(dir, 'tables.json'), JSON.stringify(tables));
  for (const split of ['validation', 'validation_unseen_db', 'eval', 'eval_unseen_db', 'smoke']) await cp(join(bundled, `${split}.json`), join(dir, `${split}.json`));
  await cp(join(generated.dir, 'mix.json'), join(dir, 'train.json'));
  return generated.questions;
}

/**
 * The stage's training config: the demo's own (examples/grpo-sql/config.json: its prompts, tools,
 * oracle and optimizer settings), SFT only, on the stage's corpus as `train`.
 *
 * @example
 * ```ts
 * const config = await stageConfig(options, '/tmp/stage/dataset', 4800);
 * ```
 */
export function stageConfig(o: Pick<ProceduralStageOptions, 'from' | 'runDir' | 'epochs' | 'seed'>, dataset: string, questions: number): Promise<SqlTrainConfig> {
  return loadSqlTrainConfig(join(packageRoot(), 'examples', 'grpo-sql', 'config.json'), [
    `seed=${o.seed}`, `runDir=${JSON.stringify(o.runDir)}`,
    `env.dataset=${JSON.stringify(dataset)}`, `model.path=${JSON.stringify(resolve(o.from))}`,
    'env.evalSplits=[]', 'eval.untrained=false', 'grpo.steps=0',
    // One thread, as the stage's weights were made; and none of the demo's GRPO corpus, which an SFT-only run never reads.
    'model.threads=1', 'sql.generated.split=""', 'sql.generated.heldOutSplit=""', 'grpo.trainSplit=""',
    `sft.questions=${questions}`, `sft.epochs=${o.epochs}`, 'sft.minEpochs=1', 'sft.validationEpisodes=0',
  ]);
}

/**
 * Runs the stage and writes the staged model directory; returns the number of corpus questions.
 *
 * @example
 * ```ts
 * await proceduralStage({ ...PROCEDURAL_STAGE_DEFAULTS, from: 'models/tiny-sql', out: 'models/tiny-sql-staged', runDir: 'runs/procedural-stage', print: console.log });
 * ```
 */
export async function proceduralStage(o: ProceduralStageOptions): Promise<number> {
  for (const [name, v] of [['databases', o.databases], ['per-db', o.perDb], ['epochs', o.epochs]] as const) {
    if (!Number.isInteger(v) || v < 1) throw new ProceduralStageError(`--${name} must be a positive integer, got ${v}`);
  }
  if (!(o.inventedNames >= 0 && o.inventedNames <= 1)) throw new ProceduralStageError(`--invented-names is a share between 0 and 1, got ${o.inventedNames}`);
  const work = await mkdtemp(join(tmpdir(), 'sqlenv-procedural-stage-'));
  try {
    const dataset = join(work, 'dataset');
    const questions = await writeCorpus(dataset, o);
    o.print(`procedural stage: ${questions} easy questions of ${o.databases} procedural databases, ${o.epochs} epochs of the demo's SFT from ${o.from}`);
    const resources = await createSqlTrainingSetup(await stageConfig(o, dataset, questions));
    try {
      await runTraining(resources.setup);
    } finally {
      await resources.close();
    }
    const checkpoint = await new CheckpointStore(o.runDir).load(0);
    // Written beside the destination and renamed into place: a crash never leaves half a model.
    const staging = `${resolve(o.out)}.tmp-${process.pid}`;
    await rm(staging, { recursive: true, force: true });
    await mkdir(staging, { recursive: true });
    for (const f of ['config.json', 'generation_config.json', 'tokenizer.json', 'tokenizer_config.json']) await cp(join(o.from, f), join(staging, f));
    await writeSafetensors(join(staging, 'model.safetensors'), checkpoint.weights, { metadata: { format: 'pt' } });
    await rm(o.out, { recursive: true, force: true });
    await rename(staging, o.out);
    o.print(`wrote ${o.out}`);
    return questions;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** CLI entry: parses the flags and runs {@link proceduralStage}. */
export async function main(argv: string[]): Promise<number> {
  const d = PROCEDURAL_STAGE_DEFAULTS;
  const { num, str, get } = stringFlags(argv, ['from', 'out', 'run-dir', 'databases', 'per-db', 'invented-names', 'epochs', 'seed'], (message) => new ProceduralStageError(message));
  const from = get('from');
  if (from === undefined) {
    throw new ProceduralStageError(
      '--from DIR is required: the base model directory to continue from. models/tiny-sql is already staged; its first stage ' +
        'is `git show e74fecc:models/tiny-sql/model.safetensors` beside that directory\'s other files',
    );
  }
  await proceduralStage({
    from,
    out: str('out', join(packageRoot(), 'models', 'tiny-sql-staged')),
    runDir: str('run-dir', join('runs', 'procedural-stage')),
    databases: num('databases', d.databases),
    perDb: num('per-db', d.perDb),
    inventedNames: num('invented-names', d.inventedNames),
    epochs: num('epochs', d.epochs),
    seed: num('seed', d.seed),
    print: (line) => console.log(line),
  });
  return 0;
}

runWhenExecuted(import.meta.url, main);
