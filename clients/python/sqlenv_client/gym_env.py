"""A ``gymnasium.Env`` backed by a remote env session (needs ``gymnasium``)."""
from typing import Any, Dict, List, Optional, Tuple

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

    def seed(self, seed: Optional[int] = None) -> List[int]:
        seeds = super().seed(seed)
        self._sampler.seed(int(seeds[0]))
        return seeds

    def contains(self, x: Any) -> bool:
        return self._sampler.contains(x)

    def sample(self, mask: Any = None, probability: Any = None) -> Any:
        if mask is not None or probability is not None:
            raise ValueError("JsonSchemaSpace.sample takes no mask or probability")
        return self._sampler.sample()

    def __repr__(self) -> str:
        return f"JsonSchemaSpace({self.schema.get('x-space') or self.schema.get('type') or 'schema'})"


def space_from_schema(schema: Dict[str, Any]) -> spaces.Space:
    """The Gymnasium space for a schema from ``/schema`` (built-in kinds; others as :class:`JsonSchemaSpace`)."""
    tag = schema.get("x-space")
    if tag == "Discrete":
        return spaces.Discrete(int(schema["maximum"]) - int(schema["minimum"]) + 1, start=int(schema["minimum"]))
    if tag == "Text":
        return spaces.Text(max_length=int(schema["maxLength"]), min_length=int(schema.get("minLength", 0)))
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

    metadata = {"render_modes": ["ansi"]}

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
