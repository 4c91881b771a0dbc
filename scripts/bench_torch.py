#!/usr/bin/python3
"""The forward pass `attention-explorer bench --model` times, in PyTorch.

    /usr/bin/python3 scripts/bench_torch.py /tmp/gpt2-random [--tokens N] [--repeat R] [--threads T]

A GPT-2 forward written out in torch (float32, 2 threads unless told), over
the same token ids as the C++ bench ((i * 7919 + 1) mod vocab) and the same
F32 safetensors (read with numpy), keeping what the C++ bench keeps: every
layer's attention weights (heads × n × n) and the next-token probabilities
of the last position. One untimed run, then R timed ones; prints one JSON
line with the bench's fields. GPT-2 only, F32 only, no prefix handling beyond
"transformer.": enough for scripts/random_gpt2.py's models and gpt2.
"""
import argparse
import json
import math
import os
import resource
import struct
import time

import numpy as np
import torch
import torch.nn.functional as F


def load(folder):
    with open(os.path.join(folder, "config.json")) as f:
        config = json.load(f)
    data = np.memmap(os.path.join(folder, "model.safetensors"), dtype=np.uint8, mode="r")
    n = struct.unpack("<Q", bytes(data[:8]))[0]
    header = json.loads(bytes(data[8:8 + n]))
    weights = {}
    for name, t in header.items():
        if name == "__metadata__":
            continue
        if t["dtype"] != "F32":
            raise SystemExit(f"{name}: {t['dtype']}, this script reads F32 only")
        a, b = t["data_offsets"]
        array = np.frombuffer(data[8 + n + a:8 + n + b], dtype="<f4").reshape(t["shape"])
        weights[name.removeprefix("transformer.")] = torch.from_numpy(array.copy())
    return config, weights


def forward(config, w, ids):
    n, d, heads = ids.shape[0], config["n_embd"], config["n_head"]
    eps = config.get("layer_norm_epsilon", 1e-5)
    hd = d // heads
    mask = torch.ones(n, n, dtype=torch.bool).tril()
    x = w["wte.weight"][ids] + w["wpe.weight"][:n]
    kept = []
    for i in range(config["n_layer"]):
        p = f"h.{i}."
        a = F.layer_norm(x, (d,), w[p + "ln_1.weight"], w[p + "ln_1.bias"], eps)
        q, k, v = torch.addmm(w[p + "attn.c_attn.bias"], a, w[p + "attn.c_attn.weight"]).split(d, dim=1)
        q, k, v = (t.view(n, heads, hd).transpose(0, 1) for t in (q, k, v))
        s = (q @ k.transpose(-1, -2)) / math.sqrt(hd)
        attn = torch.softmax(s.masked_fill(~mask, float("-inf")), dim=-1)
        kept.append(attn)  # the weights every view draws
        z = (attn @ v).transpose(0, 1).reshape(n, d)
        x = x + torch.addmm(w[p + "attn.c_proj.bias"], z, w[p + "attn.c_proj.weight"])
        m = F.layer_norm(x, (d,), w[p + "ln_2.weight"], w[p + "ln_2.bias"], eps)
        m = F.gelu(torch.addmm(w[p + "mlp.c_fc.bias"], m, w[p + "mlp.c_fc.weight"]), approximate="tanh")
        x = x + torch.addmm(w[p + "mlp.c_proj.bias"], m, w[p + "mlp.c_proj.weight"])
    last = F.layer_norm(x[-1], (d,), w["ln_f.weight"], w["ln_f.bias"], eps)
    return kept, torch.softmax(w["wte.weight"] @ last, dim=-1)


def flops(config, n):
    """Counted as the C++ bench counts them (app/modelcommands.cpp forwardFlops)."""
    d = config["n_embd"]
    dff = config.get("n_inner") or 4 * d
    per_layer = 2.0 * n * d * (3 * d + d + 2.0 * dff) + 4.0 * n * n * d
    return config["n_layer"] * per_layer + 2.0 * d * config["vocab_size"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("model")
    parser.add_argument("--tokens", type=int)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    config, weights = load(args.model)
    n = args.tokens or min(1024, config["n_positions"])
    ids = torch.tensor([(i * 7919 + 1) % config["vocab_size"] for i in range(n)])
    with torch.inference_mode():
        forward(config, weights, ids)
        times = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            _, probabilities = forward(config, weights, ids)
            times.append((time.perf_counter() - start) * 1e3)
    times.sort()
    out = {"implementation": f"torch {torch.__version__}", "threads": torch.get_num_threads(), "tokens": n,
           "layers": config["n_layer"], "heads": config["n_head"], "d_model": config["n_embd"],
           "repeat": args.repeat, "median_ms": times[len(times) // 2], "min_ms": times[0],
           "flops_per_pass": flops(config, n), "gflops": flops(config, n) / (times[0] * 1e6),
           "next_token_probability_sum": float(probabilities.sum()),
           "peak_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0}
    print(json.dumps(out))


if __name__ == "__main__":
    main()
