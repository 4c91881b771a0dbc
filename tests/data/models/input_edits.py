#!/usr/bin/python3
"""Expected numbers for tests/tst_inputedit.cpp and tests/tst_compare.cpp: the
tiny GPT-2 and BERT fixtures (read from their committed safetensors files) run
with a changed input: one position's token embedding moved part of the way
towards another token's, its first dimensions set, or a token replaced.

The edit is added to the token's embedding row before the position embedding
(and BERT's token type embedding and embedding LayerNorm), for that one
position only. Run with /usr/bin/python3 (numpy); rewrites input_edits.json.
"""
import json
import os
import struct
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from make_fixtures import (BERT_CONFIG, BERT_IDS, GPT2_CONFIG, GPT2_IDS, attention, gelu_erf, gelu_new,  # noqa: E402
                           layer_norm, softmax)


def read_safetensors(path, strip):
    with open(path, "rb") as f:
        n = struct.unpack("<Q", f.read(8))[0]
        header = json.loads(f.read(n))
        data = f.read()
    out = {}
    for name, t in header.items():
        if name == "__metadata__" or t["dtype"] != "F32":
            continue
        begin, end = t["data_offsets"]
        a = np.frombuffer(data[begin:end], dtype="<f4").reshape(t["shape"])
        out[name[len(strip):] if name.startswith(strip) else name] = a.astype(np.float64)
    return out


def gpt2(p, cfg, ids, deltas):
    eps, d = cfg["layer_norm_epsilon"], cfg["n_embd"]
    h = p["wte.weight"][ids] + deltas + p["wpe.weight"][: len(ids)]
    layers = []
    for i in range(cfg["n_layer"]):
        pre = f"h.{i}."
        a = layer_norm(h, p[pre + "ln_1.weight"], p[pre + "ln_1.bias"], eps)
        qkv = a @ p[pre + "attn.c_attn.weight"] + p[pre + "attn.c_attn.bias"]
        w, _, z = attention(qkv[:, :d], qkv[:, d:2 * d], qkv[:, 2 * d:], cfg["n_head"], causal=True)
        h = h + z @ p[pre + "attn.c_proj.weight"] + p[pre + "attn.c_proj.bias"]
        m = layer_norm(h, p[pre + "ln_2.weight"], p[pre + "ln_2.bias"], eps)
        h = h + gelu_new(m @ p[pre + "mlp.c_fc.weight"] + p[pre + "mlp.c_fc.bias"]) @ p[pre + "mlp.c_proj.weight"] \
            + p[pre + "mlp.c_proj.bias"]
        layers.append(w)
    final = layer_norm(h, p["ln_f.weight"], p["ln_f.bias"], eps)
    return layers, softmax(final[-1] @ p["wte.weight"].T)


def bert(p, cfg, ids, deltas):
    eps, e = cfg["layer_norm_eps"], "embeddings."
    h = p[e + "word_embeddings.weight"][ids] + deltas + p[e + "token_type_embeddings.weight"][0] \
        + p[e + "position_embeddings.weight"][: len(ids)]
    h = layer_norm(h, p[e + "LayerNorm.weight"], p[e + "LayerNorm.bias"], eps)

    def linear(x, name):
        return x @ p[name + ".weight"].T + p[name + ".bias"]

    layers = []
    for i in range(cfg["num_hidden_layers"]):
        pre = f"encoder.layer.{i}."
        q, k, v = (linear(h, pre + "attention.self." + t) for t in ("query", "key", "value"))
        w, _, z = attention(q, k, v, cfg["num_attention_heads"], causal=False)
        h = layer_norm(h + linear(z, pre + "attention.output.dense"), p[pre + "attention.output.LayerNorm.weight"],
                       p[pre + "attention.output.LayerNorm.bias"], eps)
        m = gelu_erf(linear(h, pre + "intermediate.dense"))
        h = layer_norm(h + linear(m, pre + "output.dense"), p[pre + "output.LayerNorm.weight"],
                       p[pre + "output.LayerNorm.bias"], eps)
        layers.append(w)
    return layers, None


def case(run, p, cfg, ids, edits, wte, note):
    """edits: (position, delta) pairs; the deltas are recorded so the test can check its own."""
    deltas = np.zeros((len(ids), wte.shape[1]))
    for pos, delta in edits:
        deltas[pos] += delta
    layers, nxt = run(p, cfg, ids, deltas)
    out = {"note": note, "token_ids": ids, "edits": [{"position": pos, "delta": delta.tolist()} for pos, delta in edits],
           "layers": [[w.tolist() for w in L] for L in layers]}
    if nxt is not None:
        out["next_token"] = nxt.tolist()
    return out


def main():
    g = read_safetensors(os.path.join(HERE, "gpt2-f32", "model.safetensors"), "transformer.")
    b = read_safetensors(os.path.join(HERE, "bert-f32", "model.safetensors"), "bert.")
    gw, bw = g["wte.weight"], b["embeddings.word_embeddings.weight"]
    # Position 4 holds " a" (9), as does position 5, which stays as it is.
    moved = (gw[17] - gw[9]) * 0.3
    first = np.zeros(gw.shape[1])
    first[:3] = np.array([0.5, -1.25, 2.0]) - gw[GPT2_IDS[1], :3]
    replaced = list(GPT2_IDS)
    replaced[2] = 12
    bert_moved = (bw[27] - bw[11]) * 0.4
    out = {
        "note": "written by input_edits.py from the committed fixtures, numpy float64",
        "gpt2_moved": case(gpt2, g, GPT2_CONFIG, GPT2_IDS, [(4, moved)], gw,
                           "position 4 (id 9) moved 30 % towards id 17"),
        "gpt2_first_dims": case(gpt2, g, GPT2_CONFIG, GPT2_IDS, [(1, first)], gw,
                                "position 1 (id 17): dimensions 0, 1, 2 set to 0.5, -1.25, 2"),
        "gpt2_replaced": case(gpt2, g, GPT2_CONFIG, replaced, [], gw, "position 2 replaced by id 12"),
        "bert_moved": case(bert, b, BERT_CONFIG, BERT_IDS, [(1, bert_moved)], bw,
                           "position 1 (id 11) moved 40 % towards id 27"),
    }
    with open(os.path.join(HERE, "input_edits.json"), "w") as f:
        json.dump(out, f, separators=(",", ":"))
        f.write("\n")
    print("wrote input_edits.json")


if __name__ == "__main__":
    main()
