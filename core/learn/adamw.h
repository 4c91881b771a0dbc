#pragma once
// AdamW (Loshchilov & Hutter): Adam with bias correction and weight decay
// decoupled from the gradient, step for step as torch.optim.AdamW computes it.

#include "model/modelparameters.h"

#include <Eigen/Core>

namespace attn {

struct AdamWSettings
{
    double beta1 = 0.9;
    double beta2 = 0.999;
    double epsilon = 1e-8;
    double weightDecay = 0.01; // applied to matrices only (see ParameterTensor::decays)
};

// One update of one tensor at step `step` (1 for the first):
//   p -= lr * decay * p;  m = b1 m + (1 - b1) g;  v = b2 v + (1 - b2) g^2;
//   p -= lr * (m / (1 - b1^t)) / (sqrt(v / (1 - b2^t)) + eps)
void adamwUpdate(Eigen::Ref<Eigen::VectorXf> parameters, const Eigen::Ref<const Eigen::VectorXf> &gradients,
                 Eigen::Ref<Eigen::VectorXf> firstMoment, Eigen::Ref<Eigen::VectorXf> secondMoment, int step,
                 double learningRate, double weightDecay, const AdamWSettings &settings);

// The optimiser of a whole model: its moments have the model's shapes.
class AdamW
{
public:
    AdamW(const ModelConfig &config, const AdamWSettings &settings);

    // One step with `gradients` (shaped like `model`).
    void step(ModelParameters &model, ModelParameters &gradients, double learningRate);
    int steps() const { return m_steps; }

private:
    AdamWSettings m_settings;
    ModelParameters m_first, m_second;
    int m_steps = 0;
};

} // namespace attn
