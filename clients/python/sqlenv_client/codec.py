"""JSON and (when the ``msgpack`` package is installed) MessagePack encoding of messages."""
import json
from typing import Any

try:  # optional: MessagePack is smaller and faster, JSON always works
    import msgpack  # type: ignore[import-not-found]
except ImportError:  # pragma: no cover - depends on the environment
    msgpack = None

JSON_TYPE = "application/json"
MSGPACK_TYPE = "application/msgpack"


def msgpack_available() -> bool:
    """Whether MessagePack can be used (the ``msgpack`` package is importable)."""
    return msgpack is not None


def resolve_encoding(encoding: str) -> str:
    """``"auto"`` becomes ``"msgpack"`` when available, else ``"json"``."""
    if encoding == "auto":
        return "msgpack" if msgpack_available() else "json"
    if encoding not in ("json", "msgpack"):
        raise ValueError(f"encoding must be 'auto', 'json' or 'msgpack', got {encoding!r}")
    if encoding == "msgpack" and not msgpack_available():
        raise ImportError("encoding='msgpack' needs the msgpack package: pip install msgpack")
    return encoding


def encode(value: Any, encoding: str) -> bytes:
    """Encode one message."""
    if encoding == "msgpack":
        return msgpack.packb(value, use_bin_type=True)  # type: ignore[union-attr]
    return json.dumps(value).encode("utf-8")


def decode(data: bytes, encoding: str) -> Any:
    """Decode one message."""
    if encoding == "msgpack":
        return msgpack.unpackb(data, raw=False)  # type: ignore[union-attr]
    return json.loads(data.decode("utf-8"))


def content_type(encoding: str) -> str:
    """The HTTP content type of an encoding."""
    return MSGPACK_TYPE if encoding == "msgpack" else JSON_TYPE
