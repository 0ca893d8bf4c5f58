import inspect
import os
import re
import unittest
from typing import Any, Dict

from sqlenv_client import SQLEnvToolEnv

from ._server import require_server

TOOLS = ["describe", "sample", "query", "answer"]


def docstring_args(doc: str) -> Dict[str, str]:
    """The ``Args:`` entries of a Google-style docstring, as TRL's schema builder reads them."""
    section = re.search(r"Args:\n(.*?)(\n\s*\n|\Z)", doc, re.S)
    if not section:
        return {}
    return dict(re.findall(r"^\s*(\w+)(?:\s*\([^)]*\))?:\s*(.+)$", section.group(1), re.M))


class ToolSchemaTest(unittest.TestCase):
    def test_every_tool_has_a_clean_signature_and_documented_args(self) -> None:
        public = sorted(n for n, _ in inspect.getmembers(SQLEnvToolEnv, callable) if not n.startswith("_"))
        self.assertEqual(public, sorted(TOOLS + ["get_reward", "reset"]))
        for name in TOOLS:
            method = getattr(SQLEnvToolEnv, name)
            params = [p for p in inspect.signature(method).parameters.values() if p.name != "self"]
            self.assertTrue(params, name)
            self.assertFalse(any(p.kind == p.VAR_KEYWORD for p in params), f"{name} shows **kwargs to TRL")
            documented = docstring_args(inspect.getdoc(method) or "")
            for p in params:
                self.assertIsNot(p.annotation, inspect.Parameter.empty, f"{name}.{p.name} has no type hint")
                self.assertIn(p.name, documented, f"{name}.{p.name} is missing from Args:")
        self.assertEqual(inspect.signature(SQLEnvToolEnv.sample).parameters["n"].default, 5)
        self.assertIs(inspect.signature(SQLEnvToolEnv.query).parameters["sql"].default, inspect.Parameter.empty)


class TrlEpisodeTest(unittest.TestCase):
    def test_plays_a_full_episode_tolerating_extra_and_missing_arguments(self) -> None:
        require_server(self)
        env = SQLEnvToolEnv()
        prompt = env.reset(question_id="q0", prompt="ignored", answer=None)
        self.assertIn("How many singers", prompt)
        self.assertIn("singer", prompt)

        # The seed's collapse: extra null arguments and made-up ones must not raise.
        described = env.describe(table_name="singer", sql=None, n=None)
        self.assertIn("age", described)
        self.assertNotIn("Ignored", described)
        sampled = env.sample(table_name="singer", n=2, limit=3)
        self.assertIn("Ann", sampled)
        self.assertIn("Ignored unknown arguments: limit", sampled)
        missing = env.describe()
        self.assertIn("table_name is required", missing)
        counted = env.query(sql="SELECT count(*) FROM singer", table_name=None, value=None)
        self.assertIn("3", counted)
        final = env.answer(value="3", sql=None)
        self.assertIn("Episode over", final)
        self.assertTrue(env.done)
        self.assertAlmostEqual(env.reward, 0.02 + 0.02 - 0.05 + 0.05 + 1.0)
        self.assertEqual(env.get_reward(), env.reward)
        self.assertIn("episode is over", env.query(sql="SELECT 1"))

        # A new episode on the same instance starts from zero.
        env.reset(question_id="q1")
        self.assertEqual(env.reward, 0.0)
        self.assertIn("Episode over", env.answer(value="0"))
        self.assertEqual(env.reward, 0.0)


if __name__ == "__main__":
    unittest.main()
