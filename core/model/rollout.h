#pragma once
// Attention rollout (Abnar & Zuidema, 2020): how attention flows from the
// input tokens to each position through all layers, as contract section 6 defines it.

#include "model/forward.h"

namespace attn {

// R = Ã_{L-1} ⋯ Ã_0 over the first `layers` layers of `trace` (all of them
// when `layers` is negative or larger), where Ã_l = 0.5 · mean over heads of
// A_l + 0.5 · I with every row renormalised to sum 1. n × n; row i says how
// much of position i's representation traces back to each input token. An
// ablated head still counts in the mean: its weights are computed, only its
// context is dropped. Computed in double: 12 products of n × n matrices lose
// little, but there is no reason to lose any. Empty for a trace without layers.
RowMatrix<double> attentionRollout(const ModelTrace &trace, int layers = -1);

// attentionRollout(trace) of a causal model's trace whose first `kept`
// positions' attention rows are those `previous` (the rollout of the trace
// before, over every layer) was computed from: typing at the end of a text.
// Under the causal mask every Ã_l is zero right of its diagonal, so the
// rollout's first `kept` rows are previous's and only the rows after are
// computed, each carried down through the layers as a row vector (n² work a
// row and layer where the whole product costs n³). Equal to the whole
// product up to the order of additions. Throws std::invalid_argument when
// `previous` has fewer than `kept` rows or the trace fewer positions.
RowMatrix<double> extendedRollout(const ModelTrace &trace, const RowMatrix<double> &previous, Eigen::Index kept);

// One layer's Ã_l: the mean of its heads' weights mixed half and half with
// the identity (the residual connection), rows renormalised.
RowMatrix<double> residualAttention(const LayerTrace &layer);

} // namespace attn
