"""Train a model on SQLEnv with TRL's GRPO and `environment_factory`, against `sqlenv serve`.

    npx sqlenv serve --max-sessions 64 --port 8000 &
    pip install trl datasets            # and torch
    SQLENV_URL=http://127.0.0.1:8000 python3 examples/python/trl_grpo.py

Each rollout gets its own `SQLEnvToolEnv` (one server session); the model calls the tools
describe/sample/query/answer; the reward is the episode's return. Set MODEL to a small
instruct model with tool calling (e.g. Qwen/Qwen2.5-0.5B-Instruct).
"""
import importlib.util
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "clients" / "python"))

REQUIRED = ["trl", "datasets", "torch", "transformers"]


def missing_packages() -> list:
    return [name for name in REQUIRED if importlib.util.find_spec(name) is None]


def main() -> int:
    missing = missing_packages()
    if missing:
        print(f"trl_grpo.py needs: {', '.join(missing)} (pip install {' '.join(missing)}). Nothing was run.")
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
