#pragma once
// The trainable tensors of a model the trainer makes, by its recipe
// (model/modelconfig.h): a GPT-2 (LayerNorm, learned positions, Conv1D
// weights [in, out] with biases, tied unembedding) or a Llama-style decoder
// (RMSNorm, rotary positions, SwiGLU, grouped key/value heads, nn.Linear
// weights [out, in] without biases, tied or separate unembedding). Gradients
// and the optimiser's moments are ModelParameters of the same shapes.

#include "model/modelparameters.h"

#include <QString>
#include <vector>

namespace attn {

// A model of this recipe with every weight zero.
ModelParameters zeroModel(const ModelConfig &config);

// True when the recipe's dense weights are stored [out, in] (nn.Linear) rather than [in, out] (Conv1D).
bool storesOutByIn(const ModelConfig &config);

// One parameter tensor of a ModelParameters, named as its saved folder names
// it (GPT-2's q, k and v are c_attn's three column blocks: h.0.attn.q.weight).
struct ParameterTensor
{
    QString name;
    float *data = nullptr;
    Eigen::Index rows = 0, cols = 0; // a vector is 1 x n
    bool decays = false;             // weight decay applies (matrices), not to biases and norms
    Eigen::Map<Eigen::VectorXf> values() const { return {data, rows * cols}; }
};

// Every trainable tensor the recipe has, in a fixed order (the same for a
// model, its gradients and the optimiser's moments).
std::vector<ParameterTensor> parameterTensors(ModelParameters &model);

} // namespace attn
