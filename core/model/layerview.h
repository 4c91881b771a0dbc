#pragma once
// One layer of a model's trace as the single-layer views draw it: an
// AttentionResult, so the heatmap, pipeline, walkthrough and bars show a
// GPT-2 or BERT layer without knowing about models.

#include "attention/attention.h"
#include "model/forward.h"

#include <memory>

namespace attn {

// Layer `layer` of `trace` (computed by forward() with `model`). The heads'
// weights, and the scores when the trace kept them, are shared with the trace
// (the result holds the trace alive) instead of copied; scores the trace did
// not keep are computed for this layer only, q.k as the trace would hold them.
//
// What the fields mean for a model layer:
// - inputs: the residual stream entering the layer (hidden[layer]). GPT-2
//   computes its queries from ln_1 of it, BERT from it directly.
// - heads[h]: q, k, v with their biases, raw scores q.k, weights (masked
//   entries exactly 0), context = weights * v.
// - output: the concatenated contexts times the output projection, before its
//   bias and before the residual. projected and outputProjected are set;
//   weights stays null (the matrices are the model's, read there).
// - kvHeads: the model's key/value heads (each head's k and v are its group's);
//   rotation: how the layer turned q and k (null with learned positions);
//   window: the layer's sliding window (0: none).
// - scoreScale: 1/sqrt(head_dim) (and 1/(layer+1) when the config asks);
//   causal as the model (GPT-2 yes, BERT no). singlePrecision stays false:
//   the numbers are the model's floats, not an approximation of a double run
//   that headMatrixInDouble() could redo from the inputs.
// The output is the one the pass kept (LayerTrace::output), so the result
// needs no product with the weights, only copies.
// Throws std::out_of_range for a layer the trace does not have.
AttentionResult layerAttention(const ModelParameters &model, const std::shared_ptr<const ModelTrace> &trace,
                               int layer);

// What layerAttention() gives as the output, in floats: the layer's contexts
// times its output projection, without the bias; the pass's own when the
// trace kept it, else computed.
RowMatrix<float> layerOutput(const ModelParameters &model, const LayerTrace &layer, int index);

// The factor the scores of `layer` are multiplied by before the softmax.
double layerScoreScale(const ModelConfig &config, int layer);

} // namespace attn
