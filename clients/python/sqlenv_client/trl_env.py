"""A TRL ``environment_factory`` class for SQLEnv served by ``sqlenv serve``.

The contract, as TRL 1.13's GRPOTrainer reads it: it builds instances with a no-argument
constructor (one per concurrent rollout, pooled and reused across training steps, also under a
``{name: factory}`` dict), calls ``reset(**row)`` with the dataset row before each rollout and
appends the returned text to the prompt's last message, offers every other public method as a
tool (its JSON schema comes from the signature's type hints and the docstring's ``Args:``
section), calls ``method(**arguments)`` with whatever the model produced, appends what it returns
to the conversation as the tool's message, and scores each finished rollout with
``get_reward()`` — by itself, as a reward source of weight 1: passing a reward function that
returns the same reward would count it twice.

What a tool returns is only what the call produced (its result or error, and the repairs SQLEnv
made to it): the question and the tables are already in the conversation, and the prompt of every
later turn carries each tool message again.

The seed's training collapsed on strict tools: the model passed extra ``null`` arguments, a strict
signature raised ``TypeError``, and the model learned nothing. So every tool here accepts any
arguments and never raises: they go to the environment exactly as the model wrote them, and
SQLEnv's tolerant parser repairs what it can (``table`` for ``table_name``, ``"5"`` for 5, null and
unknown arguments dropped) and reports each repair, which the tool's text passes on to the model.
Problems come back as text the model can act on. See :func:`forwarding_tool`.
"""
import functools
import inspect
import os
import typing
import weakref
from typing import Any, Callable, Dict, List, TypeVar, Union

from .connect import connect
from .errors import RemoteEnvError
from .render import render_text, render_tool_result

F = TypeVar("F", bound=Callable[..., str])

#: Any JSON value but null, as a type hint transformers' ``get_json_schema`` turns into
#: ``{"type": ["array", "boolean", "integer", "number", "object", "string"]}``.
JsonValue = Union[str, int, float, bool, list, dict]


def forwarding_tool(func: F) -> F:
    """Make ``func``'s signature and docstring the tool's schema, and every call a tool call with
    exactly the keyword arguments given: ``self._call_tool(func.__name__, kwargs)``. Parameters
    are shown as declared (no ``**kwargs``), while the method accepts any arguments — extra,
    missing, null, misnamed — and leaves their repair to the environment. ``func``'s body is never
    run.

    The decorated method's docstring is its body (what TRL reads for the description).

    Example::

        class Env:
            @forwarding_tool
            def query(self, sql: str) -> str:
                ...                            # a docstring with an Args: section in practice
            def _call_tool(self, name, arguments): ...
        inspect.signature(Env.query)           # (self, sql: str) -> str
        Env().query(table="x")                 # Env._call_tool(..., "query", {"table": "x"})
    """
    signature = inspect.signature(func)
    positional = [p.name for p in signature.parameters.values() if p.name != "self"]

    @functools.wraps(func)
    def tool(self: Any, *args: Any, **kwargs: Any) -> str:
        # Positional values (not what TRL sends, but a person may) take the declared names.
        arguments = dict(zip(positional, args))
        arguments.update(kwargs)
        return typing.cast(str, self._call_tool(func.__name__, arguments))

    tool.__signature__ = signature  # type: ignore[attr-defined]
    return typing.cast(F, tool)


class SQLEnvToolEnv:
    """One SQLEnv episode per instance, for ``GRPOTrainer(environment_factory=SQLEnvToolEnv)``.

    The server is read from ``SQLENV_URL`` (default ``http://127.0.0.1:8000``) and the token from
    ``SQLENV_TOKEN``. The episode's reward is :attr:`reward` / :meth:`get_reward`.

    Example::

        env = SQLEnvToolEnv()
        print(env.reset(question_id="spider-dev-0001"))
        print(env.query(sql="SELECT count(*) FROM concert"))   # only the query's result
        env.answer(value=6); env.reward
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
        db_id = row.get("db_id", row.get("dbId"))
        if db_id is not None:
            options["dbId"] = db_id
        if row.get("split") is not None:
            options["split"] = row["split"]
        seed = row.get("seed")
        result = self._session.reset(seed=seed if isinstance(seed, int) else None, options=options or None)
        self._reward = 0.0
        self._rewards = []
        self._done = False
        return render_text(result)

    @forwarding_tool
    def describe(self, table_name: str) -> str:
        """Show a table's columns, their types, keys and row count.

        Args:
            table_name: The name of the table to describe, as listed in the question's tables.
        """

    @forwarding_tool
    def sample(self, table_name: str, n: int = 5) -> str:
        """Show the first rows of a table.

        Args:
            table_name: The name of the table to sample.
            n: How many rows to show (default 5).
        """

    @forwarding_tool
    def query(self, sql: str) -> str:
        """Run one read-only SQL query (SQLite) and show its result.

        Args:
            sql: A single SELECT statement.
        """

    @forwarding_tool
    def answer(self, value: JsonValue) -> str:
        """Give the final answer to the question; this ends the episode.

        Args:
            value: The answer: a value, a list of values, rows (a list of lists), or the SQL query whose result answers the question.
        """

    def _call_tool(self, name: str, arguments: Dict[str, Any]) -> str:
        if self._done:
            return f"The episode is over (reward {self._reward:.3f}); no more tool calls are needed."
        try:
            result = self._session.step({"name": name, "arguments": arguments})
        except RemoteEnvError as err:
            return f"Error ({err.code}): {err.message}"
        self._reward += float(result.reward or 0.0)
        self._rewards.append(float(result.reward or 0.0))
        self._done = result.done
        text = render_tool_result(result)
        if result.done:
            text += f"\nEpisode over. Reward: {self._reward:.3f}."
        return text
