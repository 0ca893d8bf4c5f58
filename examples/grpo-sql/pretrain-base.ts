/**
 * Pre-trains the bundled tiny base model: `npm run model:pretrain`.
 *
 * Real agents start from a model that already knows SQL (Qwen2.5-Coder, Qwen3); a randomly
 * initialised 1M-parameter model does not, and a CPU demo cannot teach it SQL from scratch in
 * minutes (we measured: after 3,500 SFT trajectories a random-init model still writes SQL that
 * ignores the question). This script gives the demo an honest stand-in for that pre-training: it
 * teaches a fresh tiny model to write the gold SQL of the **train split's** questions, shown in
 * the same prompt the agent sees, as a `query` tool call. It never sees the answers, the
 * describe/answer protocol, or any held-out question; SFT and GRPO in the demo teach the rest.
 *
 * The result is a Hugging Face model directory (config.json, model.safetensors, tokenizer), written
 * atomically. With one onnxruntime thread (the default) the same options reproduce the same
 * weights bit for bit.
 *
 * Options: --out DIR (default models/tiny-sql), --epochs N, --lr X, --batch N, --seed S,
 * --layers/--hidden/--heads/--kv-heads/--intermediate/--vocab (model shape).
 */
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import '../../envs/sql/index.js';
import { Rng } from '../../src/base/rng.js';
import { packageRoot } from '../../src/base/package-root.js';
import { writeSafetensors } from '../../src/lm/safetensors/writer.js';
import { loadTrainConfig, resolveTrainConfig } from '../../src/train/config/load-config.js';
import { formatDuration, formatProgress } from '../../src/train/metrics/progress-line.js';
import { learningRateAt } from '../../src/train/optim/lr-schedule.js';
import { promptToolsOf } from '../../src/train/rollout/rollout-task.js';
import { actionToAssistantText, type SftSequence } from '../../src/train/sft/oracle-trajectories.js';
import { sftBatches, sftStep } from '../../src/train/sft/sft-epoch.js';
import { createSqlTrainingSetup } from '../../src/recipes/sql-training-setup.js';
import { runWhenExecuted } from '../run-when-executed.js';

/** Shape and schedule of the pre-training run; the defaults built the committed model. */
export interface PretrainOptions {
  out: string;
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
  /** Train questions used (0: all); tests use a few. */
  questions: number;
  print: (line: string) => void;
}

export const PRETRAIN_DEFAULTS: Omit<PretrainOptions, 'out' | 'print'> = {
  epochs: 16,
  lr: 3e-3,
  batch: 16,
  seed: 0,
  layers: 4,
  hidden: 128,
  heads: 4,
  kvHeads: 2,
  intermediate: 384,
  vocab: 2048,
  questions: 0,
};

/** Runs the pre-training and writes the model directory; returns the final epoch's mean loss. */
export async function pretrainBase(options: PretrainOptions): Promise<number> {
  const out = resolve(options.out);
  // Scratch space (the tiny model's first build, the run directory) stays out of the source tree.
  const work = await mkdtemp(join(tmpdir(), 'sqlenv-pretrain-'));
  // The demo's own env settings (step budget, compact tools), so pre-training prompts are exactly
  // the prompts the agent later sees.
  const demo = await loadTrainConfig(join(packageRoot(), 'examples', 'grpo-sql', 'config.json'));
  const config = resolveTrainConfig({
    runDir: work,
    seed: options.seed,
    model: { tiny: { layers: options.layers, hidden: options.hidden, heads: options.heads, kvHeads: options.kvHeads, intermediate: options.intermediate, vocabSize: options.vocab } },
    env: { trainSplit: 'train', evalSplits: [], compactTools: demo.env.compactTools, stepBudget: demo.env.stepBudget },
  });
  const res = await createSqlTrainingSetup(config);
  try {
    const { setup, datasets } = res;
    const { policy, task } = setup;
    const train = datasets.get('train')!;
    const env = setup.makeEnv('train');
    const sequences: SftSequence[] = [];
    const count = options.questions > 0 ? Math.min(options.questions, setup.questionCount('train')) : setup.questionCount('train');
    try {
      for (let i = 0; i < count; i++) {
        const spec = task.episodeSpec!(i, 'train');
        const [obs, info] = await env.reset(spec);
        const question = train.question(String(info['question_id']))!;
        const prompt = policy.codec.encodeStart([{ role: 'system', content: task.systemPrompt }, { role: 'user', content: task.renderInitial(obs, info) }], promptToolsOf(task));
        const text = actionToAssistantText({ name: 'query', arguments: { sql: question.goldSql } });
        const target = policy.codec.encodeAssistantTurn(text);
        sequences.push({ tokens: [...prompt, ...target], mask: [...prompt.map(() => 0), ...target.map(() => 1)], assistantTexts: [text], correct: true });
      }
    } finally {
      await env.close();
    }
    options.print(`pre-training ${(policy.parameterCount() / 1e6).toFixed(2)}M parameters on ${sequences.length} train questions × ${options.epochs} epochs`);
    const optimizer = await policy.createOptimizer({ beta1: 0.9, beta2: 0.999, eps: 1e-8, weightDecay: 0.01 });
    const rng = new Rng(options.seed);
    const totalSteps = options.epochs * Math.ceil(sequences.length / options.batch);
    const started = Date.now();
    let step = 0;
    let epochLoss = Number.NaN;
    for (let epoch = 0; epoch < options.epochs; epoch++) {
      let sum = 0;
      let n = 0;
      for (const batch of sftBatches(sequences, options.batch, rng)) {
        const t0 = Date.now();
        const lr = learningRateAt(step, { lr: options.lr, warmupSteps: 50, totalSteps, decay: 'cosine', minRatio: 0.1 });
        const r = await sftStep(policy, optimizer, batch, { lr, maxGradNorm: 1, microBatches: 1 });
        step++;
        sum += r.loss;
        n++;
        if (step % 50 === 0 || step === totalSteps) {
          const seconds = (Date.now() - t0) / 1000;
          options.print(formatProgress({ phase: 'pretrain', step, totalSteps, tokensPerSecond: r.tokens / Math.max(seconds, 1e-3), elapsedMs: Date.now() - started, stepsThisProcess: step }) + ` | epoch ${epoch + 1} | loss ${(sum / n).toFixed(3)}`);
        }
      }
      epochLoss = sum / n;
    }
    // The model directory: the tiny model's files with the trained weights, moved into place at once.
    const modelDir = join(work, 'model');
    await writeSafetensors(join(modelDir, 'model.safetensors'), await policy.readParameters(), {
      metadata: { format: 'pt', pretrained: `sqlenv pretrain-base: ${sequences.length} train questions × ${options.epochs} epochs, final loss ${epochLoss.toFixed(4)}` },
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
    await rm(work, { recursive: true, force: true });
  }
}

/** CLI entry: parses the flags and runs {@link pretrainBase}. */
export async function main(argv: string[]): Promise<number> {
  const d = PRETRAIN_DEFAULTS;
  const { values } = parseArgs({
    args: argv,
    options: Object.fromEntries(['out', 'epochs', 'lr', 'batch', 'seed', 'layers', 'hidden', 'heads', 'kv-heads', 'intermediate', 'vocab', 'questions'].map((k) => [k, { type: 'string' as const }])),
  });
  const num = (key: string, def: number): number => {
    const v = values[key];
    if (v === undefined) return def;
    const n = Number(v);
    if (!Number.isFinite(n) || n < 0) throw new Error(`--${key} must be a non-negative number, got "${v}"`);
    return n;
  };
  await pretrainBase({
    out: typeof values['out'] === 'string' ? values['out'] : join(packageRoot(), 'models', 'tiny-sql'),
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
    questions: num('questions', d.questions),
    print: (line) => console.log(line),
  });
  return 0;
}

runWhenExecuted(import.meta.url, main);
