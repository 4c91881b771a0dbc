#!/usr/bin/env python3
"""Fit the polynomial the attention kernels use for 2^r on [-1/2, 1/2]
(core/model/attentionkernelbody.h, twoToThe) and check it in float.

The fit minimises the largest relative error (Lawson's iteration on
reweighted least squares over Chebyshev points), with p(0) = 1 exactly so
that the row's largest score gives a weight of exactly 2^0 before the sum.
Prints the coefficients as C++ float literals, lowest degree first, the
error of the fit in double and the error of a float Horner evaluation with
one rounding a step (fused multiply-add), as the kernels evaluate it.
Needs numpy (python3-numpy).
"""
import numpy as np

DEGREE = 6

x = np.cos(np.linspace(0.0, np.pi, 4001)) * 0.5
f = np.exp2(x)
# p(x) = 1 + sum c_k x^k; relative error (p - f) / f is linear in c.
A = np.vstack([x**k for k in range(1, DEGREE + 1)]).T / f[:, None]
b = (f - 1.0) / f
weights = np.ones_like(x)
for _ in range(2000):
    root = np.sqrt(weights)
    c, *_ = np.linalg.lstsq(A * root[:, None], b * root, rcond=None)
    weights *= np.abs(A @ c - b)
    weights /= weights.sum()
coefficients = np.concatenate([[1.0], c]).astype(np.float32)

print("coefficients (degree 0 first):",
      ", ".join(np.format_float_scientific(v, unique=True, exp_digits=1) + "f" for v in coefficients))
exact = np.polyval(np.concatenate([[1.0], c])[::-1], x)
print("largest relative error of the fit, double: %.3g" % np.max(np.abs(exact - f) / f))

r = np.linspace(-0.5, 0.5, 200001).astype(np.float32)
p = np.full_like(r, coefficients[DEGREE])
for k in range(DEGREE - 1, -1, -1):
    p = (p.astype(np.float64) * r.astype(np.float64) + np.float64(coefficients[k])).astype(np.float32)
truth = np.exp2(r.astype(np.float64))
print("largest relative error in float (Horner, fused): %.3g" % np.max(np.abs(p - truth) / truth))
