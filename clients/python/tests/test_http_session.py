import unittest

from sqlenv_client import HttpSession, RemoteEnvError, StepResult, connect, render_text
from sqlenv_client.codec import msgpack_available
from sqlenv_client.http_session import http_base_url

from ._server import require_server


class HttpBaseUrlTest(unittest.TestCase):
    def test_normalises_ws_and_trailing_paths(self) -> None:
        self.assertEqual(http_base_url("ws://h:1/ws"), "http://h:1")
        self.assertEqual(http_base_url("http://h:1/"), "http://h:1")
        self.assertEqual(http_base_url("wss://h/ws/"), "https://h")


class RenderTextTest(unittest.TestCase):
    def test_prefers_server_rendering_then_lays_out_sql_observations(self) -> None:
        self.assertEqual(render_text(StepResult(observation={}, reward=None, done=False, rendered="hi")), "hi")
        obs = {"question": "How many?", "tables": ["t"], "result": {"columns": ["n"], "rows": [[3]], "rowCount": 3}, "error": ""}
        text = render_text(StepResult(observation=obs, reward=0.0, done=False))
        self.assertIn("Question: How many?", text)
        self.assertIn("n\n3", text)
        self.assertIn("(3 rows, 1 shown)", text)
        self.assertNotIn("Columns:", text)
        listed = render_text(StepResult(observation={**obs, "tables": ["t", "u"], "columns": ["id, n", "x"]}, reward=0.0, done=False))
        self.assertIn("Tables: t, u\nColumns: t(id, n); u(x)", listed)


class HttpSessionTest(unittest.TestCase):
    def test_plays_an_episode_and_reports_errors_with_codes(self) -> None:
        url = require_server(self)
        for encoding in ["json"] + (["msgpack"] if msgpack_available() else []):
            with HttpSession(url, encoding=encoding) as s:
                first = s.reset(seed=1, options={"questionId": "q0"})
                self.assertEqual(first.observation["question"], "How many singers are there?")
                self.assertIsNone(first.reward)
                self.assertEqual(first.info, {"question_id": "q0"})
                names = [t["name"] for t in s.list_tools()]
                self.assertEqual(names, ["describe", "sample", "query", "answer"])
                counted = s.step({"name": "query", "arguments": {"sql": "SELECT count(*) FROM singer"}})
                self.assertEqual(counted.observation["result"]["rows"], [["3"]])
                bad = s.step({"name": "query", "arguments": {"sql": "DROP TABLE singer"}})
                self.assertEqual(bad.info["error_type"], "forbidden_sql")
                done = s.step({"name": "answer", "arguments": {"value": "3"}})
                self.assertTrue(done.done and done.terminated)
                self.assertEqual(done.reward, 1)
                self.assertEqual(s.state()["step_count"], 3)
                session_id = s.session_id
            with self.assertRaises(RemoteEnvError) as ctx:
                HttpSession(url)._call("GET", "/state", None, session=session_id)
            self.assertEqual(ctx.exception.code, "SESSION_ERROR")

    def test_reset_reopens_a_session_the_server_reaped(self) -> None:
        url = require_server(self)
        with HttpSession(url) as s:
            s.reset(seed=1)
            first_id = s.session_id
            HttpSession(url)._call("DELETE", f"/sessions/{first_id}", None)  # as the idle reaper would
            with self.assertRaises(RemoteEnvError) as ctx:
                s.step({"name": "answer", "arguments": {"value": "1"}})
            self.assertEqual((ctx.exception.code, ctx.exception.status), ("SESSION_ERROR", 404))
            again = s.reset(seed=1)
            self.assertNotEqual(s.session_id, first_id)
            self.assertFalse(again.done)

    def test_step_before_reset_is_a_session_error(self) -> None:
        url = require_server(self)
        with connect(url, transport="http") as s:
            with self.assertRaises(RemoteEnvError) as ctx:
                s.step({"name": "answer", "arguments": {"value": "1"}})
            self.assertEqual(ctx.exception.code, "SESSION_ERROR")
            self.assertEqual(ctx.exception.status, 409)

    def test_unreachable_server_is_a_connection_error(self) -> None:
        with self.assertRaises(RemoteEnvError) as ctx:
            HttpSession("http://127.0.0.1:1", timeout=2).reset()
        self.assertEqual(ctx.exception.code, "CONNECTION_ERROR")


if __name__ == "__main__":
    unittest.main()
