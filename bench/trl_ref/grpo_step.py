"""TRL's side of ``npm run bench -- vs-trl``: GRPO steps of TRL's GRPOTrainer on CPU, timed by phase.

    python grpo_step.py build DIR                 # a tiny random Qwen3 (the tiny-sql shape) as an HF directory
    python grpo_step.py train DIR '<json>'        # GRPO steps against SQLENV_URL; prints one JSON line

The model directory is what both trainers load: ``config.json``, ``model.safetensors`` and the
tokenizer (the project's tiny BPE with Qwen3's chat template, the copy TRL recognises). The
``train`` JSON gives the settings both sides share (K, prompts per step, completion budget, lr,
beta, clip range, steps) and the step to report (the last: earlier ones warm up).

Phases, timed by wrapping GRPOTrainer's own methods: generation (``_generate``: sampling the
completions), scoring (``_get_per_token_logps_and_entropies`` without gradient: the reference /
old log-probs), loss forward (the same with gradient, inside ``compute_loss``), backward
(``accelerator.backward``), optimizer (between the optimizer callbacks: ``optimizer.step``), and
the rest of the step (env resets, rewards, advantages, data handling).
"""
import json
import os
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "clients" / "python"))
sys.path.insert(0, str(ROOT / "examples" / "python"))


def build(out_dir: str) -> None:
    """The tiny-sql shape (4 layers, hidden 128, 4/2 heads, head_dim 32, MLP 384), random weights,
    full attention, saved with safetensors."""
    import torch
    from transformers import Qwen3ForCausalLM

    from tiny_qwen3 import qwen3_tokenizer, tiny_qwen3_config

    torch.manual_seed(0)
    tokenizer = qwen3_tokenizer()
    shape = {"hidden_size": 128, "intermediate_size": 384, "num_hidden_layers": 4, "head_dim": 32}
    config = tiny_qwen3_config(len(tokenizer), tokenizer.convert_tokens_to_ids("<|im_end|>"), tokenizer.pad_token_id, window=None, **shape)
    model = Qwen3ForCausalLM(config)
    model.save_pretrained(out_dir, safe_serialization=True)
    tokenizer.save_pretrained(out_dir)
    print(json.dumps({"dir": out_dir, "parameters": sum(p.numel() for p in model.parameters()), "tools": env_tools()}))


def env_tools() -> list:
    """The tool schemas TRL puts in the prompt: SQLEnvToolEnv's public methods (``inspect.getmembers``
    order, as GRPOTrainer collects them) through transformers' ``get_json_schema``, as
    ``apply_chat_template`` converts callables."""
    import inspect

    from transformers.utils import get_json_schema

    from sqlenv_client import SQLEnvToolEnv

    probe = SQLEnvToolEnv.__new__(SQLEnvToolEnv)  # no server needed: only the methods are read
    methods = [m for name, m in inspect.getmembers(probe, predicate=inspect.ismethod) if name not in ("reset", "get_reward") and not name.startswith("_")]
    return [get_json_schema(m) for m in methods]


def train(model_dir: str, settings: dict) -> None:
    import torch
    from datasets import Dataset
    from transformers import TrainerCallback
    from trl import GRPOConfig, GRPOTrainer

    from sqlenv_client import SQLEnvToolEnv

    torch.set_num_threads(int(settings.get("threads", 1)))
    k, prompts, steps = settings["k"], settings["prompts"], settings["steps"]
    spent = defaultdict(float)  # seconds per phase in the current step
    per_step = []
    tokens = {}

    def timed(name, fn, classify=None):
        def wrapper(*args, **kwargs):
            start = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                spent[classify() if classify else name] += time.perf_counter() - start

        return wrapper

    class Clock(TrainerCallback):
        def on_step_begin(self, args, state, control, **kwargs):
            spent.clear()
            tokens.clear()
            self.begin = time.perf_counter()

        def on_pre_optimizer_step(self, args, state, control, **kwargs):
            self.optimizer_begin = time.perf_counter()

        def on_optimizer_step(self, args, state, control, **kwargs):
            spent["optimizer"] += time.perf_counter() - self.optimizer_begin

        def on_step_end(self, args, state, control, **kwargs):
            total = time.perf_counter() - self.begin
            phases = dict(spent)
            phases["other"] = total - sum(phases.values())
            per_step.append({"step": state.global_step, "seconds": total, "phases": phases, **tokens})

    dataset = Dataset.from_list([{"seed": i} for i in range(prompts * steps)])
    config = GRPOConfig(
        output_dir=tempfile.mkdtemp(prefix="trl-vs-"),
        num_generations=k,
        per_device_train_batch_size=k * prompts,
        max_completion_length=settings["completion_tokens"],
        max_tool_calling_iterations=0,  # single-turn, as the other side (a random model writes no tool calls)
        max_steps=steps,
        learning_rate=settings["lr"],
        lr_scheduler_type="constant",
        beta=settings["beta"],
        epsilon=settings["epsilon_low"],
        epsilon_high=settings["epsilon_high"],
        num_iterations=1,
        loss_type="dapo",
        max_grad_norm=1.0,
        temperature=1.0,
        shuffle_dataset=False,
        logging_steps=1,
        use_cpu=True,
        bf16=False,
        report_to="none",
        save_strategy="no",
        seed=0,
        disable_tqdm=True,
        chat_template_kwargs={"enable_thinking": False},  # as sqlenv's trainer renders prompts (no thinking block)
    )
    trainer = GRPOTrainer(model=model_dir, args=config, train_dataset=dataset, environment_factory=SQLEnvToolEnv, callbacks=[Clock()])
    generate = trainer._generate

    def generate_and_count(prompts_batch):
        out = generate(prompts_batch)
        prompt_ids, completion_ids = out[0], out[1]
        tokens["prompt_tokens_mean"] = sum(len(p) for p in prompt_ids) / len(prompt_ids)
        tokens["completion_tokens"] = sum(len(c) for c in completion_ids)
        tokens["prompts"] = [list(p) for p in dict.fromkeys(tuple(int(t) for t in p) for p in prompt_ids)]  # distinct, in order
        return out

    trainer._generate = timed("generation", generate_and_count)
    trainer._get_per_token_logps_and_entropies = timed(
        "scoring", trainer._get_per_token_logps_and_entropies, lambda: "loss forward" if torch.is_grad_enabled() else "scoring"
    )
    trainer.accelerator.backward = timed("backward", trainer.accelerator.backward)
    trainer.train()
    print(json.dumps({"steps": per_step, "episodes": k * prompts}))


if __name__ == "__main__":
    if sys.argv[1:2] == ["build"]:
        build(sys.argv[2])
    else:
        train(sys.argv[2], json.loads(sys.argv[3]))
