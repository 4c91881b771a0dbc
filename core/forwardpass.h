#pragma once
// The forward pass behind computeAttention, in double or in float (internal to
// core): the session-specific work around attn::attention (model/attentionop.h).

#include "attention.h"

namespace attn::detail {

struct PassInputs
{
    const Eigen::MatrixXd &queriesFrom; // n x d_model, after positional encoding
    const Eigen::MatrixXd &keysFrom;    // m x d_model: the same matrix unless cross-attention
    const ProjectionWeights &weights;   // complete
    const AttentionConfig &config;
    int headDim = 0;
    double scale = 1.0;
    const CancelFlag *cancel = nullptr; // checked before each head
};

// Row-wise softmax of scores * scale (see scaledSoftmaxRows).
Eigen::MatrixXd softmaxRowsOf(const Eigen::Ref<const Eigen::MatrixXd> &scores, double scale, bool causal);

// Fill result.heads and result.output; both throw Cancelled when `in.cancel`
// is raised. forwardSingle returns false, having filled nothing useful, when
// float could overflow: then use double.
void forwardDouble(const PassInputs &in, AttentionResult &result);
bool forwardSingle(const PassInputs &in, AttentionResult &result);

} // namespace attn::detail
