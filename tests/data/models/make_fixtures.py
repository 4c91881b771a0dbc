#!/usr/bin/python3
"""Tiny GPT-2 and BERT checkpoints and their expected numbers, for
tests/tst_gpt2.cpp and tests/tst_bert.cpp.

Run with /usr/bin/python3 (numpy; torch, when installed, cross-checks the
numpy reference) from anywhere: it rewrites the folders next to this file and
expected.json. The reference below is written from Hugging Face transformers
(models/gpt2/modeling_gpt2.py, models/bert/modeling_bert.py,
pytorch_utils.Conv1D, activations.py), not from the C++ code it tests.

Every layout trap is built in, so that a wrong reading cannot pass:
- shapes are not square (d_model 12, d_ff 20, vocab 29/31): a transposed
  Conv1D [in, out] or Linear [out, in] weight has the wrong shape or numbers;
- c_attn's q | k | v parts and the heads have different numbers;
- layer norms have non-trivial weights, biases and an epsilon (0.01, 0.02)
  far from the family defaults, so a wrong epsilon shows;
- the GPT-2 file holds an lm_head.weight different from wte: with tied
  embeddings (the default) Hugging Face ignores it, and so must we.
Weights are rounded to bfloat16 values that float16 also holds exactly, so
one set of expected numbers serves the F32, F16 and BF16 files.
"""
import json
import math
import os
import struct

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
RNG = np.random.default_rng(20240613)

# ---------------------------------------------------------------- weights


def representable(a):
    """Rounds to bfloat16 (round to nearest even), keeping values float16 holds too."""
    a = np.asarray(a, dtype=np.float32)
    bits = a.view(np.uint32).astype(np.uint64)
    bits = (bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000
    r = bits.astype(np.uint32).view(np.float32)
    r = np.where(np.abs(r) < 2.0 ** -14, 0.0, r).astype(np.float32)  # no float16 subnormals
    return r


def randn(*shape, scale=0.4):
    return representable(RNG.standard_normal(shape) * scale)


def gamma(d):
    return representable(1.0 + 0.3 * RNG.standard_normal(d))


# ---------------------------------------------------------------- safetensors


def to_bytes(a, dtype):
    a = np.ascontiguousarray(a)
    if dtype == "F32":
        return a.astype("<f4").tobytes()
    if dtype == "F16":
        return a.astype("<f2").tobytes()
    if dtype == "BF16":
        return (a.astype("<f4").view("<u4") >> 16).astype("<u2").tobytes()
    if dtype == "I64":
        return a.astype("<i8").tobytes()
    raise ValueError(dtype)


def write_safetensors(path, tensors, dtype):
    """tensors: list of (name, array[, dtype]); 8-byte header length, JSON, data."""
    header, blobs, offset = {"__metadata__": {"format": "pt"}}, [], 0
    for entry in tensors:
        name, array = entry[0], entry[1]
        dt = entry[2] if len(entry) > 2 else dtype
        blob = to_bytes(array, dt)
        header[name] = {"dtype": dt, "shape": list(np.shape(array)), "data_offsets": [offset, offset + len(blob)]}
        blobs.append(blob)
        offset += len(blob)
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for blob in blobs:
            f.write(blob)


def write_model(folder, config, tensors, dtype):
    os.makedirs(os.path.join(HERE, folder), exist_ok=True)
    with open(os.path.join(HERE, folder, "config.json"), "w") as f:
        json.dump(config, f, indent=2)
        f.write("\n")
    write_safetensors(os.path.join(HERE, folder, "model.safetensors"), tensors, dtype)


# ---------------------------------------------------------------- reference maths


def layer_norm(x, w, b, eps):
    # torch.nn.LayerNorm: biased variance over the last dimension.
    x = x.astype(np.float64)
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * w + b


def gelu_new(x):
    return 0.5 * x * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * x ** 3)))


def gelu_erf(x):
    return 0.5 * x * (1.0 + np.vectorize(math.erf)(x / math.sqrt(2.0)))


def softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def attention(q, k, v, heads, causal):
    """q, k, v: n x d, heads side by side (view(..., heads, head_dim))."""
    n, d = q.shape
    hd = d // heads
    weights, scores, context = [], [], np.zeros((n, d))
    for h in range(heads):
        sl = slice(h * hd, (h + 1) * hd)
        s = q[:, sl] @ k[:, sl].T
        scaled = s / math.sqrt(hd)
        if causal:
            scaled = np.where(np.tril(np.ones((n, n), dtype=bool)), scaled, -np.inf)
        w = softmax(scaled)
        weights.append(w)
        scores.append(s)
        context[:, sl] = w @ v[:, sl]
    return weights, scores, context


def gpt2_reference(p, cfg, ids):
    eps = cfg["layer_norm_epsilon"]
    d = cfg["n_embd"]
    h = p["wte.weight"][ids].astype(np.float64) + p["wpe.weight"][: len(ids)]
    out = {"hidden": [h], "layers": []}
    for i in range(cfg["n_layer"]):
        pre = f"h.{i}."
        a = layer_norm(h, p[pre + "ln_1.weight"], p[pre + "ln_1.bias"], eps)
        # Conv1D: x @ W + b with W [in, out]; the output splits into q | k | v.
        qkv = a @ p[pre + "attn.c_attn.weight"] + p[pre + "attn.c_attn.bias"]
        q, k, v = qkv[:, :d], qkv[:, d:2 * d], qkv[:, 2 * d:]
        w, s, z = attention(q, k, v, cfg["n_head"], causal=True)
        h = h + z @ p[pre + "attn.c_proj.weight"] + p[pre + "attn.c_proj.bias"]
        m = layer_norm(h, p[pre + "ln_2.weight"], p[pre + "ln_2.bias"], eps)
        m = gelu_new(m @ p[pre + "mlp.c_fc.weight"] + p[pre + "mlp.c_fc.bias"])
        h = h + m @ p[pre + "mlp.c_proj.weight"] + p[pre + "mlp.c_proj.bias"]
        out["layers"].append({"weights": w, "scores": s, "q": q, "k": k, "v": v, "context": z})
        out["hidden"].append(h)
    final = layer_norm(h, p["ln_f.weight"], p["ln_f.bias"], eps)
    logits = final[-1] @ p["wte.weight"].T  # tied: lm_head.weight is wte
    out["next_token"] = softmax(logits)
    return out


def bert_reference(p, cfg, ids, mask_id):
    eps = cfg["layer_norm_eps"]
    e = "embeddings."
    h = p[e + "word_embeddings.weight"][ids].astype(np.float64) + p[e + "token_type_embeddings.weight"][0]
    h = h + p[e + "position_embeddings.weight"][: len(ids)]
    h = layer_norm(h, p[e + "LayerNorm.weight"], p[e + "LayerNorm.bias"], eps)
    out = {"hidden": [h], "layers": []}

    def linear(x, name):  # nn.Linear: x @ W.T + b with W [out, in]
        return x @ p[name + ".weight"].T + p[name + ".bias"]

    for i in range(cfg["num_hidden_layers"]):
        pre = f"encoder.layer.{i}."
        q, k, v = (linear(h, pre + "attention.self." + t) for t in ("query", "key", "value"))
        w, s, z = attention(q, k, v, cfg["num_attention_heads"], causal=False)
        h = layer_norm(h + linear(z, pre + "attention.output.dense"), p[pre + "attention.output.LayerNorm.weight"],
                       p[pre + "attention.output.LayerNorm.bias"], eps)
        m = gelu_erf(linear(h, pre + "intermediate.dense"))
        h = layer_norm(h + linear(m, pre + "output.dense"), p[pre + "output.LayerNorm.weight"],
                       p[pre + "output.LayerNorm.bias"], eps)
        out["layers"].append({"weights": w, "scores": s, "q": q, "k": k, "v": v, "context": z})
        out["hidden"].append(h)
    c = "cls.predictions."
    out["mask"] = []
    for pos in [i for i, t in enumerate(ids) if t == mask_id]:
        t = gelu_erf(linear(h[pos], c + "transform.dense"))
        t = layer_norm(t, p[c + "transform.LayerNorm.weight"], p[c + "transform.LayerNorm.bias"], eps)
        logits = t @ p[e + "word_embeddings.weight"].T + p[c + "bias"]
        out["mask"].append({"position": pos, "probabilities": softmax(logits)})
    return out


# ---------------------------------------------------------------- models

GPT2_CONFIG = {
    "model_type": "gpt2", "architectures": ["GPT2LMHeadModel"], "n_layer": 2, "n_head": 3, "n_embd": 12,
    "n_inner": 20, "n_positions": 16, "n_ctx": 16, "vocab_size": 29, "activation_function": "gelu_new",
    "layer_norm_epsilon": 0.01, "bos_token_id": 28, "eos_token_id": 28,
}
GPT2_IDS = [3, 17, 0, 28, 9, 9, 21]

BERT_CONFIG = {
    "model_type": "bert", "architectures": ["BertForMaskedLM"], "num_hidden_layers": 2, "num_attention_heads": 4,
    "hidden_size": 12, "intermediate_size": 20, "max_position_embeddings": 16, "type_vocab_size": 2,
    "vocab_size": 31, "hidden_act": "gelu", "layer_norm_eps": 0.02, "pad_token_id": 0,
}
BERT_MASK_ID = 4
BERT_IDS = [2, 11, 4, 27, 30, 4, 3]


def gpt2_weights(cfg):
    d, f, v, n = cfg["n_embd"], cfg["n_inner"], cfg["vocab_size"], cfg["n_positions"]
    p = {"wte.weight": randn(v, d), "wpe.weight": randn(n, d, scale=0.2)}
    for i in range(cfg["n_layer"]):
        pre = f"h.{i}."
        p[pre + "ln_1.weight"], p[pre + "ln_1.bias"] = gamma(d), randn(d, scale=0.1)
        p[pre + "attn.c_attn.weight"], p[pre + "attn.c_attn.bias"] = randn(d, 3 * d), randn(3 * d, scale=0.1)
        p[pre + "attn.c_proj.weight"], p[pre + "attn.c_proj.bias"] = randn(d, d), randn(d, scale=0.1)
        p[pre + "ln_2.weight"], p[pre + "ln_2.bias"] = gamma(d), randn(d, scale=0.1)
        p[pre + "mlp.c_fc.weight"], p[pre + "mlp.c_fc.bias"] = randn(d, f), randn(f, scale=0.1)
        p[pre + "mlp.c_proj.weight"], p[pre + "mlp.c_proj.bias"] = randn(f, d), randn(d, scale=0.1)
    p["ln_f.weight"], p["ln_f.bias"] = gamma(d), randn(d, scale=0.1)
    return p


def bert_weights(cfg):
    d, f, v, n = cfg["hidden_size"], cfg["intermediate_size"], cfg["vocab_size"], cfg["max_position_embeddings"]
    e = "embeddings."
    p = {e + "word_embeddings.weight": randn(v, d), e + "position_embeddings.weight": randn(n, d, scale=0.2),
         e + "token_type_embeddings.weight": randn(cfg["type_vocab_size"], d, scale=0.2),
         e + "LayerNorm.weight": gamma(d), e + "LayerNorm.bias": randn(d, scale=0.1)}
    for i in range(cfg["num_hidden_layers"]):
        pre = f"encoder.layer.{i}."
        for t in ("query", "key", "value"):
            p[pre + f"attention.self.{t}.weight"] = randn(d, d)
            p[pre + f"attention.self.{t}.bias"] = randn(d, scale=0.1)
        p[pre + "attention.output.dense.weight"], p[pre + "attention.output.dense.bias"] = randn(d, d), randn(d, scale=0.1)
        p[pre + "attention.output.LayerNorm.weight"] = gamma(d)
        p[pre + "attention.output.LayerNorm.bias"] = randn(d, scale=0.1)
        p[pre + "intermediate.dense.weight"], p[pre + "intermediate.dense.bias"] = randn(f, d), randn(f, scale=0.1)
        p[pre + "output.dense.weight"], p[pre + "output.dense.bias"] = randn(d, f), randn(d, scale=0.1)
        p[pre + "output.LayerNorm.weight"], p[pre + "output.LayerNorm.bias"] = gamma(d), randn(d, scale=0.1)
    c = "cls.predictions."
    p[c + "transform.dense.weight"], p[c + "transform.dense.bias"] = randn(d, d), randn(d, scale=0.1)
    p[c + "transform.LayerNorm.weight"], p[c + "transform.LayerNorm.bias"] = gamma(d), randn(d, scale=0.1)
    p[c + "bias"] = randn(v, scale=0.3)
    return p


# ---------------------------------------------------------------- cross-check with torch


def torch_check(gp, bp):
    """The same two models through torch's own layer_norm, GELU and softmax
    (float64): a second implementation of every operation."""
    try:
        import torch
        import torch.nn.functional as F
    except ImportError:
        print("torch not installed: cross-check skipped")
        return
    T = {k: torch.tensor(v, dtype=torch.float64) for k, v in gp.items()}
    cfg, ids = GPT2_CONFIG, torch.tensor(GPT2_IDS)
    d, nh, eps = cfg["n_embd"], cfg["n_head"], cfg["layer_norm_epsilon"]
    n = len(GPT2_IDS)

    def heads_attention(q, k, v, heads, causal):
        q, k, v = (t.view(n, heads, -1).transpose(0, 1) for t in (q, k, v))
        s = q @ k.transpose(-1, -2) / math.sqrt(q.shape[-1])
        if causal:
            s = s.masked_fill(~torch.ones(n, n, dtype=torch.bool).tril(), float("-inf"))
        w = torch.softmax(s, dim=-1)
        return w, (w @ v).transpose(0, 1).reshape(n, -1)

    h = T["wte.weight"][ids] + T["wpe.weight"][:n]
    gw = []
    for i in range(cfg["n_layer"]):
        pre = f"h.{i}."
        a = F.layer_norm(h, (d,), T[pre + "ln_1.weight"], T[pre + "ln_1.bias"], eps)
        q, k, v = torch.addmm(T[pre + "attn.c_attn.bias"], a, T[pre + "attn.c_attn.weight"]).split(d, dim=1)
        w, z = heads_attention(q, k, v, nh, True)
        gw.append(w)
        h = h + torch.addmm(T[pre + "attn.c_proj.bias"], z, T[pre + "attn.c_proj.weight"])
        m = F.layer_norm(h, (d,), T[pre + "ln_2.weight"], T[pre + "ln_2.bias"], eps)
        m = F.gelu(torch.addmm(T[pre + "mlp.c_fc.bias"], m, T[pre + "mlp.c_fc.weight"]), approximate="tanh")
        h = h + torch.addmm(T[pre + "mlp.c_proj.bias"], m, T[pre + "mlp.c_proj.weight"])
    final = F.layer_norm(h, (d,), T["ln_f.weight"], T["ln_f.bias"], eps)
    g_next = torch.softmax(F.linear(final[-1], T["wte.weight"]), dim=-1)

    T = {k: torch.tensor(v, dtype=torch.float64) for k, v in bp.items()}
    cfg, ids = BERT_CONFIG, torch.tensor(BERT_IDS)
    d, nh, eps = cfg["hidden_size"], cfg["num_attention_heads"], cfg["layer_norm_eps"]
    e = "embeddings."
    h = T[e + "word_embeddings.weight"][ids] + T[e + "token_type_embeddings.weight"][0] + T[e + "position_embeddings.weight"][:n]
    h = F.layer_norm(h, (d,), T[e + "LayerNorm.weight"], T[e + "LayerNorm.bias"], eps)

    def lin(x, name):  # F.linear: x @ W.T + b, W [out, in]
        return F.linear(x, T[name + ".weight"], T[name + ".bias"])

    bw = []
    for i in range(cfg["num_hidden_layers"]):
        pre = f"encoder.layer.{i}."
        q, k, v = (lin(h, pre + "attention.self." + t) for t in ("query", "key", "value"))
        w, z = heads_attention(q, k, v, nh, False)
        bw.append(w)
        h = F.layer_norm(h + lin(z, pre + "attention.output.dense"), (d,), T[pre + "attention.output.LayerNorm.weight"],
                         T[pre + "attention.output.LayerNorm.bias"], eps)
        m = F.gelu(lin(h, pre + "intermediate.dense"))
        h = F.layer_norm(h + lin(m, pre + "output.dense"), (d,), T[pre + "output.LayerNorm.weight"],
                         T[pre + "output.LayerNorm.bias"], eps)
    return gw, g_next.numpy(), bw, h.numpy()


# ---------------------------------------------------------------- files


def nested(a):
    return np.asarray(a, dtype=np.float64).tolist()  # repr: every bit, so weights compare exactly


def layers_json(ref):
    return [{"heads": [{"weights": nested(w), "scores": nested(s)} for w, s in zip(L["weights"], L["scores"])],
             "q": nested(L["q"]), "k": nested(L["k"]), "v": nested(L["v"]), "context": nested(L["context"])}
            for L in ref["layers"]]


def top(p, k=5):
    return [int(i) for i in sorted(range(len(p)), key=lambda i: (-p[i], i))[:k]]


def main():
    gp, bp = gpt2_weights(GPT2_CONFIG), bert_weights(BERT_CONFIG)
    g = gpt2_reference(gp, GPT2_CONFIG, GPT2_IDS)
    b = bert_reference(bp, BERT_CONFIG, BERT_IDS, BERT_MASK_ID)

    checked = torch_check(gp, bp)
    if checked:
        gw, g_next, bw, b_last = checked
        assert all(np.allclose(x.numpy(), y, atol=1e-12) for x, y in zip(gw, [np.array(L["weights"]) for L in g["layers"]]))
        assert np.allclose(g_next, g["next_token"], atol=1e-12)
        assert all(np.allclose(x.numpy(), y, atol=1e-12) for x, y in zip(bw, [np.array(L["weights"]) for L in b["layers"]]))
        assert np.allclose(b_last, b["hidden"][-1], atol=1e-12)
        print("torch agrees with the numpy reference")

    # GPT-2: F32 with the transformer. prefix and the extras real files carry.
    n_pos = GPT2_CONFIG["n_positions"]
    lm_head = randn(GPT2_CONFIG["vocab_size"], GPT2_CONFIG["n_embd"])  # not wte: tied models ignore it
    extras = []
    for i in range(GPT2_CONFIG["n_layer"]):
        extras.append((f"h.{i}.attn.bias", np.tril(np.ones((n_pos, n_pos), np.float32)).reshape(1, 1, n_pos, n_pos)))
        extras.append((f"h.{i}.attn.masked_bias", np.array(-1e4, np.float32)))
    plain = sorted(gp.items())
    write_model("gpt2-f32", GPT2_CONFIG,
                [("transformer." + k, v) for k, v in plain + extras] + [("lm_head.weight", lm_head)], "F32")
    write_model("gpt2-f16", GPT2_CONFIG, plain, "F16")
    write_model("gpt2-bf16", GPT2_CONFIG, plain, "BF16")

    # BERT: the bert. prefix with the MLM head, the pooler and the position_ids buffer...
    base = sorted((k, v) for k, v in bp.items() if not k.startswith("cls."))
    head = sorted((k, v) for k, v in bp.items() if k.startswith("cls."))
    head.append(("cls.predictions.decoder.weight", bp["embeddings.word_embeddings.weight"]))
    d = BERT_CONFIG["hidden_size"]
    bert_extras = [("bert.pooler.dense.weight", randn(d, d)), ("bert.pooler.dense.bias", randn(d)),
                   ("bert.embeddings.position_ids", np.arange(16).reshape(1, 16), "I64")]
    write_model("bert-f32", BERT_CONFIG, [("bert." + k, v) for k, v in base] + head + bert_extras, "F32")
    write_model("bert-bf16", BERT_CONFIG, [("bert." + k, v) for k, v in base] + head, "BF16")
    # ... and a bare BertModel with the old gamma/beta names and no MLM head.
    old = [(k.replace("LayerNorm.weight", "LayerNorm.gamma").replace("LayerNorm.bias", "LayerNorm.beta"), v)
           for k, v in base]
    write_model("bert-f16-gamma-beta", BERT_CONFIG, old, "F16")

    expected = {
        "note": "written by make_fixtures.py; numbers from its numpy reference in float64",
        "gpt2": {"token_ids": GPT2_IDS, "layers": layers_json(g), "hidden": [nested(h) for h in g["hidden"]],
                 "next_token": nested(g["next_token"]), "next_token_top": top(g["next_token"]),
                 "tensors": {k: nested(gp[k]) for k in ("h.0.attn.c_attn.bias", "h.1.mlp.c_fc.weight",
                                                         "h.1.mlp.c_proj.weight")}},
        "bert": {"token_ids": BERT_IDS, "mask_token_id": BERT_MASK_ID, "layers": layers_json(b),
                 "hidden": [nested(h) for h in b["hidden"]],
                 "mask": [{"position": m["position"], "probabilities": nested(m["probabilities"]),
                           "top": top(m["probabilities"])} for m in b["mask"]],
                 "tensors": {k: nested(bp[k]) for k in ("encoder.layer.1.intermediate.dense.weight",
                                                         "encoder.layer.0.attention.self.key.weight")}},
    }
    with open(os.path.join(HERE, "expected.json"), "w") as f:
        json.dump(expected, f, separators=(",", ":"))
        f.write("\n")
    print("wrote", ", ".join(sorted(x for x in os.listdir(HERE) if not x.endswith(".py"))))


if __name__ == "__main__":
    main()
