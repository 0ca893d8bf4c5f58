"""The TRL adapter against the real SQLEnv-v0 (bundled smoke split), when SQLENV_SQL_URL is set."""
import os
import re
import unittest
from unittest import mock

from sqlenv_client import SQLEnvToolEnv

SQL_URL = os.environ.get("SQLENV_SQL_URL", "")


@unittest.skipUnless(SQL_URL, "SQLENV_SQL_URL is not set (the vitest runner sets it)")
class TrlSqlEnvTest(unittest.TestCase):
    def test_full_episode_on_sqlenv(self) -> None:
        with mock.patch.dict(os.environ, {"SQLENV_URL": SQL_URL}):
            env = SQLEnvToolEnv()
        prompt = env.reset(seed=7)
        self.assertTrue(prompt.strip())
        tables = re.findall(r"[A-Za-z_][A-Za-z0-9_]*", prompt.split("Tables", 1)[-1])
        table = next(t for t in tables if t.lower() not in ("tables", "table"))

        described = env.describe(table_name=table, sql=None, value=None)
        self.assertTrue(described.strip())
        # Only the tool's output comes back: not the question, the tables or the history again.
        self.assertNotIn("Question:", described)
        self.assertNotIn("History", described)
        # SQLEnv's own repairs apply to what the model wrote, and are reported to it.
        aliased = env.describe(table=table)
        self.assertIn(f"TABLE {table}", aliased)
        self.assertIn('Repaired: argument "table" read as "table_name"', aliased)
        self.assertIn('dropped "sql": null', described)
        queried = env.query(sql=f"SELECT count(*) FROM {table}", table_name=None)
        self.assertTrue(queried.strip())
        # A model that forgets the argument gets the env's explanation back, not an exception.
        forgot = env.query()
        self.assertTrue(forgot.strip())
        final = env.answer(value=[0], n=None)  # any JSON value, a list here
        self.assertIn("Episode over", final)
        self.assertTrue(env.done)
        self.assertIsInstance(env.get_reward(), float)


if __name__ == "__main__":
    unittest.main()
