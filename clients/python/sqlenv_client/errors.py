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
