"""Pick a transport: WebSocket when ``websockets`` is installed, else HTTP sessions."""
from typing import Optional, Union

from .http_session import HttpSession
from .ws_session import WsSession, websockets_available

Session = Union[HttpSession, WsSession]


def connect(url: str, transport: str = "auto", encoding: str = "auto", token: Optional[str] = None, timeout: float = 60.0) -> Session:
    """Open a session on an sqlenv (or any OpenEnv-compatible) server.

    Args:
        url: The server, e.g. ``http://127.0.0.1:8000``.
        transport: ``"ws"``, ``"http"``, or ``"auto"`` (WebSocket if ``websockets`` is installed).
        encoding: ``"json"``, ``"msgpack"``, or ``"auto"`` (MessagePack if ``msgpack`` is installed).
        token: Bearer token for servers started with ``--token``.
        timeout: Seconds to wait for one answer.

    Example::

        with connect("http://127.0.0.1:8000") as session:
            print(session.reset(seed=0).observation)
    """
    if transport == "auto":
        transport = "ws" if websockets_available() else "http"
    if transport == "ws":
        return WsSession(url, encoding=encoding, token=token, timeout=timeout)
    if transport == "http":
        return HttpSession(url, encoding=encoding, token=token, timeout=timeout)
    raise ValueError(f"transport must be 'auto', 'ws' or 'http', got {transport!r}")
