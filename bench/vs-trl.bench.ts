/**
 * `npm run bench -- vs-trl`: GRPO steps of sqlenv's trainer and of TRL 1.13's GRPOTrainer on CPU,
 * in the same run, on the same model directory (a tiny random Qwen3 in the tiny-sql shape, built
 * by transformers and saved with safetensors; both load it), the same SQLEnv questions as prompts,
 * the same group size K, prompts per step, completion budget and update settings (one μ pass,
 * AdamW at a constant lr, β-KL to the reference, clip 0.2/0.28, token-mean loss, grad-norm clip 1,
 * temperature 1, one CPU thread each). Each side's time is broken into the phases it spends it in.
 *
 * Ours runs through the public API (`createSqlTrainingSetup` + `runTraining`), its policy wrapped
 * to time every call into it; TRL's side is bench/trl_ref/grpo_step.py against a `sqlenv serve`
 * this bench starts, with `environment_factory=SQLEnvToolEnv`. Needs the venv of
 * scripts/python-venv.sh (or SQLENV_PYTHON); without it the section says so.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import '../envs/sql/index.js';
import { createSqlTrainingSetup } from '../src/recipes/index.js';
import { readRunMetrics, resolveTrainConfig, runTraining, type TrainablePolicy } from '../src/train/index.js';
import { mdTable, type BenchSection } from './harness.js';

/** The repository root (this file runs compiled, from dist/bench/). */
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const packageRoot = () => ROOT;

/** What both sides share. */
const SETTINGS = { k: 4, prompts: 2, completion_tokens: 64, lr: 1e-5, beta: 0.04, epsilon_low: 0.2, epsilon_high: 0.28, steps: 3, threads: 1 };
const TITLE = "Race: one GRPO step, sqlenv's trainer vs TRL's GRPOTrainer (CPU)";

/** One measured step: wall seconds and seconds per phase. */
interface StepTiming {
  step: number;
  seconds: number;
  phases: Record<string, number>;
  completion_tokens?: number;
  prompt_tokens_mean?: number;
  /** Ours: how many times the policy was called, per kind. */
  calls?: Record<string, number>;
}

function venvPython(): string | undefined {
  if (process.env['SQLENV_PYTHON']) return process.env['SQLENV_PYTHON'];
  const run = spawnSync('bash', [join(packageRoot(), 'scripts', 'python-venv.sh')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  return run.status === 0 ? run.stdout.trim().split('\n').pop() : undefined;
}

function runProcess(cmd: string, args: string[], env: Record<string, string> = {}): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { env: { ...process.env, ...env } });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('close', (code) => resolve({ code: code ?? -1, out, err }));
  });
}

/**
 * The policy with every method call timed by name (async calls until they settle). Methods run
 * on the real policy (`this` is the target), so private state and identity checks still hold.
 */
function timedPolicy(policy: TrainablePolicy, spent: Map<string, number>): TrainablePolicy {
  return new Proxy(policy, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key, target);
      if (typeof value !== 'function' || typeof key !== 'string') return value;
      return (...args: unknown[]) => {
        const t0 = performance.now();
        spent.set(`${key} calls`, (spent.get(`${key} calls`) ?? 0) + 1);
        if (key === 'generate') {
          const requests = args[0] as readonly { prompt: readonly number[] }[];
          spent.set('prompts', (spent.get('prompts') ?? 0) + requests.length);
          spent.set('prompt tokens', (spent.get('prompt tokens') ?? 0) + requests.reduce((a, r) => a + r.prompt.length, 0));
        }
        const add = () => spent.set(key, (spent.get(key) ?? 0) + (performance.now() - t0) / 1000);
        const result: unknown = (value as (...a: unknown[]) => unknown).apply(target, args);
        if (result instanceof Promise) return result.finally(add);
        add();
        return result;
      };
    },
  });
}

async function runOurs(modelDir: string, runDir: string): Promise<StepTiming[]> {
  const s = SETTINGS;
  const config = resolveTrainConfig({
    runDir,
    mode: 'grpo',
    seed: 0,
    model: { path: modelDir },
    env: { trainSplit: 'train', evalSplits: [], stepBudget: 10 },
    rollout: { numGenerations: s.k, questionsPerStep: s.prompts, maxTurns: 1, maxNewTokensPerTurn: s.completion_tokens, maxTotalTokens: 4096, temperature: 1, topP: 1 },
    grpo: { steps: s.steps, muIterations: 1, zeroVariance: 'keep', loss: { beta: s.beta, epsilonLow: s.epsilon_low, epsilonHigh: s.epsilon_high, aggregation: 'token_mean' } },
    optim: { lr: s.lr, warmupSteps: 0, decay: 'constant', maxGradNorm: 1 },
    eval: { everySteps: 0, baselineEpisodes: 0 },
    checkpoint: { everySteps: 0 },
    sft: { formatCheckSamples: 0 },
    logging: { progress: true, dashboard: false, tracesPerStep: 0 },
  });
  const spent = new Map<string, number>();
  const perStep: Record<string, number>[] = [];
  const res = await createSqlTrainingSetup(config, { print: () => {} });
  try {
    await runTraining({
      ...res.setup,
      policy: timedPolicy(res.setup.policy, spent),
      // The progress line closes each GRPO step: what the policy spent since the previous one is this step's.
      print: (line) => {
        if (!/^grpo step/.test(line)) return;
        perStep.push(Object.fromEntries(spent));
        spent.clear();
      },
    });
  } finally {
    await res.close();
  }
  const train = (await readRunMetrics(runDir)).filter((r) => r.kind === 'train');
  return train.map((r, i) => {
    const seconds = Number(r['step_seconds']);
    const calls = perStep[i] ?? {};
    const counts = (k: string) => calls[`${k} calls`] ?? 0;
    const named = { generation: calls['generate'] ?? 0, scoring: calls['score'] ?? 0, backward: calls['backward'] ?? 0 };
    const counters = new Set(['prompts', 'prompt tokens']);
    const rest = Object.entries(calls).filter(([k]) => !['generate', 'score', 'backward'].includes(k) && !k.endsWith(' calls') && !counters.has(k) && calls[k]! >= 0.001);
    const phases: Record<string, number> = { ...named, ...Object.fromEntries(rest) };
    phases['other'] = seconds - Object.values(phases).reduce((a, b) => a + b, 0);
    return {
      step: Number(r['step']),
      seconds,
      phases,
      prompt_tokens_mean: (calls['prompt tokens'] ?? 0) / Math.max(1, calls['prompts'] ?? 0),
      completion_tokens: Number(r['completions/mean_length'] ?? Number.NaN) * SETTINGS.k * SETTINGS.prompts,
      calls: { generate: counts('generate'), score: counts('score'), backward: counts('backward') },
    };
  });
}

async function runTrl(python: string, modelDir: string): Promise<StepTiming[]> {
  const root = packageRoot();
  const serve = spawn(process.execPath, [join(root, 'dist', 'src', 'cli', 'main.js'), 'serve', '--env', 'SQLEnv-v0', '--dataset', 'bundled', '--port', '0', '--query-workers', '1', '--max-sessions', '32']);
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let log = '';
      serve.stderr.on('data', (d: Buffer) => {
        log += d.toString();
        const m = /on (http:\/\/[\d.]+:\d+)/.exec(log);
        if (m) resolve(m[1]!);
      });
      serve.once('exit', (code) => reject(new Error(`sqlenv serve exited with ${code}: ${log}`)));
    });
    const run = await runProcess(python, [join(root, 'bench', 'trl_ref', 'grpo_step.py'), 'train', modelDir, JSON.stringify(SETTINGS)], {
      SQLENV_URL: url,
      OMP_NUM_THREADS: String(SETTINGS.threads),
      TRL_EXPERIMENTAL_SILENCE: '1',
      TOKENIZERS_PARALLELISM: 'false',
    });
    if (run.code !== 0) throw new Error(`bench/trl_ref/grpo_step.py failed (${run.code}):\n${run.err.slice(-3000)}`);
    return (JSON.parse(run.out.trim().split('\n').pop()!) as { steps: StepTiming[] }).steps;
  } finally {
    serve.kill('SIGTERM');
  }
}

/** Step milliseconds per 1,000 processed tokens (the steps' mean prompt and completion sizes). */
function perToken(mean: StepTiming, steps: StepTiming[]): string {
  const tokens = steps.reduce((a, t) => a + (t.prompt_tokens_mean ?? 0) * SETTINGS.k * SETTINGS.prompts + (t.completion_tokens ?? 0), 0) / steps.length;
  return ((mean.seconds * 1000) / (tokens / 1000)).toFixed(0);
}

/** Mean processed tokens (prompt + completion) of a side's measured steps. */
function tokensOf(steps: StepTiming[]): { prompt: number; total: number } {
  const prompt = steps.reduce((a, t) => a + (t.prompt_tokens_mean ?? 0), 0) / steps.length;
  const completion = steps.reduce((a, t) => a + (t.completion_tokens ?? 0), 0) / steps.length;
  return { prompt, total: prompt * SETTINGS.k * SETTINGS.prompts + completion };
}

/** What bounds our step against TRL's: the measured per-token cost of each phase, and the step with TRL's prompt length and one scoring pass. */
function boundsOf(ours: StepTiming, oursSteps: StepTiming[], trl: StepTiming, trlSteps: StepTiming[]): string[] {
  const o = tokensOf(oursSteps);
  const t = tokensOf(trlSteps);
  const passes = oursSteps[0]?.calls?.['score'] ?? 1;
  const perK = (seconds: number, tokens: number) => (seconds * 1000) / (tokens / 1000);
  const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;
  const oursPass = (ours.phases['scoring'] ?? 0) / passes;
  const trlUpdate = (trl.phases['loss forward'] ?? 0) + (trl.phases['backward'] ?? 0) + (trl.phases['optimizer'] ?? 0);
  const oursUpdate = (ours.phases['backward'] ?? 0) + (ours.phases['other'] ?? 0);
  // Linear in tokens (attention is quadratic, so this flatters the longer prompt's side a little).
  const adjusted = (ours.seconds - oursPass * (passes - 1)) * (t.total / o.total);
  return [
    '',
    '**What bounds it** (ours ÷ TRL, per 1k processed tokens, from the table):',
    `- prompts: ours ${Math.round(o.prompt)} tokens for the same questions vs TRL's ${Math.round(t.prompt)} (${ratio(o.prompt, t.prompt)}): our SQL task's system prompt and observation text are longer (both list the four tools as full JSON schemas); every pass scales with it;`,
    `- scoring: ours runs ${passes} passes (reference and old log-probs) where TRL runs 1 — at μ = 1 the old log-probs equal the current ones, TRL skips them; one pass costs ${ratio(perK(oursPass, o.total), perK(trl.phases['scoring'] ?? 0, t.total))} TRL's per token;`,
    `- generation (prefill + decode with KV cache): ${ratio(perK(ours.phases['generation'] ?? 0, o.total), perK(trl.phases['generation'] ?? 0, t.total))} per token; the update (forward + backward + optimizer): ${ratio(perK(oursUpdate, o.total), perK(trlUpdate, t.total))} per token;`,
    `- with TRL's prompt length and one scoring pass ours would take ≈ ${fmt(adjusted)} (TRL / ours ≈ ${(trl.seconds / adjusted).toFixed(2)}): what is left is the kernels — at width 128 on one thread onnxruntime runs many small unfused ops (attention as MatMul/Softmax over materialised T×T scores) where PyTorch 2.13 calls fused SDPA and oneDNN GEMMs. The trainer's own work (env steps, loss math, optimizer) is the "other" column. 3× faster than TRL needs faster model passes (fused attention, fewer op launches), not a faster training loop.`,
  ];
}

const fmt = (s: number) => (s >= 1 ? `${s.toFixed(2)} s` : `${(s * 1000).toFixed(0)} ms`);

/** Mean over runs of the measured steps (all but each run's first, which warms up). */
function meanOf(runs: StepTiming[][]): StepTiming {
  const measured = runs.flatMap((steps) => steps.slice(1));
  const phases: Record<string, number> = {};
  for (const s of measured) for (const [k, v] of Object.entries(s.phases)) phases[k] = (phases[k] ?? 0) + v / measured.length;
  return { step: measured.length, seconds: measured.reduce((a, s) => a + s.seconds, 0) / measured.length, phases };
}

export default async function bench(): Promise<BenchSection> {
  const python = venvPython();
  if (!python) return { title: TITLE, markdown: 'Skipped: no Python venv (scripts/python-venv.sh needs the local package index, or set SQLENV_PYTHON).' };
  const work = await mkdtemp(join(tmpdir(), 'sqlenv-vs-trl-'));
  try {
    const modelDir = join(work, 'model');
    const built = spawnSync(python, [join(packageRoot(), 'bench', 'trl_ref', 'grpo_step.py'), 'build', modelDir], { encoding: 'utf8' });
    if (built.status !== 0) throw new Error(`building the model failed: ${built.stderr}`);
    const parameters = (JSON.parse(built.stdout.trim().split('\n').pop()!) as { parameters: number }).parameters;
    // A-B-B-A: the machine's load drifts; each side gets an early and a late slot.
    const oursA = await runOurs(modelDir, join(work, 'run-a'));
    const trlA = await runTrl(python, modelDir);
    const trlB = await runTrl(python, modelDir);
    const oursB = await runOurs(modelDir, join(work, 'run-b'));
    const ours = meanOf([oursA, oursB]);
    const trl = meanOf([trlA, trlB]);
    const oursSteps = [...oursA.slice(1), ...oursB.slice(1)];
    const trlSteps = [...trlA.slice(1), ...trlB.slice(1)];
    const ratio = trl.seconds / ours.seconds;
    const row = (name: string, t: StepTiming) => [
      name,
      fmt(t.seconds),
      ...['generation', 'scoring', 'backward'].map((k) => fmt(t.phases[k] ?? 0)),
      Object.entries(t.phases)
        .filter(([k]) => !['generation', 'scoring', 'backward'].includes(k))
        .map(([k, v]) => `${k} ${fmt(v)}`)
        .join(', '),
    ];
    const s = SETTINGS;
    const list = (xs: (number | undefined)[]) => xs.map((x) => (x === undefined || Number.isNaN(x) ? '?' : Math.round(x))).join(', ');
    const calls = oursSteps[0]?.calls ?? {};
    return {
      title: TITLE,
      markdown: [
        `Same model directory for both: a random Qwen3 in the tiny-sql shape (4 layers, hidden 128, 4/2 heads, vocab 2048, ${(parameters / 1e6).toFixed(2)}M parameters, float32),`,
        "built by transformers and saved with safetensors; Qwen3's chat template with SQLEnv's four tools in the system prompt.",
        `Per step: ${s.prompts} SQLEnv questions × K = ${s.k} completions of ≤ ${s.completion_tokens} tokens (single turn: a random model writes no tool calls), one update:`,
        `μ = 1, AdamW lr ${s.lr} constant, β = ${s.beta} KL to the reference, clip ${s.epsilon_low}/${s.epsilon_high}, token-mean loss, grad-norm clip 1, temperature 1, ${s.threads} CPU thread each.`,
        `TRL ${'1.13'} GRPOTrainer (torch CPU eager, \`environment_factory=SQLEnvToolEnv\` against \`sqlenv serve\`) vs sqlenv's trainer (onnxruntime CPU, \`runTraining\`), ${s.steps} steps each in the same run;`,
        `run in the order ours, TRL, TRL, ours; the table is the mean of steps 2–${s.steps} of each run (step 1 warms up).`,
        `Completion tokens per measured step — TRL: ${list(trlSteps.map((t) => t.completion_tokens))}; ours: ${list(oursSteps.map((t) => t.completion_tokens))}.`,
        `Mean prompt tokens — TRL: ${list(trlSteps.map((t) => t.prompt_tokens_mean))}; ours: ${list(oursSteps.map((t) => t.prompt_tokens_mean))}.`,
        `Our policy calls per step: generate ×${calls['generate'] ?? '?'}, score ×${calls['score'] ?? '?'}, backward ×${calls['backward'] ?? '?'}; TRL scores once (the reference; μ = 1 needs no old log-probs).`,
        '',
        mdTable(['trainer', 'step', 'generation', 'scoring (ref/old log-probs)', 'backward', 'the rest'], [row("sqlenv (ours)", ours), row('TRL GRPOTrainer', trl)]),
        '',
        `**Per step, TRL / ours = ${ratio.toFixed(2)}: ours is ${ratio >= 1 ? `${ratio.toFixed(1)}× faster` : `${(1 / ratio).toFixed(1)}× slower`}** (TRL ${fmt(trl.seconds)}, ours ${fmt(ours.seconds)}).`,
        `Per processed token (prompt + completion, summed over the step's sequences): TRL ${perToken(trl, trlSteps)} ms, ours ${perToken(ours, oursSteps)} ms per 1k tokens.`,
        ...boundsOf(ours, oursSteps, trl, trlSteps),
        '',
        'Ours: "backward" is onnxruntime\'s forward+backward of the loss graph;',
        'the rest is SQLEnv steps, the loss math and the optimizer update. TRL: "loss forward" is `compute_loss`\'s forward with gradient, "optimizer" `optimizer.step`, "other" env resets, rewards and data handling.',
      ].join('\n'),
    };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
