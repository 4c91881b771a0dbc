#include "model/attentionop.h"

#include "model/blockwiseattention.h"
#include "runtime/twothreads.h"

#include <algorithm>
#include <stdexcept>
#include <type_traits>

namespace attn {

namespace {

// Rows [begin, end) of maskedSoftmaxRows. Rows of a row-major matrix are
// contiguous, so each is one vectorized run.
template<typename S>
void softmaxRowRange(const RowMatrix<S> &scores, S scale, bool causal, int window, S softcap, Eigen::Index begin,
                     Eigen::Index end, RowMatrix<S> &out, RowStatistics<S> *statistics)
{
    const Eigen::Index n = scores.rows(), m = scores.cols();
    for (Eigen::Index i = begin; i < end; ++i) {
        const VisibleKeys seen = visibleKeysOf(i, n, m, causal, window);
        auto keys = out.row(i).segment(seen.first, seen.end - seen.first);
        keys = scores.row(i).segment(seen.first, seen.end - seen.first) * scale;
        if (softcap > 0)
            keys = ((keys.array() / softcap).tanh() * softcap).matrix();
        const S largest = keys.maxCoeff(); // becomes exp(0) = 1: nothing overflows
        keys = (keys.array() - largest).exp().matrix();
        if (statistics) {
            const S inverse = S(1) / keys.sum();
            keys *= inverse;
            statistics->max[i] = largest;
            statistics->inverseSum[i] = inverse;
        } else {
            keys /= keys.sum();
        }
        out.row(i).head(seen.first).setZero();
        out.row(i).tail(m - seen.end).setZero();
    }
}

template<typename S>
using ColumnMatrix = Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic>;

template<typename S, typename In>
AttentionOutput<S> attentionOf(const In &queries, const In &keys, const In &values, const AttentionSettings &settings)
{
    const int heads = settings.heads;
    const int kvHeads = settings.kvHeads > 0 ? settings.kvHeads : heads;
    const Eigen::Index n = queries.rows(), m = keys.rows();
    // Programming errors, not user input: the model and session code check sizes first.
    if (heads < 1 || kvHeads < 1 || heads % kvHeads != 0 || queries.cols() % heads != 0
        || keys.cols() != queries.cols() / heads * kvHeads || values.rows() != m || values.cols() % kvHeads != 0
        || (settings.causal && m < n) || settings.window < 0 || (settings.window > 0 && !settings.causal)
        || (!settings.switchedOff.empty() && int(settings.switchedOff.size()) != heads)
        || (!settings.inFull.empty() && int(settings.inFull.size()) != heads))
        throw std::invalid_argument("attention: inconsistent sizes");
    // Weights derived again on demand know the key/value head each query head
    // reads (AttentionMatrix::weightsOnDemand), not windows or caps.
    if (settings.weightsKept == WeightsKept::RowStatistics && (settings.window > 0 || settings.softcap > 0))
        throw std::invalid_argument("attention: weights on demand need no window and no cap");
    if (settings.poolSide > 0 && (settings.window > 0 || settings.softcap > 0))
        throw std::invalid_argument("attention: no thumbnails of windowed or capped scores");
    if (!std::is_same_v<S, float> && settings.poolSide > 0)
        throw std::invalid_argument("attention: thumbnails are computed in float");
    if (settings.sumWeights && !settings.keepWeightSum && settings.poolSide <= 0)
        throw std::invalid_argument("attention: a sum not kept needs its thumbnail");
    // Float goes block by block (model/blockwiseattention.h); double keeps
    // whole products, the numbers session fingerprints were taken from.
    if constexpr (std::is_same_v<S, float>)
        if (n > 0 && m > 0)
            return detail::blockwiseAttention(queries, keys, values, settings);
    const Eigen::Index dk = queries.cols() / heads, dv = values.cols() / kvHeads;
    const int group = heads / kvHeads;
    const bool statistics = settings.weightsKept == WeightsKept::RowStatistics;
    const bool keepScores = settings.keepScores;
    const S scale = S(settings.scale);

    AttentionOutput<S> out;
    if (keepScores)
        out.scores.resize(std::size_t(heads));
    if (statistics)
        out.rowStatistics.resize(std::size_t(heads));
    out.weights.resize(std::size_t(heads));
    out.context.resize(n, heads * dv);
    RowMatrix<S> scratch; // the weights of one head at a time, when they are not kept
    for (int h = 0; h < heads; ++h) {
        stopIfCancelled(settings.cancel);
        const auto q = queries.middleCols(h * dk, dk);
        const auto k = keys.middleCols(h / group * dk, dk);
        const bool kept = !statistics || settings.inFull.empty() || settings.inFull[std::size_t(h)];
        RowMatrix<S> &w = kept ? out.weights[std::size_t(h)] : scratch;
        w.resize(n, m);
        RowStatistics<S> *rows = statistics ? &out.rowStatistics[std::size_t(h)] : nullptr;
        if (keepScores) {
            RowMatrix<S> &s = out.scores[std::size_t(h)];
            s.resize(n, m);
            s.noalias() = q * k.transpose();
            maskedSoftmaxRows(s, scale, settings.causal, settings.window, settings.softcap, w, rows);
        } else {
            w.noalias() = q * k.transpose();
            maskedSoftmaxRows(w, scale, settings.causal, settings.window, settings.softcap, w, rows);
        }
        if (settings.sumWeights) {
            if (h == 0)
                out.weightSum = w;
            else
                out.weightSum += w;
        }
        auto z = out.context.middleCols(h * dv, dv);
        const auto v = values.middleCols(h / group * dv, dv);
        if (!settings.switchedOff.empty() && settings.switchedOff[std::size_t(h)]) {
            z.setZero();
        } else if constexpr (std::is_same_v<In, MatrixIn<S>>) {
            z.noalias() = w * v;
        } else {
            // By columns, as the session path always multiplied (see attentionByColumns).
            ColumnMatrix<S> byColumns(n, dv);
            byColumns.noalias() = w * v;
            z = byColumns;
        }
    }
    return out;
}

} // namespace

VisibleKeys visibleKeysOf(Eigen::Index i, Eigen::Index n, Eigen::Index m, bool causal, int window)
{
    if (!causal)
        return {0, m};
    // m >= n under the mask (keys of earlier positions may come first), so
    // every query sees at least one key: its own.
    const Eigen::Index end = std::clamp<Eigen::Index>(i + 1 + m - n, 1, m);
    return {window > 0 ? std::max<Eigen::Index>(0, end - window) : 0, end};
}

template<typename S>
void maskedSoftmaxRows(const RowMatrix<S> &scores, S scale, bool causal, int window, double softcap,
                       RowMatrix<S> &out, RowStatistics<S> *statistics)
{
    const Eigen::Index n = scores.rows();
    if (&out != &scores)
        out.resize(n, scores.cols());
    if (statistics) {
        statistics->max.resize(n);
        statistics->inverseSum.resize(n);
    }
    const S cap = S(softcap);
    // Two cores, and the exponentials are a tenth of a 1024-token pass.
    if (scores.size() < (Eigen::Index(1) << 17)) {
        softmaxRowRange(scores, scale, causal, window, cap, 0, n, out, statistics);
        return;
    }
    // Under the mask the lower rows hold more keys: split the work, not the rows.
    const Eigen::Index half = causal && window == 0 ? Eigen::Index(double(n) * 0.7071) : n / 2;
    runBoth([&] { softmaxRowRange(scores, scale, causal, window, cap, 0, half, out, statistics); },
            [&] { softmaxRowRange(scores, scale, causal, window, cap, half, n, out, statistics); });
}

template<typename S>
void scaledSoftmaxRows(const RowMatrix<S> &scores, S scale, bool causal, RowMatrix<S> &out,
                       RowStatistics<S> *statistics)
{
    maskedSoftmaxRows(scores, scale, causal, 0, 0.0, out, statistics);
}

template<typename S>
AttentionOutput<S> attention(const MatrixIn<S> &queries, const MatrixIn<S> &keys, const MatrixIn<S> &values,
                             const AttentionSettings &settings)
{
    return attentionOf<S>(queries, keys, values, settings);
}

template<typename S>
AttentionOutput<S> attentionByColumns(const ColumnMatrixIn<S> &queries, const ColumnMatrixIn<S> &keys,
                                      const ColumnMatrixIn<S> &values, const AttentionSettings &settings)
{
    return attentionOf<S>(queries, keys, values, settings);
}

#define ATTN_ATTENTION_INSTANTIATE(S)                                                                                \
    template void scaledSoftmaxRows<S>(const RowMatrix<S> &, S, bool, RowMatrix<S> &, RowStatistics<S> *);          \
    template void maskedSoftmaxRows<S>(const RowMatrix<S> &, S, bool, int, double, RowMatrix<S> &,                   \
                                       RowStatistics<S> *);                                                          \
    template AttentionOutput<S> attention<S>(const MatrixIn<S> &, const MatrixIn<S> &, const MatrixIn<S> &,          \
                                             const AttentionSettings &);                                             \
    template AttentionOutput<S> attentionByColumns<S>(const ColumnMatrixIn<S> &, const ColumnMatrixIn<S> &,          \
                                                      const ColumnMatrixIn<S> &, const AttentionSettings &);

ATTN_ATTENTION_INSTANTIATE(float)
ATTN_ATTENTION_INSTANTIATE(double)

} // namespace attn
