#!/usr/bin/python3
"""What `attention-explorer bench` times, in PyTorch: one self-attention layer
with Q/K/V and output projections (torch.nn.MultiheadAttention), keeping every
head's weights, as the session pass keeps what its views draw.

    /usr/bin/python3 scripts/bench_mha_torch.py [--tokens N] [--d-model D] [--heads H]
                                                [--causal] [--repeat R] [--threads T]

float32, 2 threads unless told; random inputs and weights (the numbers do not
change the time). One untimed run, then R timed ones; prints one JSON line
with median_ms and min_ms, as bench does.
"""
import argparse
import json
import statistics
import time

import torch


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tokens", type=int, default=1024)
    parser.add_argument("--d-model", type=int, default=512)
    parser.add_argument("--heads", type=int, default=8)
    parser.add_argument("--causal", action="store_true")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    torch.manual_seed(1)
    layer = torch.nn.MultiheadAttention(args.d_model, args.heads, batch_first=True)
    x = torch.randn(1, args.tokens, args.d_model)
    mask = torch.triu(torch.ones(args.tokens, args.tokens, dtype=torch.bool), 1) if args.causal else None
    times = []
    with torch.no_grad():
        for run in range(args.repeat + 1):
            start = time.perf_counter()
            out, weights = layer(x, x, x, need_weights=True, average_attn_weights=False, attn_mask=mask)
            elapsed = (time.perf_counter() - start) * 1000
            if run > 0:
                times.append(elapsed)
    print(json.dumps({"implementation": "torch " + torch.__version__, "threads": args.threads,
                      "tokens": args.tokens, "d_model": args.d_model, "heads": args.heads, "causal": args.causal,
                      "repeat": args.repeat, "median_ms": statistics.median(times), "min_ms": min(times),
                      "weights_shape": list(weights.shape), "output_finite": bool(torch.isfinite(out).all())}))


if __name__ == "__main__":
    main()
