/**
 * The trainer's accelerator checks (issue: "the trainer on the accelerator"). `scripts/gpu-check.sh`
 * runs this on a GPU machine; on any machine
 * `node dist/bench/gpu-check.js --provider cpu --shape small --out DIR` runs the same checks on
 * CPU (what CI-less machines can verify of the script). Each check is independent: one that fails
 * is recorded with its error and the others still run.
 *
 * 1. parity: log-probs and full-tuning gradients of a random Qwen3 directory on `--provider`
 *    against CPU, fp32 (max absolute and relative differences);
 * 2. decode tokens/s at batch 1 and 16 on the `--shape` model (random weights);
 * 3. one GRPO step, LoRA and full tuning, of the `--shape` model: 16 sampled completions, scoring,
 *    gradient accumulation over micro-batches, clip + AdamW — with time per phase, MFU of the
 *    update (model FLOPs / time / `--peak-tflops`), and host↔device bytes per step from the
 *    sessions' counters.
 *
 * Writes `gpu-check.json` and `gpu-check.md` into `--out`.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Rng } from '../src/base/rng.js';
import { LoraAdapter, Policy, createTinyModel, loadModel, type GenerationTimings, type LanguageModel, type TinyModelOptions } from '../src/lm/index.js';
import { Runtime, type ProviderName, type SessionStats } from '../src/onnx/index.js';

const SHAPES: Record<string, TinyModelOptions> = {
  small: { arch: 'qwen3', layers: 2, hidden: 128, heads: 4, kvHeads: 2 },
  'qwen3-0.6b': { arch: 'qwen3', layers: 28, hidden: 1024, heads: 16, kvHeads: 8, headDim: 128, intermediate: 3072, modelVocabSize: 151936, ropeTheta: 1e6 },
};

interface CheckResult {
  readonly name: string;
  readonly ok: boolean;
  readonly seconds: number;
  readonly result?: unknown;
  readonly error?: string;
}

const totals = (rt: Runtime): SessionStats => rt.stats();
const diff = (a: SessionStats, b: SessionStats): Omit<SessionStats, 'runMs'> => ({
  runs: b.runs - a.runs,
  feedBytes: b.feedBytes - a.feedBytes,
  fetchBytes: b.fetchBytes - a.fetchBytes,
  residentFeeds: b.residentFeeds - a.residentFeeds,
  residentFetches: b.residentFetches - a.residentFetches,
});

function maxDifferences(a: ArrayLike<number>, b: ArrayLike<number>): { maxAbs: number; maxRel: number } {
  let maxAbs = 0;
  let scale = 0;
  for (let i = 0; i < a.length; i++) {
    maxAbs = Math.max(maxAbs, Math.abs(a[i]! - b[i]!));
    scale = Math.max(scale, Math.abs(b[i]!));
  }
  return { maxAbs, maxRel: maxAbs / Math.max(scale, 1e-30) };
}

function randomSequences(model: LanguageModel, count: number, length: number, seed: number): number[][] {
  const rng = new Rng(seed);
  return Array.from({ length: count }, () => Array.from({ length: length }, () => rng.int(model.tokenizer.vocabSize)));
}

/** Check 1: log-probs and gradients on the provider against CPU. */
async function parity(dir: string, provider: ProviderName): Promise<unknown> {
  const model = await loadModel(dir);
  const sequences = randomSequences(model, 4, 48, 1);
  const weights = sequences.map((s) => Float32Array.from({ length: s.length }, (_, t) => (t % 5 === 1 ? 0 : -1))); // token-aligned; entry 0 is ignored
  const run = async (p: ProviderName) => {
    const policy = await Policy.create(model, { provider: p, train: 'full' });
    try {
      const logprobs = await policy.logprobs(sequences);
      const { gradients } = await policy.backward(sequences, weights);
      return { logprobs: logprobs.flatMap((l) => [...l]), gradients };
    } finally {
      await policy.close();
    }
  };
  const [got, ref] = [await run(provider), await run('cpu')];
  const lp = maxDifferences(got.logprobs, ref.logprobs);
  let worst = { name: '', maxAbs: 0, maxRel: 0 };
  for (const [name, g] of ref.gradients) {
    const d = maxDifferences(got.gradients.get(name)!.data, g.data);
    if (d.maxRel > worst.maxRel) worst = { name, ...d };
  }
  return { provider, tokens: sequences.length * 47, logprobs: lp, worstGradient: worst, parameters: ref.gradients.size };
}

/** Check 2: decode throughput at batch 1 and 16. */
async function decode(model: LanguageModel, runtime: Runtime, newTokens: number): Promise<unknown> {
  const policy = await Policy.create(model, { runtime, train: 'none' });
  const out: Record<string, unknown> = {};
  try {
    for (const batch of [1, 16]) {
      const prompts = randomSequences(model, batch, 32, batch);
      const options = { temperature: 0, stopTokenIds: [] };
      await policy.generate(prompts.map((p) => p.slice(0, 4)), { ...options, maxTokens: 2 }); // compile + warm-up
      let timings: GenerationTimings | undefined;
      const before = totals(runtime);
      await policy.generate(prompts, { ...options, maxTokens: newTokens + 1, onTimings: (t) => (timings = t) });
      const traffic = diff(before, totals(runtime));
      out[`batch${batch}`] = {
        decodeTokensPerSecond: (batch * timings!.decodeSteps) / (timings!.decodeMs / 1000),
        prefillTokensPerSecond: (batch * 32) / (timings!.prefillMs / 1000),
        hostBytesPerDecodeStep: traffic.feedBytes / Math.max(1, timings!.decodeSteps + 1),
      };
    }
  } finally {
    await policy.close();
  }
  return out;
}

/** Check 3: one GRPO step (sample 16, score, accumulate, clip + AdamW). */
async function grpoStep(model: LanguageModel, runtime: Runtime, mode: 'lora' | 'full', newTokens: number, peakTflops: number): Promise<unknown> {
  const adapter = mode === 'lora' ? LoraAdapter.create(model.config, { rank: 16, alpha: 32, targetModules: ['q_proj', 'k_proj', 'v_proj', 'o_proj', 'gate_proj', 'up_proj', 'down_proj'] }, { seed: 1 }) : undefined;
  const policy = await Policy.create(model, { runtime, ...(adapter ? { adapter } : { train: 'full' }) });
  try {
    const trainer = await policy.createTrainer({ beta1: 0.9, beta2: 0.999, weightDecay: 0 });
    const trainable = [...policy.trainableParameters().values()].reduce((a, t) => a + t.data.length, 0);
    const prompts = randomSequences(model, 4, 48, 7).flatMap((p) => [p, p, p, p]);
    const phase = async <T>(f: () => Promise<T>): Promise<{ value: T; seconds: number; traffic: ReturnType<typeof diff> }> => {
      const before = totals(runtime);
      const t0 = performance.now();
      const value = await f();
      return { value, seconds: (performance.now() - t0) / 1000, traffic: diff(before, totals(runtime)) };
    };
    // Warm-up (compiles every graph) on a short step, then the measured step.
    const warm = await policy.generate(prompts.slice(0, 2), { maxTokens: 2, seed: 0 });
    const warmSeqs = warm.map((g) => [...g.promptTokenIds, ...g.tokenIds]);
    await policy.score(warmSeqs);
    await trainer.accumulate(warmSeqs, warmSeqs.map((s) => new Float32Array(s.length)));
    await trainer.step(0, 1);
    const sample = await phase(() => policy.generate(prompts, { maxTokens: newTokens, temperature: 1, seed: 1, stopTokenIds: [] }));
    const sequences = sample.value.map((g) => [...g.promptTokenIds, ...g.tokenIds]);
    const score = await phase(() => policy.score(sequences));
    const weights = sequences.map((s, i) => Float32Array.from({ length: s.length }, (_, t) => (t >= 48 ? (i % 2 ? 1 : -1) / sequences.length : 0)));
    const update = await phase(async () => {
      for (let i = 0; i < sequences.length; i += 4) await trainer.accumulate(sequences.slice(i, i + 4), weights.slice(i, i + 4));
      return trainer.step(1e-5, 1);
    });
    const tokens = sequences.reduce((a, s) => a + s.length, 0);
    const params = model.parameterCount();
    // Forward 2N FLOPs per token; backward 4N with weight gradients (full), ~2N without (LoRA).
    const flops = (mode === 'full' ? 6 : 4) * params * tokens;
    const totalSeconds = sample.seconds + score.seconds + update.seconds;
    const bytes = (p: { traffic: { feedBytes: number; fetchBytes: number } }) => p.traffic.feedBytes + p.traffic.fetchBytes;
    return {
      mode,
      trainableParameters: trainable,
      tokens,
      seconds: { sample: sample.seconds, score: score.seconds, update: update.seconds, total: totalSeconds },
      updateTflops: flops / update.seconds / 1e12,
      mfu: peakTflops > 0 ? flops / update.seconds / 1e12 / peakTflops : null,
      gradNorm: update.value.gradNorm,
      busBytes: { sample: bytes(sample), score: bytes(score), update: bytes(update), total: bytes(sample) + bytes(score) + bytes(update) },
    };
  } finally {
    await policy.close();
  }
}

async function timed(name: string, f: () => Promise<unknown>): Promise<CheckResult> {
  const t0 = performance.now();
  process.stderr.write(`gpu-check: ${name}…\n`);
  try {
    const result = await f();
    return { name, ok: true, seconds: (performance.now() - t0) / 1000, result };
  } catch (e) {
    return { name, ok: false, seconds: (performance.now() - t0) / 1000, error: e instanceof Error ? (e.stack ?? e.message) : String(e) };
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      provider: { type: 'string', default: 'webgpu' },
      shape: { type: 'string', default: 'qwen3-0.6b' },
      out: { type: 'string', default: 'gpu-check-out' },
      'new-tokens': { type: 'string', default: '32' },
      'peak-tflops': { type: 'string', default: '0' },
      only: { type: 'string' },
    },
  });
  const provider = values.provider as ProviderName;
  const shape = SHAPES[values.shape];
  if (!shape) throw new RangeError(`--shape must be one of ${Object.keys(SHAPES).join(', ')}`);
  const newTokens = Number(values['new-tokens']);
  const peak = Number(values['peak-tflops']);
  const only = values.only?.split(',');
  const want = (n: string) => !only || only.includes(n);
  mkdirSync(values.out, { recursive: true });
  const root = mkdtempSync(join(tmpdir(), 'gpu-check-'));
  const results: CheckResult[] = [];
  try {
    const small = join(root, 'parity');
    await createTinyModel(small, { seed: 0, ...SHAPES['small']! });
    let parameters = 0;
    // The report is rewritten after every check: a check that ends the process (a native abort)
    // leaves the earlier checks' results on disk.
    const record = (r: CheckResult): void => {
      results.push(r);
      const report = { provider, shape: values.shape, parameters, newTokens, peakTflops: peak, results };
      writeFileSync(join(values.out, 'gpu-check.json'), JSON.stringify(report, null, 2));
      writeFileSync(join(values.out, 'gpu-check.md'), [
        `# gpu-check: provider ${provider}, shape ${values.shape} (${(parameters / 1e6).toFixed(1)} M parameters, random fp32 weights)`,
        '',
        ...results.map((c) => `## ${c.name} — ${c.ok ? 'ok' : 'FAILED'} (${c.seconds.toFixed(1)} s)\n\n\`\`\`\n${c.ok ? JSON.stringify(c.result, null, 2) : c.error}\n\`\`\`\n`),
      ].join('\n'));
    };
    if (want('parity')) record(await timed('parity', () => parity(small, provider)));
    const dir = join(root, 'shape');
    await createTinyModel(dir, { seed: 0, ...shape });
    const model = await loadModel(dir);
    parameters = model.parameterCount();
    const runtime = await Runtime.create({ provider });
    try {
      if (want('decode')) record(await timed('decode', () => decode(model, runtime, newTokens)));
      if (want('grpo-lora')) record(await timed('grpo-lora', () => grpoStep(model, runtime, 'lora', newTokens, peak)));
      if (want('grpo-full')) record(await timed('grpo-full', () => grpoStep(model, runtime, 'full', newTokens, peak)));
    } finally {
      await runtime.close();
    }
    if (results.length > 0) console.log(readFileSync(join(values.out, 'gpu-check.md'), 'utf8'));
    process.exitCode = results.every((r) => r.ok) ? 0 : 1;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

await main();
