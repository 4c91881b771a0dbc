#pragma once
// The forward pass behind computeAttention (internal to core): the session's
// work around attn::attention (model/attentionop.h), the one attention op of
// the program, which model layers and training use too.

#include "attention/attention.h"

namespace attn::detail {

struct PassInputs
{
    const Eigen::MatrixXd &queriesFrom; // n x d_model, after positional encoding
    const Eigen::MatrixXd &keysFrom;    // m x d_model: the same matrix unless cross-attention
    const CompletedWeights &weights;
    const AttentionConfig &config;
    int headDim = 0;
    double scale = 1.0;
    const CancelFlag *cancel = nullptr; // checked before each head
    HeadsKept kept;                     // in float: the heads kept in full
};

// Row-wise softmax of scores * scale (see scaledSoftmaxRows).
Eigen::MatrixXd softmaxRowsOf(const Eigen::Ref<const Eigen::MatrixXd> &scores, double scale, bool causal);

// Fills result.heads, result.meanWeights and result.output, computing in S
// (double or float); throws Cancelled when `in.cancel` is raised.
//
// In double every head keeps its scores and weights. In float each head keeps
// its scores and each row's softmax statistics, from which a weight is derived
// when shown; heads not in `kept` keep their q and k instead of their scores,
// and every head of a result larger than a thumbnail gets its thumbnails
// (HeadsKept). The pass returns false, having filled nothing useful, when a
// score could overflow float: then use double.
template<typename S>
bool sessionPass(const PassInputs &in, AttentionResult &result);

} // namespace attn::detail
