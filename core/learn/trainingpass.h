#pragma once
// The forward pass over a batch, keeping every activation its backward pass
// needs, and that backward pass (the structure of llm.c's gpt2_forward /
// gpt2_backward), for the two recipes the trainer makes (learn/
// trainingparameters.h): GPT-2's block and the Llama family's (RMSNorm, q and
// k turned by rotary positions, SwiGLU, key/value heads shared by groups of
// query heads). Built from the ops of model/ops.h and model/attentionop.h on
// ModelParameters, so it is the model of model/forward.cpp, not a second one.
// Gradients are held in a ModelParameters of the same shapes.

#include "learn/backward.h"
#include "learn/rotaryturn.h"
#include "learn/tasks.h"
#include "learn/trainingparameters.h"

#include <vector>

namespace attn {

template<typename S>
struct LayerActivations
{
    RowMatrix<S> input;                           // the stream entering the block
    RowMatrix<S> norm1, queries, keys, values;    // norm_1(input) and its projections (q and k turned, if rotary)
    std::vector<std::vector<RowMatrix<S>>> weights; // [sequence][head] n x n
    RowMatrix<S> context;                         // heads side by side, into the output projection
    RowMatrix<S> middle;                          // the stream after the attention residual
    RowMatrix<S> norm2;                           // norm_2(middle)
    RowMatrix<S> inner;                           // c_fc's (before GELU) or up_proj's output
    RowMatrix<S> gate;                            // gate_proj's output, before SiLU (gated MLPs)
    RowMatrix<S> activated;                       // what the MLP's last projection reads
};

// Forward's record of a batch: all sequences' rows stacked (sequence s is rows
// [s*length, (s+1)*length)), so the dense layers are single large products.
template<typename S>
struct TrainingActivations
{
    std::vector<LayerActivations<S>> layers;
    RowMatrix<S> final, finalNorm, logits;
    CrossEntropy<S> loss;
    RotaryTable<S> rotary; // rotary recipes: the angles of positions 0 ... length - 1
};

// The loss of `model` on `batch`; `keep` receives every activation. Throws
// std::invalid_argument for a recipe the trainer does not make.
template<typename S>
S trainingForward(const ModelParameters &model, const TrainingBatch &batch, TrainingActivations<S> &keep);

// dLoss/dparameters into `gradients` (shaped like the model; overwritten).
template<typename S>
void trainingBackward(const ModelParameters &model, const TrainingBatch &batch, const TrainingActivations<S> &keep,
                      ModelParameters &gradients);

} // namespace attn
