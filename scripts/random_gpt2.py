#!/usr/bin/python3
"""Writes a GPT-2-small-shaped model with random weights (12 layers, 12 heads,
d_model 768, vocab 50257) as a model folder: config.json, model.safetensors and
the real GPT-2 tokenizer from tests/data/tokenizers. For screenshots and
benchmarks when no real checkpoint is at hand: its attention patterns and
next-token guesses mean nothing.

    /usr/bin/python3 scripts/random_gpt2.py OUT_DIR [--layers 12] [--seed 1]
"""
import argparse, json, os, shutil, struct
import numpy as np

p = argparse.ArgumentParser()
p.add_argument("out")
p.add_argument("--layers", type=int, default=12)
p.add_argument("--seed", type=int, default=1)
a = p.parse_args()
rng = np.random.default_rng(a.seed)
L, H, D, V, P = a.layers, 12, 768, 50257, 1024
os.makedirs(a.out, exist_ok=True)
json.dump({"model_type": "gpt2", "n_layer": L, "n_head": H, "n_embd": D, "n_positions": P, "n_ctx": P,
           "vocab_size": V, "activation_function": "gelu_new", "layer_norm_epsilon": 1e-5},
          open(os.path.join(a.out, "config.json"), "w"), indent=2)

def r(*shape, std=0.02):
    return (rng.standard_normal(shape) * std).astype(np.float32)

t = {"wte.weight": r(V, D), "wpe.weight": r(P, D, std=0.3), "ln_f.weight": np.ones(D, np.float32),
     "ln_f.bias": np.zeros(D, np.float32)}
for l in range(L):
    q = f"h.{l}."
    t[q + "ln_1.weight"] = np.ones(D, np.float32); t[q + "ln_1.bias"] = np.zeros(D, np.float32)
    t[q + "ln_2.weight"] = np.ones(D, np.float32); t[q + "ln_2.bias"] = np.zeros(D, np.float32)
    # Larger query and key weights than a trained model's init, so the random heads are not all uniform.
    t[q + "attn.c_attn.weight"] = np.concatenate([r(D, D, std=0.12), r(D, D, std=0.12), r(D, D)], axis=1)
    t[q + "attn.c_attn.bias"] = r(3 * D)
    t[q + "attn.c_proj.weight"] = r(D, D); t[q + "attn.c_proj.bias"] = r(D)
    t[q + "mlp.c_fc.weight"] = r(D, 4 * D); t[q + "mlp.c_fc.bias"] = r(4 * D)
    t[q + "mlp.c_proj.weight"] = r(4 * D, D); t[q + "mlp.c_proj.bias"] = r(D)

header, offset = {}, 0
for name, x in t.items():
    header[name] = {"dtype": "F32", "shape": list(x.shape), "data_offsets": [offset, offset + x.nbytes]}
    offset += x.nbytes
h = json.dumps(header).encode()
# Padded with spaces to a multiple of 8, as the safetensors writer does, so the data is float-aligned.
h += b" " * (-len(h) % 8)
with open(os.path.join(a.out, "model.safetensors"), "wb") as f:
    f.write(struct.pack("<Q", len(h)) + h)
    for x in t.values():
        f.write(x.tobytes())
tok = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data", "tokenizers")
for name in ("vocab.json", "merges.txt"):
    src = [os.path.join(dp, name) for dp, _, fs in os.walk(tok) if name in fs][0]
    shutil.copy(src, os.path.join(a.out, name))
