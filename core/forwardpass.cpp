#include "forwardpass.h"

#include "model/attentionop.h"

#include <algorithm>
#include <cmath>
#include <memory>

namespace attn::detail {

namespace {

// The per-head matrices side by side (d_model x heads*head_dim), in float:
// one wide product instead of one thin product per head.
Eigen::MatrixXf sideBySide(const std::vector<Eigen::MatrixXd> &perHead)
{
    const Eigen::Index width = perHead.front().cols();
    Eigen::MatrixXf all(perHead.front().rows(), width * Eigen::Index(perHead.size()));
    for (std::size_t h = 0; h < perHead.size(); ++h)
        all.middleCols(Eigen::Index(h) * width, width) = perHead[h].cast<float>();
    return all;
}

AttentionSettings settingsOf(const PassInputs &in, int heads)
{
    AttentionSettings settings;
    settings.heads = heads;
    settings.causal = in.config.causal;
    settings.scale = in.scale;
    settings.cancel = in.cancel;
    return settings;
}

// The largest squared length of a row, in double: a float row's squares
// overflow float from about 1e19 (and Eigen's vectorised row norms then give
// NaN, which maxCoeff() passes over), but never double.
double largestSquaredRowNorm(const Eigen::Ref<const Eigen::MatrixXf> &rows)
{
    double largest = 0.0;
    for (Eigen::Index i = 0; i < rows.rows(); ++i)
        largest = std::max(largest, rows.row(i).cast<double>().squaredNorm());
    return largest;
}

// |q.k| <= |q||k| (Cauchy-Schwarz). Below this bound no score can overflow
// float (which spares checking a million scores per head) and float's
// rounding, about 1e-7 of the bound per score, stays far below the 4 decimals
// shown after the softmax; above it, double does the work.
bool floatScoresAreSafe(const Eigen::MatrixXf &queries, const Eigen::MatrixXf &keys, int heads, Eigen::Index dk,
                        double scale)
{
    for (int h = 0; h < heads; ++h) {
        const auto qh = queries.middleCols(h * dk, dk), kh = keys.middleCols(h * dk, dk);
        if (!qh.allFinite() || !kh.allFinite())
            return false;
        const double bound = std::sqrt(largestSquaredRowNorm(qh) * largestSquaredRowNorm(kh));
        if (!(bound * scale < 1e3))
            return false;
    }
    return true;
}

} // namespace

Eigen::MatrixXd softmaxRowsOf(const Eigen::Ref<const Eigen::MatrixXd> &scores, double scale, bool causal)
{
    RowMatrixD weights;
    scaledSoftmaxRows<double>(RowMatrixD(scores), scale, causal, weights);
    return weights;
}

void forwardDouble(const PassInputs &in, AttentionResult &result)
{
    const AttentionConfig &config = in.config;
    const bool simplified = config.mode == Mode::Simplified;
    const Eigen::Index n = in.queriesFrom.rows(), m = in.keysFrom.rows(), dk = in.headDim;
    // Simplified heads are all the same: compute one, share it.
    const int computed = simplified ? 1 : config.heads;
    result.heads.resize(std::size_t(config.heads));
    Eigen::MatrixXd queries, keys, values; // each head's projections side by side
    if (!simplified) {
        queries.resize(n, computed * dk);
        keys.resize(m, computed * dk);
        values.resize(m, computed * dk);
        for (int h = 0; h < computed; ++h) {
            stopIfCancelled(in.cancel);
            HeadResult &head = result.heads[std::size_t(h)];
            head.queries.noalias() = in.queriesFrom * in.weights.query[std::size_t(h)];
            head.keys.noalias() = in.keysFrom * in.weights.key[std::size_t(h)];
            head.values.noalias() = in.keysFrom * in.weights.value[std::size_t(h)];
            queries.middleCols(h * dk, dk) = head.queries;
            keys.middleCols(h * dk, dk) = head.keys;
            values.middleCols(h * dk, dk) = head.values;
        }
    }
    AttentionSettings settings = settingsOf(in, computed);
    settings.keepScores = true;
    settings.sumWeights = config.heads > 1 && !simplified;
    AttentionOutput<double> out = simplified
        ? attentionByColumns<double>(in.queriesFrom, in.keysFrom, in.keysFrom, settings)
        : attentionByColumns<double>(queries, keys, values, settings);
    if (simplified && config.heads > 1) {
        // Summed head by head, as if each had been computed, for the same mean.
        out.weightSum = out.weights.front();
        for (int h = 1; h < config.heads; ++h)
            out.weightSum += out.weights.front();
    }

    Eigen::MatrixXd concat(n, config.heads * dk);
    for (int h = 0; h < computed; ++h) {
        HeadResult &head = result.heads[std::size_t(h)];
        if (simplified) {
            head.queries = in.queriesFrom;
            head.keys = in.keysFrom;
            head.values = in.keysFrom;
        }
        head.context = out.context.middleCols(h * dk, dk);
        concat.middleCols(h * dk, dk) = head.context;
        head.scores = AttentionMatrix(std::move(out.scores[std::size_t(h)]));
        head.weights = AttentionMatrix(std::move(out.weights[std::size_t(h)]));
    }
    for (int h = computed; h < config.heads; ++h) {
        result.heads[std::size_t(h)] = result.heads.front();
        concat.middleCols(h * dk, dk) = concat.leftCols(dk);
    }
    if (config.heads > 1)
        result.meanWeights = AttentionMatrix(RowMatrixD(out.weightSum / double(config.heads)));
    if (config.outputProjection)
        result.output.noalias() = concat * in.weights.output;
    else
        result.output = std::move(concat);
}

bool forwardSingle(const PassInputs &in, AttentionResult &result)
{
    const AttentionConfig &config = in.config;
    const bool simplified = config.mode == Mode::Simplified;
    const bool cross = &in.keysFrom != &in.queriesFrom;
    const Eigen::Index n = in.queriesFrom.rows(), dk = in.headDim;
    // Simplified heads are all the same: compute one, share it.
    const int computed = simplified ? 1 : config.heads;
    const Eigen::MatrixXf x = in.queriesFrom.cast<float>();
    const Eigen::MatrixXf source = cross ? Eigen::MatrixXf(in.keysFrom.cast<float>()) : Eigen::MatrixXf();
    const Eigen::MatrixXf &y = cross ? source : x;
    Eigen::MatrixXf q, k, v;
    if (!simplified) {
        q.noalias() = x * sideBySide(in.weights.query);
        k.noalias() = y * sideBySide(in.weights.key);
        v.noalias() = y * sideBySide(in.weights.value);
    }
    const Eigen::MatrixXf &queries = simplified ? x : q, &keys = simplified ? y : k, &values = simplified ? y : v;
    if (!floatScoresAreSafe(queries, keys, computed, dk, in.scale))
        return false;

    // Scores and row statistics, not weights: they are derived again when
    // shown. Their mean over heads is summed while each head's are at hand.
    AttentionSettings settings = settingsOf(in, computed);
    settings.weightsKept = WeightsKept::RowStatistics;
    const bool mean = config.heads > 1 && !simplified;
    settings.sumWeights = mean;
    AttentionOutput<float> out = attentionByColumns<float>(queries, keys, values, settings);

    Eigen::MatrixXf concat(n, config.heads * dk);
    concat.leftCols(computed * dk) = out.context;
    result.heads.resize(std::size_t(config.heads));
    const float scale = float(in.scale);
    for (int h = 0; h < computed; ++h) {
        HeadResult &head = result.heads[std::size_t(h)];
        head.queries = queries.middleCols(h * dk, dk).cast<double>();
        head.keys = keys.middleCols(h * dk, dk).cast<double>();
        head.values = values.middleCols(h * dk, dk).cast<double>();
        head.context = concat.middleCols(h * dk, dk).cast<double>();
        auto scores = std::make_shared<const RowMatrixF>(std::move(out.scores[std::size_t(h)]));
        RowStatistics<float> &rows = out.rowStatistics[std::size_t(h)];
        head.weights = AttentionMatrix::softmaxOf(scores, scale, config.causal, std::move(rows.max),
                                                  std::move(rows.inverseSum));
        head.scores = AttentionMatrix(std::move(scores));
    }
    for (int h = computed; h < config.heads; ++h) {
        result.heads[std::size_t(h)] = result.heads.front();
        concat.middleCols(h * dk, dk) = concat.leftCols(dk);
    }
    if (mean) {
        auto sum = std::make_shared<RowMatrixF>(std::move(out.weightSum));
        *sum /= float(config.heads);
        result.meanWeights = AttentionMatrix(std::shared_ptr<const RowMatrixF>(std::move(sum)));
    } else if (config.heads > 1) {
        result.meanWeights = result.heads.front().weights; // identical heads
    }
    if (config.outputProjection)
        result.output = (concat * in.weights.output.cast<float>()).cast<double>();
    else
        result.output = concat.cast<double>();
    return true;
}

} // namespace attn::detail

namespace attn {

Eigen::MatrixXd headMatrixInDouble(const AttentionResult &result, int head, bool scores)
{
    const int heads = int(result.heads.size());
    if (heads == 0)
        return {};
    if (head < 0 && heads > 1) {
        Eigen::MatrixXd sum = headMatrixInDouble(result, 0, scores);
        for (int h = 1; h < heads; ++h)
            sum += headMatrixInDouble(result, h, scores);
        return sum / double(heads);
    }
    const std::size_t h = std::size_t(std::clamp(head, 0, heads - 1));
    const Eigen::MatrixXd &x = result.inputs;
    const Eigen::MatrixXd &y = result.sourceInputs.size() > 0 ? result.sourceInputs : result.inputs;
    const bool simplified = result.weights.query.empty();
    const Eigen::MatrixXd q = simplified ? x : Eigen::MatrixXd(x * result.weights.query[h]);
    const Eigen::MatrixXd k = simplified ? y : Eigen::MatrixXd(y * result.weights.key[h]);
    // The same operation as forwardDouble, so the numbers are the same; no
    // values, as only the scores or the weights are wanted.
    AttentionSettings settings;
    settings.causal = result.causal;
    settings.scale = result.scoreScale;
    settings.keepScores = scores;
    AttentionOutput<double> out = attentionByColumns<double>(q, k, Eigen::MatrixXd(k.rows(), 0), settings);
    return scores ? std::move(out.scores.front()) : std::move(out.weights.front());
}

} // namespace attn
