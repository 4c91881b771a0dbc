#!/usr/bin/env python3
"""Expected head pattern scores (core/model/headscores.h) for small random
causal attention heads, computed here with plain loops over the definitions,
independently of the C++ code. Writes expected.json beside this script.

"window_cases" are heads of layers with a sliding window (query i sees key j
only when i - window < j <= i): a key outside the window is no candidate of
any pattern, and a query with no candidate left does not count. The first
token's share is then the mean weight on key 0 over queries 1 ... window - 1.

    /usr/bin/python3 tests/data/headscores/make_expected.py
"""
import json
import os

import numpy as np


def visible(n, window):
    """visible[i, j]: query i sees key j (causal, and inside the window when there is one)."""
    i = np.arange(n)[:, None]
    j = np.arange(n)[None, :]
    seen = j <= i
    if window:
        seen &= j > i - window
    return seen


def causal_softmax(scores, window=0):
    n = scores.shape[0]
    masked = np.where(visible(n, window), scores, -np.inf)
    e = np.exp(masked - masked.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def mean_or_none(values):
    return float(np.mean(values)) if values else None  # None: NaN in C++


def scores(w, tokens, chosen, window=0):
    n = len(tokens)
    sees = visible(n, window)
    prev = [w[i, i - 1] for i in range(1, n) if sees[i, i - 1]]
    first = [w[i, 0] for i in range(1, n) if sees[i, 0]]
    diag = [w[i, i] for i in range(1, n)]
    dup, ind = [], []
    for i in range(n):
        earlier = [j for j in range(i) if tokens[j] == tokens[i] and sees[i, j]]
        if earlier:
            dup.append(sum(w[i, j] for j in earlier))
        every_earlier = [j for j in range(i) if tokens[j] == tokens[i]]
        after = sorted({j + 1 for j in every_earlier if j + 1 < i and sees[i, j + 1]})
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


def window_case(rng, n, vocab, window):
    tokens = [int(t) for t in rng.integers(0, vocab, size=n)]
    heads = []
    for _ in range(2):
        w = causal_softmax(rng.normal(0, 2, size=(n, n)), window).astype(np.float32)
        heads.append({"weights": w.tolist(), "chosen": [n - 1, n - 2],
                      "expected": scores(w.astype(np.float64), tokens, (n - 1, n - 2), window)})
    return {"tokens": tokens, "window": window, "heads": heads}


def main():
    rng = np.random.default_rng(20261201)
    cases = [case(rng, 9, 3), case(rng, 12, 5), case(rng, 7, 7)]
    # Windows of 1 (a query sees only itself), 3 and 4, and one longer than the text.
    windowed = np.random.default_rng(20270314)
    window_cases = [window_case(windowed, 10, 3, 3), window_case(windowed, 12, 4, 4),
                    window_case(windowed, 6, 2, 1), window_case(windowed, 5, 3, 8)]
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "expected.json")
    with open(out, "w") as f:
        json.dump({"cases": cases, "window_cases": window_cases}, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
