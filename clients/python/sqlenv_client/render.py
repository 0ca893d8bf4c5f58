"""Text for language models from a step result."""
import json
from typing import Any, Dict

from .step_result import StepResult


def render_text(result: StepResult) -> str:
    """The text a model should read after ``reset`` or a tool call.

    The server's own rendering (``rendered``) wins when the env provides one; otherwise an
    SQLEnv-style observation (question, tables, result table, error) is laid out as text,
    and any other observation is shown as JSON.

    Example::

        render_text(session.reset(seed=0))  # 'Question: How many singers ...'
    """
    if result.rendered:
        return result.rendered
    obs = result.observation
    if isinstance(obs, str):
        return obs
    if not isinstance(obs, dict):
        return json.dumps(obs)
    lines = []
    if obs.get("question"):
        lines.append(f"Question: {obs['question']}")
    if obs.get("tables"):
        lines.append("Tables: " + ", ".join(str(t) for t in obs["tables"]))
        if obs.get("columns"):
            lines.append("Columns: " + "; ".join(f"{t}({c})" for t, c in zip(obs["tables"], obs["columns"])))
    if obs.get("error"):
        lines.append(f"Error: {_as_text(obs['error'])}")
    result = obs.get("result")
    if result is not None and not (isinstance(result, dict) and result.get("columns") == []):
        lines.append(_result_text(result))
    if obs.get("budgetRemaining") is not None:
        lines.append(f"Steps left: {obs['budgetRemaining']}")
    return "\n".join(lines) if lines else json.dumps(obs)


def render_tool_result(result: StepResult) -> str:
    """The text a model should read after a tool call: only what the call produced — its result
    or its error, and the repairs the env made to the call (``info["repairs"]``) — not the whole
    observation again (the question, the tables and the history are in the conversation already).

    Observations without SQLEnv's ``result``/``error`` fields fall back to :func:`render_text`.

    Example::

        render_tool_result(session.step({"name": "describe", "arguments": {"table": "singer"}}))
        # 'Table singer: ...\nRepaired: argument "table" read as "table_name".'
    """
    obs = result.observation
    if not (isinstance(obs, dict) and ("result" in obs or "error" in obs)):
        return render_text(result)
    lines = []
    if obs.get("error"):
        lines.append(f"Error: {_as_text(obs['error'])}")
    elif obs.get("result") not in (None, "") and not (isinstance(obs["result"], dict) and obs["result"].get("columns") == []):
        lines.append(_result_text(obs["result"]))
    repairs = [r.get("detail") for r in result.info.get("repairs") or [] if isinstance(r, dict) and r.get("detail")]
    if repairs:
        lines.append("Repaired: " + "; ".join(str(d) for d in repairs) + ".")
    return "\n".join(lines) if lines else "Done."


def _as_text(value: Any) -> str:
    if isinstance(value, dict) and "message" in value:
        return str(value["message"])
    return value if isinstance(value, str) else json.dumps(value)


def _result_text(result: Any) -> str:
    if isinstance(result, dict) and "columns" in result and "rows" in result:
        return _table(result)
    return _as_text(result)


def _table(result: Dict[str, Any]) -> str:
    header = " | ".join(str(c) for c in result["columns"])
    rows = [" | ".join("NULL" if v is None else str(v) for v in row) for row in result["rows"]]
    extra = ""
    count = result.get("rowCount")
    if isinstance(count, int) and count > len(rows):
        extra = f"\n({count} rows, {len(rows)} shown)"
    return "\n".join([header] + rows) + extra
