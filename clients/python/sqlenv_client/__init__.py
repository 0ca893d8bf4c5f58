"""Python client for sqlenv's OpenEnv-compatible server (standard library only).

``connect(url)`` opens a session (WebSocket when ``websockets`` is installed, else HTTP;
MessagePack when ``msgpack`` is installed, else JSON); ``connect([url, ...])`` spreads sessions
over several servers and moves to a live one when a server goes away (``FailoverSession``; the
episode in flight ends with ``SessionLostError``). ``SQLEnvToolEnv`` is a TRL
``environment_factory``; ``RemoteGymEnv`` (import ``sqlenv_client.gym_env``, needs
``gymnasium``) is a ``gymnasium.Env``; ``JsonSchemaSampler`` samples and checks values of the
JSON Schemas ``/schema`` publishes (what its ``action_space.sample()`` uses).
"""
from .connect import Session, connect
from .errors import RemoteEnvError, SessionLostError
from .failover import FailoverSession, is_session_lost
from .http_session import HttpSession
from .json_schema import JsonSchemaSampler, json_schema_errors, sample_json_schema
from .render import render_text, render_tool_result
from .step_result import StepResult
from .trl_env import JsonValue, SQLEnvToolEnv, forwarding_tool
from .ws_session import WsSession, websockets_available

__all__ = [
    "FailoverSession",
    "JsonValue",
    "HttpSession",
    "JsonSchemaSampler",
    "RemoteEnvError",
    "SQLEnvToolEnv",
    "SessionLostError",
    "Session",
    "StepResult",
    "WsSession",
    "connect",
    "is_session_lost",
    "json_schema_errors",
    "render_text",
    "render_tool_result",
    "sample_json_schema",
    "forwarding_tool",
    "websockets_available",
]
