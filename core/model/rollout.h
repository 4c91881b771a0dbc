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

// One layer's Ã_l: the mean of its heads' weights mixed half and half with
// the identity (the residual connection), rows renormalised.
RowMatrix<double> residualAttention(const LayerTrace &layer);

} // namespace attn
