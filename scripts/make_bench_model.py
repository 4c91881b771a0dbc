#!/usr/bin/python3
"""Writes a GPT-2-small-shaped model with random weights, for `bench --model`.

    /usr/bin/python3 scripts/make_bench_model.py /tmp/gpt2-random

12 layers, 12 heads, d_model 768, vocab 50257, n_positions 1024: config.json
and an F32 model.safetensors (about 500 MB; do not commit it) with the names
Hugging Face's GPT2Model writes. Weights are N(0, 0.02) as GPT-2 initialises
them, layer norms 1 and 0, seeded so every run writes the same file. No
tokenizer: bench needs none. scripts/bench_torch.py runs the same model in
PyTorch.
"""
import json
import os
import struct
import sys

import numpy as np

LAYERS, HEADS, D, VOCAB, POSITIONS = 12, 12, 768, 50257, 1024


def tensors():
    """(name, shape, kind) in file order; kind: 'normal', 'ones' or 'zeros'."""
    out = [("wte.weight", (VOCAB, D), "normal"), ("wpe.weight", (POSITIONS, D), "normal")]
    for i in range(LAYERS):
        p = f"h.{i}."
        out += [(p + "ln_1.weight", (D,), "ones"), (p + "ln_1.bias", (D,), "zeros"),
                (p + "attn.c_attn.weight", (D, 3 * D), "normal"), (p + "attn.c_attn.bias", (3 * D,), "zeros"),
                (p + "attn.c_proj.weight", (D, D), "normal"), (p + "attn.c_proj.bias", (D,), "zeros"),
                (p + "ln_2.weight", (D,), "ones"), (p + "ln_2.bias", (D,), "zeros"),
                (p + "mlp.c_fc.weight", (D, 4 * D), "normal"), (p + "mlp.c_fc.bias", (4 * D,), "zeros"),
                (p + "mlp.c_proj.weight", (4 * D, D), "normal"), (p + "mlp.c_proj.bias", (D,), "zeros")]
    return out + [("ln_f.weight", (D,), "ones"), ("ln_f.bias", (D,), "zeros")]


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: make_bench_model.py FOLDER")
    folder = sys.argv[1]
    os.makedirs(folder, exist_ok=True)
    config = {"model_type": "gpt2", "architectures": ["GPT2LMHeadModel"], "n_layer": LAYERS, "n_head": HEADS,
              "n_embd": D, "n_inner": None, "n_positions": POSITIONS, "n_ctx": POSITIONS, "vocab_size": VOCAB,
              "activation_function": "gelu_new", "layer_norm_epsilon": 1e-5, "bos_token_id": 50256,
              "eos_token_id": 50256}
    with open(os.path.join(folder, "config.json"), "w") as f:
        json.dump(config, f, indent=2)
        f.write("\n")

    header, offset = {"__metadata__": {"format": "pt"}}, 0
    for name, shape, _ in tensors():
        size = 4 * int(np.prod(shape))
        header[name] = {"dtype": "F32", "shape": list(shape), "data_offsets": [offset, offset + size]}
        offset += size
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)
    rng = np.random.default_rng(1234)
    path = os.path.join(folder, "model.safetensors")
    with open(path + ".part", "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for name, shape, kind in tensors():  # one tensor at a time: the whole model never sits in memory
            if kind == "normal":
                a = (rng.standard_normal(shape, dtype=np.float32) * 0.02).astype("<f4")
            else:
                a = np.full(shape, 1.0 if kind == "ones" else 0.0, dtype="<f4")
            f.write(a.tobytes())
    os.replace(path + ".part", path)
    print(f"wrote {folder}: {offset / 2 ** 20:.0f} MiB of weights")


if __name__ == "__main__":
    main()
