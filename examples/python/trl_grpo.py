"""Train a model on SQLEnv with TRL's GRPOTrainer and `environment_factory`, against `sqlenv serve`.

    npx sqlenv serve --env SQLEnv-v0 --dataset bundled --max-sessions 64 --port 8000 &
    pip install trl datasets torch transformers
    SQLENV_URL=http://127.0.0.1:8000 python3 examples/python/trl_grpo.py

Each rollout gets its own `SQLEnvToolEnv` (one server session, reused across steps); the model
calls the tools describe/sample/query/answer; the reward is the episode's return, which TRL
takes from the env's `get_reward()` by itself (no `reward_funcs` needed — adding one that
returns the same reward would count it twice).

MODEL names the model to train (a Hub id or a local directory of a small instruct model with
tool calling whose chat template TRL recognises, e.g. Qwen/Qwen3-0.6B). Without MODEL it builds
a tiny random Qwen3 offline (examples/python/tiny_qwen3.py; once, then cached under
~/.cache/sqlenv), taught to open its turn with a tool call, and trains it for MAX_STEPS (default 2) steps: the whole loop runs in a minute on a
CPU, which is what the tests check — it learns nothing useful.

It first checks the server with the standard library alone (tools listed, one episode reset,
one describe call), so a wrong URL or token shows up before any model is loaded; without the
training packages it stops after that check and names what to install.
"""
import importlib.util
import os
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1] / "clients" / "python"))
sys.path.insert(0, str(HERE))

REQUIRED = ["trl", "datasets", "torch", "transformers"]


def missing_packages() -> list:
    return [name for name in REQUIRED if importlib.util.find_spec(name) is None]


def check_server() -> bool:
    """Before loading a model: play one tool call on the server with the standard library only
    (reachable, token accepted, serving SQLEnv's tools). Prints what it found."""
    from sqlenv_client import RemoteEnvError, connect

    url = os.environ.get("SQLENV_URL", "http://127.0.0.1:8000")
    try:
        with connect(url, token=os.environ.get("SQLENV_TOKEN") or None) as session:
            tools = sorted(t["name"] for t in session.list_tools())
            obs = session.reset(seed=0).observation
            table = (obs.get("tables") or ["?"])[0] if isinstance(obs, dict) else "?"
            step = session.step({"name": "describe", "arguments": {"table_name": table}})
    except (OSError, RemoteEnvError) as err:
        print(f"trl_grpo.py: the server at {url} is not usable: {err}")
        return False
    if not {"describe", "sample", "query", "answer"} <= set(tools):
        print(f"trl_grpo.py: the server at {url} does not serve SQLEnv's tools (it has: {', '.join(tools) or 'none'})")
        return False
    error = step.observation.get("error") if isinstance(step.observation, dict) else None
    print(f"server ok: {url} serves tools {', '.join(tools)}; describe({table}) -> {'error: ' + error if error else 'ok'}")
    return True


def main() -> int:
    missing = missing_packages()
    server_ok = check_server()
    if missing:
        print(f"trl_grpo.py needs: {', '.join(missing)} (pip install {' '.join(missing)}). Nothing was trained.")
        return 1
    if not server_ok:
        return 1

    from datasets import Dataset
    from trl import GRPOConfig, GRPOTrainer

    from sqlenv_client import SQLEnvToolEnv

    model = os.environ.get("MODEL")
    tiny = model is None
    if tiny:
        from tiny_qwen3 import TOOL_CALLS, cached_tiny_qwen3

        model = cached_tiny_qwen3(teach=TOOL_CALLS)
        print(f"a tiny random Qwen3 taught to call tools: {model}")

    # Rows are reset()'s keyword arguments: a seed picks the question; `question_id` would name
    # one. With no `prompt` column TRL starts from an empty user message, and reset()'s text (the
    # question and the tables) becomes that message; the tools' schemas go in the system prompt.
    episodes = int(os.environ.get("EPISODES", "64"))
    dataset = Dataset.from_list([{"seed": i} for i in range(episodes)])
    group = 4 if tiny else 8  # the GRPO group; the server needs --max-sessions >= the batch size
    config = GRPOConfig(
        output_dir=os.environ.get("OUTPUT_DIR", tempfile.mkdtemp(prefix="trl-grpo-sqlenv-") if tiny else "runs/trl-grpo-sqlenv"),
        num_generations=group,
        per_device_train_batch_size=group,
        max_completion_length=128 if tiny else 1024,
        max_tool_calling_iterations=3 if tiny else None,
        max_steps=int(os.environ.get("MAX_STEPS", "2" if tiny else "-1")),
        learning_rate=1e-6,
        beta=0.04,  # KL to the reference keeps the policy from drifting into degenerate tool calls
        logging_steps=1,
        report_to="none",
        save_strategy="no",
        **({"use_cpu": True, "bf16": False} if tiny else {}),
    )
    trainer = GRPOTrainer(model=model, args=config, train_dataset=dataset, environment_factory=SQLEnvToolEnv)
    trainer.train()
    for entry in trainer.state.log_history:
        if "rewards/SQLEnvToolEnv/mean" in entry:
            print(f"step {entry['step']}: reward {entry['rewards/SQLEnvToolEnv/mean']:.3f}, tool calls per rollout {entry.get('tools/call_frequency', 0):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
