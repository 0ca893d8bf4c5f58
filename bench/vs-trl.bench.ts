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
import { join } from 'node:path';
import '../envs/sql/index.js';
import { packageRoot } from '../src/base/package-root.js';
import { createSqlTrainingSetup } from '../src/recipes/index.js';
import { readRunMetrics, runTraining, type TrainablePolicy } from '../src/train/index.js';
import { resolveSqlTrainConfig } from '../src/recipes/sql/sql-config.js';
import { mdTable, type BenchSection } from './harness.js';
import { referencePython } from './reference-python.js';

/** The repository root (this file runs compiled, from dist/bench/). */

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
  /** The step's distinct prompts (token ids), in order: both sides must have fed the same ones. */
  prompts?: number[][];
}

/** A tool schema as TRL renders it (transformers' `get_json_schema` of a Python method). */
interface TrlTool {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown>; return?: Record<string, unknown> };
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
function timedPolicy(policy: TrainablePolicy, spent: Map<string, number>, prompts: Map<string, number[]>): TrainablePolicy {
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
          for (const r of requests) prompts.set(r.prompt.join(','), [...r.prompt]);
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

async function runOurs(modelDir: string, runDir: string, tools: readonly TrlTool[]): Promise<StepTiming[]> {
  const s = SETTINGS;
  const config = resolveSqlTrainConfig({
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
  const prompts = new Map<string, number[]>();
  const perStep: Record<string, number>[] = [];
  const promptsPerStep: number[][][] = [];
  const res = await createSqlTrainingSetup(config, { print: () => {} });
  // TRL's prompt: no system message, the user message is the env's reset text (the server renders
  // it as SQLEnv's own renderObservation), the tools are TRL's schemas of SQLEnvToolEnv's methods;
  // the questions are the dataset rows {seed: 0}, {seed: 1}, … in order, as TRL's unshuffled sampler feeds them.
  let nextSeed = 0;
  const task = {
    ...res.setup.task,
    systemPrompt: '',
    toolsInPrompt: true,
    tools: tools.map((t) => ({ name: t.function.name, description: t.function.description, parameters: t.function.parameters, ...(t.function.return ? { returns: t.function.return } : {}) })),
    episodeSpec: () => ({ seed: nextSeed++ }),
  };
  try {
    await runTraining({
      ...res.setup,
      task,
      policy: timedPolicy(res.setup.policy, spent, prompts),
      // The progress line closes each GRPO step: what the policy spent since the previous one is this step's.
      print: (line) => {
        if (!/^grpo step/.test(line)) return;
        perStep.push(Object.fromEntries(spent));
        promptsPerStep.push([...prompts.values()]);
        spent.clear();
        prompts.clear();
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
      prompts: promptsPerStep[i] ?? [],
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

/**
 * Throws unless both sides fed every step the same prompts, token for token (the race is only
 * fair on identical inputs).
 */
function assertSamePrompts(ours: readonly StepTiming[], trl: readonly StepTiming[]): void {
  if (ours.length !== trl.length) throw new Error(`prompt parity: ours ran ${ours.length} steps, TRL ${trl.length}`);
  ours.forEach((o, step) => {
    const a = o.prompts ?? [];
    const b = trl[step]!.prompts ?? [];
    if (a.length !== b.length) throw new Error(`prompt parity: step ${step + 1} has ${a.length} distinct prompts in ours, ${b.length} in TRL's`);
    a.forEach((p, i) => {
      const q = b[i]!;
      const at = p.findIndex((t, j) => t !== q[j]);
      if (at >= 0 || p.length !== q.length) {
        throw new Error(`prompt parity: step ${step + 1} prompt ${i + 1} differs at token ${at >= 0 ? at : Math.min(p.length, q.length)} (ours ${p.length} tokens, TRL ${q.length})`);
      }
    });
  });
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

/** What bounds our step against TRL's: each phase's per-token cost next to TRL's, and where our step's time goes. */
function boundsOf(ours: StepTiming, oursSteps: StepTiming[], trl: StepTiming, trlSteps: StepTiming[]): string[] {
  const o = tokensOf(oursSteps);
  const t = tokensOf(trlSteps);
  const perK = (seconds: number, tokens: number) => (seconds * 1000) / (tokens / 1000);
  const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;
  const trlUpdate = (trl.phases['loss forward'] ?? 0) + (trl.phases['backward'] ?? 0) + (trl.phases['optimizer'] ?? 0);
  const oursUpdate = (ours.phases['backward'] ?? 0) + (ours.phases['other'] ?? 0);
  const share = (k: string) => `${k} ${Math.round((100 * (ours.phases[k] ?? 0)) / ours.seconds)}%`;
  return [
    '',
    '**What bounds it** (ours ÷ TRL per 1k processed tokens, from the table; below 1 is faster):',
    `- the same prompts, token for token (asserted every step): ${Math.round(o.prompt)} tokens, the same for the K = ${SETTINGS.k} completions of a group. Ours computes a group's prompt once — one prefill whose KV cache the K rows continue (every decode step reads it as a fixed block, once per group for the group's K rows, without copying it along or to each row), one prefix pass in the reference scoring, and in the update one prefix forward, the K continuations' forward+backward against its keys/values (read once per group, their gradients summed per group in the graph), and one prefix backward (no LM head: the prompt tokens carry no weight) seeded with their summed key/value gradients (exact) — where TRL runs every phase over all K × (prompt + completion) tokens;`,
    `- scoring: one pass each (the reference; at μ = 1 ours takes the old log-probs from sampling, TRL from the loss forward): ${ratio(perK(ours.phases['scoring'] ?? 0, o.total), perK(trl.phases['scoring'] ?? 0, t.total))};`,
    `- generation (prefill + decode with KV cache): ${ratio(perK(ours.phases['generation'] ?? 0, o.total), perK(trl.phases['generation'] ?? 0, t.total))}; the update (forward + backward + optimizer): ${ratio(perK(oursUpdate, o.total), perK(trlUpdate, t.total))};`,
    `- our step: ${['generation', 'scoring', 'backward', 'other'].map(share).join(', ')}. With the prompts computed once per group, what is left is per-row work — ${SETTINGS.completion_tokens} decode steps of the ${SETTINGS.k * SETTINGS.prompts} rows (each a pass over the layers for one token per row plus host-side sampling, bound by op launches at this width), the continuations' attention over the ${Math.round(o.prompt)}-token prompt — and the prompt's own forward twice and backward once in the update; the trainer's own work (env steps, loss math, optimizer) is the "other" column. The machine is shared (2 cores, other jobs running): phases move by up to 2× between runs, so the ratio is what this section is for.`,
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
  const python = referencePython();
  if (!python) return { title: TITLE, markdown: 'Skipped: no Python venv (scripts/python-venv.sh needs the local package index, or set SQLENV_PYTHON).' };
  const work = await mkdtemp(join(tmpdir(), 'sqlenv-vs-trl-'));
  try {
    const modelDir = join(work, 'model');
    const built = spawnSync(python, [join(packageRoot(), 'bench', 'trl_ref', 'grpo_step.py'), 'build', modelDir], { encoding: 'utf8' });
    if (built.status !== 0) throw new Error(`building the model failed: ${built.stderr}`);
    const { parameters, tools } = JSON.parse(built.stdout.trim().split('\n').pop()!) as { parameters: number; tools: TrlTool[] };
    // A-B-B-A: the machine's load drifts; each side gets an early and a late slot.
    const oursA = await runOurs(modelDir, join(work, 'run-a'), tools);
    const trlA = await runTrl(python, modelDir);
    const trlB = await runTrl(python, modelDir);
    const oursB = await runOurs(modelDir, join(work, 'run-b'), tools);
    for (const [o, t] of [[oursA, trlA], [oursB, trlB], [oursA, trlB]] as const) assertSamePrompts(o, t);
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
        'built by transformers and saved with safetensors. Both render the prompt as TRL does: no system message, the four tools as transformers\' `get_json_schema` of `SQLEnvToolEnv`\'s methods, the reset text as the user message, Qwen3\'s chat template without thinking; the token ids are asserted equal every step.',
        `Per step: ${s.prompts} SQLEnv questions × K = ${s.k} completions of ≤ ${s.completion_tokens} tokens (single turn: a random model writes no tool calls), one update:`,
        `μ = 1, AdamW lr ${s.lr} constant, β = ${s.beta} KL to the reference, clip ${s.epsilon_low}/${s.epsilon_high}, token-mean loss, grad-norm clip 1, temperature 1, ${s.threads} CPU thread each.`,
        `TRL ${'1.13'} GRPOTrainer (torch CPU eager, \`environment_factory=SQLEnvToolEnv\` against \`sqlenv serve\`) vs sqlenv's trainer (onnxruntime CPU, \`runTraining\`), ${s.steps} steps each in the same run;`,
        `run in the order ours, TRL, TRL, ours; the table is the mean of steps 2–${s.steps} of each run (step 1 warms up).`,
        `Completion tokens per measured step — TRL: ${list(trlSteps.map((t) => t.completion_tokens))}; ours: ${list(oursSteps.map((t) => t.completion_tokens))}.`,
        `Mean prompt tokens — TRL: ${list(trlSteps.map((t) => t.prompt_tokens_mean))}; ours: ${list(oursSteps.map((t) => t.prompt_tokens_mean))}.`,
        `Our policy calls per step: generate ×${calls['generate'] ?? '?'}, score ×${calls['score'] ?? '?'}, backward ×${calls['backward'] ?? '?'}; both score once (the reference): at μ = 1 the old log-probs are the current ones (TRL: the loss forward's, detached; ours: the sampling-time ones, and the backward pass reports the log-probs and entropies the metrics read).`,
        '',
        mdTable(['trainer', 'step', 'generation', 'scoring (ref/old log-probs)', 'backward', 'the rest'], [row("sqlenv (ours)", ours), row('TRL GRPOTrainer', trl)]),
        '',
        `**Per step, TRL / ours = ${ratio.toFixed(2)}: ours is ${ratio >= 1 ? `${ratio.toFixed(1)}× faster` : `${(1 / ratio).toFixed(1)}× slower`}** (TRL ${fmt(trl.seconds)}, ours ${fmt(ours.seconds)}).`,
        `Per processed token (prompt + completion, summed over the step's sequences, shared prompts counted K times): TRL ${perToken(trl, trlSteps)} ms, ours ${perToken(ours, oursSteps)} ms per 1k tokens.`,
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
