"""Train a model on SQLEnv with TRL's GRPO and `environment_factory`, against `sqlenv serve`.

    npx sqlenv serve --env SQLEnv-v0 --dataset bundled --max-sessions 64 --port 8000 &
    pip install trl datasets            # and torch
    SQLENV_URL=http://127.0.0.1:8000 python3 examples/python/trl_grpo.py

Each rollout gets its own `SQLEnvToolEnv` (one server session); the model calls the tools
describe/sample/query/answer; the reward is the episode's return. Set MODEL to a small
instruct model with tool calling (e.g. Qwen/Qwen2.5-0.5B-Instruct).

It first checks the server with the standard library alone (tools listed, one episode reset,
one describe call), so a wrong URL or token shows up before any model is loaded; without the
training packages it stops after that check and names what to install.
"""
import importlib.util
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "clients" / "python"))

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

    from datasets import Dataset  # type: ignore[import-not-found]
    from trl import GRPOConfig, GRPOTrainer  # type: ignore[import-not-found]

    from sqlenv_client import SQLEnvToolEnv, env_reward

    # The prompts only frame the task: reset() appends the question and tables from the server.
    prompt = [{"role": "system", "content": "Answer the question about the database. Use the tools, then call answer."}]
    episodes = int(os.environ.get("EPISODES", "64"))
    dataset = Dataset.from_list([{"prompt": prompt, "seed": i} for i in range(episodes)])

    config = GRPOConfig(
        output_dir=os.environ.get("OUTPUT_DIR", "runs/trl-grpo-sqlenv"),
        num_generations=8,  # the group size: the server needs --max-sessions >= batch size
        per_device_train_batch_size=8,
        max_completion_length=1024,
        learning_rate=1e-6,
        beta=0.04,  # KL to the reference keeps the policy from drifting into degenerate tool calls
        logging_steps=1,
    )
    trainer = GRPOTrainer(
        model=os.environ.get("MODEL", "Qwen/Qwen2.5-0.5B-Instruct"),
        args=config,
        train_dataset=dataset,
        reward_funcs=[env_reward],
        environment_factory=SQLEnvToolEnv,
    )
    trainer.train()
    return 0


if __name__ == "__main__":
    sys.exit(main())
