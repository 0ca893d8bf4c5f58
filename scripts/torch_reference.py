#!/usr/bin/env python3
"""Independent PyTorch reference of the Llama/Qwen2/Qwen3 decoder that src/lm builds as ONNX graphs.

It reads the same Hugging Face model directory (config.json + safetensors, parsed here without
the safetensors package), and for each token sequence computes the per-token log-probabilities
log p(tokens[t+1] | tokens[..t]) and the gradient of -sum(logprobs) over all sequences with respect
to every parameter. Only torch (Debian's python3-torch is enough) and numpy are needed.

Usage:
  python3 scripts/torch_reference.py --model DIR --tokens 1,2,3 --tokens 4,5 [--grad-out FILE]
  python3 scripts/torch_reference.py --model DIR --bench --batch 1 --prompt-len 64 --new-tokens 32
Prints one JSON object on stdout.
"""
import argparse
import json
import math
import os
import struct
import time

import numpy as np
import torch

DTYPES = {"F32": (np.float32, 4), "F16": (np.float16, 2), "BF16": (np.uint16, 2)}


def read_safetensors(path):
    with open(path, "rb") as f:
        (n,) = struct.unpack("<Q", f.read(8))
        header = json.loads(f.read(n))
        base = 8 + n
        out = {}
        for name, info in header.items():
            if name == "__metadata__":
                continue
            begin, end = info["data_offsets"]
            f.seek(base + begin)
            raw = f.read(end - begin)
            np_dtype, _ = DTYPES[info["dtype"]]
            arr = np.frombuffer(raw, dtype=np_dtype)
            if info["dtype"] == "BF16":
                arr = (arr.astype(np.uint32) << 16).view(np.float32)
            out[name] = torch.from_numpy(arr.astype(np.float32).reshape(info["shape"]).copy())
        return out


def write_safetensors(path, tensors):
    header, offset, blobs = {}, 0, []
    for name, t in tensors.items():
        data = t.detach().contiguous().numpy().astype(np.float32).tobytes()
        header[name] = {"dtype": "F32", "shape": list(t.shape), "data_offsets": [offset, offset + len(data)]}
        offset += len(data)
        blobs.append(data)
    text = json.dumps(header)
    text += " " * ((8 - len(text) % 8) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text.encode())
        for b in blobs:
            f.write(b)


def load_weights(model_dir):
    index = os.path.join(model_dir, "model.safetensors.index.json")
    if os.path.exists(index):
        weights = {}
        for shard in sorted(set(json.load(open(index))["weight_map"].values())):
            weights.update(read_safetensors(os.path.join(model_dir, shard)))
        return weights
    return read_safetensors(os.path.join(model_dir, "model.safetensors"))


class Config:
    def __init__(self, raw):
        self.arch = raw["model_type"]
        self.hidden = raw["hidden_size"]
        self.layers = raw["num_hidden_layers"]
        self.heads = raw["num_attention_heads"]
        self.kv_heads = raw.get("num_key_value_heads", self.heads)
        self.head_dim = raw.get("head_dim") or self.hidden // self.heads
        self.eps = raw.get("rms_norm_eps", 1e-6)
        params = raw.get("rope_parameters") or {}
        self.theta = params.get("rope_theta", raw.get("rope_theta", 10000.0))
        self.scaling = raw.get("rope_scaling") or (params if params.get("rope_type", "default") != "default" else None)
        self.tied = raw.get("tie_word_embeddings", False)
        bias = raw.get("attention_bias", False)
        self.qkv_bias = True if self.arch == "qwen2" else bias
        self.o_bias = False if self.arch == "qwen2" else bias
        self.qk_norm = self.arch == "qwen3"
        self.max_pos = raw.get("max_position_embeddings", 32768)


def inverse_frequencies(cfg):
    dim = cfg.head_dim
    inv = 1.0 / (cfg.theta ** (torch.arange(0, dim, 2, dtype=torch.float64) / dim))
    factor_attn = 1.0
    s = cfg.scaling
    kind = (s or {}).get("rope_type", (s or {}).get("type", "default"))
    if kind == "linear":
        inv = inv / s["factor"]
    elif kind == "llama3":
        factor, low, high = s["factor"], s.get("low_freq_factor", 1), s.get("high_freq_factor", 4)
        old = s.get("original_max_position_embeddings", 8192)
        wavelen = 2 * math.pi / inv
        smooth = (old / wavelen - low) / (high - low)
        blended = (1 - smooth) * inv / factor + smooth * inv
        inv = torch.where(wavelen < old / high, inv, torch.where(wavelen > old / low, inv / factor, blended))
    elif kind == "yarn":
        factor = s["factor"]
        old = s.get("original_max_position_embeddings", cfg.max_pos)
        fast, slow = s.get("beta_fast", 32), s.get("beta_slow", 1)
        corr = lambda rot: (dim * math.log(old / (rot * 2 * math.pi))) / (2 * math.log(cfg.theta))
        lo, hi = max(math.floor(corr(fast)), 0), min(math.ceil(corr(slow)), dim - 1)
        if lo == hi:
            hi += 0.001
        ramp = torch.clamp((torch.arange(dim // 2, dtype=torch.float64) - lo) / (hi - lo), 0, 1)
        inv = (inv / factor) * ramp + inv * (1 - ramp)
        factor_attn = s.get("attention_factor", 0.1 * math.log(factor) + 1 if factor > 1 else 1.0)
    elif kind != "default":
        raise SystemExit(f"rope type {kind} not implemented in the reference")
    return inv.float(), factor_attn


def rms_norm(x, w, eps):
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps) * w


def rotate_half(x):
    h = x.shape[-1] // 2
    return torch.cat((-x[..., h:], x[..., :h]), dim=-1)


def forward(cfg, W, ids, cache=None, start=0, last_only=False):
    """ids: [B, T] LongTensor (rows of equal length, no padding); cache: per-layer (k, v) or None.
    Returns logits [B, T, V] (or [B, 1, V] with last_only) and the new cache."""
    inv, attn_factor = inverse_frequencies(cfg)
    B, T = ids.shape
    pos = torch.arange(start, start + T, dtype=torch.float32)
    ang = pos[:, None] * inv[None, :]
    emb = torch.cat((ang, ang), dim=-1)
    cos, sin = emb.cos() * attn_factor, emb.sin() * attn_factor
    x = W["model.embed_tokens.weight"][ids]
    new_cache = []
    for l in range(cfg.layers):
        p = lambda n: W[f"model.layers.{l}.{n}"]
        h = rms_norm(x, p("input_layernorm.weight"), cfg.eps)
        lin = lambda t, n, b: t @ p(n + ".weight").T + (p(n + ".bias") if b else 0)
        q = lin(h, "self_attn.q_proj", cfg.qkv_bias).view(B, T, cfg.heads, cfg.head_dim)
        k = lin(h, "self_attn.k_proj", cfg.qkv_bias).view(B, T, cfg.kv_heads, cfg.head_dim)
        v = lin(h, "self_attn.v_proj", cfg.qkv_bias).view(B, T, cfg.kv_heads, cfg.head_dim)
        if cfg.qk_norm:
            q = rms_norm(q, p("self_attn.q_norm.weight"), cfg.eps)
            k = rms_norm(k, p("self_attn.k_norm.weight"), cfg.eps)
        q, k, v = q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2)
        q = q * cos + rotate_half(q) * sin
        k = k * cos + rotate_half(k) * sin
        if cache is not None:
            k = torch.cat((cache[l][0], k), dim=2)
            v = torch.cat((cache[l][1], v), dim=2)
        new_cache.append((k, v))
        S = k.shape[2]
        rep = cfg.heads // cfg.kv_heads
        kr, vr = k.repeat_interleave(rep, dim=1), v.repeat_interleave(rep, dim=1)
        scores = q @ kr.transpose(2, 3) / math.sqrt(cfg.head_dim)
        allowed = torch.arange(S)[None, :] <= (torch.arange(T)[:, None] + S - T)
        scores = scores.masked_fill(~allowed, float("-inf"))
        att = torch.softmax(scores, dim=-1) @ vr
        x = x + lin(att.transpose(1, 2).reshape(B, T, cfg.heads * cfg.head_dim), "self_attn.o_proj", cfg.o_bias)
        h2 = rms_norm(x, p("post_attention_layernorm.weight"), cfg.eps)
        gate = h2 @ p("mlp.gate_proj.weight").T
        up = h2 @ p("mlp.up_proj.weight").T
        x = x + (torch.nn.functional.silu(gate) * up) @ p("mlp.down_proj.weight").T
    x = rms_norm(x, W["model.norm.weight"], cfg.eps)
    if last_only:
        x = x[:, -1:]
    head = W["model.embed_tokens.weight"] if cfg.tied else W["lm_head.weight"]
    return x @ head.T, new_cache


def score(cfg, W, sequences, grad_out, temperature=1.0):
    """Log-probs of log_softmax(logits / temperature) (the tempered policy a sampler at T draws from)."""
    for t in W.values():
        t.requires_grad_(grad_out is not None)
    all_lp, total = [], 0
    for seq in sequences:
        ids = torch.tensor([seq], dtype=torch.long)
        logits, _ = forward(cfg, W, ids)
        lp = torch.log_softmax(logits[0, :-1] / temperature, dim=-1).gather(1, ids[0, 1:, None]).squeeze(1)
        all_lp.append(lp.detach().tolist())
        total = total + lp.sum()
    result = {"logprobs": all_lp}
    if grad_out is not None:
        (-total).backward()
        write_safetensors(grad_out, {n: (t.grad if t.grad is not None else torch.zeros_like(t)) for n, t in W.items() if n != "lm_head.weight" or not cfg.tied})
        result["grad_out"] = grad_out
    return result


def bench(cfg, W, batch, prompt_len, new_tokens):
    """Prefill and greedy KV-cache decode tokens/s for a [batch, prompt_len] block (torch CPU)."""
    torch.manual_seed(0)
    vocab = W["model.embed_tokens.weight"].shape[0]
    with torch.no_grad():
        ids = torch.randint(0, vocab, (batch, prompt_len))
        forward(cfg, W, ids[:, :4])  # warm-up
        t0 = time.perf_counter()
        logits, cache = forward(cfg, W, ids, last_only=True)
        prefill_s = time.perf_counter() - t0
        tok = logits[:, -1].argmax(-1, keepdim=True)
        t0 = time.perf_counter()
        for i in range(new_tokens):
            logits, cache = forward(cfg, W, tok, cache, prompt_len + i, last_only=True)
            tok = logits[:, -1].argmax(-1, keepdim=True)
        decode_s = time.perf_counter() - t0
    return {"prefill_tokens_per_s": batch * prompt_len / prefill_s, "decode_tokens_per_s": batch * new_tokens / decode_s, "threads": torch.get_num_threads()}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", required=True)
    ap.add_argument("--tokens", action="append", default=[])
    ap.add_argument("--grad-out")
    ap.add_argument("--temperature", type=float, default=1.0, help="score log_softmax(logits / T)")
    ap.add_argument("--bench", action="store_true")
    ap.add_argument("--batch", type=int, default=1)
    ap.add_argument("--prompt-len", type=int, default=64)
    ap.add_argument("--new-tokens", type=int, default=32)
    ap.add_argument("--threads", type=int, default=0, help="torch intra-op threads (0: torch's default)")
    a = ap.parse_args()
    if a.threads > 0:
        torch.set_num_threads(a.threads)
    cfg = Config(json.load(open(os.path.join(a.model, "config.json"))))
    W = load_weights(a.model)
    if a.bench:
        print(json.dumps(bench(cfg, W, a.batch, a.prompt_len, a.new_tokens)))
    else:
        seqs = [[int(x) for x in s.split(",")] for s in a.tokens]
        print(json.dumps(score(cfg, W, seqs, a.grad_out, a.temperature)))


if __name__ == "__main__":
    main()
