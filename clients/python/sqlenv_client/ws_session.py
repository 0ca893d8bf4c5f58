"""A session over WebSocket, when the ``websockets`` package (>= 10) is installed.

websockets >= 11 has a synchronous client, used as is. Older releases (10.x, what Debian
bookworm ships) only have the asyncio client: it then runs on an event loop owned by the
session, on one daemon thread that ``close()`` stops and joins (the loop keeps answering the
server's keepalive pings while the caller is busy between requests, as the sync client does).
"""
import asyncio
import threading
import weakref
from typing import Any, Dict, List, Optional, Union

from .codec import decode, encode, resolve_encoding
from .errors import RemoteEnvError
from .http_session import http_base_url
from .step_result import StepResult

_ws_connect: Any = None
_ws_async_connect: Any = None
try:  # optional dependency: the sync client (websockets >= 11)
    from websockets.sync.client import connect as _ws_connect  # type: ignore[import-not-found,no-redef]
except ImportError:  # pragma: no cover - depends on the environment
    try:  # websockets 10.x: the asyncio client, driven from a private event loop
        from websockets.client import connect as _ws_async_connect  # type: ignore[import-not-found,no-redef]
    except ImportError:
        pass

#: Seconds ``close()`` waits for the closing handshake before dropping the connection.
_CLOSE_TIMEOUT = 5.0


def websockets_available() -> bool:
    """Whether WebSocket sessions can be used."""
    return _ws_connect is not None or _ws_async_connect is not None


def _run_loop(loop: asyncio.AbstractEventLoop) -> None:
    """The loop thread: run until stopped, then cancel what is left and close the loop."""
    asyncio.set_event_loop(loop)
    try:
        loop.run_forever()
    finally:
        try:
            pending = asyncio.all_tasks(loop)
            for task in pending:
                task.cancel()
            if pending:
                loop.run_until_complete(asyncio.gather(*pending, return_exceptions=True))
            loop.run_until_complete(loop.shutdown_asyncgens())
        finally:
            loop.close()


def _shutdown(loop: asyncio.AbstractEventLoop, thread: threading.Thread, ws: Any) -> None:
    """Close the socket (when open), stop the loop and join its thread. Safe to call twice."""
    if not thread.is_alive():
        return
    if ws is not None:
        try:
            asyncio.run_coroutine_threadsafe(ws.close(), loop).result(_CLOSE_TIMEOUT + 1)
        except Exception:
            pass  # already closed, or the server is gone: stopping the loop drops the connection
    try:
        loop.call_soon_threadsafe(loop.stop)
    except RuntimeError:
        return  # the loop is already closed
    if threading.current_thread() is not thread:
        thread.join()


class _LoopSocket:
    """websockets' asyncio client behind the sync client's ``send``/``recv``/``close``.

    Every call is run on the session's own event loop (one daemon thread); ``close()`` closes
    the socket, stops the loop and joins the thread, and so does a finalizer when the session
    is dropped unclosed (or at interpreter exit).
    """

    def __init__(self, uri: str, headers: Optional[Dict[str, str]], open_timeout: float):
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=_run_loop, args=(self._loop,), name="sqlenv-client-ws", daemon=True)
        self._thread.start()

        async def open_socket() -> Any:
            # Created on the loop thread: websockets 10 looks the loop up when connecting.
            return await _ws_async_connect(uri, extra_headers=headers, open_timeout=open_timeout, close_timeout=_CLOSE_TIMEOUT, max_size=None)

        try:
            self._ws = asyncio.run_coroutine_threadsafe(open_socket(), self._loop).result()
        except BaseException:
            _shutdown(self._loop, self._thread, None)
            raise
        self._finalizer = weakref.finalize(self, _shutdown, self._loop, self._thread, self._ws)

    def send(self, payload: Union[str, bytes]) -> None:
        asyncio.run_coroutine_threadsafe(self._ws.send(payload), self._loop).result()

    def recv(self, timeout: Optional[float] = None) -> Union[str, bytes]:
        return asyncio.run_coroutine_threadsafe(asyncio.wait_for(self._ws.recv(), timeout), self._loop).result()

    def close(self) -> None:
        self._finalizer()


class WsSession:
    """One session over ``WS /ws`` (one socket = one env): JSON text frames or MessagePack
    binary frames. Same methods as :class:`HttpSession`.

    Example::

        with WsSession("http://127.0.0.1:8000", encoding="msgpack") as s:
            s.reset(seed=1)
    """

    def __init__(self, url: str, encoding: str = "auto", token: Optional[str] = None, timeout: float = 60.0):
        if not websockets_available():
            raise ImportError("WsSession needs the websockets package (>= 10): pip install websockets")
        self.encoding = resolve_encoding(encoding)
        self.timeout = timeout
        headers = {"Authorization": f"Bearer {token}"} if token else None
        ws_url = http_base_url(url).replace("http://", "ws://", 1).replace("https://", "wss://", 1) + "/ws"
        try:
            if _ws_connect is not None:
                # Entered as a context manager (closed by close() below): websockets >= 17.1
                # warns about a bare connect() on every first use, entering works in every version.
                self._ws: Any = _ws_connect(ws_url, additional_headers=headers, open_timeout=timeout, max_size=None).__enter__()
            else:
                self._ws = _LoopSocket(ws_url, headers, open_timeout=timeout)
        except Exception as err:  # websockets raises several connection error types
            raise RemoteEnvError("CONNECTION_ERROR", f"could not open {ws_url}: {err}") from None
        self._closed = False
        self._http_url = http_base_url(url)
        self._token = token

    def schema(self) -> Dict[str, Any]:
        """``GET /schema`` (over HTTP: the WebSocket protocol has no schema message)."""
        from .http_session import HttpSession

        return HttpSession(self._http_url, encoding="json", token=self._token, timeout=self.timeout).schema()

    def reset(self, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None, **extra: Any) -> StepResult:
        data: Dict[str, Any] = dict(extra)
        if seed is not None:
            data["seed"] = seed
        if options:
            data["options"] = options
        return StepResult.from_wire(self._request({"type": "reset", "data": data}, "observation"))

    def step(self, action: Any) -> StepResult:
        return StepResult.from_wire(self._request({"type": "step", "data": action}, "observation"))

    def state(self) -> Dict[str, Any]:
        return self._request({"type": "state"}, "state")

    def list_tools(self) -> List[Dict[str, Any]]:
        return self.step({"type": "list_tools"}).observation["tools"]

    def close(self) -> None:
        """Tell the server to close the session, then close the socket. Idempotent."""
        if self._closed:
            return
        self._closed = True
        try:
            self._send({"type": "close"})
        except Exception:
            pass  # the socket may already be gone; closing below is what matters
        self._ws.close()

    def __enter__(self) -> "WsSession":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def _send(self, message: Dict[str, Any]) -> None:
        payload = encode(message, self.encoding)
        self._ws.send(payload if self.encoding == "msgpack" else payload.decode("utf-8"))

    def _request(self, message: Dict[str, Any], expected: str) -> Any:
        if self._closed:
            raise RemoteEnvError("SESSION_ERROR", "this session is closed; open a new one")
        try:
            self._send(message)
            frame = self._ws.recv(timeout=self.timeout)
        except Exception as err:
            raise RemoteEnvError("CONNECTION_ERROR", f"WebSocket request failed: {err}") from None
        reply = decode(frame, "msgpack") if isinstance(frame, bytes) else decode(frame.encode("utf-8"), "json")
        if reply.get("type") == "error":
            data = reply.get("data") or {}
            raise RemoteEnvError(str(data.get("code")), str(data.get("message")), data)
        if reply.get("type") != expected:
            raise RemoteEnvError("UNKNOWN_TYPE", f"expected a {expected!r} message, got {reply.get('type')!r}")
        return reply.get("data")
