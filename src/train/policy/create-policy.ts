/**
 * The trainable policy a config names: the bundled tiny model (random, or the pre-trained
 * `tiny-sql` base) or a Hugging Face directory, with LoRA when configured, on the configured
 * device. Any training setup builds its policy here, whatever its environment.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Policy } from '../../lm/compute/policy.js';
import { LoraAdapter } from '../../lm/lora/adapter.js';
import { loadModel, type LanguageModel } from '../../lm/model/language-model.js';
import { PROJECTIONS, type ProjectionName } from '../../lm/model/parameters.js';
import { packageRoot } from '../../base/package-root.js';
import { createTinyModel, type TinyModelOptions } from '../../lm/tiny/create.js';
import type { TrainConfig } from '../config/schema.js';
import { TrainError } from '../train-error.js';
import { LmTrainablePolicy } from './lm-policy-adapter.js';

/**
 * Where the tiny model lives for a run, created on first use (a few seconds: the tokenizer is
 * trained on the bundled corpus, the weights are random).
 *
 * @example
 * ```ts
 * const dir = await ensureTinyModel('runs/demo/model');
 * ```
 */
export async function ensureTinyModel(dir: string, options: TinyModelOptions = {}): Promise<string> {
  if (!existsSync(join(dir, 'config.json'))) await createTinyModel(dir, options);
  return dir;
}

/**
 * The model directory a config names: `'tiny'` builds a random tiny model in the run directory,
 * `'tiny-sql'` is the bundled pre-trained tiny base (`models/tiny-sql`, made by
 * rebuilt by `npm run model:pretrain`), anything else is a Hugging Face directory.
 *
 * @example
 * ```ts
 * await resolveModelDir(resolveTrainConfig({ model: { path: 'tiny-sql' } })); // '<package>/models/tiny-sql'
 * ```
 */
export async function resolveModelDir(config: TrainConfig, tinyModel: TinyModelOptions = {}): Promise<string> {
  if (config.model.path === 'tiny') return ensureTinyModel(join(config.runDir, 'model'), { seed: config.seed, ...config.model.tiny, ...tinyModel });
  if (config.model.path === 'tiny-sql') {
    const dir = join(packageRoot(), 'models', 'tiny-sql');
    if (!existsSync(join(dir, 'config.json'))) throw new TrainError(`model.path "tiny-sql": the bundled pre-trained model is missing from ${dir}; restore it with \`git checkout -- models/tiny-sql\`, rebuild it with \`npm run model:pretrain\` (about 50 minutes), or use model.path "tiny"`);
    return dir;
  }
  return config.model.path;
}

/** A configured policy and the model it was built over. */
export interface ConfiguredPolicy {
  model: LanguageModel;
  /** Owns its ONNX sessions: call `dispose()`. */
  policy: LmTrainablePolicy;
}

/** Hidden sizes up to this run a shared prompt's graphs on one CPU thread (see `createTrainablePolicy`). */
const SMALL_HIDDEN = 256;

/**
 * Loads the configured model and wraps it as a trainable policy (LoRA adapters when
 * `model.lora.rank > 0`, full tuning otherwise).
 *
 * @example
 * ```ts
 * const { policy } = await createTrainablePolicy(config);
 * try { await runTraining({ config, policy, task, makeEnv, questionCount }); } finally { await policy.dispose(); }
 * ```
 */
export async function createTrainablePolicy(config: TrainConfig, options: { tinyModel?: TinyModelOptions } = {}): Promise<ConfiguredPolicy> {
  const modelDir = await resolveModelDir(config, options.tinyModel);
  const model = await loadModel(modelDir);
  // Generation runs one thread per op on CPU: decoding a few rows gains nothing from more, and
  // onnxruntime splits small products' sums by the thread count, so the count is part of a run's
  // seed. Scoring and gradient graphs take `model.threads` (SFT steps are ~1.3× faster on two),
  // except a small model's shared-prompt graphs: one prompt row of hidden ≤ 256 is too little work
  // to split (tiny-sql's SFT steps: ~10% faster with those graphs on one thread).
  const promptThreads = model.config.hiddenSize <= SMALL_HIDDEN ? 1 : config.model.threads;
  const engine = { provider: config.model.device, ...(config.model.device === 'cpu' ? { intraOpThreads: 1, scoringThreads: config.model.threads, promptThreads } : {}) };
  const lora = config.model.lora;
  const unknown = lora.targets.filter((t) => !(PROJECTIONS as readonly string[]).includes(t));
  if (unknown.length) throw new TrainError(`model.lora.targets: unknown projection(s) ${unknown.join(', ')}; choose from ${PROJECTIONS.join(', ')}`);
  const targetModules = lora.targets as ProjectionName[];
  const adapter = lora.rank > 0 ? LoraAdapter.create(model.config, { rank: lora.rank, alpha: lora.alpha, targetModules }, { seed: config.seed }) : undefined;
  const lm = await Policy.create(model, { ...engine, ...(adapter ? { adapter } : {}) });
  const policy = new LmTrainablePolicy(lm);
  return { model, policy };
}
