#pragma once
// Scaled dot-product attention over all heads of one layer.
//
// Written for every caller: a model layer (Q, K, V of all heads side by
// side, as GPT-2 and BERT produce them), a single-layer teaching session (one
// head or several, causal or not, any scale) and cross-attention (m keys for
// n queries). Templated on the scalar so sessions can keep double.

#include "model/modeltypes.h"

#include <vector>

namespace attn {

struct AttentionSettings
{
    int heads = 1;
    bool causal = false;
    double scale = 1.0;       // scores are multiplied by this before the softmax (1/sqrt(head_dim))
    bool keepScores = false;  // also return the raw scores q.k (before scaling and masking)
    // Heads switched off (ablation): their weights are still computed and
    // returned, but their context is zero, so they add nothing to the output.
    std::vector<bool> switchedOff; // empty, or one flag per head
};

template<typename S>
struct AttentionOutput
{
    std::vector<RowMatrix<S>> weights; // per head, n x m: rows sum to 1, masked entries exactly 0
    std::vector<RowMatrix<S>> scores;  // per head, n x m raw q.k; empty unless keepScores
    RowMatrix<S> context;              // n x heads*head_dim: each head's weights * V, side by side
};

// queries n x heads*head_dim, keys and values m x heads*head_dim; head h uses
// columns [h*head_dim, (h+1)*head_dim) of each. The causal mask lets query i
// see keys 0 ... i + m - n.
template<typename S>
AttentionOutput<S> attention(const MatrixIn<S> &queries, const MatrixIn<S> &keys, const MatrixIn<S> &values,
                             const AttentionSettings &settings);

} // namespace attn
