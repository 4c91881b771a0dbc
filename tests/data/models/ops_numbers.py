#!/usr/bin/python3
"""Expected numbers of tests/tst_modelops.cpp, from numpy and math (float64).

Run with /usr/bin/python3 and paste the printed literals into the test when a
case changes. Formulas as torch and Hugging Face define them: LayerNorm with
the biased variance, gelu_new (tanh) and gelu (erf), x @ W + b with W [in, out].
"""
import math

import numpy as np


def lit(a):
    return "{" + ", ".join(repr(float(x)) for x in np.ravel(a)) + "}"


def layer_norm(x, w, b, eps):
    m = x.mean(-1, keepdims=True)
    v = ((x - m) ** 2).mean(-1, keepdims=True)
    return (x - m) / np.sqrt(v + eps) * w + b


def gelu_new(x):
    return 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))


def gelu_erf(x):
    return np.array([0.5 * t * (1 + math.erf(t / math.sqrt(2))) for t in np.ravel(x)]).reshape(np.shape(x))


def softmax(s):
    e = np.exp(s - s.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


x = np.array([[1.0, 2.0, 3.0, 4.0], [-0.5, 0.25, 8.0, 1.0]])
print("layerNorm plain", lit(layer_norm(x, 1.0, 0.0, 0.0)))
w, b = np.array([2.0, 1.0, 0.5, -1.0]), np.array([0.1, 0.0, 0.0, 0.2])
print("layerNorm affine eps 0.01", lit(layer_norm(x, w, b, 0.01)))
print("layerNorm affine eps 1e-12", lit(layer_norm(x, w, b, 1e-12)))

g = np.array([-3.0, -1.0, -0.5, 0.0, 0.5, 1.0, 2.0, 3.0])
print("geluNew", lit(gelu_new(g)))
print("geluErf", lit(gelu_erf(g)))

# linear and MLP, non-square: x 2x3, W1 3x4, W2 4x2
xl = np.array([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]])
w1 = np.array([[0.1, -0.2, 0.3, 0.4], [0.5, 0.6, -0.7, 0.8], [-0.9, 1.0, 1.1, -1.2]])
b1 = np.array([0.01, -0.02, 0.03, -0.04])
w2 = np.array([[1.0, -1.0], [0.5, 0.25], [-0.3, 0.7], [0.2, 0.9]])
b2 = np.array([0.1, -0.1])
print("linear", lit(xl @ w1 + b1))
print("mlp gelu_new", lit(gelu_new(xl @ w1 + b1) @ w2 + b2))
print("mlp gelu", lit(gelu_erf(xl @ w1 + b1) @ w2 + b2))

# attention: n = 3 queries, m = 3 keys, 2 heads of width 2
q = np.array([[1.0, 0.0, 0.5, -1.0], [0.0, 1.0, 1.0, 1.0], [1.0, 1.0, -0.5, 2.0]])
k = np.array([[0.5, 0.5, 1.0, 0.0], [-1.0, 2.0, 0.0, 1.0], [1.5, -0.5, 1.0, 1.0]])
v = np.array([[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [-1.0, 0.0, 1.0, -2.0]])
for causal in (False, True):
    for h in range(2):
        sl = slice(2 * h, 2 * h + 2)
        s = q[:, sl] @ k[:, sl].T
        z = s / math.sqrt(2)
        if causal:
            z = np.where(np.tril(np.ones((3, 3), bool)), z, -np.inf)
        a = softmax(z)
        print(f"attention causal={causal} head {h} scores", lit(s))
        print(f"attention causal={causal} head {h} weights", lit(a))
        print(f"attention causal={causal} head {h} context", lit(a @ v[:, sl]))
