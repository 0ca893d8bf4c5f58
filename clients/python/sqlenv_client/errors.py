"""Errors raised by the client."""
from typing import Any, Dict, Optional


class RemoteEnvError(Exception):
    """An error answered by the server (its wire ``code``) or a failure to reach it
    (``code == "CONNECTION_ERROR"``).

    Example::

        try:
            session.step(action)
        except RemoteEnvError as e:
            if e.code == "CAPACITY_REACHED":
                ...
    """

    def __init__(self, code: str, message: str, data: Optional[Dict[str, Any]] = None, status: Optional[int] = None):
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.data = data or {}
        self.status = status


class SessionLostError(RemoteEnvError):
    """The server of a session went away (unreachable, restarted, shutting down) mid-episode:
    that episode is over. ``code == "SESSION_LOST"``; ``cause`` is the error that revealed it
    (``CONNECTION_ERROR``, or ``SESSION_ERROR`` with ``reason == "unknown_session"``). Raised by
    :class:`~sqlenv_client.failover.FailoverSession` until the next ``reset()``, which starts a new
    episode on a server that is up.

    Example::

        try:
            session.step(action)
        except SessionLostError:
            session.reset()   # the lost episode is dropped, not retried
    """

    def __init__(self, url: str, cause: RemoteEnvError):
        data: Dict[str, Any] = {"url": url, "cause_code": cause.code}
        if "reason" in cause.data:
            data["cause_reason"] = cause.data["reason"]
        super().__init__(
            "SESSION_LOST",
            f"the session on {url} was lost mid-episode ({cause.message}); this episode is over: call reset() to start a new one on a server that is up",
            data,
            cause.status,
        )
        self.url = url
        self.cause = cause
