"""A session over WebSocket, when the ``websockets`` package (>= 12) is installed."""
from typing import Any, Dict, List, Optional

from .codec import decode, encode, resolve_encoding
from .errors import RemoteEnvError
from .http_session import http_base_url
from .step_result import StepResult

try:  # optional dependency
    from websockets.sync.client import connect as _ws_connect  # type: ignore[import-not-found]
except ImportError:  # pragma: no cover - depends on the environment
    _ws_connect = None


def websockets_available() -> bool:
    """Whether WebSocket sessions can be used."""
    return _ws_connect is not None


class WsSession:
    """One session over ``WS /ws`` (one socket = one env): JSON text frames or MessagePack
    binary frames. Same methods as :class:`HttpSession`.

    Example::

        with WsSession("http://127.0.0.1:8000", encoding="msgpack") as s:
            s.reset(seed=1)
    """

    def __init__(self, url: str, encoding: str = "auto", token: Optional[str] = None, timeout: float = 60.0):
        if _ws_connect is None:
            raise ImportError("WsSession needs the websockets package (>= 12): pip install websockets")
        self.encoding = resolve_encoding(encoding)
        self.timeout = timeout
        headers = {"Authorization": f"Bearer {token}"} if token else None
        ws_url = http_base_url(url).replace("http://", "ws://", 1).replace("https://", "wss://", 1) + "/ws"
        try:
            self._ws = _ws_connect(ws_url, additional_headers=headers, open_timeout=timeout, max_size=None)
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
