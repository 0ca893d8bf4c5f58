import unittest

from ._server import require_server

try:
    import gymnasium  # noqa: F401
except ImportError:
    gymnasium = None


@unittest.skipIf(gymnasium is None, "gymnasium is not installed")
class GymEnvTest(unittest.TestCase):
    def test_episode_through_the_gymnasium_api(self) -> None:
        from sqlenv_client.gym_env import RemoteGymEnv

        env = RemoteGymEnv(require_server(self))
        obs, info = env.reset(seed=0, options={"questionId": "q0"})
        self.assertEqual(info["question_id"], "q0")
        obs, reward, terminated, truncated, info = env.step({"name": "answer", "arguments": {"value": "3"}})
        self.assertTrue(terminated)
        self.assertEqual(reward, 1.0)
        env.close()


if __name__ == "__main__":
    unittest.main()
