"""SQLEnv-v0's reset options from Python (the bundled smoke split, when SQLENV_SQL_URL is set):
every documented key picks the episode, in both spellings and as keyword arguments, over HTTP and
WebSocket; a bad key, split or question id is the client's ``VALIDATION_ERROR`` (HTTP 422), and
the session keeps serving."""
import os
import unittest
from typing import Any, Callable, List, Tuple
from unittest import mock

from sqlenv_client import HttpSession, RemoteEnvError, SQLEnvToolEnv, WsSession, websockets_available

SQL_URL = os.environ.get("SQLENV_SQL_URL", "")


def _sessions() -> List[Tuple[str, Callable[[], Any]]]:
    made: List[Tuple[str, Callable[[], Any]]] = [("http", lambda: HttpSession(SQL_URL))]
    if websockets_available():
        made.append(("ws", lambda: WsSession(SQL_URL)))
    return made


@unittest.skipUnless(SQL_URL, "SQLENV_SQL_URL is not set (the vitest runner sets it)")
class ResetOptionsTest(unittest.TestCase):
    def test_reset_options_pick_the_split_question_and_database(self) -> None:
        for transport, open_session in _sessions():
            with self.subTest(transport=transport), open_session() as s:
                other = s.reset(seed=1, options={"split": "validation"})
                self.assertEqual(other.info["split"], "validation")
                self.assertTrue(other.info["question_id"].startswith("validation-"))
                # Keyword arguments go into the options too, in Python's spelling.
                by_id = s.reset(question_id="smoke-0018", split="smoke")
                self.assertEqual((by_id.info["question_id"], by_id.info["split"]), ("smoke-0018", "smoke"))
                db = by_id.info["db_id"]
                by_db = s.reset(seed=3, options={"db_id": db})
                self.assertEqual(by_db.info["db_id"], db)

    def test_bad_reset_options_are_validation_errors_and_the_session_keeps_serving(self) -> None:
        for transport, open_session in _sessions():
            with self.subTest(transport=transport), open_session() as s:
                for options, expected in [
                    ({"spilt": "eval"}, 'did you mean "split"?'),
                    ({"split": "evl"}, 'no split "evl" (did you mean "eval"?)'),
                    ({"question_id": "nope"}, 'no question "nope"'),
                    ({"seed": 3}, "reset(seed=3)"),
                ]:
                    with self.assertRaises(RemoteEnvError) as ctx:
                        s.reset(seed=1, options=options)
                    self.assertEqual(ctx.exception.code, "VALIDATION_ERROR")
                    self.assertIn(expected, ctx.exception.message)
                    if transport == "http":
                        self.assertEqual(ctx.exception.status, 422)
                self.assertEqual(s.reset(seed=1).info["split"], "smoke")
                self.assertIsNone(s.step({"name": "query", "arguments": {"sql": "SELECT 1"}}).info["error_type"])

    def test_trl_rows_with_a_split_play_that_split(self) -> None:
        with mock.patch.dict(os.environ, {"SQLENV_URL": SQL_URL}):
            env = SQLEnvToolEnv()
        # The example: this used to look the id up in the server's own split and fail.
        self.assertIn("Question", env.reset(question_id="validation-0003", split="validation"))
        with self.assertRaises(RemoteEnvError) as ctx:
            env.reset(question_id="validation-0003")
        self.assertEqual(ctx.exception.code, "VALIDATION_ERROR")
        self.assertIn("pass split: 'validation' too", ctx.exception.message)


if __name__ == "__main__":
    unittest.main()
