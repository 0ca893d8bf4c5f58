"""The result of ``reset`` and ``step``, as the server sends it."""
from dataclasses import dataclass, field
from typing import Any, Dict, Optional


@dataclass
class StepResult:
    """OpenEnv's ``{observation, reward, done}`` plus this server's extras: Gymnasium's
    ``terminated``/``truncated`` split, the env's ``info`` and its text ``rendered`` form.

    Example::

        result = session.reset(seed=1)
        result.observation, result.info
    """

    observation: Any
    reward: Optional[float]
    done: bool
    terminated: bool = False
    truncated: bool = False
    info: Dict[str, Any] = field(default_factory=dict)
    rendered: Optional[str] = None

    @classmethod
    def from_wire(cls, data: Dict[str, Any]) -> "StepResult":
        """Build from the wire object (tolerates plain OpenEnv servers without the extras)."""
        done = bool(data.get("done", False))
        return cls(
            observation=data.get("observation"),
            reward=data.get("reward"),
            done=done,
            terminated=bool(data.get("terminated", done)),
            truncated=bool(data.get("truncated", False)),
            info=dict(data.get("info") or {}),
            rendered=data.get("rendered"),
        )
