import unittest
import urllib.request

from sqlenv_client import FailoverSession, RemoteEnvError, SessionLostError, connect, is_session_lost

from ._server import require_server

#: Nothing listens on port 9 (discard) on the test machine: a server that is down.
DOWN = "http://127.0.0.1:9"
#: A step of the fixture server's env (a small SQL env with SQLEnv's tools).
COUNT = {"name": "query", "arguments": {"sql": "SELECT count(*) FROM singer"}}


class IsSessionLostTest(unittest.TestCase):
    def test_tells_a_gone_server_from_a_bad_request(self) -> None:
        self.assertTrue(is_session_lost(RemoteEnvError("CONNECTION_ERROR", "refused")))
        self.assertTrue(is_session_lost(RemoteEnvError("SESSION_ERROR", "gone", {"reason": "unknown_session"})))
        self.assertTrue(is_session_lost(RemoteEnvError("CAPACITY_REACHED", "draining", {"reason": "draining"})))
        self.assertFalse(is_session_lost(RemoteEnvError("SESSION_ERROR", "reset first", {"reason": "reset_needed"})))
        self.assertFalse(is_session_lost(RemoteEnvError("CAPACITY_REACHED", "full", {"max_sessions": 1})))
        self.assertFalse(is_session_lost(RemoteEnvError("VALIDATION_ERROR", "bad")))


class FailoverSessionTest(unittest.TestCase):
    def test_skips_a_server_that_is_down_and_plays_on_a_live_one(self) -> None:
        url = require_server(self)
        for transport in ("http", "auto"):
            with FailoverSession([DOWN, url, DOWN], transport=transport, initial_delay=0.01) as s:
                s.reset(seed=1)
                self.assertEqual(s.url, url)
                self.assertEqual(s.step(COUNT).observation["result"]["rows"], [["3"]])
                self.assertEqual(s.state()["step_count"], 1)

    def test_sessions_start_on_the_servers_in_turn(self) -> None:
        url = require_server(self)
        urls = [url, url + "/"]  # two spellings of one server: two entries of the rotation
        sessions = [connect(urls, transport="http") for _ in range(4)]
        try:
            for s in sessions:
                s.reset(seed=0)
            self.assertEqual(sorted(s.url for s in sessions), sorted(urls * 2))
        finally:
            for s in sessions:
                s.close()

    def test_gives_up_with_connection_error_when_no_server_answers(self) -> None:
        with FailoverSession([DOWN, "http://127.0.0.1:1"], transport="http", attempts=4, initial_delay=0.01) as s:
            with self.assertRaises(RemoteEnvError) as caught:
                s.reset()
            self.assertEqual(caught.exception.code, "CONNECTION_ERROR")
            self.assertEqual(len(caught.exception.data["tried"]), 4)

    def test_step_before_reset_and_after_close_are_session_errors(self) -> None:
        url = require_server(self)
        s = connect(url, transport="http", reconnect=True)
        self.assertIsInstance(s, FailoverSession)
        with self.assertRaises(RemoteEnvError) as caught:
            s.step(COUNT)
        self.assertEqual(caught.exception.data.get("reason"), "reset_needed")
        s.close()
        with self.assertRaises(RemoteEnvError):
            s.reset()

    def test_a_session_reaped_mid_episode_is_lost_until_the_next_reset(self) -> None:
        url = require_server(self)
        with FailoverSession([url], transport="http") as s:
            s.reset(seed=1)
            # The server forgets the session (as a restarted one would): delete it behind the client's back.
            session_id = s.state()["session_id"]
            urllib.request.urlopen(urllib.request.Request(f"{url}/sessions/{session_id}", method="DELETE")).close()
            with self.assertRaises(SessionLostError) as caught:
                s.step(COUNT)
            self.assertEqual(caught.exception.code, "SESSION_LOST")
            self.assertEqual(caught.exception.data["cause_reason"], "unknown_session")
            with self.assertRaises(SessionLostError):
                s.step(COUNT)
            s.reset(seed=2)
            self.assertEqual(s.step(COUNT).observation["result"]["rows"], [["3"]])


if __name__ == "__main__":
    unittest.main()
