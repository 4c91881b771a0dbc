#include "learn/adamw.h"

#include "learn/trainingparameters.h"

#include <cmath>

namespace attn {

void adamwUpdate(Eigen::Ref<Eigen::VectorXf> p, const Eigen::Ref<const Eigen::VectorXf> &g,
                 Eigen::Ref<Eigen::VectorXf> m, Eigen::Ref<Eigen::VectorXf> v, int step, double learningRate,
                 double weightDecay, const AdamWSettings &s)
{
    const float b1 = float(s.beta1), b2 = float(s.beta2);
    // Bias corrections folded into the step size as torch does: lr / (1 - b1^t) and sqrt(1 - b2^t).
    const double correction1 = 1.0 - std::pow(s.beta1, step), correction2 = 1.0 - std::pow(s.beta2, step);
    const float stepSize = float(learningRate / correction1), root2 = float(std::sqrt(correction2));
    p *= float(1.0 - learningRate * weightDecay);
    m = b1 * m + (1.0f - b1) * g;
    v = b2 * v + (1.0f - b2) * g.cwiseAbs2();
    p.array() -= stepSize * m.array() / (v.array().sqrt() / root2 + float(s.epsilon));
}

AdamW::AdamW(const ModelConfig &config, const AdamWSettings &settings)
    : m_settings(settings), m_first(zeroModel(config)), m_second(zeroModel(config))
{
}

void AdamW::step(ModelParameters &model, ModelParameters &gradients, double learningRate)
{
    ++m_steps;
    const std::vector<ParameterTensor> p = parameterTensors(model), g = parameterTensors(gradients),
                                       m = parameterTensors(m_first), v = parameterTensors(m_second);
    for (std::size_t i = 0; i < p.size(); ++i)
        adamwUpdate(p[i].values(), g[i].values(), m[i].values(), v[i].values(), m_steps, learningRate,
                    p[i].decays ? m_settings.weightDecay : 0.0, m_settings);
}

} // namespace attn
