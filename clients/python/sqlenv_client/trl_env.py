"""A TRL ``environment_factory`` class for SQLEnv served by ``sqlenv serve``.

The contract, as TRL 1.13's GRPOTrainer reads it: it builds instances with a no-argument
constructor (one per concurrent rollout, pooled and reused across training steps, also under a
``{name: factory}`` dict), calls ``reset(**row)`` with the dataset row before each rollout and
appends the returned text to the prompt's last message, offers every other public method as a
tool (its JSON schema comes from the signature's type hints and the docstring's ``Args:``
section), calls ``method(**arguments)`` with whatever the model produced, and scores each finished
rollout with ``get_reward()`` — by itself, as a reward source of weight 1: passing a reward
function that returns the same reward would count it twice.

The seed's training collapsed there: the model passed extra ``null`` arguments, a strict
signature raised ``TypeError``, and the model learned nothing. So every tool here accepts
``**kwargs`` and missing arguments, and never raises: problems come back as text the model can
act on. The ``**kwargs`` is hidden from the signature TRL inspects (see :func:`tolerant_tool`),
so the tool schemas list only the real parameters.
"""
import functools
import inspect
import os
import typing
import weakref
from typing import Any, Callable, Dict, List, Optional, TypeVar

from .connect import connect
from .errors import RemoteEnvError
from .render import render_text

F = TypeVar("F", bound=Callable[..., str])


def tolerant_tool(func: F) -> F:
    """Present ``func`` to schema builders without its ``**kwargs`` and with its ``None``
    defaults shown as required parameters, while the function itself keeps accepting extra
    and missing arguments.

    Example::

        class Env:
            @tolerant_tool
            def query(self, sql: Optional[str] = None, **kwargs: Any) -> str:
                ...
        inspect.signature(Env().query)  # (sql: str) -> str
    """
    real = inspect.signature(func)
    params = []
    annotations: Dict[str, Any] = {}
    hints = typing.get_type_hints(func)
    for p in real.parameters.values():
        if p.kind in (p.VAR_KEYWORD, p.VAR_POSITIONAL):
            continue
        hint = hints.get(p.name, p.annotation)
        if p.default is None:
            hint = _strip_optional(hint)
            p = p.replace(default=inspect.Parameter.empty, annotation=hint)
        params.append(p)
        if p.name != "self":
            annotations[p.name] = hint
    annotations["return"] = hints.get("return", str)

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> str:
        return func(*args, **kwargs)

    wrapper.__signature__ = real.replace(parameters=params)  # type: ignore[attr-defined]
    wrapper.__annotations__ = annotations
    return typing.cast(F, wrapper)


def _strip_optional(hint: Any) -> Any:
    args = [a for a in typing.get_args(hint) if a is not type(None)]
    return args[0] if typing.get_origin(hint) is typing.Union and len(args) == 1 else hint


class SQLEnvToolEnv:
    """One SQLEnv episode per instance, for ``GRPOTrainer(environment_factory=SQLEnvToolEnv)``.

    The server is read from ``SQLENV_URL`` (default ``http://127.0.0.1:8000``) and the token from
    ``SQLENV_TOKEN``. The episode's reward is :attr:`reward` / :meth:`get_reward`.

    Example::

        env = SQLEnvToolEnv()
        print(env.reset(question_id="spider-dev-0001"))
        print(env.query(sql="SELECT count(*) FROM singer", table_name=None))
        env.answer(value="6"); env.reward
    """

    def __init__(self) -> None:
        url = os.environ.get("SQLENV_URL", "http://127.0.0.1:8000")
        self._session = connect(url, token=os.environ.get("SQLENV_TOKEN") or None)
        # Closes the server session when the instance is garbage-collected: TRL never calls close().
        self._finalizer = weakref.finalize(self, self._session.close)
        self._reward = 0.0
        self._done = False
        self._rewards: List[float] = []

    @property
    def reward(self) -> float:
        """The sum of this episode's rewards."""
        return self._reward

    @property
    def done(self) -> bool:
        """Whether the episode ended (answered, or out of steps)."""
        return self._done

    def get_reward(self) -> float:
        """The episode's reward so far (TRL 1.13 calls it once per finished rollout, as a reward source)."""
        return self._reward

    def reset(self, **row: Any) -> str:
        """Start an episode for a dataset row; returns the question and the tables as text."""
        options: Dict[str, Any] = {}
        question_id = row.get("question_id", row.get("id"))
        if question_id is not None:
            options["questionId"] = question_id
        for key in ("split", "dbId"):
            if row.get(key) is not None:
                options[key] = row[key]
        seed = row.get("seed")
        result = self._session.reset(seed=seed if isinstance(seed, int) else None, options=options or None)
        self._reward = 0.0
        self._rewards = []
        self._done = False
        return render_text(result)

    @tolerant_tool
    def describe(self, table_name: Optional[str] = None, **kwargs: Any) -> str:
        """Show a table's columns, their types, keys and row count.

        Args:
            table_name: The name of the table to describe, as listed in the question's tables.
        """
        return self._tool("describe", {"table_name": table_name}, kwargs)

    @tolerant_tool
    def sample(self, table_name: Optional[str] = None, n: int = 5, **kwargs: Any) -> str:
        """Show the first rows of a table.

        Args:
            table_name: The name of the table to sample.
            n: How many rows to show (default 5).
        """
        return self._tool("sample", {"table_name": table_name, "n": n}, kwargs)

    @tolerant_tool
    def query(self, sql: Optional[str] = None, **kwargs: Any) -> str:
        """Run one read-only SQL query (SQLite) and show its result.

        Args:
            sql: A single SELECT statement.
        """
        return self._tool("query", {"sql": sql}, kwargs)

    @tolerant_tool
    def answer(self, value: Optional[str] = None, **kwargs: Any) -> str:
        """Give the final answer to the question; this ends the episode.

        Args:
            value: The answer: a value, a list of values, or the SQL query whose result answers the question.
        """
        return self._tool("answer", {"value": value}, kwargs)

    def _tool(self, name: str, arguments: Dict[str, Any], extra: Dict[str, Any]) -> str:
        if self._done:
            return f"The episode is over (reward {self._reward:.3f}); no more tool calls are needed."
        # Extra arguments the model invented are dropped; null ones too (the seed's collapse).
        args = {k: v for k, v in arguments.items() if v is not None}
        try:
            result = self._session.step({"name": name, "arguments": args})
        except RemoteEnvError as err:
            return f"Error ({err.code}): {err.message}"
        self._reward += float(result.reward or 0.0)
        self._rewards.append(float(result.reward or 0.0))
        self._done = result.done
        text = render_text(result)
        ignored = sorted(k for k, v in extra.items() if v is not None)
        if ignored:
            text += f"\n(Ignored unknown arguments: {', '.join(ignored)}.)"
        if result.done:
            text += f"\nEpisode over. Reward: {self._reward:.3f}."
        return text

