#pragma once
// The backward passes of the operations in model/ops.h and model/attentionop.h
// (learn/rotaryturn.h has the rotation's), each the exact derivative of its
// forward op and tested alone against central
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

// y = x W + b (W stored [in, out]: GPT-2's Conv1D).
template<typename S>
LinearGradients<S> linearBackward(const MatrixIn<S> &x, const MatrixIn<S> &weight, const MatrixIn<S> &dy);

// y = x Wᵀ + b (W stored [out, in]: nn.Linear, the Llama family); `weight` of the gradients is [out, in] too.
template<typename S>
LinearGradients<S> linearTransposedBackward(const MatrixIn<S> &x, const MatrixIn<S> &weight, const MatrixIn<S> &dy);

// y = layerNorm(x) with gamma `weight`; mean and variance are recomputed from x.
template<typename S>
LayerNormGradients<S> layerNormBackward(const MatrixIn<S> &x, const VectorIn<S> &weight, double epsilon,
                                        const MatrixIn<S> &dy);

// y = rmsNorm(x) with gain `weight` (model/ops.h); the root mean square is recomputed from x.
// The bias of the result is left empty.
template<typename S>
LayerNormGradients<S> rmsNormBackward(const MatrixIn<S> &x, const VectorIn<S> &weight, double epsilon,
                                      const MatrixIn<S> &dy);

// y = geluNew(x) entrywise (GPT-2's tanh form).
template<typename S>
RowMatrix<S> geluNewBackward(const MatrixIn<S> &x, const MatrixIn<S> &dy);

// Self-attention as attention<S>() computes it (scores scaled by `scale`,
// softmax, causal or not, weights * V), given that call's per-head weights and
// dLoss/d(context). With kvHeads (0: one per query head) below the number of
// heads, keys and values hold kvHeads heads and query head h reads key/value
// head h / (heads / kvHeads), so a shared head's gradient is the sum over
// the query heads that read it.
template<typename S>
AttentionGradients<S> attentionBackward(const MatrixIn<S> &queries, const MatrixIn<S> &keys, const MatrixIn<S> &values,
                                        const std::vector<RowMatrix<S>> &weights, double scale,
                                        const MatrixIn<S> &dContext, int kvHeads = 0);

// y = silu(gate) o up entrywise (the Llama family's SwiGLU, before down_proj):
// dLoss/d(gate) and dLoss/d(up).
template<typename S>
struct GatedGradients
{
    RowMatrix<S> gate, up;
};
template<typename S>
GatedGradients<S> swigluBackward(const MatrixIn<S> &gate, const MatrixIn<S> &up, const MatrixIn<S> &dy);

// h_out = h_in + f(h_in): the gradient reaching h_in is the stream's own plus
// what flows back through f. Adds `dBranch` (dLoss/dh_in via f) to `dStream`.
template<typename S>
void residualBackward(RowMatrix<S> &dStream, const MatrixIn<S> &dBranch);

// h[i] = tokenEmbedding[ids[i]] + positionEmbedding[i % length]: the rows
// hold sequences of `length` tokens one after another. Adds into the tables.
template<typename S>
void embeddingBackward(const std::vector<int> &ids, int length, const MatrixIn<S> &dh, RowMatrix<S> &dTokenEmbedding,
                       RowMatrix<S> &dPositionEmbedding);

// h[i] = tokenEmbedding[ids[i]] (rotary models: positions enter q and k instead).
template<typename S>
void tokenEmbeddingBackward(const std::vector<int> &ids, const MatrixIn<S> &dh, RowMatrix<S> &dTokenEmbedding);

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
