"""A ``gymnasium.Env`` backed by a remote env session (needs ``gymnasium``)."""
from typing import Any, Dict, Optional, Tuple

import gymnasium
from gymnasium import spaces

from .connect import connect
from .json_schema import JsonSchemaSampler


class JsonSchemaSpace(spaces.Space):
    """A space known only by its JSON Schema (e.g. tool calls), for the adapter's spaces.

    ``sample`` draws schema-valid values from its own seeded generator (``seed(n)`` makes the
    draws repeatable); ``contains`` checks the value against the schema (the subset
    :mod:`sqlenv_client.json_schema` describes; the server still has the last word).

    Example::

        space = JsonSchemaSpace(schema["action"], seed=0)   # schema = GET /schema
        space.sample()   # e.g. {"name": "query", "arguments": {"sql": "x7 Ab"}}
    """

    def __init__(self, schema: Dict[str, Any], seed: Optional[int] = None):
        self.schema = schema
        self._sampler = JsonSchemaSampler(schema)
        super().__init__(seed=seed)

    @property
    def is_np_flattenable(self) -> bool:
        return False

    def seed(self, seed: Optional[int] = None) -> Any:
        """Seed the sampler; returns what Gymnasium's own spaces return (an ``int`` since
        Gymnasium 1.0, a one-element list before)."""
        seeds = super().seed(seed)
        self._sampler.seed(int(seeds[0] if isinstance(seeds, (list, tuple)) else seeds))
        return seeds

    def contains(self, x: Any) -> bool:
        return self._sampler.contains(x)

    def sample(self, mask: Any = None, probability: Any = None) -> Any:
        if mask is not None or probability is not None:
            raise ValueError("JsonSchemaSpace.sample takes no mask or probability")
        return self._sampler.sample()

    def __eq__(self, other: Any) -> bool:
        # Spaces of the same schema are the same space (vector envs compare their members').
        return isinstance(other, JsonSchemaSpace) and self.schema == other.schema

    def __repr__(self) -> str:
        return f"JsonSchemaSpace({self.schema.get('x-space') or self.schema.get('type') or 'schema'})"


#: What :class:`AnyText` samples from: printable ASCII, as the TypeScript ``Text`` space does.
PRINTABLE_ASCII = "".join(chr(c) for c in range(0x20, 0x7F))


class AnyText(spaces.Text):
    """A ``Text`` space whose members are all strings of the right length (the schema's
    ``"x-charset": "any"``: questions, SQL results, error messages hold any character).

    Gymnasium's ``Text`` accepts only characters of its charset, so a plain ``Text`` would
    reject nearly every real observation; this one samples printable ASCII but contains any
    string between ``min_length`` and ``max_length`` code points.

    Example::

        space = AnyText(max_length=10, min_length=0)
        "héllo ✓" in space   # True
        len(space.sample()) <= 10
    """

    def __init__(self, max_length: int, *, min_length: int = 1, seed: Optional[int] = None):
        super().__init__(max_length, min_length=min_length, charset=PRINTABLE_ASCII, seed=seed)

    def contains(self, x: Any) -> bool:
        return isinstance(x, str) and self.min_length <= len(x) <= self.max_length

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, AnyText) and self.min_length == other.min_length and self.max_length == other.max_length

    def __repr__(self) -> str:
        return f"AnyText({self.min_length}, {self.max_length})"


def space_from_schema(schema: Dict[str, Any]) -> spaces.Space:
    """The Gymnasium space for a schema from ``/schema`` (built-in kinds; others as :class:`JsonSchemaSpace`)."""
    tag = schema.get("x-space")
    if tag == "Discrete":
        return spaces.Discrete(int(schema["maximum"]) - int(schema["minimum"]) + 1, start=int(schema["minimum"]))
    if tag == "Text":
        max_length, min_length = int(schema["maxLength"]), int(schema.get("minLength", 0))
        charset = schema.get("x-charset", "any")
        if charset == "any":
            return AnyText(max_length, min_length=min_length)
        return spaces.Text(max_length, min_length=min_length, charset=str(charset))
    if tag == "Dict":
        return spaces.Dict({k: space_from_schema(v) for k, v in (schema.get("properties") or {}).items()})
    return JsonSchemaSpace(schema)


class RemoteGymEnv(gymnasium.Env):
    """A Gymnasium environment whose episodes run on an sqlenv server.

    Example::

        env = RemoteGymEnv("http://127.0.0.1:8000")
        obs, info = env.reset(seed=0)
        obs, reward, terminated, truncated, info = env.step({"name": "describe", "arguments": {"table_name": "singer"}})
        env.close()
    """

    # Text rendering has no frame rate; Gymnasium's checker still asks every env to declare one.
    metadata = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(self, url: str, transport: str = "auto", encoding: str = "auto", token: Optional[str] = None, render_mode: Optional[str] = None):
        self._session = connect(url, transport=transport, encoding=encoding, token=token)
        schema = self._session.schema() if hasattr(self._session, "schema") else {}
        self.action_space = space_from_schema(schema.get("action", {}))
        self.observation_space = space_from_schema(schema.get("observation", {}))
        self.render_mode = render_mode
        self._rendered: Optional[str] = None

    def reset(self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None) -> Tuple[Any, Dict[str, Any]]:
        super().reset(seed=seed)
        result = self._session.reset(seed=seed, options=options)
        self._rendered = result.rendered
        return result.observation, result.info

    def step(self, action: Any) -> Tuple[Any, float, bool, bool, Dict[str, Any]]:
        result = self._session.step(action)
        self._rendered = result.rendered
        return result.observation, float(result.reward or 0.0), result.terminated, result.truncated, result.info

    def render(self) -> Optional[str]:
        return self._rendered

    def close(self) -> None:
        self._session.close()


#: The Gymnasium id of :class:`RemoteGymEnv`: ``gymnasium.make(REMOTE_ENV_ID, url=...)``.
REMOTE_ENV_ID = "sqlenv/Remote-v0"

# Registered on import, as Gymnasium packages do, so ``gymnasium.make`` gives the env a spec
# (check_env re-creates it from the spec to test every render mode and a double close).
if REMOTE_ENV_ID not in gymnasium.registry:
    gymnasium.register(REMOTE_ENV_ID, entry_point=f"{__name__}:RemoteGymEnv", disable_env_checker=True)
