"""A tiny Qwen3 for trying TRL against sqlenv offline: built from a config, no download.

    from tiny_qwen3 import TOOL_CALLS, build_tiny_qwen3, cached_tiny_qwen3
    model_dir = build_tiny_qwen3("runs/tiny-qwen3", teach=TOOL_CALLS)   # an HF directory
    model_dir = cached_tiny_qwen3(teach=TOOL_CALLS)   # the same, built once per machine

The tokenizer is the project's byte-level BPE (``models/tiny-sql/tokenizer.json``) with Qwen3's
own chat template, the copy TRL ships: TRL recognises it by identity and then knows how to
parse the model's ``<tool_call>`` blocks (``trl.chat_template_utils.add_response_schema``).
The weights are random (seeded), then, when ``teach`` lists tool calls, fitted for a few
dozen full-batch steps to answer a prompt with one of them, so that GRPO's rollouts really call
the environment's tools — a random model almost never writes a well-formed tool call. The
directory holds ``config.json``, ``model.safetensors`` and the tokenizer files, so any loader of
Hugging Face directories can read it (sqlenv's own included).
"""
import hashlib
import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import List, Optional, Sequence

ROOT = Path(__file__).resolve().parents[2]
TOKENIZER_DIR = ROOT / "models" / "tiny-sql"

#: Prompts like the ones TRL builds from SQLEnvToolEnv.reset() (an empty user message plus the
#: episode's text), for teaching.
PROMPTS = [
    "Question: How many singers are there?\n\nDatabase: concert_singer\n\nTables: stadium, singer, concert\n\nStep 0; 10 steps left.",
    "Question: Show the names of teachers older than 40.\n\nDatabase: school\n\nTables: teacher, club, student, course\n\nStep 0; 10 steps left.",
]

#: Tool calls the tiny model is taught by default: two different ones, so GRPO's groups mix
#: outcomes (a query that runs, an answer that ends the episode).
TOOL_CALLS = [
    {"name": "query", "arguments": {"sql": "SELECT 1"}},
    {"name": "answer", "arguments": {"value": "0"}},
]


#: Attention window of the taught model: each layer sees the last WINDOW tokens, so with
#: LAYERS layers a token depends on at most LAYERS * WINDOW tokens before it.
WINDOW = 32
LAYERS = 2


def tiny_qwen3_config(vocab_size: int, eos_token_id: int, pad_token_id: int, window: Optional[int] = WINDOW, **shape: int):
    """The shape: 2 layers, width 64, 4 query / 2 key-value heads (grouped-query attention, as Qwen3).

    ``window``: sliding-window attention in every layer (Qwen3's ``use_sliding_window``), or
    ``None`` for full attention. With a window, what the model writes depends only on the last
    ``LAYERS * window`` tokens, so teaching it on those few tokens teaches it for any prompt
    (RoPE scores depend on relative positions only): seconds of fitting instead of minutes.
    ``shape`` overrides Qwen3Config fields (e.g. ``hidden_size=128, num_hidden_layers=4``).
    """
    from transformers import Qwen3Config

    dims = {"hidden_size": 64, "intermediate_size": 192, "num_hidden_layers": LAYERS, "num_attention_heads": 4, "num_key_value_heads": 2, "head_dim": 16, **shape}
    return Qwen3Config(
        vocab_size=vocab_size,
        **dims,
        max_position_embeddings=4096,
        rms_norm_eps=1e-6,
        rope_theta=10000.0,
        tie_word_embeddings=True,
        eos_token_id=eos_token_id,
        pad_token_id=pad_token_id,
        bos_token_id=None,
        torch_dtype="float32",
        use_sliding_window=window is not None,
        sliding_window=window,
        max_window_layers=0,  # every layer slides
    )


def qwen3_tokenizer(tokenizer_dir: Path = TOKENIZER_DIR):
    """The project's tiny BPE tokenizer with Qwen3's chat template (TRL's copy, byte for byte)."""
    from transformers import AutoTokenizer
    from trl.chat_template_utils import qwen3_chat_template

    tokenizer = AutoTokenizer.from_pretrained(str(tokenizer_dir))
    tokenizer.chat_template = qwen3_chat_template
    return tokenizer


def tool_call_text(call: dict) -> str:
    """An assistant turn calling one tool, as Qwen3's template renders it (then end of turn)."""
    return f"<tool_call>\n{json.dumps(call)}\n</tool_call><|im_end|>"


def sqlenv_tool_schemas() -> List[dict]:
    """SQLEnv's tools as TRL shows them to the chat template: the JSON schemas transformers
    derives from ``SQLEnvToolEnv``'s methods (bound, as TRL passes them; no server needed)."""
    import types

    from transformers.utils import get_json_schema

    from sqlenv_client import SQLEnvToolEnv

    return [get_json_schema(types.MethodType(getattr(SQLEnvToolEnv, name), object())) for name in ("describe", "sample", "query", "answer")]


def teach_tool_calls(model, tokenizer, calls: Sequence[dict], prompts: Sequence[str], steps: int = 200, lr: float = 1e-2, seed: int = 0) -> List[float]:
    """Fit the model to answer each prompt with one of ``calls`` (equally often); returns the losses.

    Only the completion's tokens are scored, so the model learns to open its turn with a tool
    call whatever the question; which call is left to sampling.
    """
    import torch

    torch.manual_seed(seed)
    tools = sqlenv_tool_schemas()
    examples = []
    for prompt in prompts:
        for call in calls:
            head = tokenizer.apply_chat_template([{"role": "user", "content": prompt}], tools=tools, add_generation_prompt=True, tokenize=False)
            prompt_ids = tokenizer(head, add_special_tokens=False)["input_ids"]
            if model.config.sliding_window is not None:
                # All the model can see from where the completion starts: the rest cannot matter.
                prompt_ids = prompt_ids[-model.config.num_hidden_layers * model.config.sliding_window :]
            completion_ids = tokenizer(tool_call_text(call), add_special_tokens=False)["input_ids"]
            examples.append((prompt_ids, completion_ids))
    # All examples in one padded batch per step; prompt and padding positions are not scored.
    width = max(len(p) + len(c) for p, c in examples)
    pad = tokenizer.pad_token_id
    ids = torch.full((len(examples), width), pad)
    labels = torch.full((len(examples), width), -100)
    mask = torch.zeros((len(examples), width), dtype=torch.long)
    for row, (prompt_ids, completion_ids) in enumerate(examples):
        n = len(prompt_ids) + len(completion_ids)
        ids[row, :n] = torch.tensor(prompt_ids + completion_ids)
        labels[row, len(prompt_ids) : n] = torch.tensor(completion_ids)
        mask[row, :n] = 1
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.0)
    model.train()
    losses = []
    for _ in range(steps):
        loss = model(input_ids=ids, attention_mask=mask, labels=labels).loss
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    model.eval()
    return losses


def build_tiny_qwen3(out_dir: str, teach: Optional[Sequence[dict]] = None, prompts: Sequence[str] = tuple(PROMPTS), seed: int = 0, steps: int = 200) -> str:
    """Write a tiny random Qwen3 (and its tokenizer) to ``out_dir``; returns ``out_dir``.

    ``teach``: tool calls to fit the model to (see :func:`teach_tool_calls`); the prompts are
    rendered with SQLEnv's tool schemas, as TRL renders them during training.
    """
    import torch
    from transformers import Qwen3ForCausalLM

    torch.manual_seed(seed)
    tokenizer = qwen3_tokenizer()
    config = tiny_qwen3_config(len(tokenizer), tokenizer.convert_tokens_to_ids("<|im_end|>"), tokenizer.pad_token_id)
    model = Qwen3ForCausalLM(config)
    if teach:
        teach_tool_calls(model, tokenizer, teach, prompts, steps=steps, seed=seed)
    os.makedirs(out_dir, exist_ok=True)
    model.save_pretrained(out_dir, safe_serialization=True)
    tokenizer.save_pretrained(out_dir)
    model.generation_config.save_pretrained(out_dir)
    return out_dir


def cached_tiny_qwen3(teach: Optional[Sequence[dict]] = None, prompts: Sequence[str] = tuple(PROMPTS), seed: int = 0, steps: int = 200) -> str:
    """:func:`build_tiny_qwen3`, built once per machine: the directory is cached under
    ``$SQLENV_CACHE`` (default ``~/.cache/sqlenv``) by a hash of everything that decides its
    contents (this file, the tokenizer, the arguments, the torch and transformers versions).
    The build is deterministic (seeded, one thread), so a cached copy is what a fresh build gives.
    """
    import torch
    import transformers

    key = hashlib.sha256()
    for part in (Path(__file__).read_bytes(), (TOKENIZER_DIR / "tokenizer.json").read_bytes()):
        key.update(part)
    key.update(json.dumps([teach, list(prompts), seed, steps, torch.__version__, transformers.__version__]).encode())
    cache = Path(os.environ.get("SQLENV_CACHE") or Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "sqlenv")
    target = cache / f"tiny-qwen3-{key.hexdigest()[:12]}"
    if (target / "model.safetensors").exists():
        return str(target)
    cache.mkdir(parents=True, exist_ok=True)
    building = tempfile.mkdtemp(prefix=target.name + ".", dir=cache)
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # the same floating-point sums on every machine
    try:
        build_tiny_qwen3(building, teach=teach, prompts=prompts, seed=seed, steps=steps)
    finally:
        torch.set_num_threads(threads)
    try:
        os.rename(building, target)  # atomic: readers see a whole directory or none
    except OSError:  # another process finished first: theirs is the same
        shutil.rmtree(building, ignore_errors=True)
    return str(target)
