#include "attention/forwardpass.h"

#include "model/attentionop.h"
#include "attention/rotarypositions.h"
#include "runtime/twothreads.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <type_traits>

namespace attn::detail {

namespace {

template<typename S>
using ColumnMatrix = Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic>;

// Columns first ... first+count-1 of a matrix stored by columns (one
// contiguous run) in another scalar: std::copy converts element by element
// in a loop the compiler vectorises, where Eigen's cast went through the stack.
template<typename To, typename From>
ColumnMatrix<To> columnsAs(const Eigen::Ref<const ColumnMatrix<From>> &m, Eigen::Index first, Eigen::Index count)
{
    ColumnMatrix<To> out(m.rows(), count);
    for (Eigen::Index c = 0; c < count; ++c) {
        const From *begin = m.data() + (first + c) * m.outerStride();
        std::copy(begin, begin + m.rows(), out.data() + c * m.rows());
    }
    return out;
}

// Columns first ... first+count-1 of a matrix stored by rows, in double
// stored by columns (a head's context out of the heads' side by side), 64
// rows at a time: the rows read stay in the first-level cache while each
// column is written, where a plain cast read every row once per column.
template<typename From>
Eigen::MatrixXd columnsOfRows(const RowMatrix<From> &m, Eigen::Index first, Eigen::Index count)
{
    Eigen::MatrixXd out(m.rows(), count);
    for (Eigen::Index i0 = 0; i0 < m.rows(); i0 += 64) {
        const Eigen::Index i1 = std::min<Eigen::Index>(i0 + 64, m.rows());
        for (Eigen::Index c = 0; c < count; ++c) {
            double *column = out.data() + c * out.rows();
            for (Eigen::Index i = i0; i < i1; ++i)
                column[i] = double(m(i, first + c));
        }
    }
    return out;
}

// `m` in S: itself in double; in float a rounded copy, held by `storage`.
template<typename S>
const ColumnMatrix<S> &inScalar(const Eigen::MatrixXd &m, ColumnMatrix<S> &storage)
{
    if constexpr (std::is_same_v<S, double>) {
        return m;
    } else {
        storage = columnsAs<S, double>(m, 0, m.cols());
        return storage;
    }
}

// Every head's projection x * W_h, side by side (rows x heads*head_dim),
// head by head, exactly as headMatrixInDouble() redoes one head, so both
// give the same bits.
Eigen::MatrixXd projectHeads(const Eigen::MatrixXd &x, const std::vector<Eigen::MatrixXd> &perHead)
{
    const Eigen::Index width = perHead.front().cols();
    Eigen::MatrixXd all(x.rows(), width * Eigen::Index(perHead.size()));
    for (std::size_t h = 0; h < perHead.size(); ++h)
        all.middleCols(Eigen::Index(h) * width, width).noalias() = x * perHead[h];
    return all;
}

// W_o in S.
const Eigen::MatrixXd &outputWeights(const CompletedWeights &w, double) { return w.output; }
const Eigen::MatrixXf &outputWeights(const CompletedWeights &w, float) { return w.outputSingle; }

Eigen::MatrixXd intoDouble(Eigen::MatrixXd &&m) { return std::move(m); }
Eigen::MatrixXd intoDouble(Eigen::MatrixXf &&m) { return columnsAs<double, float>(m, 0, m.cols()); }

// Head h's scores and weights into `head`, in double, both as computed.
void keepHeadMatrices(HeadResult &head, AttentionOutput<double> &out, std::size_t h)
{
    head.scores = AttentionMatrix(std::move(out.scores[h]));
    head.weights = AttentionMatrix(std::move(out.weights[h]));
}

// Head h in float: its weights as the pass computed them when it is kept in
// full, else derived when asked from scores computed again from q and k; its
// scores always computed when asked (a view rarely shows them); both with
// their thumbnails when the pass pooled them.
void keepHead(HeadResult &head, AttentionOutput<float> &out, std::size_t h, double scale, bool causal,
              const std::shared_ptr<const AttentionMatrix::Factors> &factors, Eigen::Index dk, int keyValueHead)
{
    RowStatistics<float> &rows = out.rowStatistics[h];
    const Eigen::Index first = Eigen::Index(h) * dk, keyFirst = Eigen::Index(keyValueHead) * dk;
    if (out.weights[h].size() > 0)
        head.weights = AttentionMatrix::storedWeights(std::make_shared<const RowMatrixF>(std::move(out.weights[h])),
                                                      causal, std::move(rows.max), std::move(rows.inverseSum));
    else
        head.weights = AttentionMatrix::weightsOnDemand(factors, first, keyFirst, dk, float(scale), causal,
                                                        std::move(rows.max), std::move(rows.inverseSum));
    head.scores = AttentionMatrix::scoresOnDemand(factors, first, keyFirst, dk);
    if (!out.pooledWeights.empty())
        head.weights.setPooled(std::make_shared<const PooledMatrix>(std::move(out.pooledWeights[h])));
    if (!out.pooledScores.empty())
        head.scores.setPooled(std::make_shared<const PooledMatrix>(std::move(out.pooledScores[h])));
}

// The heads' summed weights divided by their number.
AttentionMatrix meanOf(RowMatrixD &&sum, int heads) { return AttentionMatrix(RowMatrixD(sum / double(heads))); }

AttentionMatrix meanOf(RowMatrixF &&sum, int heads)
{
    auto mean = std::make_shared<RowMatrixF>(std::move(sum));
    *mean /= float(heads);
    return AttentionMatrix(std::shared_ptr<const RowMatrixF>(std::move(mean)));
}

// The pooled sum divided likewise: x / heads keeps the order of magnitudes,
// so each cell is the mean's own pooled value.
std::shared_ptr<const PooledMatrix> meanOf(PooledMatrix &&sum, int heads)
{
    auto mean = std::make_shared<PooledMatrix>(std::move(sum));
    mean->cells /= float(heads);
    mean->findLargestMagnitude();
    return mean;
}

// How q and k are turned by position: not at all, or by rotary positions
// (each row to its own position, pairs of each head of width `headDim`).
struct Turning
{
    bool rotary = false;
    int headDim = 0;
    double theta = kDefaultRopeTheta;

    template<typename S>
    void apply(ColumnMatrix<S> &m, Eigen::Index firstColumn, int heads) const
    {
        if (rotary)
            rotateHeadsByPosition<S>(m, firstColumn, heads, headDim, rotaryPairFrequencies(headDim, theta));
    }
};

// Every head's q, and every key/value head's k and v, side by side (n x
// heads*head_dim, m x kv_heads*head_dim); in simplified attention q is x and
// k = v is y, or with rotary positions q and k are x and y turned and v is y.
// Double projects head by head (see projectHeads).
template<typename S>
class Projections
{
public:
    Projections(const Eigen::MatrixXd &x, const Eigen::MatrixXd &y, bool simplified, const CompletedWeights &w,
                const Turning &turning, int heads, int kvHeads)
        : m_x(x), m_y(y), m_simplified(simplified)
    {
        if (!simplified) {
            m_q = projectHeads(x, w.query);
            m_k = projectHeads(y, w.key);
            m_v = projectHeads(y, w.value);
            turning.apply<double>(m_q, 0, heads);
            turning.apply<double>(m_k, 0, kvHeads);
        } else if (turning.rotary) {
            m_q = x;
            m_k = y;
            turning.apply<double>(m_q, 0, 1);
            turning.apply<double>(m_k, 0, 1);
        }
        m_turned = simplified && turning.rotary;
    }
    Eigen::Ref<const Eigen::MatrixXd> queries() const { return m_simplified && !m_turned ? m_x : m_q; }
    Eigen::Ref<const Eigen::MatrixXd> keys() const { return m_simplified && !m_turned ? m_y : m_k; }
    Eigen::Ref<const Eigen::MatrixXd> values() const { return m_simplified ? m_y : m_v; }

private:
    const Eigen::MatrixXd &m_x, &m_y;
    bool m_simplified, m_turned = false;
    Eigen::MatrixXd m_q, m_k, m_v;
};

// Float computes q, k and v of every head by one product (two in
// cross-attention: q from x, k and v from the source) and keeps the result
// as it is, shared with the heads that compute their rows again from q and k.
// Rotary positions turn q and k where they are; simplified attention then
// keeps x (or y) a second time, unturned, as v.
template<>
class Projections<float>
{
public:
    Projections(const Eigen::MatrixXf &x, const Eigen::MatrixXf &y, bool cross, bool simplified,
                const CompletedWeights &w, const Turning &turning, int heads, int kvHeads)
        : m_shared(std::make_shared<AttentionMatrix::Factors>())
    {
        AttentionMatrix::Factors &f = *m_shared;
        if (simplified) {
            const Eigen::Index width = x.cols();
            f.width = f.keyWidth = width;
            if (!turning.rotary) {
                f.projected = x;
                if (cross)
                    f.source = y;
                return;
            }
            // q = turned x; k = turned y (x itself when not cross: the same turn); v = y unturned.
            if (cross) {
                f.projected = x;
                turning.apply<float>(f.projected, 0, 1);
                f.source.resize(y.rows(), 2 * width);
                f.source.leftCols(width) = y;
                f.source.rightCols(width) = y;
                turning.apply<float>(f.source, 0, 1);
            } else {
                f.projected.resize(x.rows(), 2 * width);
                f.projected.leftCols(width) = x;
                f.projected.rightCols(width) = x;
                turning.apply<float>(f.projected, 0, 1);
            }
            m_valueStart = width;
            return;
        }
        const Eigen::Index headDim = w.query.front().cols();
        const Eigen::Index width = heads * headDim, keyWidth = kvHeads * headDim;
        f.width = width;
        f.keyWidth = keyWidth;
        if (cross) {
            f.projected.resize(x.rows(), width);
            f.projected.noalias() = x * w.projectionSingle.leftCols(width);
            f.source.resize(y.rows(), 2 * keyWidth);
            f.source.noalias() = y * w.projectionSingle.rightCols(2 * keyWidth);
            turning.apply<float>(f.projected, 0, heads);
            turning.apply<float>(f.source, 0, kvHeads);
            m_valueStart = keyWidth;
        } else {
            f.projected.resize(x.rows(), width + 2 * keyWidth);
            f.projected.noalias() = x * w.projectionSingle;
            f.keyStart = width;
            turning.apply<float>(f.projected, 0, heads);
            turning.apply<float>(f.projected, width, kvHeads);
            m_valueStart = width + keyWidth;
        }
    }
    Eigen::Ref<const Eigen::MatrixXf> queries() const { return m_shared->queries(); }
    Eigen::Ref<const Eigen::MatrixXf> keys() const { return m_shared->keys(); }
    Eigen::Ref<const Eigen::MatrixXf> values() const
    {
        return m_shared->keyMatrix().middleCols(m_valueStart, m_shared->keyWidth);
    }
    const std::shared_ptr<const AttentionMatrix::Factors> factors() const { return m_shared; }

private:
    std::shared_ptr<AttentionMatrix::Factors> m_shared;
    Eigen::Index m_valueStart = 0;
};

// The largest squared length of a row of finite numbers. Summed in float,
// column by column (each a contiguous run of the matrix): a sum that
// overflows becomes infinite, never wrong, and only then is it summed again
// in double, where it cannot overflow. (Eigen's vectorised row norms give
// NaN on overflow, which maxCoeff() passes over.) Double throughout took
// 0.5 ms of a 1024-token pass.
double largestSquaredRowNorm(const Eigen::Ref<const Eigen::MatrixXf> &rows)
{
    if (rows.rows() == 0)
        return 0.0;
    Eigen::ArrayXf squares = Eigen::ArrayXf::Zero(rows.rows());
    for (Eigen::Index c = 0; c < rows.cols(); ++c)
        squares += rows.col(c).array().square();
    const float largest = squares.maxCoeff();
    if (std::isfinite(largest))
        return double(largest);
    Eigen::ArrayXd wide = Eigen::ArrayXd::Zero(rows.rows());
    for (Eigen::Index c = 0; c < rows.cols(); ++c)
        wide += rows.col(c).cast<double>().array().square();
    return wide.maxCoeff();
}

// |q.k| <= |q||k| (Cauchy-Schwarz). Below this bound no score can overflow
// float (which spares checking a million scores per head) and float's
// rounding, about 1e-7 of the bound per score, stays far below the 4 decimals
// shown after the softmax; above it, double does the work.
bool floatScoresAreSafe(const Eigen::Ref<const Eigen::MatrixXf> &queries, const Eigen::Ref<const Eigen::MatrixXf> &keys,
                        int heads, int group, Eigen::Index dk, double scale)
{
    for (int h = 0; h < heads; ++h) {
        const auto qh = queries.middleCols(h * dk, dk), kh = keys.middleCols(h / group * dk, dk);
        if (!allFiniteFast(qh) || !allFiniteFast(kh))
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

template<typename S>
bool sessionPass(const PassInputs &in, AttentionResult &result)
{
    constexpr bool single = std::is_same_v<S, float>;
    const AttentionConfig &config = in.config;
    const bool simplified = config.mode == Mode::Simplified;
    const bool cross = &in.keysFrom != &in.queriesFrom;
    const Eigen::Index n = in.queriesFrom.rows(), m = in.keysFrom.rows(), dk = in.headDim;
    // Simplified heads are all the same: compute one, share it.
    const int computed = simplified ? 1 : config.heads;
    const int kvHeads = simplified ? 1 : config.keyValueHeads();
    const int group = computed / kvHeads; // query heads per key/value head
    const Turning turning{config.rotary(), int(dk), config.ropeTheta};
    // Thumbnails pay off for matrices larger than one; the one head computed is always kept.
    const bool pooled = single && (n > kThumbnailSide || m > kThumbnailSide);
    const bool keptAll = !pooled || computed == 1 || in.kept.keepsAll();

    ColumnMatrix<S> xStorage, yStorage;
    const ColumnMatrix<S> &x = inScalar<S>(in.queriesFrom, xStorage);
    const ColumnMatrix<S> &y = cross ? inScalar<S>(in.keysFrom, yStorage) : x;
    stopIfCancelled(in.cancel);
    const Projections<S> projections = [&] {
        if constexpr (single)
            return Projections<S>(x, y, cross, simplified, in.weights, turning, computed, kvHeads);
        else
            return Projections<S>(x, y, simplified, in.weights, turning, computed, kvHeads);
    }();
    const Eigen::Ref<const ColumnMatrix<S>> queries = projections.queries(), keys = projections.keys(),
                                            values = projections.values();
    if constexpr (single) {
        if (!floatScoresAreSafe(queries, keys, computed, group, dk, in.scale))
            return false;
    }

    AttentionSettings settings;
    settings.heads = computed;
    settings.kvHeads = kvHeads;
    settings.causal = config.causal;
    settings.scale = in.scale;
    settings.cancel = in.cancel;
    // Double keeps every matrix. Float keeps each row's statistics and the
    // weights of the heads kept in full; scores, and the other heads'
    // weights, are computed again when shown.
    if constexpr (single) {
        settings.weightsKept = WeightsKept::RowStatistics;
        if (pooled) {
            settings.poolSide = kThumbnailSide;
            settings.poolScores = in.kept.poolsScores();
        }
        if (!keptAll)
            for (int h = 0; h < computed; ++h)
                settings.inFull.push_back(in.kept.keeps(h));
    } else {
        settings.keepScores = true;
    }
    // The mean over heads is summed while each head's weights are at hand.
    const bool mean = config.heads > 1 && !simplified;
    settings.sumWeights = mean;
    // A mean no view shows in full keeps only its thumbnail; its rows are
    // the heads' rows averaged when asked.
    const bool meanInFull = !pooled || in.kept.keepsMean();
    settings.keepWeightSum = meanInFull;
    AttentionOutput<S> out = attentionByColumns<S>(queries, keys, values, settings);

    result.heads.resize(std::size_t(config.heads));
    const auto fillHead = [&](int h) {
        HeadResult &head = result.heads[std::size_t(h)];
        const int shared = h / group; // the key/value head this head reads
        if (simplified && !turning.rotary) {
            head.queries = in.queriesFrom;
            head.keys = in.keysFrom;
            head.values = in.keysFrom;
        } else if (simplified) {
            head.queries = columnsAs<double, S>(queries, 0, dk);
            head.keys = columnsAs<double, S>(keys, 0, dk);
            head.values = in.keysFrom;
        } else {
            head.queries = columnsAs<double, S>(queries, h * dk, dk);
            head.keys = columnsAs<double, S>(keys, shared * dk, dk);
            head.values = columnsAs<double, S>(values, shared * dk, dk);
        }
        head.context = columnsOfRows(out.context, h * dk, dk);
        if constexpr (single)
            keepHead(head, out, std::size_t(h), in.scale, config.causal, projections.factors(), dk, shared);
        else
            keepHeadMatrices(head, out, std::size_t(h));
    };
    // The heads' copies for the views in double are memory-bound work of
    // their own (16 MB at 1024 tokens, d_model 512): shared by the two cores
    // when large. Each head is written by one thread.
    const auto fillEvery = [&](int first) {
        for (int h = first; h < computed; h += 2)
            fillHead(h);
    };
    if (computed > 1 && double(n + 2 * m) * dk * computed >= double(1 << 18))
        runBoth([&] { fillEvery(0); }, [&] { fillEvery(1); });
    else
        for (int h = 0; h < computed; ++h)
            fillHead(h);
    for (int h = computed; h < config.heads; ++h)
        result.heads[std::size_t(h)] = result.heads.front();
    if (mean) {
        if (meanInFull) {
            result.meanWeights = meanOf(std::move(out.weightSum), config.heads);
        } else {
            std::vector<AttentionMatrix> heads;
            for (const HeadResult &head : result.heads)
                heads.push_back(head.weights);
            result.meanWeights = AttentionMatrix::meanOnDemand(std::move(heads));
        }
        if constexpr (single) {
            if (pooled)
                result.meanWeights.setPooled(meanOf(std::move(out.pooledWeightSum), config.heads));
        }
    } else if (config.heads > 1) {
        result.meanWeights = result.heads.front().weights; // identical heads
    }

    if constexpr (single) {
        // The contexts side by side are out.context itself: W_o multiplies
        // it where it is, without a copy into column order (2 MB at 1024
        // tokens). Double keeps the copy: its numbers are fingerprinted.
        if (computed == config.heads && config.outputProjection) {
            ColumnMatrix<S> projected(n, outputWeights(in.weights, S()).cols());
            projected.noalias() = out.context * outputWeights(in.weights, S());
            result.output = intoDouble(std::move(projected));
            return true;
        }
    }
    ColumnMatrix<S> concat(n, config.heads * dk);
    concat.leftCols(computed * dk) = out.context;
    for (int h = computed; h < config.heads; ++h)
        concat.middleCols(h * dk, dk) = concat.leftCols(dk);
    if (config.outputProjection) {
        ColumnMatrix<S> projected(n, outputWeights(in.weights, S()).cols());
        projected.noalias() = concat * outputWeights(in.weights, S());
        result.output = intoDouble(std::move(projected));
    } else {
        result.output = intoDouble(std::move(concat));
    }
    return true;
}

template bool sessionPass<double>(const PassInputs &, AttentionResult &);
template bool sessionPass<float>(const PassInputs &, AttentionResult &);

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
    if (result.projected && !result.weights) // a model's layer: its numbers are the model's floats
        return scores ? result.heads[h].scores.toDouble() : result.heads[h].weights.toDouble();
    const bool simplified = !result.projected;
    const std::size_t shared = std::size_t(result.keyValueHeadOf(int(h)));
    Eigen::MatrixXd q = simplified ? x : Eigen::MatrixXd(x * result.weights->query[h]);
    Eigen::MatrixXd k = simplified ? y : Eigen::MatrixXd(y * result.weights->key[shared]);
    if (result.rotary) {
        const std::vector<double> frequencies = rotaryPairFrequencies(int(q.cols()), result.ropeTheta);
        rotateHeadsByPosition<double>(q, 0, 1, int(q.cols()), frequencies);
        rotateHeadsByPosition<double>(k, 0, 1, int(k.cols()), frequencies);
    }
    // The same operations as sessionPass<double>, so the numbers are the
    // same; no values, as only the scores or the weights are wanted.
    AttentionSettings settings;
    settings.causal = result.causal;
    settings.scale = result.scoreScale;
    settings.keepScores = scores;
    AttentionOutput<double> out = attentionByColumns<double>(q, k, Eigen::MatrixXd(k.rows(), 0), settings);
    return scores ? std::move(out.scores.front()) : std::move(out.weights.front());
}

} // namespace attn
