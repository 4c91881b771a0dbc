#!/usr/bin/python3
"""Rotary positions and shared key/value heads on hand-made sessions.

Writes each case's session (CASE.attn.json) and what the contract says the
result must hold (CASE.expected.json), computed here with numpy, apart from
the C++ engine, from docs/contract.md sections 1 and 9:

- rotary: nothing is added to X; after the projections (in simplified mode
  on copies of X used as Q and K) each head's q and k at position p are
  turned pairwise in the rotate-half convention: pair i (i < d/2) is
  (x[i], x[i + d/2]), turned by the angle p * theta^(-2i/d); V is not turned.
- kv_heads: query head h uses key/value head h // (heads // kv_heads).

tests/tst_rotarysession.cpp reads both. Run with /usr/bin/python3 (numpy) from any
folder; the files are rewritten in place, deterministically.
"""
import json
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
TOKENS = ["Your", "journey", "starts", "with", "one", "step"]


def numbers(shape, seed, scale=1.0):
    """Small numbers with two decimals, so the session files stay readable."""
    rng = np.random.default_rng(seed)
    return np.round(rng.uniform(-1, 1, size=shape) * scale, 2)


def rotate(x, theta):
    """Every row r of x (one head, width d) turned to position r."""
    n, d = x.shape
    half = d // 2
    out = x.copy()
    for r in range(n):
        for i in range(half):
            angle = r * theta ** (-2.0 * i / d)
            a, b = x[r, i], x[r, i + half]
            out[r, i] = a * np.cos(angle) - b * np.sin(angle)
            out[r, i + half] = b * np.cos(angle) + a * np.sin(angle)
    return out


def sinusoidal(n, d):
    pe = np.zeros((n, d))
    for pos in range(n):
        for k in range(d):
            angle = pos / 10000 ** ((2 * (k // 2)) / d)
            pe[pos, k] = np.sin(angle) if k % 2 == 0 else np.cos(angle)
    return pe


def softmax_rows(s, causal):
    s = np.array(s, dtype=float)
    if causal:
        for i in range(s.shape[0]):
            s[i, i + 1:] = -np.inf
    s = s - s.max(axis=1, keepdims=True)
    e = np.exp(s)
    return e / e.sum(axis=1, keepdims=True)


def compute(session):
    a = session["attention"]
    x = np.array(session["embeddings"], dtype=float)
    source = session.get("source")
    y = np.array(source["embeddings"], dtype=float) if source else x
    n, d_model = x.shape
    heads = a.get("heads", 1)
    simplified = a.get("mode") == "simplified"
    head_dim = d_model if simplified else a["head_dim"]
    kv_heads = a.get("kv_heads", heads)
    theta = a.get("rope_theta", 10000.0)
    positions = a.get("positional_encoding", "none")
    causal = a.get("causal", False) and not source
    scale = a.get("scale", not simplified)
    if positions == "sinusoidal":
        x = x + sinusoidal(n, d_model)
        y = y + sinusoidal(y.shape[0], d_model) if source else x
    w = session.get("weights", {})
    result = {"inputs": x.tolist(), "heads": []}
    contexts = []
    for h in range(heads):
        g = h // (heads // kv_heads)
        if simplified:
            q, k, v = x.copy(), y.copy(), y.copy()
        else:
            q = x @ np.array(w["query"][h])
            k = y @ np.array(w["key"][g])
            v = y @ np.array(w["value"][g])
        if positions == "rotary":
            q, k = rotate(q, theta), rotate(k, theta)
        s = q @ k.T
        weights = softmax_rows(s / np.sqrt(head_dim) if scale else s, causal)
        z = weights @ v
        contexts.append(z)
        result["heads"].append({"queries": q.tolist(), "keys": k.tolist(), "values": v.tolist(),
                                "scores": s.tolist(), "weights": weights.tolist(), "context": z.tolist()})
    out = np.concatenate(contexts, axis=1)
    if a.get("output_projection", heads > 1):
        out = out @ np.array(w["output"])
    result["output"] = out.tolist()
    return result


def session(embeddings, attention, weights=None, source=None, query=1):
    s = {"format": "attention-explorer-session", "version": 1, "tokens": TOKENS[:len(embeddings)],
         "embeddings": embeddings.tolist(), "query": query, "attention": attention}
    if weights:
        s["weights"] = {k: (np.array(v).tolist()) for k, v in weights.items()}
    if source is not None:
        s["source"] = source
    return s


def projections(seed, count, d_model, head_dim):
    return [numbers((d_model, head_dim), seed + i) for i in range(count)]


CASES = {}

# One head of width 4 on 4-dimensional embeddings, the default base.
X4 = numbers((6, 4), 1)
CASES["rotary-one-head"] = session(
    X4, {"mode": "scaled-dot-product", "heads": 1, "head_dim": 4, "causal": False, "scale": True,
         "positional_encoding": "rotary", "output_projection": False, "seed": 1},
    {"query": projections(10, 1, 4, 4), "key": projections(20, 1, 4, 4), "value": projections(30, 1, 4, 4)})

# Four query heads sharing two key/value heads, causal, Wo, a small base
# (100) so that the second pair of each head turns visibly too.
CASES["rotary-shared-heads"] = session(
    X4, {"mode": "scaled-dot-product", "heads": 4, "head_dim": 2, "kv_heads": 2, "causal": True, "scale": True,
         "positional_encoding": "rotary", "rope_theta": 100, "output_projection": True, "seed": 2},
    {"query": projections(40, 4, 4, 2), "key": projections(50, 2, 4, 2), "value": projections(60, 2, 4, 2),
     "output": numbers((8, 4), 70)}, query=4)

# Simplified attention: Q and K are X turned, V is X itself.
CASES["rotary-simplified"] = session(
    X4, {"mode": "simplified", "heads": 1, "causal": False, "scale": False, "positional_encoding": "rotary",
         "output_projection": False, "seed": 3})

# Cross-attention: the sentence and the source each turned to their own positions; one key/value head for two.
CASES["rotary-cross"] = session(
    X4, {"mode": "scaled-dot-product", "heads": 2, "head_dim": 2, "kv_heads": 1, "scale": True,
         "positional_encoding": "rotary", "rope_theta": 10, "output_projection": True, "seed": 4},
    {"query": projections(80, 2, 4, 2), "key": projections(90, 1, 4, 2), "value": projections(100, 1, 4, 2),
     "output": numbers((4, 4), 110)},
    source={"tokens": ["Ton", "voyage", "commence", "ici"], "embeddings": numbers((4, 4), 120).tolist()})

# Shared key/value heads with sinusoidal positions added to X (which change q, k and v alike).
CASES["shared-heads-sinusoidal"] = session(
    X4, {"mode": "scaled-dot-product", "heads": 2, "head_dim": 2, "kv_heads": 1, "causal": False, "scale": True,
         "positional_encoding": "sinusoidal", "output_projection": False, "seed": 5},
    {"query": projections(130, 2, 4, 2), "key": projections(140, 1, 4, 2), "value": projections(150, 1, 4, 2)})


def dumps(value, indent=""):
    """JSON with each list of numbers (a vector or a matrix row) on one line."""
    inner = indent + "  "
    if isinstance(value, dict):
        items = [f'{inner}{json.dumps(k)}: {dumps(v, inner)}' for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + indent + "}"
    if isinstance(value, list) and value and isinstance(value[0], (list, dict)):
        return "[\n" + ",\n".join(inner + dumps(v, inner) for v in value) + "\n" + indent + "]"
    return json.dumps(value)


def main():
    for name, s in CASES.items():
        with open(os.path.join(HERE, name + ".attn.json"), "w") as f:
            f.write(dumps(s) + "\n")
        with open(os.path.join(HERE, name + ".expected.json"), "w") as f:
            f.write(dumps(compute(s)) + "\n")
    # The two-dimensional cases worked by hand in the test's comments, checked here too.
    x = np.array([[1.0, 0.0]] * 3)
    turned = rotate(x, 10000)
    assert np.allclose(turned @ turned.T, [[np.cos(i - j) for j in range(3)] for i in range(3)])


if __name__ == "__main__":
    main()
