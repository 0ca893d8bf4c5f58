import os
import unittest

from ._server import require_server
from .test_json_schema import SPACE_SCHEMAS, SQLENV_ACTION

SQL_URL = os.environ.get("SQLENV_SQL_URL", "")

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

    def test_json_schema_space_samples_seeded_valid_tool_calls(self) -> None:
        from sqlenv_client.gym_env import JsonSchemaSpace

        space = JsonSchemaSpace(SQLENV_ACTION, seed=5)
        first = [space.sample() for _ in range(30)]
        self.assertTrue(all(space.contains(a) and a in space for a in first))
        # What Gymnasium's own spaces return: an int since Gymnasium 1.0 (a list before).
        from gymnasium import spaces

        self.assertEqual(space.seed(5), spaces.Discrete(2).seed(5))
        self.assertEqual(first, [space.sample() for _ in range(30)])
        self.assertNotIn({"name": "describe", "arguments": {}}, space)
        for kind, schema in SPACE_SCHEMAS.items():
            other = JsonSchemaSpace(schema)
            self.assertTrue(other.contains(other.sample()), kind)

    def test_text_spaces_keep_the_schema_charset(self) -> None:
        from gymnasium import spaces

        from sqlenv_client.gym_env import AnyText, space_from_schema

        anything = space_from_schema({"type": "string", "minLength": 0, "maxLength": 20, "x-space": "Text", "x-charset": "any"})
        self.assertIsInstance(anything, AnyText)
        for text in ["", "SELECT * FROM t;", "héllo ✓ | a | b |\n"]:
            self.assertIn(text, anything)
        self.assertNotIn("x" * 21, anything)
        self.assertNotIn(3, anything)
        self.assertIn(anything.sample(), anything)
        digits = space_from_schema({"type": "string", "minLength": 1, "maxLength": 4, "x-space": "Text", "x-charset": "0123"})
        self.assertEqual(digits, spaces.Text(4, min_length=1, charset="0123"))
        self.assertIn("0312", digits)
        self.assertNotIn("0a", digits)

    def test_seed_returns_an_int_that_gymnasium_vector_seeding_accepts(self) -> None:
        from sqlenv_client.gym_env import JsonSchemaSpace

        space = JsonSchemaSpace(SQLENV_ACTION)
        seeded = space.seed(7)
        first = space.sample()
        space.seed(seeded if isinstance(seeded, int) else seeded[0])
        self.assertEqual(space.sample(), first)
        self.assertEqual(JsonSchemaSpace(SQLENV_ACTION), space)
        self.assertNotEqual(JsonSchemaSpace(SPACE_SCHEMAS["Discrete"]), space)

    @unittest.skipUnless(SQL_URL, "SQLENV_SQL_URL is not set (the vitest runner sets it)")
    def test_action_space_sample_steps_sqlenv(self) -> None:
        from sqlenv_client.gym_env import RemoteGymEnv

        env = RemoteGymEnv(SQL_URL)
        try:
            env.action_space.seed(0)
            env.reset(seed=0)
            for _ in range(5):
                action = env.action_space.sample()
                self.assertIn(action, env.action_space)
                _, _, terminated, truncated, _ = env.step(action)
                if terminated or truncated:
                    env.reset()
        finally:
            env.close()


if __name__ == "__main__":
    unittest.main()
