#include "model/rollout.h"

#include "runtime/twothreads.h"

#include <cmath>
#include <stdexcept>

namespace attn {
namespace {

// The terms of timesResidualAttention from Ã's rows [k0, k1).
RowMatrix<double> residualTerms(const RowMatrix<double> &u, const LayerTrace &layer, Eigen::Index k0, Eigen::Index k1)
{
    const Eigen::Index n = u.cols();
    const double heads = double(layer.weights.size());
    RowMatrix<double> out = RowMatrix<double>::Zero(u.rows(), n);
    Eigen::Matrix<double, 1, Eigen::Dynamic> summed(n); // row k of the heads' weights, added
    for (Eigen::Index k = k0; k < k1; ++k) {
        auto keys = summed.head(k + 1);
        keys.setZero();
        for (const RowMatrix<float> &w : layer.weights)
            keys += w.row(k).head(k + 1).cast<double>();
        const double s = 0.5 * keys.sum() / heads + 0.5;
        for (Eigen::Index r = 0; r < u.rows(); ++r) {
            const double c = u(r, k) / s;
            out.row(r).head(k + 1) += (0.5 / heads * c) * keys;
            out(r, k) += 0.5 * c;
        }
    }
    return out;
}

// u · Ã (Ã = residualAttention(layer)) for the rows of u, without forming
// Ã: Ã's row k is (0.5 · mean of the heads' row k + 0.5 · e_k) / s_k, s_k
// that row's sum, so u · Ã = 0.5 · (u / s) · mean + 0.5 · (u / s). Only
// keys up to row k's own are read: the rest are masked (zero). Row k costs
// k + 1, so the rows up to n / √2 are half the work: one thread each.
RowMatrix<double> timesResidualAttention(const RowMatrix<double> &u, const LayerTrace &layer)
{
    const Eigen::Index n = u.cols(), split = Eigen::Index(double(n) / std::sqrt(2.0));
    RowMatrix<double> first, second;
    runBoth([&] { first = residualTerms(u, layer, 0, split); }, [&] { second = residualTerms(u, layer, split, n); });
    return first + second;
}

} // namespace

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

namespace attn {

RowMatrix<double> extendedRollout(const ModelTrace &trace, const RowMatrix<double> &previous, Eigen::Index kept)
{
    if (trace.layers.empty())
        return {};
    const Eigen::Index n = trace.layers.back().weights.empty() ? 0 : trace.layers.back().weights.front().rows();
    if (kept > previous.rows() || kept > previous.cols() || kept > n || kept < 0)
        throw std::invalid_argument("extendedRollout: the rollout before lacks the kept rows");
    RowMatrix<double> rollout = RowMatrix<double>::Zero(n, n);
    rollout.topLeftCorner(kept, kept) = previous.topLeftCorner(kept, kept);
    if (kept == n)
        return rollout;
    // e_i · Ã_{L-1} ⋯ Ã_0 for each new position i, the last layer first.
    RowMatrix<double> rows = RowMatrix<double>::Identity(n, n).bottomRows(n - kept);
    for (std::size_t l = trace.layers.size(); l-- > 0;)
        rows = timesResidualAttention(rows, trace.layers[l]);
    rollout.bottomRows(n - kept) = rows;
    return rollout;
}

} // namespace attn
