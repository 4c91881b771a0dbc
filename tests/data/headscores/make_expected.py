#!/usr/bin/env python3
"""Expected head pattern scores (core/model/headscores.h) for small random
causal attention heads, computed here with plain loops over the definitions,
independently of the C++ code. Writes expected.json beside this script.

    /usr/bin/python3 tests/data/headscores/make_expected.py
"""
import json
import os

import numpy as np


def causal_softmax(scores):
    n = scores.shape[0]
    masked = np.where(np.tril(np.ones((n, n), dtype=bool)), scores, -np.inf)
    e = np.exp(masked - masked.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def mean_or_none(values):
    return float(np.mean(values)) if values else None  # None: NaN in C++


def scores(w, tokens, chosen):
    n = len(tokens)
    prev = [w[i, i - 1] for i in range(1, n)]
    first = [w[i, 0] for i in range(1, n)]
    diag = [w[i, i] for i in range(1, n)]
    dup, ind = [], []
    for i in range(n):
        earlier = [j for j in range(i) if tokens[j] == tokens[i]]
        if earlier:
            dup.append(sum(w[i, j] for j in earlier))
        after = sorted({j + 1 for j in earlier if j + 1 < i})
        if after:
            ind.append(sum(w[i, k] for k in after))
    q, k = chosen
    return {
        "previous_token": mean_or_none(prev),
        "duplicate": mean_or_none(dup),
        "induction": mean_or_none(ind),
        "first_token": mean_or_none(first),
        "self": mean_or_none(diag),
        "chosen_key": float(w[q, k]),
    }


def case(rng, n, vocab):
    tokens = [int(t) for t in rng.integers(0, vocab, size=n)]
    heads = []
    for _ in range(3):
        w = causal_softmax(rng.normal(0, 2, size=(n, n))).astype(np.float32)
        chosen = (int(rng.integers(0, n)), 0)
        chosen = (chosen[0], int(rng.integers(0, chosen[0] + 1)))
        # The C++ code reads the same float32 weights; sum them in double here too.
        heads.append({"weights": w.tolist(), "chosen": list(chosen),
                      "expected": scores(w.astype(np.float64), tokens, chosen)})
    return {"tokens": tokens, "heads": heads}


def main():
    rng = np.random.default_rng(20261201)
    cases = [case(rng, 9, 3), case(rng, 12, 5), case(rng, 7, 7)]
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "expected.json")
    with open(out, "w") as f:
        json.dump({"cases": cases}, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
