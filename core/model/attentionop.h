#pragma once
// Scaled dot-product attention over all heads of one layer: the one
// implementation of scores -> softmax -> context in the program.
//
// Written for every caller: a model layer (Q, K, V of all heads side by
// side, as GPT-2 and BERT produce them), a single-layer teaching session (one
// head or several, causal or not, any scale) and cross-attention (m keys for
// n queries). Templated on the scalar so sessions can keep double.

#include "runtime/cancel.h"
#include "model/modeltypes.h"
#include "attention/pooledmatrix.h"

#include <vector>

namespace attn {

// What a head leaves behind besides its context.
enum class WeightsKept {
    Matrices,      // each head's weights, n x m
    RowStatistics, // each row's statistics of every head, and the weights of the heads in
                   // AttentionSettings::inFull only: the others' weights are derived again
                   // when asked, from scores computed again from q and k
                   // (AttentionMatrix::weightsOnDemand). At 4096 tokens and 8 heads one
                   // head's 64 MiB instead of 8.
};

struct AttentionSettings
{
    int heads = 1;
    // Key/value heads (grouped-query attention): query head h reads key/value
    // head h / (heads / kvHeads). 0: one per query head.
    int kvHeads = 0;
    bool causal = false;
    // With causal: a query at position p sees key j only when p - window < j
    // <= p (a sliding window). 0: every earlier key.
    int window = 0;
    double scale = 1.0;       // scores are multiplied by this before the softmax (1/sqrt(head_dim))
    // Above 0: the scaled scores become softcap * tanh(s / softcap) before the
    // mask and the softmax (Gemma 2). The raw scores kept are not capped.
    double softcap = 0.0;
    bool keepScores = false;  // also return the raw scores q.k (before scaling and masking)
    // Heads switched off (ablation): their weights are still computed and
    // returned, but their context is zero, so they add nothing to the output.
    std::vector<bool> switchedOff; // empty, or one flag per head
    WeightsKept weightsKept = WeightsKept::Matrices;
    // With WeightsKept::RowStatistics: the heads whose weights are kept
    // (empty: every head). The others keep only their row statistics (and
    // their pooled pictures): the window shows one head in full.
    std::vector<bool> inFull;
    // Above 0 (float only): each head's weights and visible scores, and with
    // sumWeights the summed weights, pooled into at most this many cells a
    // side (PooledMatrix), while they are in the cache.
    int poolSide = 0;
    // With poolSide: the scores too. The window shows scores only on request;
    // pooling them costs two loads and two stores an entry more.
    bool poolScores = true;
    bool sumWeights = false;            // also return the heads' weights summed (for their mean)
    // With sumWeights and poolSide: false returns only the sum's thumbnail
    // (each block summed in the cache, pooled, dropped), not the n x m sum.
    bool keepWeightSum = true;
    const CancelFlag *cancel = nullptr; // looked at before each head: throws Cancelled once raised
};

template<typename S>
using ColumnVector = Eigen::Matrix<S, Eigen::Dynamic, 1>;

// Per row of scores * scale, over the keys the row may see: the largest value
// and the reciprocal of the sum of exp(value - largest). A weight is then
// exp(score * scale - max) * inverseSum.
template<typename S>
struct RowStatistics
{
    ColumnVector<S> max, inverseSum;
};

template<typename S>
struct AttentionOutput
{
    std::vector<RowMatrix<S>> weights;           // per head, n x m: rows sum to 1, masked entries exactly 0
                                                 // (with WeightsKept::RowStatistics, 0 x 0 for heads not inFull)
    std::vector<RowMatrix<S>> scores;            // per head, n x m raw q.k; empty unless keepScores
    std::vector<RowStatistics<S>> rowStatistics; // per head; only with WeightsKept::RowStatistics
    RowMatrix<S> weightSum;                      // sum over heads of the weights; only with sumWeights and keepWeightSum
    std::vector<PooledMatrix> pooledWeights, pooledScores; // per head; only with poolSide (scores: and poolScores)
    PooledMatrix pooledWeightSum;                // only with poolSide and sumWeights
    RowMatrix<S> context;                        // n x heads*head_dim: each head's weights * V, side by side
};

// queries n x heads*head_dim, keys m x kvHeads*head_dim and values m x
// kvHeads*dv; head h uses columns [h*head_dim, (h+1)*head_dim) of the
// queries and those of its key/value head g = h / (heads / kvHeads) of the
// keys and values. The causal mask lets query i see keys 0 ... i + m - n
// (the last `window` of them with a window). Throws Cancelled when
// settings.cancel is raised.
template<typename S>
AttentionOutput<S> attention(const MatrixIn<S> &queries, const MatrixIn<S> &keys, const MatrixIn<S> &values,
                             const AttentionSettings &settings);

// The same for Q, K and V stored by columns, as sessions hold them
// (Eigen::MatrixXd). Eigen and BLAS sum a product's terms in an order that
// depends on how its operands are stored, so the session path keeps its
// storage, and with it its numbers to the last bit.
template<typename S>
using ColumnMatrixIn = Eigen::Ref<const Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic>>;
template<typename S>
AttentionOutput<S> attentionByColumns(const ColumnMatrixIn<S> &queries, const ColumnMatrixIn<S> &keys,
                                      const ColumnMatrixIn<S> &values, const AttentionSettings &settings);

// out = each row's softmax of scores * scale over the keys it may see (the
// causal mask as above); masked entries exactly 0. `out` may be `scores`
// itself. With `statistics`, rows are multiplied by the reciprocal of their
// sum (what AttentionMatrix::softmaxOf repeats) and the statistics are kept;
// without, they are divided by it. Large matrices are split between two threads.
template<typename S>
void scaledSoftmaxRows(const RowMatrix<S> &scores, S scale, bool causal, RowMatrix<S> &out,
                       RowStatistics<S> *statistics = nullptr);

// Which keys row i of an n x m matrix of scores sees: [first, end).
struct VisibleKeys
{
    Eigen::Index first, end;
};
VisibleKeys visibleKeysOf(Eigen::Index i, Eigen::Index n, Eigen::Index m, bool causal, int window);

// The same as scaledSoftmaxRows with a sliding window (entries before a
// row's window exactly 0) and a soft-cap (see AttentionSettings).
template<typename S>
void maskedSoftmaxRows(const RowMatrix<S> &scores, S scale, bool causal, int window, double softcap,
                       RowMatrix<S> &out, RowStatistics<S> *statistics = nullptr);

} // namespace attn
