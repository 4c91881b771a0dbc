#!/usr/bin/python3
"""Expected numbers of the rotary walkthrough of a model's layer (the point
of RoPE: the score of the same two vectors depends only on how far apart
they stand), from the Llama-family test checkpoints.

    /usr/bin/python3 tests/data/rotarymodel/make_expected.py

For a few (folder, layer, query head, query, key): the query's q and the
key's k as the layer's forward pass rotated them are read from
tests/data/families/expected.json; they are turned back here with the
checkpoint's own rotary frequencies (make_fixtures.py's inv_freq, written
from transformers' modeling_rope_utils.py, from config.json) to q and k
before rotation; then both are turned again to other positions and their
dot product taken: the same distance at several places (the score must not
change, and it equals the layer's own score), and other distances with the
key where it stands. Written to expected.json beside this script. Nothing
here comes from the C++ code under test.

The cases cover the rotary variants: llama (rope_scaling llama3, theta
8000), llama-tied (linear factor 2), phi3 (partial rotary: 6 of 8
dimensions turn, the last 2 never change) and gemma3_text layer 0 (a
windowed layer turning with the local base 10000) and layer 2 (the global
theta 1e6 with linear factor 4), each with a head that reads a shared
key/value head.
"""
import json
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
FAMILIES = os.path.join(HERE, "..", "families")
sys.path.insert(0, FAMILIES)
import make_fixtures  # noqa: E402  (the reference maths of the checkpoints)


def turned(v, position, freqs):
    """v (head_dim) turned as if it stood at `position` (may be negative),
    in the rotate-half pairing: pair i is (v[i], v[i + r/2]), r = 2 len(freqs)."""
    half = len(freqs)
    out = np.array(v, dtype=np.float64)
    angle = position * np.asarray(freqs, dtype=np.float64)
    a, b = out[:half].copy(), out[half:2 * half].copy()
    out[:half] = a * np.cos(angle) - b * np.sin(angle)
    out[half:2 * half] = b * np.cos(angle) + a * np.sin(angle)
    return out


def case(name, layer, head, query, key):
    expected = json.load(open(os.path.join(FAMILIES, "expected.json")))["cases"][name]
    config = json.load(open(os.path.join(FAMILIES, name, "config.json")))
    s = make_fixtures.spec_from_config(config)
    hd, group = s["head_dim"], s["heads"] // s["kv"]
    theta, scaling = s["rope"][layer]
    freqs = make_fixtures.inv_freq(theta, scaling, s["rotary"], frozenset())
    lt = expected["layers"][layer]
    q_rot = np.asarray(lt["queries"], dtype=np.float64)[query, head * hd:(head + 1) * hd]
    kv = head // group
    k_rot = np.asarray(lt["keys"], dtype=np.float64)[key, kv * hd:(kv + 1) * hd]
    q = turned(q_rot, -query, freqs)
    k = turned(k_rot, -key, freqs)
    n = len(expected["token_ids"])
    distance = query - key
    together = [{"query_at": p, "key_at": p - distance,
                 "score": float(turned(q, p, freqs) @ turned(k, p - distance, freqs))}
                for p in range(distance, n + 4)]
    apart = [{"query_at": p, "key_at": key, "score": float(turned(q, p, freqs) @ turned(k, key, freqs))}
             for p in range(0, n + 4) if p != query]
    return {"folder": name, "layer": layer, "head": head, "kv_head": kv, "query": query, "key": key,
            "rotary_dims": s["rotary"], "frequencies": [float(f) for f in freqs],
            "angles_at_query": [float(query * f) for f in freqs],
            "angles_at_key": [float(key * f) for f in freqs],
            "q_before": q.tolist(), "k_before": k.tolist(), "q_after": q_rot.tolist(), "k_after": k_rot.tolist(),
            "score": float(lt["heads"][head]["scores"][query][key]),
            "together": together, "apart": apart}


def main():
    cases = [case("llama", 1, 3, 9, 2), case("llama-tied", 0, 1, 7, 4), case("phi3", 1, 2, 8, 3),
             case("gemma3_text", 0, 1, 5, 3), case("gemma3_text", 2, 2, 10, 1)]
    for c in cases:
        spread = max(t["score"] for t in c["together"]) - min(t["score"] for t in c["together"])
        assert spread < 1e-9, (c["folder"], spread)  # the point of RoPE, in exact arithmetic
        assert abs(c["together"][c["query"] - (c["query"] - c["key"])]["score"] - c["score"]) < 1e-4, c["folder"]
    with open(os.path.join(HERE, "expected.json"), "w") as f:
        json.dump({"cases": cases}, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
