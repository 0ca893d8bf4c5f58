/**
 * TRL 1.13's GRPOTrainer against a real `sqlenv serve --env SQLEnv-v0`, with SQLEnvToolEnv
 * (clients/python/sqlenv_client/trl_env.py) as `environment_factory`: the class meets TRL's
 * contract as TRL's own code reads it, and real GRPO steps on a tiny random Qwen3 (built offline
 * from a config, taught to call tools: examples/python/tiny_qwen3.py) call the tools on the server,
 * score rollouts with the environment's reward alone, and reuse env instances across steps
 * (clients/python/tests/frameworks_trl.py, in the `{name: factory}` form); then the runnable
 * example examples/python/trl_grpo.py does the same in the single-factory form. Runs on the venv
 * of scripts/python-venv.sh.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServeProcess, type ServeProcess } from '../remote/fixtures/serve-process.js';
import { frameworkPython, runPython } from './venv.js';

const PYTHON = frameworkPython("TRL's GRPOTrainer with environment_factory", ['trl', 'transformers', 'torch', 'datasets']);
/** One thread per Python process: vitest runs two test files at once on two-core machines. */
const QUIET = { OMP_NUM_THREADS: '1', TRL_EXPERIMENTAL_SILENCE: '1', TOKENIZERS_PARALLELISM: 'false' };
/** Training on a loaded CI machine: minutes, not the default minute. */
const SLOW = { timeout: 600_000 };

describe.runIf(PYTHON)('TRL GRPOTrainer against sqlenv serve', () => {
  let server: ServeProcess;
  beforeAll(async () => {
    server = await startServeProcess(['--env', 'SQLEnv-v0', '--dataset', 'bundled', '--port', '0', '--query-workers', '1', '--max-sessions', '32']);
  });
  afterAll(async () => {
    if (server) expect(await server.stop()).toBe(0);
  });

  it('meets the environment_factory contract and trains 2 GRPO steps whose rewards are the env\'s', SLOW, async () => {
    const { code, out } = await runPython(PYTHON!, ['-m', 'unittest', 'tests.frameworks_trl', '-v'], 'clients/python', { env: { SQLENV_URL: server.url, ...QUIET } });
    expect(code, out).toBe(0);
    // Both ran, neither skipped (training logs interleave with unittest's per-test lines).
    expect(out).toMatch(/test_the_class_meets_trls_environment_factory_contract/);
    expect(out).toMatch(/test_grpo_trainer_trains_two_steps_with_the_tools_on_the_server/);
    expect(out).toMatch(/^Ran 2 tests in /m);
    expect(out).toMatch(/^OK$/m);
  });

  it('examples/python/trl_grpo.py trains 2 GRPO steps whose rollouts call the tools on the server', SLOW, async () => {
    const before = await server.metric('sqlenv_steps_total');
    const { code, out } = await runPython(PYTHON!, ['examples/python/trl_grpo.py'], '.', { env: { SQLENV_URL: server.url, EPISODES: '8', ...QUIET } });
    expect(code, out).toBe(0);
    expect(out).toMatch(/server ok: .* serves tools answer, describe, query, sample/);
    const steps = [...out.matchAll(/^step (\d+): reward (-?[\d.]+), tool calls per rollout ([\d.]+)$/gm)];
    expect(steps.map((m) => Number(m[1])), out).toEqual([1, 2]);
    expect(steps.some((m) => Number(m[3]) > 0), out).toBe(true);
    // Beyond the example's own one-step server check, the rollouts' tool calls reached the server.
    expect((await server.metric('sqlenv_steps_total')) - before - 1, out).toBeGreaterThan(0);
  });
});
