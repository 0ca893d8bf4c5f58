"""Python client for sqlenv's OpenEnv-compatible server (standard library only).

``connect(url)`` opens a session (WebSocket when ``websockets`` is installed, else HTTP;
MessagePack when ``msgpack`` is installed, else JSON). ``SQLEnvToolEnv`` is a TRL
``environment_factory``; ``RemoteGymEnv`` (import ``sqlenv_client.gym_env``, needs
``gymnasium``) is a ``gymnasium.Env``.
"""
from .connect import Session, connect
from .errors import RemoteEnvError
from .http_session import HttpSession
from .render import render_text
from .step_result import StepResult
from .trl_env import SQLEnvToolEnv, env_reward, tolerant_tool
from .ws_session import WsSession, websockets_available

__all__ = [
    "HttpSession",
    "RemoteEnvError",
    "SQLEnvToolEnv",
    "Session",
    "StepResult",
    "WsSession",
    "connect",
    "env_reward",
    "render_text",
    "tolerant_tool",
    "websockets_available",
]
