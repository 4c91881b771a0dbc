#!/usr/bin/python3
"""Hand-worked attention numbers for tests/tst_attention.cpp.

Computed with numpy, independently of the C++ engine, following the contract
(docs/contract.md, section 1). Run with /usr/bin/python3 and paste the printed
literals into the test when a case changes.
"""
import numpy as np

np.set_printoptions(precision=17)


def softmax_rows(s, causal=False):
    s = np.array(s, dtype=float)
    if causal:
        n, m = s.shape
        for i in range(n):
            s[i, i + 1:] = -np.inf
    s = s - s.max(axis=1, keepdims=True)
    e = np.exp(s)
    return e / e.sum(axis=1, keepdims=True)


def pe(n, d):
    p = np.zeros((n, d))
    for pos in range(n):
        for k in range(d):
            i2 = 2 * (k // 2)
            angle = pos / 10000 ** (i2 / d)
            p[pos, k] = np.sin(angle) if k % 2 == 0 else np.cos(angle)
    return p


def lit(a):
    """A C++ brace list of the numbers, 17 significant digits."""
    a = np.atleast_1d(np.asarray(a, dtype=float)).ravel()
    return "{" + ", ".join(repr(float(x)) for x in a) + "}"


def show(name, a):
    print(f"{name} = {lit(a)}")


X = np.array([[0.43, 0.15, 0.89], [0.55, 0.87, 0.66], [0.57, 0.85, 0.64],
              [0.22, 0.58, 0.33], [0.77, 0.25, 0.10], [0.05, 0.80, 0.55]])

print("# A: simplified, no scale, example, query 1 (journey)")
S = X @ X.T
A = softmax_rows(S)
show("A.scores[1]", S[1])
show("A.weights[1]", A[1])
show("A.context[1]", (A @ X)[1])
show("A.weights[5]", A[5])
show("A.context[5]", (A @ X)[5])

print("# B: simplified, scale on (d_k = d_model = 3)")
A = softmax_rows(S / np.sqrt(3))
show("B.weights[1]", A[1])
show("B.context[1]", (A @ X)[1])

print("# C: scaled-dot-product, 3 tokens, d_model 3, head_dim 2, scale on")
X3 = np.array([[1.0, 0.0, 1.0], [0.0, 2.0, 0.0], [1.0, 1.0, 1.0]])
Wq = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
Wk = np.array([[0.0, 1.0], [1.0, 0.0], [0.5, 0.5]])
Wv = np.array([[1.0, 2.0], [0.0, 1.0], [-1.0, 0.0]])
Q, K, V = X3 @ Wq, X3 @ Wk, X3 @ Wv
S = Q @ K.T
A = softmax_rows(S / np.sqrt(2))
show("C.queries", Q)
show("C.keys", K)
show("C.values", V)
show("C.scores", S)
show("C.weights", A)
show("C.context", A @ V)

print("# D: causal mask on case C")
A = softmax_rows(S / np.sqrt(2), causal=True)
show("D.weights", A)
show("D.context", A @ V)

print("# E: 2 heads (head 0 = case C, head 1 below), output projection Wo (4 x 3)")
Wq1 = np.array([[0.5, -1.0], [1.0, 0.0], [0.0, 0.5]])
Wk1 = np.array([[1.0, 1.0], [0.0, -0.5], [0.5, 0.0]])
Wv1 = np.array([[0.0, 1.0], [1.0, 1.0], [2.0, -1.0]])
Wo = np.array([[1.0, 0.0, 0.5], [0.0, 1.0, -0.5], [0.25, 0.0, 1.0], [0.0, -1.0, 0.0]])
Z0 = softmax_rows((X3 @ Wq) @ (X3 @ Wk).T / np.sqrt(2)) @ (X3 @ Wv)
S1 = (X3 @ Wq1) @ (X3 @ Wk1).T
A1 = softmax_rows(S1 / np.sqrt(2))
Z1 = A1 @ (X3 @ Wv1)
show("E.scores1", S1)
show("E.weights1", A1)
show("E.concat", np.hstack([Z0, Z1]))
show("E.output", np.hstack([Z0, Z1]) @ Wo)

print("# F: sinusoidal positional encoding")
show("F.pe_4x4", pe(4, 4))
show("F.pe_3x5", pe(3, 5))
Xp = X[:3] + pe(3, 3)
Sp = Xp @ Xp.T
Ap = softmax_rows(Sp)
show("F.inputs", Xp)
show("F.weights", Ap)
show("F.context", Ap @ Xp)

print("# G: cross-attention, queries from X3 (case C weights), 2-token source")
Src = np.array([[0.5, -1.0, 2.0], [1.0, 1.0, 0.0]])
Qg, Kg, Vg = X3 @ Wq, Src @ Wk, Src @ Wv
Sg = Qg @ Kg.T
Ag = softmax_rows(Sg / np.sqrt(2))
show("G.scores", Sg)
show("G.weights", Ag)
show("G.context", Ag @ Vg)
