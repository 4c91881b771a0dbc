#include "model/attentionop.h"

#include "model/ops.h"

#include <stdexcept>

namespace attn {

template<typename S>
AttentionOutput<S> attention(const MatrixIn<S> &queries, const MatrixIn<S> &keys, const MatrixIn<S> &values,
                             const AttentionSettings &settings)
{
    const int heads = settings.heads;
    const Eigen::Index n = queries.rows(), m = keys.rows();
    // Programming errors, not user input: the model and session code check sizes first.
    if (heads < 1 || queries.cols() % heads != 0 || keys.cols() != queries.cols() || values.rows() != m
        || values.cols() % heads != 0 || (settings.causal && m < n)
        || (!settings.switchedOff.empty() && int(settings.switchedOff.size()) != heads))
        throw std::invalid_argument("attention: inconsistent sizes");
    const Eigen::Index dk = queries.cols() / heads, dv = values.cols() / heads;

    AttentionOutput<S> out;
    out.weights.resize(std::size_t(heads));
    if (settings.keepScores)
        out.scores.resize(std::size_t(heads));
    out.context.resize(n, values.cols());
    for (int h = 0; h < heads; ++h) {
        const auto q = queries.middleCols(h * dk, dk);
        const auto k = keys.middleCols(h * dk, dk);
        RowMatrix<S> &w = out.weights[std::size_t(h)];
        w.resize(n, m);
        if (settings.keepScores) {
            RowMatrix<S> &s = out.scores[std::size_t(h)];
            s.resize(n, m);
            s.noalias() = q * k.transpose();
            w = s * S(settings.scale);
        } else {
            w.noalias() = q * k.transpose();
            w *= S(settings.scale);
        }
        softmaxRowsInPlace(w, settings.causal);
        auto z = out.context.middleCols(h * dv, dv);
        if (!settings.switchedOff.empty() && settings.switchedOff[std::size_t(h)])
            z.setZero();
        else
            z.noalias() = w * values.middleCols(h * dv, dv);
    }
    return out;
}

template AttentionOutput<float> attention<float>(const MatrixIn<float> &, const MatrixIn<float> &,
                                                 const MatrixIn<float> &, const AttentionSettings &);
template AttentionOutput<double> attention<double>(const MatrixIn<double> &, const MatrixIn<double> &,
                                                   const MatrixIn<double> &, const AttentionSettings &);

} // namespace attn
