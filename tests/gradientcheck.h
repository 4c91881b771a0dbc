#pragma once
// Gradient checks by central finite differences in double precision, shared
// by tst_gradients and tst_llamagradients: the independent computation uses
// only the forward ops.

#include "learn/trainingpass.h"
#include "runtime/prng.h"
#include "model/modeltypes.h"

#include <QString>
#include <QTest>
#include <algorithm>
#include <cmath>
#include <functional>

namespace gradientcheck {

using MatD = attn::RowMatrix<double>;

inline MatD randomMatrix(Eigen::Index rows, Eigen::Index cols, std::uint64_t seed, double scale = 1.0)
{
    attn::SplitMix64 rng(seed);
    MatD m(rows, cols);
    for (Eigen::Index i = 0; i < m.size(); ++i)
        m.data()[i] = rng.nextSymmetric(scale);
    return m;
}

// d/dX of f by central differences, entry by entry (X is changed and restored).
inline MatD numericGradient(MatD &x, const std::function<double()> &f, double h = 1e-5)
{
    MatD g(x.rows(), x.cols());
    for (Eigen::Index i = 0; i < x.size(); ++i) {
        const double keep = x.data()[i];
        x.data()[i] = keep + h;
        const double up = f();
        x.data()[i] = keep - h;
        const double down = f();
        x.data()[i] = keep;
        g.data()[i] = (up - down) / (2 * h);
    }
    return g;
}

// The scalar whose gradient a backward pass computes when given dy: sum(dy o y).
inline double project(const MatD &y, const MatD &dy) { return (y.array() * dy.array()).sum(); }

// Every weight random (biases and norms too, so no term hides behind a
// zero); the norms' gains near 1.
inline attn::ModelParameters randomModel(const attn::ModelConfig &c, std::uint64_t seed)
{
    attn::ModelParameters m = attn::zeroModel(c);
    attn::SplitMix64 rng(seed);
    for (const attn::ParameterTensor &t : attn::parameterTensors(m)) {
        const bool gain = !t.decays && !t.name.endsWith(QLatin1String(".bias"))
                       && (t.name.contains(QLatin1String("ln_")) || t.name.contains(QLatin1String("norm")));
        for (Eigen::Index i = 0; i < t.rows * t.cols; ++i)
            t.data[i] = float((gain ? 1.0 : 0.0) + rng.nextSymmetric(0.5));
    }
    return m;
}

// Random inputs and targets, one target in three not counted.
inline attn::TrainingBatch randomBatch(const attn::ModelConfig &c, int sequences, int length, std::uint64_t seed)
{
    attn::SplitMix64 rng(seed);
    attn::TrainingBatch b;
    b.sequences = sequences;
    b.length = length;
    for (int i = 0; i < sequences * length; ++i) {
        b.inputs.push_back(attn::uniformInt(rng, c.vocab));
        b.targets.push_back(attn::uniformInt(rng, c.vocab));
        b.weights.push_back(i % 3 == 1 ? 0.0f : 1.0f);
    }
    return b;
}

// The whole model's gradient (trainingBackward in double) on `trials` random
// entries against central differences of the loss, the float weights moved by
// their actual (rounded) displacement; then the float pass against the double
// one on every tensor. Empty when all agree, else what did not.
inline QString wholeModelProblem(attn::ModelParameters &model, const attn::TrainingBatch &batch, int trials,
                                 std::uint64_t seed)
{
    using namespace attn;
    TrainingActivations<double> keep;
    trainingForward<double>(model, batch, keep);
    ModelParameters gradients;
    trainingBackward<double>(model, batch, keep, gradients);
    std::vector<ParameterTensor> params = parameterTensors(model), grads = parameterTensors(gradients);
    if (params.size() != grads.size())
        return QStringLiteral("%1 gradients for %2 tensors").arg(grads.size()).arg(params.size());
    SplitMix64 pick(seed);
    for (int trial = 0; trial < trials; ++trial) {
        const std::size_t t = std::size_t(uniformInt(pick, int(params.size())));
        const Eigen::Index i = uniformInt(pick, int(params[t].rows * params[t].cols));
        float &p = params[t].data[i];
        const float keepValue = p, up = keepValue + 1e-3f, down = keepValue - 1e-3f;
        TrainingActivations<double> scratch;
        p = up;
        const double lossUp = trainingForward<double>(model, batch, scratch);
        p = down;
        const double lossDown = trainingForward<double>(model, batch, scratch);
        p = keepValue;
        const double numeric = (lossUp - lossDown) / (double(up) - double(down)), analytic = grads[t].data[i];
        if (!(std::fabs(numeric - analytic) <= 2e-5 * std::max(1.0, std::fabs(numeric))))
            return QStringLiteral("%1[%2]: backward %3, finite differences %4")
                .arg(params[t].name).arg(i).arg(analytic, 0, 'g', 10).arg(numeric, 0, 'g', 10);
    }
    TrainingActivations<float> keepFloat;
    trainingForward<float>(model, batch, keepFloat);
    ModelParameters floatGradients;
    trainingBackward<float>(model, batch, keepFloat, floatGradients);
    const std::vector<ParameterTensor> fg = parameterTensors(floatGradients);
    for (std::size_t t = 0; t < fg.size(); ++t)
        if (!((fg[t].values() - grads[t].values()).cwiseAbs().maxCoeff()
              <= 1e-4 * std::max(1.0f, grads[t].values().cwiseAbs().maxCoeff())))
            return QStringLiteral("%1: the float pass's gradient differs from the double one").arg(fg[t].name);
    return {};
}

} // namespace gradientcheck

#define COMPARE_GRADIENT(analytic, numeric)                                                                          \
    do {                                                                                                             \
        const gradientcheck::MatD a_ = (analytic), n_ = (numeric);                                                   \
        QCOMPARE(a_.rows(), n_.rows());                                                                              \
        QCOMPARE(a_.cols(), n_.cols());                                                                              \
        const double err_ = (a_ - n_).cwiseAbs().maxCoeff(), size_ = std::max(1.0, n_.cwiseAbs().maxCoeff());     \
        if (!(err_ <= 1e-7 * size_))                                                                                 \
            QFAIL(qPrintable(QStringLiteral(#analytic ": off by %1 (largest entry %2)").arg(err_).arg(size_)));      \
    } while (false)
