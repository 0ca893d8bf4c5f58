"""Gymnasium's own checks on :class:`RemoteGymEnv`, against a real ``sqlenv serve``.

Not part of ``unittest discover`` (the file name does not start with ``test``): it needs
Gymnasium ≥ 1.0 and a server, and ``test/python/gymnasium.test.ts`` runs it with the venv of
``scripts/python-venv.sh`` against the ``sqlenv serve --env SQLEnv-v0`` it starts::

    SQLENV_URL=http://127.0.0.1:8000 python -m unittest tests.frameworks_gymnasium -v   # in clients/python

Every Gymnasium warning is an error here: ``check_env`` reports some problems only as warnings.
"""
import os
import unittest
import warnings

import gymnasium
from gymnasium.utils.env_checker import check_env
from gymnasium.vector import AsyncVectorEnv, SyncVectorEnv

from sqlenv_client.gym_env import REMOTE_ENV_ID, RemoteGymEnv

URL = os.environ.get("SQLENV_URL", "")
SESSIONS = 3


def play(envs: gymnasium.vector.VectorEnv, steps: int) -> list:
    """Seeded reset, then ``steps`` seeded random tool calls; what came back, as plain values."""
    trace = []
    obs, _ = envs.reset(seed=[10 + i for i in range(envs.num_envs)])
    trace.append(list(obs["question"]))
    envs.action_space.seed(3)
    for _ in range(steps):
        actions = envs.action_space.sample()
        obs, reward, terminated, truncated, _ = envs.step(actions)
        for i in range(envs.num_envs):
            assert {k: obs[k][i] for k in obs} in envs.single_observation_space, f"sub-env {i}'s observation is outside its space"
        trace.append((list(obs["result"]), list(obs["error"]), reward.tolist(), terminated.tolist(), truncated.tolist()))
    return trace


@unittest.skipUnless(URL, "SQLENV_URL is not set; run through `npx vitest run test/python/gymnasium.test.ts`")
class GymnasiumFrameworkTest(unittest.TestCase):
    def setUp(self) -> None:
        warnings.simplefilter("error")
        self.addCleanup(warnings.resetwarnings)

    def test_check_env_passes_on_every_transport(self) -> None:
        for transport in ("http", "ws"):
            with self.subTest(transport=transport):
                # Through gymnasium.make, so the env has a spec: check_env then also re-creates it
                # for every declared render mode and closes one twice.
                env = gymnasium.make(REMOTE_ENV_ID, url=URL, transport=transport, render_mode="ansi")
                check_env(env.unwrapped)
                self.assertIsInstance(env.unwrapped.render(), str)
                env.close()
                env.close()

    def test_observations_and_sampled_actions_lie_in_their_spaces(self) -> None:
        env = RemoteGymEnv(URL)
        try:
            env.action_space.seed(1)
            obs, _ = env.reset(seed=1)
            self.assertIn(obs, env.observation_space)
            for _ in range(12):
                action = env.action_space.sample()
                self.assertIn(action, env.action_space)
                obs, reward, terminated, truncated, _ = env.step(action)
                self.assertIn(obs, env.observation_space)
                if terminated or truncated:
                    obs, _ = env.reset()
        finally:
            env.close()

    def test_sync_and_async_vector_envs_over_several_sessions_agree(self) -> None:
        sync = SyncVectorEnv([lambda: RemoteGymEnv(URL) for _ in range(SESSIONS)])
        try:
            sync_trace = play(sync, 12)
        finally:
            sync.close()
        # Tool calls are JSON Schema spaces, which have no shared-memory layout: copy observations.
        asynchronous = AsyncVectorEnv([lambda: RemoteGymEnv(URL) for _ in range(SESSIONS)], shared_memory=False)
        try:
            async_trace = play(asynchronous, 12)
        finally:
            asynchronous.close()
        self.assertEqual(len(set(sync_trace[0])), SESSIONS, "each sub-env plays its own seeded question")
        self.assertEqual(sync_trace, async_trace)
        self.assertTrue(any(any(step[3]) for step in sync_trace[1:]), "some episode ended and was auto-reset")


if __name__ == "__main__":
    unittest.main()
