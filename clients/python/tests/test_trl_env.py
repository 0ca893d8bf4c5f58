import inspect
import re
import unittest
from typing import Any, Dict, List

from sqlenv_client import SQLEnvToolEnv, StepResult, render_tool_result

from ._server import require_server

TOOLS = ["describe", "sample", "query", "answer"]


def docstring_args(doc: str) -> Dict[str, str]:
    """The ``Args:`` entries of a Google-style docstring, as TRL's schema builder reads them."""
    section = re.search(r"Args:\n(.*?)(\n\s*\n|\Z)", doc, re.S)
    if not section:
        return {}
    return dict(re.findall(r"^\s*(\w+)(?:\s*\([^)]*\))?:\s*(.+)$", section.group(1), re.M))


class RecordingSession:
    """A session that records the actions sent and answers each with a fixed SQLEnv-like step."""

    def __init__(self, reply: Dict[str, Any]) -> None:
        self.actions: List[Any] = []
        self.reply = reply

    def step(self, action: Any) -> StepResult:
        self.actions.append(action)
        return StepResult.from_wire(self.reply)

    def close(self) -> None:
        pass


def offline_env(reply: Dict[str, Any]) -> "tuple[SQLEnvToolEnv, RecordingSession]":
    env = SQLEnvToolEnv.__new__(SQLEnvToolEnv)  # no server: the session is replaced
    session = RecordingSession(reply)
    env._session = session  # type: ignore[attr-defined]
    env._reward, env._done, env._rewards = 0.0, False, []  # type: ignore[attr-defined]
    return env, session


SQL_STEP = {
    "observation": {"question": "How many singers?", "tables": ["singer", "concert"], "schema": "TABLE singer (3 rows)", "history": ["1. describe(singer)"], "result": "| n |\n| --- |\n| 3 |", "error": "", "budgetRemaining": 4},
    "reward": 0.05,
    "done": False,
    "info": {"repairs": [{"kind": "argument_alias", "detail": 'argument "table" read as "table_name"'}, {"kind": "dropped_null_argument", "detail": 'dropped "sql": null'}]},
    "rendered": "Question: How many singers?\n\nTables: singer, concert\n\n...",
}


class ToolSchemaTest(unittest.TestCase):
    def test_reset_passes_the_rows_documented_keys_as_options(self) -> None:
        class ResetSession(RecordingSession):
            def reset(self, seed: Any = None, options: Any = None) -> StepResult:
                self.resets.append((seed, options))
                return StepResult.from_wire(self.reply)

        env, _ = offline_env({"observation": {"question": "q", "tables": [], "result": "", "error": None}, "reward": 0.0, "done": False})
        session = ResetSession(env._session.reply)  # type: ignore[attr-defined]
        session.resets = []  # type: ignore[attr-defined]
        env._session = session  # type: ignore[attr-defined]
        env.reset(question_id="eval-0003", split="eval", db_id="concert_hall", seed=4, prompt="ignored")
        env.reset(id="smoke-0001", dbId="library")
        self.assertEqual(
            session.resets,  # type: ignore[attr-defined]
            [(4, {"questionId": "eval-0003", "dbId": "concert_hall", "split": "eval"}), (None, {"questionId": "smoke-0001", "dbId": "library"})],
        )

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
        # answer takes any JSON value but null, not only text.
        value = inspect.signature(SQLEnvToolEnv.answer).parameters["value"].annotation
        self.assertEqual(set(value.__args__), {str, int, float, bool, list, dict})


class ForwardingTest(unittest.TestCase):
    def test_passes_the_models_arguments_to_the_env_unchanged(self) -> None:
        env, session = offline_env(SQL_STEP)
        env.describe(table="singer", sql=None)  # an alias and a null: the env repairs them
        env.sample(table_name="singer")  # n left out: not filled in with the signature's default
        env.sample("singer", "3")  # positional values take the declared names
        env.answer(value=[["Ann", 31], ["Bo", 45]])
        env.answer(value={"count": 3})
        self.assertEqual(
            session.actions,
            [
                {"name": "describe", "arguments": {"table": "singer", "sql": None}},
                {"name": "sample", "arguments": {"table_name": "singer"}},
                {"name": "sample", "arguments": {"table_name": "singer", "n": "3"}},
                {"name": "answer", "arguments": {"value": [["Ann", 31], ["Bo", 45]]}},
                {"name": "answer", "arguments": {"value": {"count": 3}}},
            ],
        )

    def test_returns_only_what_the_tool_produced_and_the_repairs(self) -> None:
        env, _ = offline_env(SQL_STEP)
        text = env.query(query="SELECT count(*) FROM singer")
        self.assertEqual(text, '| n |\n| --- |\n| 3 |\nRepaired: argument "table" read as "table_name"; dropped "sql": null.')
        self.assertAlmostEqual(env.reward, 0.05)

    def test_errors_and_the_end_of_the_episode(self) -> None:
        failed = dict(SQL_STEP, observation=dict(SQL_STEP["observation"], result="", error="no such table: x. Tables: singer, concert."), info={"repairs": []})
        env, _ = offline_env(failed)
        self.assertEqual(env.describe(table_name="x"), "Error: no such table: x. Tables: singer, concert.")
        over = dict(SQL_STEP, observation=dict(SQL_STEP["observation"], result="Answer submitted: correct."), reward=1.0, done=True, info={})
        env, session = offline_env(over)
        self.assertEqual(env.answer(value=3), "Answer submitted: correct.\nEpisode over. Reward: 1.000.")
        self.assertIn("episode is over", env.query(sql="SELECT 1"))
        self.assertEqual(len(session.actions), 1)


class RenderToolResultTest(unittest.TestCase):
    def test_tables_and_other_observations(self) -> None:
        mini = StepResult.from_wire({"observation": {"question": "Q?", "tables": ["singer"], "result": {"columns": ["age"], "rows": [["31"]]}, "error": ""}, "reward": 0, "done": False})
        self.assertEqual(render_tool_result(mini), "age\n31")
        other = StepResult.from_wire({"observation": {"position": 3}, "reward": 0, "done": False, "rendered": "at 3"})
        self.assertEqual(render_tool_result(other), "at 3")
        empty = StepResult.from_wire({"observation": {"result": "", "error": ""}, "reward": 0, "done": False})
        self.assertEqual(render_tool_result(empty), "Done.")


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
        # Only the tool's output comes back, not the question again.
        self.assertNotIn("How many singers", described)
        sampled = env.sample(table_name="singer", n=2, limit=3)
        self.assertIn("Ann", sampled)
        missing = env.describe()
        self.assertIn("table_name is required", missing)
        counted = env.query(sql="SELECT count(*) FROM singer", table_name=None, value=None)
        self.assertIn("3", counted)
        final = env.answer(value=3, sql=None)  # a number, not only text
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
