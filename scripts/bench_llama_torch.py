#!/usr/bin/python3
"""The Llama-family forward pass `attention-explorer bench --model` times, in PyTorch.

    /usr/bin/python3 scripts/bench_llama_torch.py DIR [--tokens 1024] [--repeat 3] [--threads 2]
    /usr/bin/python3 scripts/bench_llama_torch.py --check tests/data/families

The first form reads a Hugging Face folder (config.json, model.safetensors or
shards with model.safetensors.index.json; F32, F16 or BF16, computed in
float32) of model_type llama, mistral, qwen2, qwen3, gemma, gemma2,
gemma3_text or phi3, for example one written by scripts/random_family_model.py,
and times one forward pass over N token ids ((i * 7919 + 1) mod vocab, as the
GPT-2 benchmark scripts/bench_torch.py uses) the way transformers' eager
attention computes it: per layer, softmax(Q Kᵀ · scale + mask) materialised
for every head and kept (the weights every view draws), repeat_kv for the
grouped key/value heads, rotate-half rotary embeddings, and the next-token
probabilities of the last position only. One untimed run, then R timed ones;
prints one JSON line with median_ms and min_ms like the C++ bench. On the
project's 2-core machine (torch 1.13, 2 threads), a Qwen2.5-0.5B-shaped
model (scripts/random_family_model.py qwen2.5-0.5b, F32) at 1024 tokens
took 18.8 s median, 18.6 s min of 3 runs when the machine was otherwise
quiet (41 s while other work shared it).

The second form runs every case of tests/data/families/expected.json through
the same code in float32 and checks that it gives the fixtures' attention
weights and next-token probabilities to 1e-5 (and the ablated run's
probabilities), so the timed computation is known to be the one the
fixtures describe. tests/data/families/make_fixtures.py also uses Model in
float64 as its second implementation.
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

# ---------------------------------------------------------------- reading a folder


def read_safetensors(path):
    data = np.memmap(path, dtype=np.uint8, mode="r")
    n = struct.unpack("<Q", bytes(data[:8]))[0]
    header = json.loads(bytes(data[8:8 + n]))
    out = {}
    for name, t in header.items():
        if name == "__metadata__":
            continue
        a, b = t["data_offsets"]
        raw = data[8 + n + a:8 + n + b]
        if t["dtype"] == "F32":
            array = np.frombuffer(raw, dtype="<f4").copy()
        elif t["dtype"] == "F16":
            array = np.frombuffer(raw, dtype="<f2").astype(np.float32)
        elif t["dtype"] == "BF16":
            array = (np.frombuffer(raw, dtype="<u2").astype(np.uint32) << 16).view(np.float32)
        else:
            raise SystemExit(f"{name}: {t['dtype']} is not read by this script")
        out[name] = torch.from_numpy(array.reshape(t["shape"]))
    return out


def load(folder):
    with open(os.path.join(folder, "config.json")) as f:
        config = json.load(f)
    index = os.path.join(folder, "model.safetensors.index.json")
    weights = {}
    if os.path.exists(index):
        with open(index) as f:
            files = sorted(set(json.load(f)["weight_map"].values()))
    else:
        files = ["model.safetensors"]
    for file in files:
        weights.update(read_safetensors(os.path.join(folder, file)))
    return config, weights


# ---------------------------------------------------------------- the model


def rotate_half(x):
    x1, x2 = x[..., : x.shape[-1] // 2], x[..., x.shape[-1] // 2:]
    return torch.cat((-x2, x1), dim=-1)


def repeat_kv(x, n_rep):
    """[kv, n, hd] -> [kv * n_rep, n, hd], each key/value head repeated for its group."""
    kv, n, hd = x.shape
    return x[:, None].expand(kv, n_rep, n, hd).reshape(kv * n_rep, n, hd)


def inverse_frequencies(theta, scaling, dim):
    """modeling_rope_utils: default, linear and llama3."""
    inv = 1.0 / (theta ** (torch.arange(0, dim, 2, dtype=torch.int64).to(torch.float64) / dim))
    if not scaling:
        return inv
    kind, factor = scaling.get("rope_type", scaling.get("type")), scaling["factor"]
    if kind == "linear":
        return inv / factor
    if kind != "llama3":
        raise SystemExit(f"rope_scaling type {kind} is not read by this script")
    low, high, old = scaling["low_freq_factor"], scaling["high_freq_factor"], scaling["original_max_position_embeddings"]
    wavelen = 2 * math.pi / inv
    inv_llama = torch.where(wavelen > old / low, inv / factor, inv)
    smooth = (old / wavelen - low) / (high - low)
    smoothed = (1 - smooth) * inv_llama / factor + smooth * inv_llama
    medium = ~(wavelen < old / high) * ~(wavelen > old / low)
    return torch.where(medium, smoothed, inv_llama)


class Model:
    """One forward pass of any family in the list above, from its config as
    each family's configuration_*.py reads it (defaults included)."""

    def __init__(self, config, weights):
        c, w = config, weights
        t = self.type = c["model_type"]
        self.w = w
        self.gemma = t.startswith("gemma")
        self.d, self.H, self.L = c["hidden_size"], c["num_attention_heads"], c["num_hidden_layers"]
        self.KV = c.get("num_key_value_heads") or self.H
        self.hd = c.get("head_dim") or self.d // self.H
        self.eps = c.get("rms_norm_eps", 1e-5 if t == "phi3" else 1e-6)
        self.sandwich = t in ("gemma2", "gemma3_text")
        self.qk_norm = t in ("qwen3", "gemma3_text")
        self.act = (lambda x: F.gelu(x, approximate="tanh")) if self.gemma else F.silu
        self.tied = c.get("tie_word_embeddings", self.gemma) or "lm_head.weight" not in w
        if t in ("gemma2", "gemma3_text"):
            self.scaling = c.get("query_pre_attn_scalar", 256) ** -0.5
        else:
            self.scaling = self.hd ** -0.5
        self.attn_cap = c.get("attn_logit_softcapping", 50.0 if t == "gemma2" else None)
        self.final_cap = c.get("final_logit_softcapping", 30.0 if t == "gemma2" else None)
        if t not in ("gemma2", "gemma3_text"):
            self.attn_cap = self.final_cap = None
        self.rot = int(self.hd * c.get("partial_rotary_factor", 1.0))
        window = c.get("sliding_window")
        if t in ("mistral", "phi3"):
            self.windows = [window] * self.L
        elif t in ("qwen2", "qwen3"):
            window = window if c.get("use_sliding_window", False) else None
            types = c.get("layer_types") or [
                "sliding_attention" if window is not None and i >= c.get("max_window_layers", 28) else "full"
                for i in range(self.L)]
            self.windows = [window if x == "sliding_attention" else None for x in types]
        elif t in ("gemma2", "gemma3_text"):
            pattern = 2 if t == "gemma2" else c.get("sliding_window_pattern", 6)
            types = c.get("layer_types") or [
                "sliding_attention" if (i + 1) % pattern else "full" for i in range(self.L)]
            self.windows = [c.get("sliding_window", 4096) if x == "sliding_attention" else None for x in types]
        else:
            self.windows = [None] * self.L
        theta = c.get("rope_theta", 1e6 if t == "gemma3_text" else 1e4)
        scaling = c.get("rope_scaling")
        self.rope = [(theta, scaling)] * self.L
        if t == "gemma3_text":
            local = (c.get("rope_local_base_freq", 1e4), None)
            self.rope = [local if self.windows[i] is not None else (theta, scaling) for i in range(self.L)]

    def norm(self, x, name):
        weight = self.w[name]
        y = x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps)
        return y * (1.0 + weight) if self.gemma else y * weight

    def linear(self, x, name):
        return F.linear(x, self.w[name + ".weight"], self.w.get(name + ".bias"))

    def forward(self, ids, ablate=None, keep_hidden=False):
        w, n, H, KV, hd = self.w, ids.shape[0], self.H, self.KV, self.hd
        dtype = w["model.embed_tokens.weight"].dtype
        x = w["model.embed_tokens.weight"][ids]
        if self.gemma:
            x = x * torch.tensor(self.d ** 0.5, dtype=torch.float32).to(dtype)
        positions = torch.arange(n, dtype=torch.float64)
        rope_cache = {}
        i, j = torch.arange(n)[:, None], torch.arange(n)[None, :]
        kept, hidden = [], [x] if keep_hidden else None
        for l in range(self.L):
            p = f"model.layers.{l}."
            key = (self.rope[l][0], json.dumps(self.rope[l][1], sort_keys=True))
            if key not in rope_cache:
                freqs = torch.outer(positions, inverse_frequencies(*self.rope[l], self.rot))
                emb = torch.cat((freqs, freqs), dim=-1)
                rope_cache[key] = (emb.cos().to(dtype), emb.sin().to(dtype))
            cos, sin = rope_cache[key]
            residual = x
            h = self.norm(x, p + "input_layernorm.weight")
            if self.type == "phi3":
                qkv = self.linear(h, p + "self_attn.qkv_proj")
                q, k, v = qkv.split([H * hd, KV * hd, KV * hd], dim=-1)
            else:
                q, k, v = (self.linear(h, p + f"self_attn.{s}_proj") for s in "qkv")
            q, k, v = q.view(n, H, hd), k.view(n, KV, hd), v.view(n, KV, hd)
            if self.qk_norm:
                q, k = self.norm(q, p + "self_attn.q_norm.weight"), self.norm(k, p + "self_attn.k_norm.weight")
            q, k, v = q.transpose(0, 1), k.transpose(0, 1), v.transpose(0, 1)  # [heads, n, hd]
            r = self.rot
            q = torch.cat((q[..., :r] * cos + rotate_half(q[..., :r]) * sin, q[..., r:]), dim=-1)
            k = torch.cat((k[..., :r] * cos + rotate_half(k[..., :r]) * sin, k[..., r:]), dim=-1)
            k, v = repeat_kv(k, H // KV), repeat_kv(v, H // KV)
            attn = torch.matmul(q, k.transpose(1, 2)) * self.scaling
            if self.attn_cap is not None:
                attn = torch.tanh(attn / self.attn_cap) * self.attn_cap
            allowed = j <= i
            if self.windows[l] is not None:
                allowed = allowed & (j > i - self.windows[l])
            attn = attn + torch.zeros(n, n, dtype=dtype).masked_fill(~allowed, float("-inf"))
            attn = torch.softmax(attn, dim=-1)
            kept.append(attn)  # every head's weights, as the views keep them
            context = torch.matmul(attn, v)
            if ablate is not None and ablate[0] == l:
                context[ablate[1]] = 0
            o = self.linear(context.transpose(0, 1).reshape(n, H * hd), p + "self_attn.o_proj")
            if self.sandwich:
                o = self.norm(o, p + "post_attention_layernorm.weight")
            x = residual + o
            residual = x
            h = self.norm(x, p + ("pre_feedforward_layernorm.weight" if self.sandwich
                                  else "post_attention_layernorm.weight"))
            if self.type == "phi3":
                gate, up = self.linear(h, p + "mlp.gate_up_proj").chunk(2, dim=-1)
            else:
                gate, up = self.linear(h, p + "mlp.gate_proj"), self.linear(h, p + "mlp.up_proj")
            m = self.linear(self.act(gate) * up, p + "mlp.down_proj")
            if self.sandwich:
                m = self.norm(m, p + "post_feedforward_layernorm.weight")
            x = residual + m
            if keep_hidden:
                hidden.append(x)
        last = self.norm(x[-1], "model.norm.weight")
        head = w["model.embed_tokens.weight"] if self.tied else w["lm_head.weight"]
        logits = F.linear(last, head)
        if self.final_cap is not None:
            logits = torch.tanh(logits / self.final_cap) * self.final_cap
        return {"weights": kept, "probabilities": torch.softmax(logits, dim=-1), "hidden": hidden}


# ---------------------------------------------------------------- the two commands


def flops(m, n):
    """Multiply-adds × 2 of the projections, attention and MLP, plus the last position's logits."""
    inter = m.w["model.layers.0.mlp.down_proj.weight"].shape[1]
    proj = 2.0 * n * m.d * (m.H * m.hd * 2 + m.KV * m.hd * 2 + 3 * inter)
    attention = 2.0 * 2 * m.H * n * n * m.hd
    return m.L * (proj + attention) + 2.0 * m.d * m.w["model.embed_tokens.weight"].shape[0]


def bench(args):
    torch.set_num_threads(args.threads)
    config, weights = load(args.model)
    model = Model(config, weights)
    vocab = weights["model.embed_tokens.weight"].shape[0]
    n = args.tokens
    ids = torch.tensor([(i * 7919 + 1) % vocab for i in range(n)])
    with torch.inference_mode():
        model.forward(ids)
        times = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            out = model.forward(ids)
            times.append((time.perf_counter() - start) * 1e3)
            del out["weights"]
            probabilities = out["probabilities"]
    times.sort()
    print(json.dumps({
        "implementation": f"torch {torch.__version__} eager, float32", "threads": torch.get_num_threads(),
        "model": config["model_type"], "tokens": n, "layers": model.L, "heads": model.H, "kv_heads": model.KV,
        "d_model": model.d, "vocab": vocab, "repeat": args.repeat, "median_ms": times[len(times) // 2],
        "min_ms": times[0], "flops_per_pass": flops(model, n), "gflops": flops(model, n) / (times[0] * 1e6),
        "next_token_probability_sum": float(probabilities.sum()),
        "peak_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0}))


def check(folder):
    with open(os.path.join(folder, "expected.json")) as f:
        expected = json.load(f)
    worst_all = 0.0
    for name, case in expected["cases"].items():
        for sub in case["folders"]:
            config, weights = load(os.path.join(folder, sub))
            model = Model(config, weights)
            ids = torch.tensor(case["token_ids"])
            with torch.inference_mode():
                out = model.forward(ids)
                ablated = model.forward(ids, ablate=(case["ablated"]["layer"], case["ablated"]["head"]))
            worst = float((out["probabilities"] - torch.tensor(case["next_token"]["probabilities"])).abs().max())
            worst = max(worst, float((ablated["probabilities"]
                                      - torch.tensor(case["ablated"]["next_token"]["probabilities"])).abs().max()))
            for l, layer in enumerate(case["layers"]):
                for h, head in enumerate(layer["heads"]):
                    worst = max(worst, float((out["weights"][l][h] - torch.tensor(head["weights"])).abs().max()))
            print(f"{sub}: float32 torch against the fixture: largest difference {worst:.2e}")
            assert worst < 1e-5, f"{sub} differs by {worst}"
            worst_all = max(worst_all, worst)
    print(f"all cases agree to 1e-5 (largest difference {worst_all:.2e})")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("model", nargs="?")
    parser.add_argument("--tokens", type=int, default=1024)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--check", metavar="FIXTURES")
    args = parser.parse_args()
    if args.check:
        torch.set_num_threads(args.threads)
        check(args.check)
    elif args.model:
        bench(args)
    else:
        parser.error("a model folder or --check FIXTURES")


if __name__ == "__main__":
    main()
