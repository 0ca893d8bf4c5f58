"""Pick a transport: WebSocket when ``websockets`` is installed, else HTTP sessions."""
from typing import Optional, Sequence, Union

from .failover import FailoverSession
from .http_session import HttpSession
from .ws_session import WsSession, websockets_available

Session = Union[HttpSession, WsSession, FailoverSession]


def connect(
    url: Union[str, Sequence[str]],
    transport: str = "auto",
    encoding: str = "auto",
    token: Optional[str] = None,
    timeout: float = 60.0,
    reconnect: bool = False,
) -> Session:
    """Open a session on an sqlenv (or any OpenEnv-compatible) server.

    Args:
        url: The server, e.g. ``http://127.0.0.1:8000``; or a list of servers, to spread
            sessions over them and move to another one when a server goes away (a
            :class:`~sqlenv_client.failover.FailoverSession`).
        reconnect: With one URL too, return a ``FailoverSession``: ``reset()`` reconnects with
            backoff after the server went away, and the episode in flight ends with
            ``SessionLostError``.
        transport: ``"ws"``, ``"http"``, or ``"auto"`` (WebSocket if ``websockets`` is installed).
        encoding: ``"json"``, ``"msgpack"``, or ``"auto"`` (MessagePack if ``msgpack`` is installed).
        token: Bearer token for servers started with ``--token``.
        timeout: Seconds to wait for one answer.

    Example::

        with connect("http://127.0.0.1:8000") as session:
            print(session.reset(seed=0).observation)
        with connect(["http://10.0.0.1:8000", "http://10.0.0.2:8000"]) as session:
            session.reset(seed=0)
    """
    if reconnect or not isinstance(url, str):
        urls = [url] if isinstance(url, str) else list(url)
        return FailoverSession(urls, transport=transport, encoding=encoding, token=token, timeout=timeout)
    if transport == "auto":
        transport = "ws" if websockets_available() else "http"
    if transport == "ws":
        return WsSession(url, encoding=encoding, token=token, timeout=timeout)
    if transport == "http":
        return HttpSession(url, encoding=encoding, token=token, timeout=timeout)
    raise ValueError(f"transport must be 'auto', 'ws' or 'http', got {transport!r}")
