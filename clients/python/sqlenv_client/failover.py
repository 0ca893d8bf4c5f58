"""Sessions spread over several servers that survive losing one (``connect([url, ...])``)."""
import itertools
import random
import threading
import time
from typing import Any, Callable, Dict, List, Optional, Sequence

from .errors import RemoteEnvError, SessionLostError
from .http_session import HttpSession
from .step_result import StepResult
from .ws_session import WsSession, websockets_available

#: Where each new session starts in its server list, per list: consecutive sessions start on
#: consecutive servers, so N sessions spread evenly over the servers of one process.
_rotation: Dict[tuple, "itertools.count[int]"] = {}
_rotation_lock = threading.Lock()


def _first_server(urls: tuple) -> int:
    with _rotation_lock:
        counter = _rotation.setdefault(urls, itertools.count())
        return next(counter) % len(urls)


def is_session_lost(err: RemoteEnvError) -> bool:
    """Whether an error means the session's server is gone (unreachable, restarted, draining)
    rather than a problem with the request: the episode in flight cannot go on."""
    if err.code == "CONNECTION_ERROR":
        return True
    if err.code == "SESSION_ERROR" and err.data.get("reason") == "unknown_session":
        return True
    return err.code == "CAPACITY_REACHED" and err.data.get("reason") == "draining"


class FailoverSession:
    """One session at a time on one of several servers, moving to another when its server goes away.

    New sessions start on the servers in turn (so many sessions spread over the list).
    ``reset()`` opens a session where it can: on a server that cannot be reached, is full or
    is shutting down, it tries the next one, waiting ``initial_delay`` seconds after the first
    round of failures and twice as long after each further one (up to ``max_delay``, with
    jitter), for ``attempts`` tries in all (default: 3 per server), then raises
    ``RemoteEnvError("CONNECTION_ERROR")``; when every server of a round is merely full, their
    ``CAPACITY_REACHED`` is raised at once.
    When the server goes away mid-episode, the call in flight raises
    :class:`SessionLostError` (``code == "SESSION_LOST"``): that episode is over, and so is
    every further ``step`` until the next ``reset()``, which continues on a live server.
    Nothing waits longer than ``timeout`` per request.

    Example::

        with FailoverSession(["http://a:8000", "http://b:8000"]) as s:
            s.reset(seed=0)
            try:
                s.step(action)
            except SessionLostError:
                s.reset(seed=0)   # a new episode, on a server that is up
    """

    def __init__(
        self,
        urls: Sequence[str],
        transport: str = "auto",
        encoding: str = "auto",
        token: Optional[str] = None,
        timeout: float = 60.0,
        attempts: Optional[int] = None,
        initial_delay: float = 0.1,
        max_delay: float = 5.0,
    ):
        if isinstance(urls, str) or len(urls) == 0:
            raise ValueError("urls is a non-empty list of server URLs")
        if transport == "auto":
            transport = "ws" if websockets_available() else "http"
        if transport not in ("ws", "http"):
            raise ValueError(f"transport must be 'auto', 'ws' or 'http', got {transport!r}")
        self.urls: List[str] = list(urls)
        self.transport = transport
        self.encoding = encoding
        self.token = token
        self.timeout = timeout
        self.attempts = max(1, attempts if attempts is not None else 3 * len(urls))
        self.initial_delay = initial_delay
        self.max_delay = max_delay
        self._next = _first_server(tuple(self.urls))
        self._session: Any = None
        self._lost: Optional[SessionLostError] = None
        self._closed = False
        #: The server of the current session (``None`` before the first ``reset``).
        self.url: Optional[str] = None

    def reset(self, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None, **extra: Any) -> StepResult:
        """Start an episode, on the current server if it is still up, else on the next live one."""
        self._check_open()
        self._lost = None
        if self._session is not None:
            try:
                return self._session.reset(seed=seed, options=options, **extra)
            except RemoteEnvError as err:
                if not is_session_lost(err):
                    raise
                self._drop()
        return self._open_and(lambda s: s.reset(seed=seed, options=options, **extra))

    def step(self, action: Any) -> StepResult:
        """Take one action; :class:`SessionLostError` when the server went away."""
        return self._call(lambda s: s.step(action))

    def state(self) -> Dict[str, Any]:
        """The session's state (``episode_id``, ``step_count``, ...)."""
        return self._call(lambda s: s.state())

    def list_tools(self) -> List[Dict[str, Any]]:
        """The env's tools (needs no episode: opens a session like ``reset`` when there is none)."""
        if self._session is None and self._lost is None:
            self._check_open()
            return self._open_and(lambda s: s.list_tools())
        return self._call(lambda s: s.list_tools())

    def schema(self) -> Dict[str, Any]:
        """``GET /schema`` from the first server that answers."""
        last: Optional[RemoteEnvError] = None
        for url in self.urls:
            try:
                return HttpSession(url, encoding="json", token=self.token, timeout=self.timeout).schema()
            except RemoteEnvError as err:
                last = err
        assert last is not None
        raise last

    def close(self) -> None:
        """Close the current session. Idempotent."""
        if self._closed:
            return
        self._closed = True
        self._drop()

    def __enter__(self) -> "FailoverSession":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def _check_open(self) -> None:
        if self._closed:
            raise RemoteEnvError("SESSION_ERROR", "this session is closed; open a new one")

    def _call(self, fn: Callable[[Any], Any]) -> Any:
        self._check_open()
        if self._lost is not None:
            raise self._lost
        if self._session is None:
            raise RemoteEnvError("SESSION_ERROR", "no episode is running: call reset() first", {"reason": "reset_needed"})
        try:
            return fn(self._session)
        except RemoteEnvError as err:
            if not is_session_lost(err):
                raise
            self._lost = SessionLostError(self.url or "", err)
            self._drop()
            raise self._lost from None

    def _open(self, url: str) -> Any:
        if self.transport == "ws":
            return WsSession(url, encoding=self.encoding, token=self.token, timeout=self.timeout)
        return HttpSession(url, encoding=self.encoding, token=self.token, timeout=self.timeout)

    def _open_and(self, first: Callable[[Any], Any]) -> Any:
        """Open a session on the next server that takes it and run ``first`` on it, with backoff."""
        tried: List[str] = []
        all_full: Optional[RemoteEnvError] = None  # set while every server of this round was full
        delay = self.initial_delay
        n = len(self.urls)
        for attempt in range(self.attempts):
            if attempt % n == 0:
                all_full = None
            url = self.urls[self._next % n]
            self._next += 1
            session = None
            try:
                session = self._open(url)
                result = first(session)
                self._session, self.url = session, url
                return result
            except RemoteEnvError as err:
                if session is not None:
                    try:
                        session.close()
                    except Exception:
                        pass  # the server is gone; nothing left to free there
                full = err.code == "CAPACITY_REACHED" and err.data.get("reason") != "draining"
                if not (full or is_session_lost(err)):
                    raise
                all_full = err if full and (all_full is not None or attempt % n == 0) else None
                tried.append(f"{url}: {err}")
            if (attempt + 1) % n == 0:
                if all_full is not None:
                    raise all_full  # every server is up but full: that is the answer, not something to wait out
                if attempt + 1 < self.attempts:
                    # A whole round failed: back off (with jitter, so sessions do not return in lockstep).
                    time.sleep(delay * (0.5 + random.random() / 2))
                    delay = min(delay * 2, self.max_delay)
        raise RemoteEnvError("CONNECTION_ERROR", f"no server took the session after {self.attempts} attempts: " + "; ".join(tried[-n:]), {"tried": tried})

    def _drop(self) -> None:
        session, self._session = self._session, None
        if session is not None:
            try:
                session.close()
            except Exception:
                pass  # the connection is already gone
