#pragma once
// The backward passes of the operations in model/ops.h and model/attentionop.h,
// each the exact derivative of its forward op and tested alone against central
// finite differences (tests/tst_gradients.cpp). Templated on the scalar like
// the forward ops: training runs in float, gradient checks in double.
//
// Convention (as in llm.c's train_gpt2.c): `dy` is dLoss/d(output); every
// function returns dLoss/d(input) and the gradients of its parameters.

#include "model/modeltypes.h"

#include <vector>

namespace attn {

template<typename S>
struct LinearGradients
{
    RowMatrix<S> input;  // n x in
    RowMatrix<S> weight; // in x out
    RowVector<S> bias;   // out
};

template<typename S>
struct LayerNormGradients
{
    RowMatrix<S> input; // n x d
    RowVector<S> weight, bias;
};

template<typename S>
struct AttentionGradients
{
    RowMatrix<S> queries, keys, values; // each n x heads*head_dim
};

template<typename S>
struct MlpGradients
{
    RowMatrix<S> input;
    LinearGradients<S> in, out; // in.input and out.input are left empty
};

// y = x W + b.
template<typename S>
LinearGradients<S> linearBackward(const MatrixIn<S> &x, const MatrixIn<S> &weight, const MatrixIn<S> &dy);

// y = layerNorm(x) with gamma `weight`; mean and variance are recomputed from x.
template<typename S>
LayerNormGradients<S> layerNormBackward(const MatrixIn<S> &x, const VectorIn<S> &weight, double epsilon,
                                        const MatrixIn<S> &dy);

// y = geluNew(x) entrywise (GPT-2's tanh form).
template<typename S>
RowMatrix<S> geluNewBackward(const MatrixIn<S> &x, const MatrixIn<S> &dy);

// Self-attention as attention<S>() computes it (scores scaled by `scale`,
// softmax, causal or not, weights * V), given that call's per-head weights and
// dLoss/d(context).
template<typename S>
AttentionGradients<S> attentionBackward(const MatrixIn<S> &queries, const MatrixIn<S> &keys, const MatrixIn<S> &values,
                                        const std::vector<RowMatrix<S>> &weights, double scale,
                                        const MatrixIn<S> &dContext);

// y = linear(geluNew(linear(x, W1, b1)), W2, b2); `inner` is linear(x, W1, b1)
// as the forward pass computed it.
template<typename S>
MlpGradients<S> mlpBackward(const MatrixIn<S> &x, const MatrixIn<S> &inner, const MatrixIn<S> &w1,
                            const MatrixIn<S> &w2, const MatrixIn<S> &dy);

// h_out = h_in + f(h_in): the gradient reaching h_in is the stream's own plus
// what flows back through f. Adds `dBranch` (dLoss/dh_in via f) to `dStream`.
template<typename S>
void residualBackward(RowMatrix<S> &dStream, const MatrixIn<S> &dBranch);

// h[i] = tokenEmbedding[ids[i]] + positionEmbedding[i % length]: the rows
// hold sequences of `length` tokens one after another. Adds into the tables.
template<typename S>
void embeddingBackward(const std::vector<int> &ids, int length, const MatrixIn<S> &dh, RowMatrix<S> &dTokenEmbedding,
                       RowMatrix<S> &dPositionEmbedding);

// logits = h E^T with E the (tied) token embedding [vocab, d]. Adds to dE,
// returns dLoss/dh.
template<typename S>
RowMatrix<S> unembeddingBackward(const MatrixIn<S> &h, const MatrixIn<S> &embedding, const MatrixIn<S> &dLogits,
                                 RowMatrix<S> &dEmbedding);

template<typename S>
struct CrossEntropy
{
    S loss = 0;            // sum_i w_i * -log softmax(logits_i)[target_i] / sum_i w_i
    S weightSum = 0;
    int correct = 0;       // rows with w_i > 0 whose argmax is the target
    int counted = 0;       // rows with w_i > 0
    RowMatrix<S> dLogits;  // dloss/dlogits
};

// Softmax cross-entropy of each row against its target, weighted per row
// (weight 0: the row does not count, e.g. an unpredictable token).
template<typename S>
CrossEntropy<S> crossEntropy(const MatrixIn<S> &logits, const std::vector<int> &targets,
                             const std::vector<float> &weights);

} // namespace attn
