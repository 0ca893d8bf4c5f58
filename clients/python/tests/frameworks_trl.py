"""TRL 1.13's GRPOTrainer with ``environment_factory`` on :class:`SQLEnvToolEnv`, against a real
``sqlenv serve``.

Not part of ``unittest discover`` (the file name does not start with ``test``): it needs TRL,
transformers, torch and datasets and a server, and ``test/python/trl.test.ts`` runs it with the
venv of ``scripts/python-venv.sh`` against the ``sqlenv serve --env SQLEnv-v0`` it starts::

    SQLENV_URL=http://127.0.0.1:8000 python -m unittest tests.frameworks_trl -v   # in clients/python

The model is a tiny random Qwen3 built offline (``examples/python/tiny_qwen3.py``) and taught to
open its turn with a tool call, so the rollouts really reach the server.
"""
import inspect
import os
import re
import sys
import tempfile
import unittest
import urllib.request
from pathlib import Path
from typing import Dict, List

from sqlenv_client import SQLEnvToolEnv

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "examples" / "python"))

URL = os.environ.get("SQLENV_URL", "")
TOOLS = ["answer", "describe", "query", "sample"]


def server_counter(name: str) -> float:
    """One counter of the server's /metrics, summed over its labels."""
    with urllib.request.urlopen(f"{URL}/metrics") as response:
        text = response.read().decode()
    return sum(float(m.group(1)) for m in re.finditer(rf"^{name}(?:{{[^}}]*}})? (\S+)$", text, re.M))


class RecordingEnv(SQLEnvToolEnv):
    """SQLEnvToolEnv that remembers what TRL asked of it: how many instances it built and every
    reward ``get_reward`` gave (TRL calls it once per finished rollout)."""

    created = 0
    rewards: List[float] = []

    def __init__(self) -> None:
        super().__init__()
        RecordingEnv.created += 1

    def get_reward(self) -> float:
        reward = super().get_reward()
        RecordingEnv.rewards.append(reward)
        return reward


@unittest.skipUnless(URL, "SQLENV_URL is not set; run through `npx vitest run test/python/trl.test.ts`")
class TrlEnvironmentFactoryTest(unittest.TestCase):
    def test_the_class_meets_trls_environment_factory_contract(self) -> None:
        from transformers.utils import get_json_schema

        env = SQLEnvToolEnv()  # no-argument constructor
        # What GRPOTrainer.__init__ reads: bound methods; reset and get_reward are not tools.
        members = dict(inspect.getmembers(env, predicate=inspect.ismethod))
        self.assertIn("reset", members)
        self.assertIn("get_reward", members)
        tools = sorted(n for n in members if n not in ("reset", "get_reward") and not n.startswith("_"))
        self.assertEqual(tools, TOOLS)
        for name in tools:
            schema = get_json_schema(members[name])["function"]  # what the chat template receives
            self.assertEqual(schema["name"], name)
            self.assertTrue(schema["description"])
            for arg, spec in schema["parameters"]["properties"].items():
                self.assertIn("type", spec, f"{name}.{arg}")
                self.assertTrue(spec.get("description"), f"{name}.{arg} has no Args: entry")
        self.assertEqual(get_json_schema(members["query"])["function"]["parameters"]["required"], ["sql"])
        observation = env.reset(seed=1, prompt=[{"role": "user", "content": ""}])  # the whole row comes in
        self.assertIsInstance(observation, str)
        self.assertIn("Question:", observation)
        self.assertIsInstance(env.get_reward(), float)

    def test_grpo_trainer_trains_two_steps_with_the_tools_on_the_server(self) -> None:
        from datasets import Dataset
        from trl import GRPOConfig, GRPOTrainer

        from tiny_qwen3 import TOOL_CALLS, cached_tiny_qwen3

        model = cached_tiny_qwen3(teach=TOOL_CALLS)
        RecordingEnv.created, RecordingEnv.rewards = 0, []
        steps_before = server_counter("sqlenv_steps_total")
        sessions_before = server_counter("sqlenv_sessions_total")
        group, prompts = 4, 2
        # The {name: factory} form: every row names its environment; reset() gets the rest of it.
        dataset = Dataset.from_list([{"environment": "sql", "seed": i} for i in range(16)])
        config = GRPOConfig(
            output_dir=tempfile.mkdtemp(prefix="trl-grpo-test-"),
            num_generations=group,
            per_device_train_batch_size=group * prompts,
            max_completion_length=96,
            max_tool_calling_iterations=2,
            max_steps=2,
            learning_rate=1e-4,
            logging_steps=1,
            use_cpu=True,
            bf16=False,
            report_to="none",
            save_strategy="no",
            seed=0,
        )
        trainer = GRPOTrainer(model=model, args=config, train_dataset=dataset, environment_factory={"sql": RecordingEnv})
        weights_before = {k: v.detach().clone() for k, v in trainer.model.named_parameters()}
        trainer.train()

        logs: List[Dict[str, float]] = [e for e in trainer.state.log_history if "rewards/RecordingEnv/mean" in e]
        self.assertEqual([e["step"] for e in logs], [1, 2])
        # The tools were called, and the calls reached the server (its own step counter).
        self.assertTrue(any(e["tools/call_frequency"] > 0 for e in logs), logs)
        self.assertGreater(server_counter("sqlenv_steps_total") - steps_before, 0)
        # The rewards are the environment's: per step, the logged env column is the mean of what
        # get_reward returned for that step's rollouts, and the total reward is that alone (TRL adds
        # get_reward by itself; a reward function returning it again would double it).
        rollouts = group * prompts
        self.assertEqual(len(RecordingEnv.rewards), 2 * rollouts)
        for i, entry in enumerate(logs):
            mine = RecordingEnv.rewards[i * rollouts : (i + 1) * rollouts]
            self.assertAlmostEqual(entry["rewards/RecordingEnv/mean"], sum(mine) / rollouts, places=5)
            self.assertAlmostEqual(entry["reward"], entry["rewards/RecordingEnv/mean"], places=5)
        # Instances are pooled and reused across steps: one per concurrent rollout, one server
        # session each, not one per rollout per step.
        self.assertEqual(RecordingEnv.created, rollouts)
        self.assertEqual(server_counter("sqlenv_sessions_total") - sessions_before, rollouts)
        # A real update: the policy's weights moved.
        moved = [k for k, v in trainer.model.named_parameters() if not v.detach().equal(weights_before[k])]
        self.assertTrue(moved)


if __name__ == "__main__":
    unittest.main()
