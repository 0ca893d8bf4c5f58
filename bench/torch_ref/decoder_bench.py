"""PyTorch eager reference for bench/onnx.bench.ts: the same pre-norm decoder (RMSNorm, RoPE
rotate-half, causal attention, SiLU-gated MLP) timed forward and forward+backward on CPU.

Usage: python3 decoder_bench.py '<json config>'  → prints one JSON object with timings in ms.
"""
import json
import math
import os
import sys
import time

import torch


def rms_norm(x, w, eps=1e-6):
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps) * w


def rope_tables(T, hd, theta=10000.0):
    inv = theta ** (-torch.arange(0, hd // 2, dtype=torch.float32) * 2 / hd)
    ang = torch.arange(T, dtype=torch.float32)[:, None] * inv[None, :]
    ang = torch.cat([ang, ang], dim=-1)
    return ang.cos(), ang.sin()


def rope(x, cos, sin):
    half = x.shape[-1] // 2
    rotated = torch.cat([-x[..., half:], x[..., :half]], dim=-1)
    return x * cos + rotated * sin


def block(x, p, heads, cos, sin, mask):
    B, T, d = x.shape
    hd = d // heads
    split = lambda t: t.view(B, T, heads, hd).transpose(1, 2)
    h = rms_norm(x, p["ln1"])
    q = rope(split(h @ p["wq"]), cos, sin)
    k = rope(split(h @ p["wk"]), cos, sin)
    v = split(h @ p["wv"])
    s = (q @ k.transpose(-1, -2)) * (1.0 / math.sqrt(hd))
    s = s.masked_fill(~mask, -1e9)
    o = (s.softmax(-1) @ v).transpose(1, 2).reshape(B, T, d)
    x = x + o @ p["wo"]
    h2 = rms_norm(x, p["ln2"])
    return x + (torch.nn.functional.silu(h2 @ p["w_gate"]) * (h2 @ p["w_up"])) @ p["w_down"]


def block_params(d, hidden, g):
    shapes = {"ln1": [d], "wq": [d, d], "wk": [d, d], "wv": [d, d], "wo": [d, d], "ln2": [d],
              "w_gate": [d, hidden], "w_up": [d, hidden], "w_down": [hidden, d]}
    return {k: (torch.ones(s) if len(s) == 1 else 0.02 * torch.randn(*s, generator=g)).requires_grad_() for k, s in shapes.items()}


def timeit(fn, min_ms, min_iters, warmup=1):
    for _ in range(warmup):
        fn()
    samples = []
    start = time.perf_counter()
    while len(samples) < min_iters or (time.perf_counter() - start) * 1000 < min_ms:
        t0 = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - t0) * 1000)
    samples.sort()
    return {"mean": sum(samples) / len(samples), "p50": samples[len(samples) // 2], "iters": len(samples)}


def profile_ops(fn, iters):
    """Self CPU time per call of fn, by aten op (torch.profiler), most expensive first."""
    from torch.profiler import ProfilerActivity, profile
    fn()
    with profile(activities=[ProfilerActivity.CPU]) as prof:
        for _ in range(iters):
            fn()
    rows = [{"op": e.key, "ms": e.self_cpu_time_total / 1000 / iters, "calls": e.count / iters}
            for e in prof.key_averages() if e.self_cpu_time_total > 0]
    total = sum(r["ms"] for r in rows)
    rows.sort(key=lambda r: -r["ms"])
    return {"total_ms": total, "ops": rows[:12]}


def main():
    cfg = json.loads(sys.argv[1])
    torch.set_num_threads(cfg.get("threads", os.cpu_count()))
    g = torch.Generator().manual_seed(0)
    B, T, d, H, V, L, hidden = cfg["batch"], cfg["seq"], cfg["dim"], cfg["heads"], cfg["vocab"], cfg["layers"], cfg["hidden"]
    cos, sin = rope_tables(T, d // H)
    mask = torch.ones(T, T, dtype=torch.bool).tril()
    layers = [block_params(d, hidden, g) for _ in range(L)]
    if cfg["kind"] == "block":
        x = torch.randn(B, T, d, generator=g)
        loss_fn = lambda: block(x, layers[0], H, cos, sin, mask).pow(2).mean()
    else:
        wte = (0.02 * torch.randn(V, d, generator=g)).requires_grad_()
        ln_f = torch.ones(d).requires_grad_()
        head = (0.02 * torch.randn(d, V, generator=g)).requires_grad_()
        ids = torch.randint(0, V, (B, T), generator=g)
        targets = torch.randint(0, V, (B, T), generator=g)

        def loss_fn():
            h = wte[ids]
            for p in layers:
                h = block(h, p, H, cos, sin, mask)
            logits = rms_norm(h, ln_f) @ head
            return torch.nn.functional.cross_entropy(logits.view(-1, V), targets.view(-1))

    params = [t for p in layers for t in p.values()]

    def fwd():
        with torch.no_grad():
            loss_fn()

    def fwd_bwd():
        for t in params:
            t.grad = None
        loss_fn().backward()

    if cfg.get("profile"):
        print(json.dumps({"torch": torch.__version__, "profile": profile_ops(fwd_bwd, cfg.get("profile_iters", 5))}))
        return
    a = torch.randn(512, 512, generator=g)
    gemm = timeit(lambda: a @ a, 200, 5)
    out = {"torch": torch.__version__, "threads": torch.get_num_threads(),
           # Debian's python3-torch uses the system BLAS: the reference BLAS (~3 GFLOP/s) unless
           # libopenblas0-pthread is installed, which changes the comparison ~20-fold.
           "matmul_gflops": 2 * 512 ** 3 / (gemm["p50"] / 1000) / 1e9,
           "forward": timeit(fwd, cfg["min_ms"], cfg["min_iters"]),
           "forward_backward": timeit(fwd_bwd, cfg["min_ms"], cfg["min_iters"])}
    print(json.dumps(out))


if __name__ == "__main__":
    main()
