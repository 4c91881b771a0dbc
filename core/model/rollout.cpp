#include "model/rollout.h"

namespace attn {

RowMatrix<double> residualAttention(const LayerTrace &layer)
{
    if (layer.weights.empty())
        return {};
    const Eigen::Index n = layer.weights.front().rows();
    RowMatrix<double> mean = RowMatrix<double>::Zero(n, n);
    for (const RowMatrix<float> &w : layer.weights)
        mean += w.cast<double>();
    mean /= double(layer.weights.size());
    RowMatrix<double> mixed = 0.5 * mean + 0.5 * RowMatrix<double>::Identity(n, n);
    // Rows already sum to 1 when the weights' rows do; dividing anyway keeps
    // the float weights' rounding from compounding through the layers.
    const Eigen::VectorXd sums = mixed.rowwise().sum();
    for (Eigen::Index i = 0; i < n; ++i)
        mixed.row(i) /= sums(i);
    return mixed;
}

RowMatrix<double> attentionRollout(const ModelTrace &trace, int layers)
{
    const int count = layers < 0 ? int(trace.layers.size()) : std::min(layers, int(trace.layers.size()));
    if (count == 0)
        return {};
    RowMatrix<double> rollout = residualAttention(trace.layers.front());
    for (int l = 1; l < count; ++l)
        rollout = residualAttention(trace.layers[std::size_t(l)]) * rollout; // later layers multiply on the left
    return rollout;
}

} // namespace attn
