"""A session over HTTP with the standard library's urllib."""
import json
import urllib.error
import urllib.request
from typing import Any, Dict, List, Optional

from .codec import content_type, decode, encode, resolve_encoding
from .errors import RemoteEnvError
from .step_result import StepResult


class HttpSession:
    """One session on the server over HTTP: ``POST /sessions`` on first use, then ``/reset``,
    ``/step``, ``/state`` with the ``X-Session-Id`` header; ``close()`` deletes it.

    Example::

        with HttpSession("http://127.0.0.1:8000") as s:
            s.reset(seed=1)
            s.step({"name": "describe", "arguments": {"table_name": "singer"}})
    """

    def __init__(self, url: str, encoding: str = "auto", token: Optional[str] = None, timeout: float = 60.0):
        self.base = http_base_url(url)
        self.encoding = resolve_encoding(encoding)
        self.token = token
        self.timeout = timeout
        self.session_id: Optional[str] = None
        self._closed = False

    def reset(self, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None, **extra: Any) -> StepResult:
        """Start an episode; ``options`` go to the env's ``reset(options=...)``."""
        body: Dict[str, Any] = dict(extra)
        if seed is not None:
            body["seed"] = seed
        if options:
            body["options"] = options
        try:
            return StepResult.from_wire(self._call("POST", "/reset", body, session=self._session()))
        except RemoteEnvError as err:
            # The server reaped this session while it idled (e.g. during a long training step):
            # a reset starts over anyway, so open a new session instead of failing the rollout.
            if err.status != 404 or err.data.get("reason") != "unknown_session":
                raise
            self.session_id = None
            return StepResult.from_wire(self._call("POST", "/reset", body, session=self._session()))

    def step(self, action: Any) -> StepResult:
        """Take one action (for SQLEnv: ``{"name": tool, "arguments": {...}}``)."""
        return StepResult.from_wire(self._call("POST", "/step", {"action": action}, session=self._session()))

    def state(self) -> Dict[str, Any]:
        """The session's state (``episode_id``, ``step_count``, ``episode_return``, ...)."""
        return self._call("GET", "/state", None, session=self._session())

    def list_tools(self) -> List[Dict[str, Any]]:
        """The env's tools (``name``, ``description``, ``input_schema``)."""
        return self.step({"type": "list_tools"}).observation["tools"]

    def schema(self) -> Dict[str, Any]:
        """``GET /schema``: the env's action, observation and state JSON Schemas."""
        return self._call("GET", "/schema", None)

    def close(self) -> None:
        """Delete the session on the server. Idempotent."""
        if self._closed:
            return
        self._closed = True
        if self.session_id is not None:
            try:
                # The header too, so that balancers that route by it reach the session's server.
                self._call("DELETE", f"/sessions/{self.session_id}", None, session=self.session_id)
            except RemoteEnvError:
                pass  # already reaped or the server is gone: nothing left to free

    def __enter__(self) -> "HttpSession":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def _session(self) -> str:
        if self._closed:
            raise RemoteEnvError("SESSION_ERROR", "this session is closed; open a new one")
        if self.session_id is None:
            self.session_id = str(self._call("POST", "/sessions", None)["session_id"])
        return self.session_id

    def _call(self, method: str, path: str, body: Any, session: Optional[str] = None) -> Any:
        headers = {"Accept": content_type(self.encoding)}
        data = None
        if body is not None:
            data = encode(body, self.encoding)
            headers["Content-Type"] = content_type(self.encoding)
        if session:
            headers["X-Session-Id"] = session
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        request = urllib.request.Request(self.base + path, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                return _decode_body(response.read(), response.headers.get("Content-Type", ""))
        except urllib.error.HTTPError as err:
            payload = _decode_body(err.read(), err.headers.get("Content-Type", "")) or {}
            if not isinstance(payload, dict):
                payload = {"detail": payload}
            message = payload.get("message") or json.dumps(payload.get("detail"))
            raise RemoteEnvError(str(payload.get("code", f"HTTP_{err.code}")), str(message), payload, err.code) from None
        except (urllib.error.URLError, OSError) as err:
            raise RemoteEnvError("CONNECTION_ERROR", f"{method} {self.base}{path} failed: {err}") from None


def http_base_url(url: str) -> str:
    """``http://host:port`` for any of ``http://...``, ``ws://...``, ``.../ws``."""
    url = url.rstrip("/")
    if url.startswith("ws://"):
        url = "http://" + url[len("ws://"):]
    elif url.startswith("wss://"):
        url = "https://" + url[len("wss://"):]
    if url.endswith("/ws"):
        url = url[: -len("/ws")]
    return url


def _decode_body(raw: bytes, ctype: str) -> Any:
    if not raw:
        return None
    return decode(raw, "msgpack" if "msgpack" in ctype else "json")
