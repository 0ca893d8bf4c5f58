"""WsSession against the fixture server: full episodes in JSON text frames and MessagePack
binary frames, over the websockets sync client (>= 11) and over its asyncio client on the
session's own event loop (the only client in websockets 10.x). Skipped without websockets."""
import contextlib
import threading
import unittest
import warnings
from typing import Any, Iterator, List, Union

from sqlenv_client import RemoteEnvError, WsSession, connect, websockets_available
from sqlenv_client import ws_session
from sqlenv_client.codec import msgpack_available

from ._server import require_server

ENCODINGS = ["json"] + (["msgpack"] if msgpack_available() else [])


def _asyncio_client() -> Any:
    """websockets' asyncio client (``websockets.client.connect``), or None."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)  # legacy in websockets >= 14
            from websockets.client import connect as async_connect  # type: ignore[import-not-found]
        return async_connect
    except ImportError:
        return None


@contextlib.contextmanager
def _client(kind: str) -> Iterator[None]:
    """Make WsSession use the sync client (``"sync"``) or the asyncio fallback (``"asyncio"``)."""
    saved = (ws_session._ws_connect, ws_session._ws_async_connect)
    if kind == "asyncio":
        ws_session._ws_connect, ws_session._ws_async_connect = None, _asyncio_client()
    try:
        yield
    finally:
        ws_session._ws_connect, ws_session._ws_async_connect = saved


def _clients() -> List[str]:
    """The client implementations this interpreter's websockets has."""
    kinds = ["sync"] if ws_session._ws_connect is not None else []
    return kinds + (["asyncio"] if _asyncio_client() is not None else [])


def _loop_threads() -> List[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == "sqlenv-client-ws"]


def _record_frames(session: WsSession) -> List[type]:
    """Wrap the session's socket so the type (str or bytes) of every frame it receives is kept."""
    kinds: List[type] = []
    recv = session._ws.recv

    def recording(timeout: Any = None) -> Union[str, bytes]:
        frame = recv(timeout=timeout)
        kinds.append(type(frame))
        return frame

    session._ws.recv = recording  # type: ignore[method-assign]
    return kinds


@unittest.skipUnless(websockets_available(), "the websockets package is not installed")
class WsSessionTest(unittest.TestCase):
    def test_ws_plays_a_full_episode_in_every_encoding(self) -> None:
        url = require_server(self)
        self.assertTrue(_clients())
        for kind, encoding in [(k, e) for k in _clients() for e in ENCODINGS]:
            with self.subTest(client=kind, encoding=encoding), _client(kind):
                self.play_an_episode(url, encoding)

    def play_an_episode(self, url: str, encoding: str) -> None:
        s = WsSession(url, encoding=encoding, timeout=30)
        self.addCleanup(s.close)
        self.assertEqual(s.encoding, encoding)
        frames = _record_frames(s)
        first = s.reset(seed=1, options={"questionId": "q0"})
        self.assertEqual(first.observation["question"], "How many singers are there?")
        self.assertIsNone(first.reward)
        self.assertFalse(first.done)
        self.assertEqual(first.info, {"question_id": "q0"})
        self.assertEqual([t["name"] for t in s.list_tools()], ["describe", "sample", "query", "answer"])
        counted = s.step({"name": "query", "arguments": {"sql": "SELECT count(*) FROM singer"}})
        self.assertEqual(counted.observation["result"]["rows"], [["3"]])
        bad = s.step({"name": "query", "arguments": {"sql": "DROP TABLE singer"}})
        self.assertEqual(bad.info["error_type"], "forbidden_sql")
        self.assertFalse(bad.done)
        done = s.step({"name": "answer", "arguments": {"value": "3"}})
        self.assertTrue(done.done and done.terminated)
        self.assertEqual(done.reward, 1)
        state = s.state()
        self.assertEqual(state["step_count"], 3)
        self.assertIn("episode_id", state)
        # Text frames for JSON, binary frames for MessagePack, in every reply.
        self.assertEqual(set(frames), {bytes if encoding == "msgpack" else str})
        s.close()
        s.close()  # idempotent
        with self.assertRaises(RemoteEnvError) as ctx:
            s.state()
        self.assertEqual(ctx.exception.code, "SESSION_ERROR")
        self.assertEqual(_loop_threads(), [], "close() left the event loop thread running")

    def test_ws_errors_carry_codes_and_keep_the_connection(self) -> None:
        url = require_server(self)
        for kind, encoding in [(k, e) for k in _clients() for e in ENCODINGS]:
            with self.subTest(client=kind, encoding=encoding), _client(kind):
                self.check_errors(url, encoding)

    def check_errors(self, url: str, encoding: str) -> None:
        with WsSession(url, encoding=encoding) as s:
            with self.assertRaises(RemoteEnvError) as ctx:
                s.step({"name": "answer", "arguments": {"value": "1"}})
            self.assertEqual(ctx.exception.code, "SESSION_ERROR")
            self.assertEqual(ctx.exception.data.get("reason"), "reset_needed")
            with self.assertRaises(RemoteEnvError) as ctx:
                s._request({"type": "no_such_type"}, "observation")
            self.assertEqual(ctx.exception.code, "UNKNOWN_TYPE")
            # The socket stays usable after error frames.
            self.assertFalse(s.reset(seed=2, options={"questionId": "q0"}).done)
            self.assertEqual(s.state()["step_count"], 0)
        s.close()  # again after the with block: still a no-op
        self.assertEqual(_loop_threads(), [])

    def test_ws_is_what_connect_picks_and_its_schema_comes_over_http(self) -> None:
        url = require_server(self)
        with connect(url) as s:
            self.assertIsInstance(s, WsSession)
            self.assertIn("action", s.schema())
            self.assertEqual(s.reset(seed=1).done, False)
        with connect(url.replace("http://", "ws://", 1) + "/ws", transport="ws", encoding="json") as s:
            self.assertEqual(s.reset(seed=1, options={"questionId": "q0"}).info, {"question_id": "q0"})

    def test_ws_unreachable_server_is_a_connection_error(self) -> None:
        for kind in _clients():
            with self.subTest(client=kind), _client(kind):
                with self.assertRaises(RemoteEnvError) as ctx:
                    WsSession("http://127.0.0.1:1", timeout=2)
                self.assertEqual(ctx.exception.code, "CONNECTION_ERROR")
                self.assertEqual(_loop_threads(), [], "a failed connect left its event loop thread")

    def test_ws_dropped_session_is_closed_by_its_finalizer(self) -> None:
        url = require_server(self)
        if _asyncio_client() is None:
            self.skipTest("websockets has no asyncio client")
        with _client("asyncio"):
            s = WsSession(url, encoding="json")
            s.reset(seed=1)
            self.assertEqual(len(_loop_threads()), 1)
            del s
            import gc

            gc.collect()
        self.assertEqual(_loop_threads(), [])


if __name__ == "__main__":
    unittest.main()
