/**
 * Pre-trains a tiny base on procedurally generated databases: `npm run model:pretrain-procedural`.
 * This is an alternative base, not the shipped `models/tiny-sql`, which `npm run model:pretrain`
 * rebuilds (rebuild-base.ts); it writes `models/tiny-sql-procedural`.
 *
 * Real agents start from a model that already knows SQL and can read a schema it has never seen
 * (Qwen2.5-Coder, Qwen3). A randomly initialised 1M-parameter model knows neither, and a CPU demo
 * cannot teach them in minutes. This script is a stand-in for that pre-training that reads schemas: on a
 * corpus of **procedurally generated databases** (`data/generator/procedural/`, seeds disjoint from
 * the validation databases and with none of the bundled tables), the scripted oracle plays each
 * question — `describe` the table, `query`, `answer` — and the model learns those whole
 * trajectories, rendered exactly as the demo's SFT renders them (the demo's system prompt, tools,
 * step budget and answer mode). No schema repeats often enough to be memorised, so the model has
 * to copy table and column names from the prompt and the `describe` output: it learns to read a
 * schema. It never sees a bundled question, database or answer; the demo's SFT and GRPO meet the
 * bundled databases fresh.
 *
 * Batches are cut from sequences sorted into length buckets and padded to a multiple of
 * `padTo` tokens, so the runtime sees a few fixed shapes (memory stays flat; varying shapes made
 * an earlier run grow to 8 GB). After every epoch an atomic checkpoint (weights, AdamW moments,
 * RNG state) is written to `runDir`; a run started again with the same options resumes from it
 * and ends with the same weights as an uninterrupted run. With one onnxruntime thread (the
 * default) the same options rebuild the same weights bit for bit.
 *
 * Options: --out DIR (default models/tiny-sql-procedural), --run-dir DIR (checkpoints, default
 * runs/pretrain-base), --epochs N, --lr X, --batch N, --seed S, --databases N, --first-db-seed N,
 * --per-db N, --pad-to N, --invented-names SHARE, --layers/--hidden/--heads/--kv-heads/--intermediate/--vocab (model shape).
 */
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import '../../envs/sql/index.js';
import { buildDataset } from '../../data/generator/build-dataset.js';
import { VALIDATION_UNSEEN_DBS } from '../../data/generator/config.js';
import { withInventedNames } from '../../data/generator/procedural/invented-names.js';
import { proceduralDomains } from '../../data/generator/procedural/procedural-domain.js';
import { Rng } from '../../src/base/rng.js';
import { packageRoot } from '../../src/base/package-root.js';
import { writeSafetensors } from '../../src/lm/safetensors/writer.js';
import { CheckpointStore } from '../../src/train/checkpoint/checkpoint-store.js';
import { loadSqlTrainConfig, resolveSqlTrainConfig } from '../../src/recipes/sql/sql-config.js';
import { formatDuration, formatProgress } from '../../src/train/metrics/progress-line.js';
import { learningRateAt } from '../../src/train/optim/lr-schedule.js';
import { agentTrajectory, type SftSequence } from '../../src/train/sft/oracle-trajectories.js';
import { sftStep } from '../../src/train/sft/sft-epoch.js';
import { createSqlTrainingSetup } from '../../src/recipes/sql/sql-training-setup.js';
import { runWhenExecuted } from './run-when-executed.js';
import { stringFlags } from './string-flags.js';

/** Shape, corpus and schedule of the pre-training run. */
export interface PretrainOptions {
  out: string;
  /** Checkpoints of the run (resumed when they match these options). */
  runDir: string;
  epochs: number;
  lr: number;
  batch: number;
  seed: number;
  layers: number;
  hidden: number;
  heads: number;
  kvHeads: number;
  intermediate: number;
  vocab: number;
  /** Procedural databases in the corpus, with seeds `firstDbSeed`, `firstDbSeed + 1`, … */
  databases: number;
  firstDbSeed: number;
  /** Easy questions used per database (0: all): more databases teach reading schemas better than more questions on each. */
  perDb: number;
  /** Sequences are padded to a multiple of this many tokens (a few fixed shapes). */
  padTo: number;
  /** Share of tables and attribute columns renamed to invented words, so names must be read from the prompt (see invented-names.ts). */
  inventedNames: number;
  print: (line: string) => void;
}

export const PRETRAIN_DEFAULTS: Omit<PretrainOptions, 'out' | 'runDir' | 'print'> = {
  epochs: 2,
  lr: 3e-3,
  batch: 16,
  seed: 0,
  layers: 4,
  hidden: 128,
  heads: 4,
  kvHeads: 2,
  intermediate: 384,
  vocab: 2048,
  databases: 120,
  firstDbSeed: 1,
  perDb: 40,
  padTo: 64,
  inventedNames: 0.5,
};

/** Thrown for options that would make the corpus overlap held-out data or make no sense. */
export class PretrainOptionsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PretrainOptionsError';
  }
}

/**
 * Pads a sequence with `padId` (mask 0) to the next multiple of `padTo`: causal attention keeps
 * the earlier positions' log-probs unchanged, and the loss ignores the padding.
 *
 * @example
 * ```ts
 * padSequence({ tokens: [5, 6, 7], mask: [0, 1, 1], assistantTexts: [], correct: true }, 4, 0).tokens; // [5, 6, 7, 0]
 * ```
 */
export function padSequence(seq: SftSequence, padTo: number, padId: number): SftSequence {
  const length = Math.ceil(seq.tokens.length / padTo) * padTo;
  const extra = length - seq.tokens.length;
  return { ...seq, tokens: [...seq.tokens, ...new Array<number>(extra).fill(padId)], mask: [...seq.mask, ...new Array<number>(extra).fill(0)] };
}

/**
 * The batches of an epoch with few distinct shapes: a seeded shuffle, a stable sort by padded
 * length, cut into `batchSize` chunks, then the chunks shuffled. Every batch's sequences share
 * (nearly always) one padded length, so little compute goes to padding.
 *
 * @example
 * ```ts
 * lengthBucketedBatches(sequences, 16, rng).length; // ceil(sequences.length / 16)
 * ```
 */
export function lengthBucketedBatches(sequences: readonly SftSequence[], batchSize: number, rng: Rng): SftSequence[][] {
  const order = rng.shuffle([...sequences.keys()]).sort((a, b) => sequences[a]!.tokens.length - sequences[b]!.tokens.length);
  const batches: SftSequence[][] = [];
  for (let i = 0; i < order.length; i += batchSize) batches.push(order.slice(i, i + batchSize).map((j) => sequences[j]!));
  return rng.shuffle(batches);
}

/** The options that change the weights: a checkpoint is resumed only when they match. */
function fingerprint(o: PretrainOptions): string {
  const { out: _out, runDir: _runDir, print: _print, ...rest } = o;
  return JSON.stringify(rest);
}

/** Runs the pre-training and writes the model directory; returns the final epoch's mean loss. */
export async function pretrainBase(options: PretrainOptions): Promise<number> {
  const reserved = new Set(VALIDATION_UNSEEN_DBS.map((d) => d.seed));
  for (let s = options.firstDbSeed; s < options.firstDbSeed + options.databases; s++) {
    if (reserved.has(s)) throw new PretrainOptionsError(`database seed ${s} is a validation_unseen_db seed; choose --first-db-seed and --databases outside ${[...reserved].join(', ')}`);
  }
  if (options.databases < 1 || options.batch < 1 || options.padTo < 1) throw new PretrainOptionsError('--databases, --batch and --pad-to must be at least 1');
  const out = resolve(options.out);
  // Scratch space (the corpus databases, the tiny model's first build) stays out of the source tree.
  const work = await mkdtemp(join(tmpdir(), 'sqlenv-pretrain-'));
  const started = Date.now();
  try {
    const corpusDir = join(work, 'corpus');
    // Every question of the corpus goes to its `train` split: nothing here is held out.
    const domains = proceduralDomains('pre', options.databases, options.firstDbSeed).map((d) => withInventedNames(d, options.inventedNames));
    const report = buildDataset({ outDir: corpusDir, domains, unseenDbIds: [], evalFraction: 0, smokeSize: 0 });
    // The demo's own env settings (system prompt, compact tools, step budget, answer mode), so
    // pre-training trajectories are exactly what the demo's SFT and rollouts render.
    const demo = await loadSqlTrainConfig(join(packageRoot(), 'examples', 'grpo-sql', 'config.json'));
    const config = resolveSqlTrainConfig({
      runDir: join(work, 'run'),
      seed: options.seed,
      model: { path: 'tiny', tiny: { layers: options.layers, hidden: options.hidden, heads: options.heads, kvHeads: options.kvHeads, intermediate: options.intermediate, vocabSize: options.vocab } },
      env: {
        dataset: corpusDir, trainSplit: 'train', evalSplits: [], validationSplits: [],
        stepBudget: demo.env.stepBudget, kwargs: demo.env.kwargs,
      },
      sql: { compactTools: demo.sql.compactTools, trainDifficulties: demo.sql.trainDifficulties, sft: { describeTables: true } },
    });
    const res = await createSqlTrainingSetup(config);
    try {
      const { setup, model } = res;
      const { policy } = setup;
      const sequences = await corpusTrajectories(res, options, demo.rollout.maxTotalTokens, model.generationDefaults.padTokenId);
      const tokens = sequences.reduce((n, s) => n + s.tokens.length, 0);
      options.print(
        `pre-training ${(policy.parameterCount() / 1e6).toFixed(2)}M parameters on ${sequences.length} oracle trajectories of ${options.databases} procedural databases ` +
          `(${report.questions.length} questions generated; ${(tokens / 1e6).toFixed(2)}M padded tokens an epoch) × ${options.epochs} epochs`,
      );
      const optimizer = await policy.createOptimizer({ beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay: 0.01 });
      const rng = new Rng(options.seed);
      const stepsPerEpoch = Math.ceil(sequences.length / options.batch);
      const totalSteps = options.epochs * stepsPerEpoch;
      const store = new CheckpointStore(resolve(options.runDir), { keep: 1 });
      let firstEpoch = 0;
      let epochLoss = Number.NaN;
      const latest = await store.loadLatest();
      if (latest && latest.extra['fingerprint'] === fingerprint(options)) {
        await policy.loadParameters(latest.weights);
        optimizer.importState(latest.optimizer);
        rng.setState(latest.rngState);
        firstEpoch = Number(latest.extra['epoch']);
        epochLoss = Number(latest.extra['loss']);
        options.print(`resumed from ${store.dir} after epoch ${firstEpoch} (loss ${epochLoss.toFixed(4)})`);
      } else if (latest) {
        options.print(`ignoring the checkpoint in ${store.dir}: it was made with other options`);
      }
      let step = firstEpoch * stepsPerEpoch;
      const processStart = Date.now();
      for (let epoch = firstEpoch; epoch < options.epochs; epoch++) {
        let sum = 0;
        let n = 0;
        for (const batch of lengthBucketedBatches(sequences, options.batch, rng)) {
          const t0 = Date.now();
          const lr = learningRateAt(step, { lr: options.lr, warmupSteps: 50, totalSteps, decay: 'cosine', minRatio: 0.1 });
          const r = await sftStep(policy, optimizer, batch, { lr, maxGradNorm: 1, microBatches: 1 });
          step++;
          sum += r.loss;
          n++;
          if (step % 25 === 0 || step === totalSteps) {
            const seconds = (Date.now() - t0) / 1000;
            const rss = process.memoryUsage().rss / 2 ** 30;
            options.print(
              formatProgress({ phase: 'pretrain', step, totalSteps, tokensPerSecond: r.tokens / Math.max(seconds, 1e-3), elapsedMs: Date.now() - processStart, stepsThisProcess: step - firstEpoch * stepsPerEpoch }) +
                ` | epoch ${epoch + 1} | loss ${(sum / n).toFixed(3)} | rss ${rss.toFixed(2)} GB`,
            );
          }
        }
        epochLoss = sum / n;
        await store.save({
          step,
          weights: await policy.readParameters(),
          optimizer: await optimizer.exportState(),
          rngState: rng.getState(),
          extra: { epoch: epoch + 1, loss: epochLoss, fingerprint: fingerprint(options) },
        });
        options.print(`epoch ${epoch + 1}/${options.epochs}: mean loss ${epochLoss.toFixed(4)}; checkpoint in ${store.dir} (${formatDuration(Date.now() - started)})`);
      }
      // The model directory: the tiny model's files with the trained weights, moved into place at once.
      const modelDir = join(config.runDir, 'model');
      await writeSafetensors(join(modelDir, 'model.safetensors'), await policy.readParameters(), {
        metadata: { format: 'pt', pretrained: `sqlenv pretrain-base: ${sequences.length} oracle trajectories of ${options.databases} procedural databases × ${options.epochs} epochs, final loss ${epochLoss.toFixed(4)}` },
      });
      await mkdir(dirname(out), { recursive: true });
      const staged = `${out}.new-${process.pid}`;
      await rm(staged, { recursive: true, force: true });
      await cp(modelDir, staged, { recursive: true });
      if (existsSync(out)) await rm(out, { recursive: true });
      await rename(staged, out);
      options.print(`wrote ${out} in ${formatDuration(Date.now() - started)} (final epoch loss ${epochLoss.toFixed(4)})`);
      return epochLoss;
    } finally {
      await res.close();
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/**
 * The oracle's solved trajectories on the corpus's easy questions, at most `perDb` per database
 * (in the run's fixed question order), no longer than the demo's episode cap, padded.
 */
async function corpusTrajectories(
  res: Awaited<ReturnType<typeof createSqlTrainingSetup>>,
  options: PretrainOptions,
  maxTokens: number,
  padId: number,
): Promise<SftSequence[]> {
  const { setup, datasets } = res;
  const train = datasets.get('train')!;
  const env = setup.makeEnv('train');
  const oracle = res.makeOracle();
  const perDb = new Map<string, number>();
  const sequences: SftSequence[] = [];
  try {
    for (let i = 0; i < setup.questionCount('train'); i++) {
      const spec = setup.task.episodeSpec!(i, 'train');
      const db = train.question(String(spec.options?.['questionId']))!.dbId;
      if (options.perDb > 0 && (perDb.get(db) ?? 0) >= options.perDb) continue;
      const t = await agentTrajectory(env, oracle, setup.task, setup.policy.codec, spec, setup.config.env.stepBudget);
      if (!t.correct || t.tokens.length > maxTokens) continue;
      perDb.set(db, (perDb.get(db) ?? 0) + 1);
      sequences.push(padSequence(t, options.padTo, padId));
    }
  } finally {
    await env.close();
  }
  return sequences;
}

/** CLI entry: parses the flags and runs {@link pretrainBase}. */
export async function main(argv: string[]): Promise<number> {
  const d = PRETRAIN_DEFAULTS;
  const { num, str } = stringFlags(
    argv,
    ['out', 'run-dir', 'epochs', 'lr', 'batch', 'seed', 'layers', 'hidden', 'heads', 'kv-heads', 'intermediate', 'vocab', 'databases', 'first-db-seed', 'per-db', 'pad-to', 'invented-names'],
    (message) => new PretrainOptionsError(message),
  );
  await pretrainBase({
    out: str('out', join(packageRoot(), 'models', 'tiny-sql-procedural')),
    runDir: str('run-dir', join('runs', 'pretrain-base')),
    epochs: num('epochs', d.epochs),
    lr: num('lr', d.lr),
    batch: num('batch', d.batch),
    seed: num('seed', d.seed),
    layers: num('layers', d.layers),
    hidden: num('hidden', d.hidden),
    heads: num('heads', d.heads),
    kvHeads: num('kv-heads', d.kvHeads),
    intermediate: num('intermediate', d.intermediate),
    vocab: num('vocab', d.vocab),
    databases: num('databases', d.databases),
    firstDbSeed: num('first-db-seed', d.firstDbSeed),
    perDb: num('per-db', d.perDb),
    padTo: num('pad-to', d.padTo),
    inventedNames: num('invented-names', d.inventedNames),
    print: (line) => console.log(line),
  });
  return 0;
}

runWhenExecuted(import.meta.url, main);
