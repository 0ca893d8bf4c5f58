"""A query's result as data in ``info["result"]`` on the real SQLEnv-v0 (when SQLENV_SQL_URL is
set), in every transport and encoding this interpreter has."""
import os
import unittest
from typing import Any, Callable, List, Tuple

from sqlenv_client import HttpSession, WsSession, websockets_available
from sqlenv_client.codec import msgpack_available

SQL_URL = os.environ.get("SQLENV_SQL_URL", "")


def _sessions() -> List[Tuple[str, Callable[[], Any]]]:
    encodings = ["json"] + (["msgpack"] if msgpack_available() else [])
    made: List[Tuple[str, Callable[[], Any]]] = [(f"http/{e}", lambda e=e: HttpSession(SQL_URL, encoding=e)) for e in encodings]
    if websockets_available():
        made += [(f"ws/{e}", lambda e=e: WsSession(SQL_URL, encoding=e)) for e in encodings]
    return made


@unittest.skipUnless(SQL_URL, "SQLENV_SQL_URL is not set (the vitest runner sets it)")
class ResultDataTest(unittest.TestCase):
    def test_query_result_comes_as_data_beside_the_text(self) -> None:
        sql = "SELECT 1 AS one, NULL AS empty, 2.5 AS half, 'a|b' AS text"
        for name, open_session in _sessions():
            with self.subTest(session=name), open_session() as s:
                s.reset(seed=1)
                step = s.step({"name": "query", "arguments": {"sql": sql}})
                self.assertEqual(
                    step.info["result"],
                    {"columns": ["one", "empty", "half", "text"], "rows": [[1, None, 2.5, "a|b"]], "row_count": 1, "row_count_exact": True, "truncated": False},
                )
                self.assertIn("a\\|b", step.observation["result"])
                described = s.step({"name": "describe", "arguments": {"table_name": s.reset(seed=1).observation["tables"][0]}})
                self.assertIsNone(described.info["result"])


if __name__ == "__main__":
    unittest.main()
