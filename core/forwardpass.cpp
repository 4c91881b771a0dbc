#include "forwardpass.h"

#include "twothreads.h"

#include <algorithm>

namespace attn::detail {

namespace {

template<typename Scalar>
using RowMatrix = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template<typename Scalar>
using Vector = Eigen::Matrix<Scalar, Eigen::Dynamic, 1>;

// out = softmax(scores * scale) for rows [begin, end), over the keys the
// causal mask leaves visible. Rows of a row-major matrix are contiguous, so
// each is one vectorized run. With rowMax/rowInverseSum, rows are scaled by
// the reciprocal of their sum and both are kept, so that a weight can be
// derived again from its score (AttentionMatrix::softmaxOf).
template<typename Scalar>
void softmaxRows(const RowMatrix<Scalar> &scores, Scalar scale, bool causal, Eigen::Index begin, Eigen::Index end,
                 RowMatrix<Scalar> &out, Vector<Scalar> *rowMax, Vector<Scalar> *rowInverseSum)
{
    const Eigen::Index m = scores.cols();
    for (Eigen::Index i = begin; i < end; ++i) {
        // Under the causal mask, query i sees keys 0..i; there is always key 0.
        const Eigen::Index visible = causal ? std::min<Eigen::Index>(i + 1, m) : m;
        auto keys = out.row(i).head(visible);
        keys = scores.row(i).head(visible) * scale;
        const Scalar largest = keys.maxCoeff(); // becomes exp(0) = 1: nothing overflows
        keys = (keys.array() - largest).exp().matrix();
        if (rowInverseSum) {
            const Scalar inverse = Scalar(1) / keys.sum();
            keys *= inverse;
            (*rowMax)[i] = largest;
            (*rowInverseSum)[i] = inverse;
        } else {
            keys /= keys.sum();
        }
        out.row(i).tail(m - visible).setZero();
    }
}

// The same over all rows; large matrices are split between two threads (the
// machines this runs on have two cores, and the exponentials are a tenth of a
// 1024-token pass).
template<typename Scalar>
void softmaxAllRows(const RowMatrix<Scalar> &scores, Scalar scale, bool causal, RowMatrix<Scalar> &out,
                    Vector<Scalar> *rowMax = nullptr, Vector<Scalar> *rowInverseSum = nullptr)
{
    const Eigen::Index n = scores.rows();
    out.resize(n, scores.cols());
    if (scores.size() < (Eigen::Index(1) << 17)) {
        softmaxRows(scores, scale, causal, 0, n, out, rowMax, rowInverseSum);
        return;
    }
    // Under the mask the lower rows hold more keys: split the work, not the rows.
    const Eigen::Index half = causal ? Eigen::Index(double(n) * 0.7071) : n / 2;
    runBoth([&] { softmaxRows(scores, scale, causal, 0, half, out, rowMax, rowInverseSum); },
            [&] { softmaxRows(scores, scale, causal, half, n, out, rowMax, rowInverseSum); });
}

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

} // namespace

Eigen::MatrixXd softmaxRowsOf(const Eigen::Ref<const Eigen::MatrixXd> &scores, double scale, bool causal)
{
    RowMatrixD weights;
    softmaxAllRows(RowMatrixD(scores), scale, causal, weights);
    return weights;
}

void forwardDouble(const PassInputs &in, AttentionResult &result)
{
    const AttentionConfig &config = in.config;
    const Eigen::Index n = in.queriesFrom.rows(), dk = in.headDim;
    Eigen::MatrixXd concat(n, config.heads * dk);
    result.heads.resize(std::size_t(config.heads));
    RowMatrixD sum; // of the heads' weights, for their mean
    for (int h = 0; h < config.heads; ++h) {
        stopIfCancelled(in);
        HeadResult &head = result.heads[std::size_t(h)];
        if (config.mode == Mode::Simplified) {
            head.queries = in.queriesFrom;
            head.keys = in.keysFrom;
            head.values = in.keysFrom;
        } else {
            head.queries.noalias() = in.queriesFrom * in.weights.query[std::size_t(h)];
            head.keys.noalias() = in.keysFrom * in.weights.key[std::size_t(h)];
            head.values.noalias() = in.keysFrom * in.weights.value[std::size_t(h)];
        }
        RowMatrixD scores(n, head.keys.rows());
        scores.noalias() = head.queries * head.keys.transpose();
        RowMatrixD weights;
        softmaxAllRows(scores, in.scale, config.causal, weights);
        head.context.noalias() = weights * head.values;
        concat.middleCols(h * dk, dk) = head.context;
        if (config.heads > 1) {
            if (h == 0)
                sum = weights;
            else
                sum += weights;
        }
        head.scores = AttentionMatrix(std::move(scores));
        head.weights = AttentionMatrix(std::move(weights));
    }
    if (config.heads > 1)
        result.meanWeights = AttentionMatrix(RowMatrixD(sum / double(config.heads)));
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
    const Eigen::Index n = in.queriesFrom.rows(), m = in.keysFrom.rows(), dk = in.headDim;
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

    Eigen::MatrixXf concat(n, config.heads * dk);
    result.heads.resize(std::size_t(config.heads));
    const float scale = float(in.scale);
    RowMatrixF weights; // one head's at a time: they are derived again when shown
    // Their mean over heads, summed while each head's weights are at hand.
    const bool mean = config.heads > 1 && !simplified;
    auto sum = std::make_shared<RowMatrixF>(mean ? RowMatrixF::Zero(n, m) : RowMatrixF());
    for (int h = 0; h < computed; ++h) {
        stopIfCancelled(in);
        const auto qh = queries.middleCols(h * dk, dk), kh = keys.middleCols(h * dk, dk),
                   vh = values.middleCols(h * dk, dk);
        // |q.k| <= |q||k| (Cauchy-Schwarz). Below this bound no score can
        // overflow float (which spares checking a million scores per head) and
        // float's rounding, about 1e-7 of the bound per score, stays far below
        // the 4 decimals shown after the softmax; above it, double does the work.
        // allFinite first: maxCoeff() may pass over a NaN.
        if (!qh.allFinite() || !kh.allFinite())
            return false;
        const double bound = double(qh.rowwise().norm().maxCoeff()) * double(kh.rowwise().norm().maxCoeff());
        if (!(bound * in.scale < 1e3))
            return false;
        auto scores = std::make_shared<RowMatrixF>(n, m);
        scores->noalias() = qh * kh.transpose();
        Eigen::VectorXf rowMax(n), rowInverseSum(n);
        softmaxAllRows(*scores, scale, config.causal, weights, &rowMax, &rowInverseSum);
        concat.middleCols(h * dk, dk).noalias() = weights * vh;
        if (mean)
            *sum += weights;

        HeadResult &head = result.heads[std::size_t(h)];
        head.queries = qh.cast<double>();
        head.keys = kh.cast<double>();
        head.values = vh.cast<double>();
        head.context = concat.middleCols(h * dk, dk).cast<double>();
        head.weights = AttentionMatrix::softmaxOf(scores, scale, config.causal, std::move(rowMax),
                                                  std::move(rowInverseSum));
        head.scores = AttentionMatrix(std::shared_ptr<const RowMatrixF>(std::move(scores)));
    }
    for (int h = computed; h < config.heads; ++h) {
        result.heads[std::size_t(h)] = result.heads.front();
        concat.middleCols(h * dk, dk) = concat.leftCols(dk);
    }
    if (mean) {
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
    // The same products and softmax as forwardDouble, so the numbers are the same.
    RowMatrixD s(q.rows(), k.rows());
    s.noalias() = q * k.transpose();
    if (scores)
        return s;
    RowMatrixD weights;
    detail::softmaxAllRows(s, result.scoreScale, result.causal, weights);
    return weights;
}

} // namespace attn
