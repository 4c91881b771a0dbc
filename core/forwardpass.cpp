#include "forwardpass.h"

#include <algorithm>

namespace attn::detail {

namespace {

// Softmax of each row in place, over the keys the causal mask leaves visible.
// Rows of a row-major matrix are contiguous, so each is one vectorized run.
// With rowMax/rowInverseSum, rows are scaled by the reciprocal of their sum
// and both are kept, so that a weight can be derived again from its score.
template<typename Scalar>
void softmaxRowsInPlace(Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> &a, bool causal,
                        Eigen::Matrix<Scalar, Eigen::Dynamic, 1> *rowMax = nullptr,
                        Eigen::Matrix<Scalar, Eigen::Dynamic, 1> *rowInverseSum = nullptr)
{
    const Eigen::Index m = a.cols();
    for (Eigen::Index i = 0; i < a.rows(); ++i) {
        // Under the causal mask, query i sees keys 0..i; there is always key 0.
        const Eigen::Index visible = causal ? std::min<Eigen::Index>(i + 1, m) : m;
        auto keys = a.row(i).head(visible);
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
        a.row(i).tail(m - visible).setZero();
    }
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
    RowMatrixD a = scores * scale;
    softmaxRowsInPlace(a, causal);
    return a;
}

void forwardDouble(const PassInputs &in, AttentionResult &result)
{
    const AttentionConfig &config = in.config;
    const Eigen::Index n = in.queriesFrom.rows(), dk = in.headDim;
    Eigen::MatrixXd concat(n, config.heads * dk);
    result.heads.resize(std::size_t(config.heads));
    for (int h = 0; h < config.heads; ++h) {
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
        RowMatrixD weights = scores * in.scale;
        softmaxRowsInPlace(weights, config.causal);
        head.context.noalias() = weights * head.values;
        concat.middleCols(h * dk, dk) = head.context;
        head.scores = AttentionMatrix(std::move(scores));
        head.weights = AttentionMatrix(std::move(weights));
    }
    if (config.outputProjection)
        result.output.noalias() = concat * in.weights.output;
    else
        result.output = std::move(concat);
}

void forwardSingle(const PassInputs &in, AttentionResult &result)
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
    for (int h = 0; h < computed; ++h) {
        const auto qh = queries.middleCols(h * dk, dk), kh = keys.middleCols(h * dk, dk),
                   vh = values.middleCols(h * dk, dk);
        auto scores = std::make_shared<RowMatrixF>(n, m);
        scores->noalias() = qh * kh.transpose();
        RowMatrixF weights = *scores * scale; // only while this head is computed
        Eigen::VectorXf rowMax(n), rowInverseSum(n);
        softmaxRowsInPlace(weights, config.causal, &rowMax, &rowInverseSum);
        concat.middleCols(h * dk, dk).noalias() = weights * vh;

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
    if (config.outputProjection)
        result.output = (concat * in.weights.output.cast<float>()).cast<double>();
    else
        result.output = concat.cast<double>();
}

} // namespace attn::detail
