/**
 * The trainer's accelerator checks (issue: "the trainer on the accelerator"). `scripts/gpu-check.sh`
 * runs this on a GPU machine; on any machine
 * `node dist/bench/gpu-check.js --provider cpu --shape small --out DIR` runs the same checks on
 * CPU (what CI-less machines can verify of the script). Each check is independent: one that fails
 * is recorded with its error and the others still run.
 *
 * 1. parity: log-probs and full-tuning gradients of a random Qwen3 directory on `--provider`
 *    against CPU, fp32 (max absolute and relative differences);
 * 2. decode tokens/s at batch 1 and 16 on the `--shape` model (random weights), sampling on the
 *    device and on the host; `linear-forms`: Gemm(transB) against MatMul(Transpose(W)) alone;
 * 3. one GRPO step, LoRA and full tuning, of the `--grpo-shape` model (default `--shape`): 16
 *    sampled completions (4 prompts × 4) of `--new-tokens`, scoring, gradient accumulation over 4
 *    micro-batches, clip + AdamW — with time per phase (sample, score, update), MFU of the update
 *    (model FLOPs / time / `--peak-tflops`), and host↔device bytes per phase from the sessions'
 *    counters. `grpo-lora-cpu` / `grpo-full-cpu` run the same step on the CPU provider of the same
 *    machine, the baseline a GPU number needs;
 * 4. `demo-step` / `demo-step-cpu`: one step shaped like the demo's (examples/grpo-sql/config.json:
 *    K 8 × 2 questions = 16 completions of up to 64 tokens at temperature 0.85, one micro-batch,
 *    full tuning) on the bundled model the demo trains (models/tiny-sql), on `--provider` and on CPU.
 *    Synthetic: random prompts, no environment and no reference scoring, so it times the model's
 *    work alone.
 *
 * The checks run in the order above, cheapest first. `--budget-seconds` bounds the whole run: a
 * check still running then is recorded as unfinished and the process exits (3), so a device call
 * with a wall-clock limit still gets every finished check back. `gpu-check.json` and `gpu-check.md`
 * in `--out` are rewritten after every check.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { packageRoot } from '../src/base/package-root.js';
import { Rng } from '../src/base/rng.js';
import { LoraAdapter, Policy, createTinyModel, loadModel, type GenerationTimings, type LanguageModel, type TinyModelOptions } from '../src/lm/index.js';
import { Graph, Runtime, hostTensor, ops, type ProviderName, type SessionStats } from '../src/onnx/index.js';

const SHAPES: Record<string, TinyModelOptions> = {
  small: { arch: 'qwen3', layers: 2, hidden: 128, heads: 4, kvHeads: 2 },
  // ~42M parameters (8 layers, hidden 512, a 32k vocabulary): between the demo's model and the
  // 0.6B shape, to see where the GPU starts to beat the CPU provider.
  mid: { arch: 'qwen3', layers: 8, hidden: 512, heads: 8, kvHeads: 4, headDim: 64, intermediate: 1536, modelVocabSize: 32000 },
  'qwen3-0.6b': { arch: 'qwen3', layers: 28, hidden: 1024, heads: 16, kvHeads: 8, headDim: 128, intermediate: 3072, modelVocabSize: 151936, ropeTheta: 1e6 },
};

/** Every check, in the order they run: `--only` takes these names, and `check()` only these. */
const CHECKS = ['parity', 'decode', 'linear-forms', 'demo-step', 'demo-step-cpu', 'grpo-lora', 'grpo-full', 'grpo-lora-cpu', 'grpo-full-cpu'] as const;
type CheckName = (typeof CHECKS)[number];

interface CheckResult {
  readonly name: string;
  readonly ok: boolean;
  readonly seconds: number;
  readonly result?: unknown;
  readonly error?: string;
}

/** What one synthetic GRPO step samples and how it updates. */
interface StepPlan {
  readonly mode: 'lora' | 'full';
  /** Distinct prompts (questions) and completions per prompt (K). */
  readonly groups: number;
  readonly groupSize: number;
  readonly promptLength: number;
  readonly newTokens: number;
  readonly temperature: number;
  readonly microBatches: number;
}

interface GrpoStepResult {
  readonly provider: ProviderName;
  readonly model: string;
  readonly parameters: number;
  readonly mode: 'lora' | 'full';
  readonly trainableParameters: number;
  readonly sequences: number;
  readonly tokens: number;
  readonly seconds: { readonly sample: number; readonly score: number; readonly update: number; readonly total: number };
  readonly updateTflops: number;
  readonly mfu: number | null;
  readonly gradNorm: number;
  readonly busBytes: { readonly sample: number; readonly score: number; readonly update: number; readonly total: number };
}

const isGrpoStep = (r: unknown): r is GrpoStepResult => typeof r === 'object' && r !== null && 'seconds' in r && 'busBytes' in r;

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
  // The sampling head on the provider: greedy tokens as the CPU's host walk picks them, and drawn
  // tokens' log-probs as scoring their sequences gives them.
  const prompts = randomSequences(model, 4, 12, 2);
  const generated = async (p: ProviderName, sampleOnDevice: boolean, temperature: number) => {
    const policy = await Policy.create(model, { provider: p, train: 'none' });
    try {
      const out = await policy.generate(prompts, { maxTokens: 16, temperature, seed: 5, stopTokenIds: [], sampleOnDevice });
      const scored = await policy.logprobs(out.map((g) => [...g.promptTokenIds, ...g.tokenIds]));
      return { tokens: out.map((g) => g.tokenIds), logprobs: out.flatMap((g) => g.logprobs), scored: scored.flatMap((s, i) => [...s.slice(out[i]!.promptTokenIds.length)]) };
    } finally {
      await policy.close();
    }
  };
  const greedyDevice = await generated(provider, true, 0);
  const greedyHost = await generated('cpu', false, 0);
  const drawn = await generated(provider, true, 1);
  const samplingHead = {
    greedyTokensEqualCpu: JSON.stringify(greedyDevice.tokens) === JSON.stringify(greedyHost.tokens),
    drawnLogprobsVsScoring: maxDifferences(drawn.logprobs, drawn.scored),
    distinctDrawnRows: new Set(drawn.tokens.map((t) => t.join(','))).size,
  };
  let worst = { name: '', maxAbs: 0, maxRel: 0 };
  for (const [name, g] of ref.gradients) {
    const d = maxDifferences(got.gradients.get(name)!.data, g.data);
    if (d.maxRel > worst.maxRel) worst = { name, ...d };
  }
  return { provider, tokens: sequences.length * 47, logprobs: lp, worstGradient: worst, parameters: ref.gradients.size, samplingHead };
}

/** Check 2: decode throughput at batch 1 and 16, sampling at temperature 1 on the device and on the host. */
async function decode(model: LanguageModel, runtime: Runtime, newTokens: number): Promise<unknown> {
  const policy = await Policy.create(model, { runtime, train: 'none' });
  const out: Record<string, unknown> = {};
  try {
    for (const batch of [1, 16]) {
      for (const sampleOnDevice of [true, false]) {
        const prompts = randomSequences(model, batch, 32, batch);
        const options = { temperature: 1, seed: 1, stopTokenIds: [], sampleOnDevice };
        await policy.generate(prompts.map((p) => p.slice(0, 4)), { ...options, maxTokens: 2 }); // compile + warm-up
        let timings: GenerationTimings | undefined;
        const before = totals(runtime);
        await policy.generate(prompts, { ...options, maxTokens: newTokens + 1, onTimings: (t) => (timings = t) });
        const traffic = diff(before, totals(runtime));
        const passes = timings!.decodeSteps + 1;
        out[`batch${batch}-${sampleOnDevice ? 'device' : 'host'}-sampling`] = {
          decodeTokensPerSecond: (batch * timings!.decodeSteps) / (timings!.decodeMs / 1000),
          decodeMsPerStep: timings!.decodeMs / timings!.decodeSteps,
          prefillTokensPerSecond: (batch * 32) / (timings!.prefillMs / 1000),
          hostBytesFedPerPass: traffic.feedBytes / passes,
          hostBytesFetchedPerPass: traffic.fetchBytes / passes,
        };
      }
    }
  } finally {
    await policy.close();
  }
  return out;
}

/**
 * Check 2b: a linear layer with a PyTorch-layout [out, in] weight, in the two forms a graph can
 * write it — `Gemm(x, W, transB)` (what src/lm's graphs use) and `MatMul(x, Transpose(W))` (what they
 * used before; onnxruntime fuses it on CPU and CUDA but not on WebGPU) — at a decode batch (16 rows)
 * and a scoring batch (1,280 rows), for a 1024 → 3072 projection and a 1024 → 151,936 LM head.
 * Inputs resident, the output summed in the graph (nothing large crosses the bus); median of 5 runs.
 */
async function linearForms(runtime: Runtime): Promise<unknown> {
  const out: Record<string, unknown> = {};
  const fill = (n: number, seed: number): Float32Array => {
    const a = new Float32Array(n);
    let x = seed;
    for (let i = 0; i < n; i++) a[i] = ((x = (x * 1103515245 + 12345) >>> 0) / 2 ** 32 - 0.5) * 0.05;
    return a;
  };
  for (const [label, outFeatures] of [['projection 1024→3072', 3072], ['LM head 1024→151936', 151_936]] as const) {
    const { w } = await runtime.upload({ w: hostTensor('float32', [outFeatures, 1024], fill(outFeatures * 1024, 1)) });
    for (const rows of [16, 1280]) {
      const { x } = await runtime.upload({ x: hostTensor('float32', [rows, 1024], fill(rows * 1024, 2)) });
      const build = (form: 'gemm' | 'matmul'): Graph => {
        const g = new Graph(`linear-${form}`);
        const xs = g.input('x', 'float32', [rows, 1024]);
        const ws = g.input('w', 'float32', [outFeatures, 1024]);
        const y = form === 'gemm' ? ops.gemm(xs, ws, undefined, { transB: true }) : ops.matmul(xs, ops.transpose(ws));
        g.output(ops.reduceSum(y), 'sum');
        return g;
      };
      const sessions = { gemm: await runtime.session(build('gemm')), matmul: await runtime.session(build('matmul')) };
      const times: Record<'gemm' | 'matmul', number[]> = { gemm: [], matmul: [] };
      for (let r = 0; r < 7; r++) {
        for (const form of ['gemm', 'matmul'] as const) {
          const t0 = performance.now();
          await sessions[form].run({ x: x!, w: w! });
          if (r >= 2) times[form].push(performance.now() - t0);
        }
      }
      const median = (a: number[]): number => [...a].sort((p, q) => p - q)[Math.floor(a.length / 2)]!;
      out[`${label}, ${rows} rows`] = { gemmTransBMs: median(times.gemm), matmulTransposeMs: median(times.matmul) };
    }
  }
  return out;
}

/** Checks 3 and 4: one GRPO step (sample, score, accumulate, clip + AdamW), timed per phase. */
async function grpoStep(model: LanguageModel, label: string, runtime: Runtime, plan: StepPlan, peakTflops: number): Promise<GrpoStepResult> {
  const { mode } = plan;
  const adapter = mode === 'lora' ? LoraAdapter.create(model.config, { rank: 16, alpha: 32, targetModules: ['q_proj', 'k_proj', 'v_proj', 'o_proj', 'gate_proj', 'up_proj', 'down_proj'] }, { seed: 1 }) : undefined;
  const policy = await Policy.create(model, { runtime, ...(adapter ? { adapter } : { train: 'full' }) });
  try {
    const trainer = await policy.createTrainer({ beta1: 0.9, beta2: 0.999, weightDecay: 0 });
    const trainable = [...policy.trainableParameters().values()].reduce((a, t) => a + t.data.length, 0);
    const prompts = randomSequences(model, plan.groups, plan.promptLength, 7).flatMap((p) => Array.from({ length: plan.groupSize }, () => p));
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
    // No stop tokens: every completion is `newTokens` long, so providers are timed on equal work.
    const sample = await phase(() => policy.generate(prompts, { maxTokens: plan.newTokens, temperature: plan.temperature, seed: 1, stopTokenIds: [] }));
    const sequences = sample.value.map((g) => [...g.promptTokenIds, ...g.tokenIds]);
    // Scored and differentiated at the sampling temperature, as the trainer does.
    const score = await phase(() => policy.score(sequences, { temperature: plan.temperature }));
    const weights = sequences.map((s, i) => Float32Array.from({ length: s.length }, (_, t) => (t >= plan.promptLength ? (i % 2 ? 1 : -1) / sequences.length : 0)));
    const chunk = Math.ceil(sequences.length / plan.microBatches);
    const update = await phase(async () => {
      for (let i = 0; i < sequences.length; i += chunk) await trainer.accumulate(sequences.slice(i, i + chunk), weights.slice(i, i + chunk), { temperature: plan.temperature });
      return trainer.step(1e-5, 1);
    });
    const tokens = sequences.reduce((a, s) => a + s.length, 0);
    const params = model.parameterCount();
    // Forward 2N FLOPs per token; backward 4N with weight gradients (full), ~2N without (LoRA).
    const flops = (mode === 'full' ? 6 : 4) * params * tokens;
    const totalSeconds = sample.seconds + score.seconds + update.seconds;
    const bytes = (p: { traffic: { feedBytes: number; fetchBytes: number } }) => p.traffic.feedBytes + p.traffic.fetchBytes;
    return {
      provider: runtime.provider,
      model: label,
      parameters: params,
      mode,
      trainableParameters: trainable,
      sequences: sequences.length,
      tokens,
      seconds: { sample: sample.seconds, score: score.seconds, update: update.seconds, total: totalSeconds },
      updateTflops: flops / update.seconds / 1e12,
      // Peak FLOP/s is the GPU's; a CPU-provider step gets no MFU.
      mfu: peakTflops > 0 && runtime.provider !== 'cpu' ? flops / update.seconds / 1e12 / peakTflops : null,
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

const seconds = (x: number): string => x.toFixed(x < 10 ? 2 : 1);

/** One row per GRPO-step check: the phases side by side, so providers compare at a glance. */
function stepTable(results: readonly CheckResult[]): string[] {
  const rows = results.filter((c) => c.ok && isGrpoStep(c.result)).map((c) => {
    const r = c.result as GrpoStepResult;
    const mfu = r.mfu === null ? '–' : `${(r.mfu * 100).toFixed(2)}%`;
    return `| ${c.name} | ${r.provider} | ${r.model} (${(r.parameters / 1e6).toFixed(2)}M) | ${r.mode} | ${r.sequences} × ${r.tokens / r.sequences} | ${seconds(r.seconds.sample)} | ${seconds(r.seconds.score)} | ${seconds(r.seconds.update)} | **${seconds(r.seconds.total)}** | ${r.updateTflops.toFixed(3)} | ${mfu} | ${(r.busBytes.total / 1e6).toFixed(1)} |`;
  });
  if (rows.length === 0) return [];
  return [
    '| check | provider | model | tuning | sequences × tokens | sample s | score s | update s | step s | update TFLOP/s | MFU | bus MB |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
    '',
  ];
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      provider: { type: 'string', default: 'webgpu' },
      shape: { type: 'string', default: 'qwen3-0.6b' },
      'grpo-shape': { type: 'string' },
      out: { type: 'string', default: 'gpu-check-out' },
      'new-tokens': { type: 'string', default: '32' },
      'peak-tflops': { type: 'string', default: '0' },
      'budget-seconds': { type: 'string', default: '0' },
      only: { type: 'string' },
    },
  });
  const provider = values.provider as ProviderName;
  const shapeName = values.shape;
  const grpoShapeName = values['grpo-shape'] ?? shapeName;
  for (const name of [shapeName, grpoShapeName]) {
    if (!SHAPES[name]) throw new RangeError(`--shape and --grpo-shape must be one of ${Object.keys(SHAPES).join(', ')}`);
  }
  const newTokens = Number(values['new-tokens']);
  const peak = Number(values['peak-tflops']);
  const budget = Number(values['budget-seconds']);
  const only = values.only?.split(',');
  const names: readonly string[] = CHECKS;
  const unknown = only?.filter((n) => !names.includes(n)) ?? [];
  if (unknown.length > 0) throw new RangeError(`--only: unknown check ${unknown.join(', ')} (checks: ${names.join(', ')})`);
  const want = (n: CheckName) => !only || only.includes(n);
  mkdirSync(values.out, { recursive: true });
  const root = mkdtempSync(join(tmpdir(), 'gpu-check-'));
  const started = performance.now();
  const results: CheckResult[] = [];
  let running: { name: string; since: number } | undefined;
  const write = (): void => {
    const report = { provider, shape: shapeName, grpoShape: grpoShapeName, newTokens, peakTflops: peak, budgetSeconds: budget, results };
    writeFileSync(join(values.out, 'gpu-check.json'), JSON.stringify(report, null, 2));
    writeFileSync(join(values.out, 'gpu-check.md'), [
      `# gpu-check: provider ${provider}; decode on ${shapeName}, GRPO step on ${grpoShapeName} (random fp32 weights), demo step on models/tiny-sql`,
      '',
      ...stepTable(results),
      ...results.map((c) => `## ${c.name} — ${c.ok ? 'ok' : 'FAILED'} (${c.seconds.toFixed(1)} s)\n\n\`\`\`\n${c.ok ? JSON.stringify(c.result, null, 2) : c.error}\n\`\`\`\n`),
    ].join('\n'));
  };
  // The report is rewritten after every check: a check that ends the process (a native abort)
  // leaves the earlier checks' results on disk.
  const record = (r: CheckResult): void => {
    results.push(r);
    write();
  };
  const check = async (name: CheckName, f: () => Promise<unknown>): Promise<void> => {
    if (!want(name)) return;
    running = { name, since: performance.now() };
    record(await timed(name, f));
    running = undefined;
  };
  // The bound: a check that has not finished when the budget is spent cannot be cancelled inside
  // onnxruntime, so record it as unfinished and exit; the finished checks are already on disk.
  const watchdog = budget > 0 ? setTimeout(() => {
    const name = running?.name ?? '(between checks)';
    const ran = running ? (performance.now() - running.since) / 1000 : 0;
    results.push({ name, ok: false, seconds: ran, error: `not finished after ${ran.toFixed(1)} s: --budget-seconds ${budget} spent` });
    write();
    process.stderr.write(`gpu-check: budget of ${budget} s spent during ${name}\n`);
    // process.exit skips the finally below: remove the random model directories (2.4 GB at 0.6B) here.
    rmSync(root, { recursive: true, force: true });
    process.exit(3);
  }, budget * 1000) : undefined;
  try {
    if (want('parity')) {
      const small = join(root, 'parity');
      await createTinyModel(small, { seed: 0, ...SHAPES['small']! });
      await check('parity', () => parity(small, provider));
    }
    const runtime = await Runtime.create({ provider });
    // The CPU baseline runs in the same process on the same machine, created only when asked for.
    let cpuRuntime: Runtime | undefined;
    const cpu = async (): Promise<Runtime> => (cpuRuntime ??= await Runtime.create({ provider: 'cpu' }));
    try {
      if (want('decode')) {
        running = { name: `decode: creating the ${shapeName} model`, since: performance.now() };
        const dir = join(root, 'shape');
        await createTinyModel(dir, { seed: 0, ...SHAPES[shapeName]! });
        const model = await loadModel(dir);
        await check('decode', () => decode(model, runtime, newTokens));
      }
      await check('linear-forms', () => linearForms(runtime));
      if (want('demo-step') || want('demo-step-cpu')) {
        const demo = await loadModel(join(packageRoot(), 'models', 'tiny-sql'));
        // examples/grpo-sql/config.json: numGenerations 8, questionsPerStep 2, maxNewTokensPerTurn 64,
        // temperature 0.85, gradAccumulation 1 (the default), full tuning (no model.lora).
        const plan: StepPlan = { mode: 'full', groups: 2, groupSize: 8, promptLength: 48, newTokens: 64, temperature: 0.85, microBatches: 1 };
        await check('demo-step', () => grpoStep(demo, 'tiny-sql', runtime, plan, peak));
        await check('demo-step-cpu', async () => grpoStep(demo, 'tiny-sql', await cpu(), plan, peak));
      }
      const grpoChecks: CheckName[] = ['grpo-lora', 'grpo-full', 'grpo-lora-cpu', 'grpo-full-cpu'];
      if (grpoChecks.some(want)) {
        running = { name: `grpo: creating the ${grpoShapeName} model`, since: performance.now() };
        const dir = join(root, 'grpo-shape');
        await createTinyModel(dir, { seed: 0, ...SHAPES[grpoShapeName]! });
        const model = await loadModel(dir);
        const plan = (mode: 'lora' | 'full'): StepPlan => ({ mode, groups: 4, groupSize: 4, promptLength: 48, newTokens, temperature: 1, microBatches: 4 });
        await check('grpo-lora', () => grpoStep(model, grpoShapeName, runtime, plan('lora'), peak));
        await check('grpo-full', () => grpoStep(model, grpoShapeName, runtime, plan('full'), peak));
        await check('grpo-lora-cpu', async () => grpoStep(model, grpoShapeName, await cpu(), plan('lora'), peak));
        await check('grpo-full-cpu', async () => grpoStep(model, grpoShapeName, await cpu(), plan('full'), peak));
      }
    } finally {
      await runtime.close();
      await cpuRuntime?.close();
    }
    if (results.length > 0) console.log(readFileSync(join(values.out, 'gpu-check.md'), 'utf8'));
    process.stderr.write(`gpu-check: ${results.length} checks in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
    process.exitCode = results.every((r) => r.ok) ? 0 : 1;
  } finally {
    clearTimeout(watchdog);
    rmSync(root, { recursive: true, force: true });
  }
}

await main();
