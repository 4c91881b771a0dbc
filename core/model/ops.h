#pragma once
// The small operations a transformer block is built from, each tested alone
// (tests/tst_modelops.cpp). Templated on the scalar: the model runs in float,
// tests (and gradient checks) run the same code in double.

#include "model/modelconfig.h"
#include "model/modeltypes.h"

namespace attn {

// PyTorch's LayerNorm over each row: (x - mean) / sqrt(var + eps) * weight + bias,
// var the biased variance (divided by d, not d - 1).
template<typename S>
RowMatrix<S> layerNorm(const MatrixIn<S> &x, const VectorIn<S> &weight, const VectorIn<S> &bias, double epsilon);

// The Llama family's RMSNorm over each row: x / sqrt(mean(x^2) + eps) * weight
// (Gemma's 1 + w is in the weight already: model/modelloader.cpp).
template<typename S>
RowMatrix<S> rmsNorm(const MatrixIn<S> &x, const VectorIn<S> &weight, double epsilon);

// RMSNorm of each of the `heads` slices of weight.size() values in every row,
// in place: Qwen3's and Gemma 3's q and k norms, per head before the rotation.
template<typename S>
void rmsNormEachHead(RowMatrix<S> &x, int heads, const VectorIn<S> &weight, double epsilon);

// 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))): GPT-2's gelu_new.
template<typename S>
S geluNew(S x);
// 0.5 x (1 + erf(x / sqrt 2)): BERT's gelu.
template<typename S>
S geluErf(S x);

// The activation applied to every entry, in place.
template<typename S>
void activate(RowMatrix<S> &x, Activation activation);

// x * W + b, W stored [in, out] (the one convention of ModelParameters).
template<typename S>
RowMatrix<S> linear(const MatrixIn<S> &x, const MatrixIn<S> &weight, const VectorIn<S> &bias);

// The position-wise MLP: linear(activation(linear(x, W1, b1)), W2, b2).
template<typename S>
RowMatrix<S> mlp(const MatrixIn<S> &x, const MatrixIn<S> &w1, const VectorIn<S> &b1, const MatrixIn<S> &w2,
                 const VectorIn<S> &b2, Activation activation);

// h += delta: the residual stream.
template<typename S>
void addResidual(RowMatrix<S> &h, const MatrixIn<S> &delta);

// Softmax of one row vector (next-token or masked-token logits).
template<typename S>
RowVector<S> softmax(const VectorIn<S> &logits);

} // namespace attn
