/**
 * Gymnasium 1.3's own checks on the Python adapter (clients/python/sqlenv_client/gym_env.py)
 * against a real `sqlenv serve --env SQLEnv-v0`: `check_env` (over HTTP and WebSocket, with every
 * Gymnasium warning an error), observations and sampled actions inside their spaces, and
 * SyncVectorEnv / AsyncVectorEnv over several sessions playing the same seeded trace. The Python
 * side is clients/python/tests/frameworks_gymnasium.py, run on the venv of scripts/python-venv.sh.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServeProcess, type ServeProcess } from '../remote/fixtures/serve-process.js';
import { frameworkPython, runPython } from './venv.js';

const PYTHON = frameworkPython('Gymnasium check_env and vector envs', ['gymnasium']);

describe.runIf(PYTHON)('Gymnasium against sqlenv serve', () => {
  let server: ServeProcess;
  beforeAll(async () => {
    server = await startServeProcess(['--env', 'SQLEnv-v0', '--dataset', 'bundled', '--port', '0', '--query-workers', '1', '--max-sessions', '16']);
  });
  afterAll(async () => {
    if (server) expect(await server.stop()).toBe(0);
  });

  it('check_env passes, observations lie in their spaces, and vector envs over several sessions agree', async () => {
    const { code, out } = await runPython(PYTHON!, ['-m', 'unittest', 'tests.frameworks_gymnasium', '-v'], 'clients/python', { env: { SQLENV_URL: server.url } });
    for (const name of [
      'test_check_env_passes_on_every_transport',
      'test_observations_and_sampled_actions_lie_in_their_spaces',
      'test_sync_and_async_vector_envs_over_several_sessions_agree',
    ]) {
      expect(out).toMatch(new RegExp(`${name} .* ok$`, 'm'));
    }
    expect(code, out).toBe(0);
    // The episodes really ran on the server (3 sync + 3 async sub-envs, check_env's own sessions),
    // and every session the Python side opened was closed.
    expect(await server.metric('sqlenv_sessions_total')).toBeGreaterThanOrEqual(8);
    expect(await server.metric('sqlenv_steps_total')).toBeGreaterThanOrEqual(2 * 3 * 12);
    expect(await server.metric('sqlenv_sessions_active')).toBe(0);
  });
});
