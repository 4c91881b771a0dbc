#pragma once
// The GPT-2 forward pass over a batch, keeping every activation its backward
// pass needs, and that backward pass (the structure of llm.c's gpt2_forward /
// gpt2_backward). Built from the ops of model/ops.h and model/attentionop.h on
// ModelParameters, so it is the model of model/forward.cpp, not a second one.
// Gradients are held in a ModelParameters of the same shapes.

#include "learn/backward.h"
#include "learn/tasks.h"
#include "model/modelparameters.h"

#include <QString>
#include <vector>

namespace attn {

template<typename S>
struct LayerActivations
{
    RowMatrix<S> input;                           // the stream entering the block
    RowMatrix<S> norm1, queries, keys, values;    // ln_1(input) and its projections
    std::vector<std::vector<RowMatrix<S>>> weights; // [sequence][head] n x n
    RowMatrix<S> context;                         // heads side by side, into c_proj
    RowMatrix<S> middle;                          // the stream after the attention residual
    RowMatrix<S> norm2, inner;                    // ln_2(middle) and c_fc's output (before GELU)
};

// Forward's record of a batch: all sequences' rows stacked (sequence s is rows
// [s*length, (s+1)*length)), so the dense layers are single large products.
template<typename S>
struct TrainingActivations
{
    std::vector<LayerActivations<S>> layers;
    RowMatrix<S> final, finalNorm, logits;
    CrossEntropy<S> loss;
};

// The loss of `model` on `batch`; `keep` receives every activation.
template<typename S>
S trainingForward(const ModelParameters &model, const TrainingBatch &batch, TrainingActivations<S> &keep);

// dLoss/dparameters into `gradients` (shaped like the model; overwritten).
template<typename S>
void trainingBackward(const ModelParameters &model, const TrainingBatch &batch, const TrainingActivations<S> &keep,
                      ModelParameters &gradients);

// A GPT-2 of this shape with every weight zero (the shape of gradients and optimiser moments).
ModelParameters zeroGpt2(const ModelConfig &config);

// One parameter tensor of a ModelParameters, named as in the model code
// (h.0.attn.q.weight; q, k and v are c_attn's three column blocks).
struct ParameterTensor
{
    QString name;
    float *data = nullptr;
    Eigen::Index rows = 0, cols = 0; // a vector is 1 x n
    bool decays = false;             // weight decay applies (matrices), not to biases and norms
    Eigen::Map<Eigen::VectorXf> values() const { return {data, rows * cols}; }
};

// Every trainable tensor of a GPT-2 with tied unembedding, in a fixed order.
std::vector<ParameterTensor> parameterTensors(ModelParameters &model);

} // namespace attn
