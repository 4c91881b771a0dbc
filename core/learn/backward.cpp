#include "learn/backward.h"

#include <cmath>
#include <stdexcept>

namespace attn {

template<typename S>
LinearGradients<S> linearBackward(const MatrixIn<S> &x, const MatrixIn<S> &weight, const MatrixIn<S> &dy)
{
    LinearGradients<S> g;
    g.input.resize(x.rows(), x.cols());
    g.input.noalias() = dy * weight.transpose();
    g.weight.resize(weight.rows(), weight.cols());
    g.weight.noalias() = x.transpose() * dy;
    g.bias = dy.colwise().sum();
    return g;
}

template<typename S>
LinearGradients<S> linearTransposedBackward(const MatrixIn<S> &x, const MatrixIn<S> &weight, const MatrixIn<S> &dy)
{
    LinearGradients<S> g;
    g.input.resize(x.rows(), x.cols());
    g.input.noalias() = dy * weight;
    g.weight.resize(weight.rows(), weight.cols());
    g.weight.noalias() = dy.transpose() * x;
    g.bias = dy.colwise().sum();
    return g;
}

template<typename S>
LayerNormGradients<S> layerNormBackward(const MatrixIn<S> &x, const VectorIn<S> &weight, double epsilon,
                                        const MatrixIn<S> &dy)
{
    LayerNormGradients<S> g;
    const Eigen::Index n = x.rows(), d = x.cols();
    g.input.resize(n, d);
    g.weight = RowVector<S>::Zero(d);
    g.bias = dy.colwise().sum();
    Eigen::Array<S, 1, Eigen::Dynamic> normalised(d), dNormalised(d);
    for (Eigen::Index r = 0; r < n; ++r) {
        // The same two-pass statistics as layerNorm(), so float agrees with the forward.
        normalised = x.row(r).array() - x.row(r).sum() / S(d);
        const S inverse = S(1) / std::sqrt(normalised.square().sum() / S(d) + S(epsilon));
        normalised *= inverse;
        g.weight.array() += dy.row(r).array() * normalised;
        dNormalised = dy.row(r).array() * weight.array();
        // d/dx of (x - mean) * rstd: the mean and the variance both depend on every entry.
        const S meanD = dNormalised.mean(), meanDN = (dNormalised * normalised).mean();
        g.input.row(r) = (inverse * (dNormalised - meanD - normalised * meanDN)).matrix();
    }
    return g;
}

template<typename S>
LayerNormGradients<S> rmsNormBackward(const MatrixIn<S> &x, const VectorIn<S> &weight, double epsilon,
                                      const MatrixIn<S> &dy)
{
    LayerNormGradients<S> g;
    const Eigen::Index n = x.rows(), d = x.cols();
    g.input.resize(n, d);
    g.weight = RowVector<S>::Zero(d);
    Eigen::Array<S, 1, Eigen::Dynamic> dScaled(d);
    for (Eigen::Index r = 0; r < n; ++r) {
        // The same statistic as rmsNorm(), so float agrees with the forward.
        const S inverse = S(1) / std::sqrt(x.row(r).squaredNorm() / S(d) + S(epsilon));
        g.weight.array() += dy.row(r).array() * x.row(r).array() * inverse;
        dScaled = dy.row(r).array() * weight.array();
        // d/dx of x * rms^-1: every entry changes the root mean square too, by x_k / (d rms^3).
        const S along = (dScaled * x.row(r).array()).sum() / S(d);
        g.input.row(r) = (inverse * dScaled - inverse * inverse * inverse * along * x.row(r).array()).matrix();
    }
    return g;
}

template<typename S>
RowMatrix<S> geluNewBackward(const MatrixIn<S> &x, const MatrixIn<S> &dy)
{
    const S c = S(0.7978845608028654), k = S(0.044715);
    const auto a = x.array();
    const Eigen::Array<S, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> t = (c * (a + k * a.cube())).tanh();
    RowMatrix<S> dx = (dy.array()
                       * (S(0.5) * (S(1) + t) + S(0.5) * a * (S(1) - t.square()) * c * (S(1) + S(3) * k * a.square())))
                          .matrix();
    return dx;
}

template<typename S>
AttentionGradients<S> attentionBackward(const MatrixIn<S> &queries, const MatrixIn<S> &keys, const MatrixIn<S> &values,
                                        const std::vector<RowMatrix<S>> &weights, double scale,
                                        const MatrixIn<S> &dContext, int kvHeads)
{
    const int heads = int(weights.size());
    const int shared = kvHeads > 0 ? kvHeads : heads;
    if (heads < 1 || heads % shared != 0 || queries.cols() % heads != 0 || values.cols() % shared != 0
        || keys.cols() * heads != queries.cols() * shared || dContext.rows() != queries.rows()
        || dContext.cols() * shared != values.cols() * heads)
        throw std::invalid_argument("attentionBackward: inconsistent sizes");
    const Eigen::Index dk = queries.cols() / heads, dv = values.cols() / shared;
    const int group = heads / shared;
    AttentionGradients<S> g;
    g.queries.resize(queries.rows(), queries.cols());
    // A shared key/value head collects the gradient of every query head that reads it.
    g.keys = RowMatrix<S>::Zero(keys.rows(), keys.cols());
    g.values = RowMatrix<S>::Zero(values.rows(), values.cols());
    RowMatrix<S> dWeights, dScores;
    for (int h = 0; h < heads; ++h) {
        const Eigen::Index kv = h / group;
        const RowMatrix<S> &w = weights[std::size_t(h)];
        const auto dz = dContext.middleCols(h * dv, dv);
        g.values.middleCols(kv * dv, dv).noalias() += w.transpose() * dz;
        dWeights.noalias() = dz * values.middleCols(kv * dv, dv).transpose();
        // Softmax backward row by row: dS = W o (dW - <dW, W>). Masked entries
        // have W = 0 exactly, so no gradient reaches them.
        const Eigen::Matrix<S, Eigen::Dynamic, 1> rowDots = (dWeights.array() * w.array()).rowwise().sum();
        dScores = (w.array() * (dWeights.array().colwise() - rowDots.array())).matrix() * S(scale);
        g.queries.middleCols(h * dk, dk).noalias() = dScores * keys.middleCols(kv * dk, dk);
        g.keys.middleCols(kv * dk, dk).noalias() += dScores.transpose() * queries.middleCols(h * dk, dk);
    }
    return g;
}

template<typename S>
GatedGradients<S> swigluBackward(const MatrixIn<S> &gate, const MatrixIn<S> &up, const MatrixIn<S> &dy)
{
    const auto a = gate.array();
    // silu(a) = a sigma(a); its derivative sigma(a) (1 + a (1 - sigma(a))).
    const Eigen::Array<S, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> sigma = S(1) / (S(1) + (-a).exp());
    GatedGradients<S> g;
    g.up = (dy.array() * a * sigma).matrix();
    g.gate = (dy.array() * up.array() * sigma * (S(1) + a * (S(1) - sigma))).matrix();
    return g;
}

template<typename S>
void residualBackward(RowMatrix<S> &dStream, const MatrixIn<S> &dBranch)
{
    dStream += dBranch;
}

template<typename S>
void embeddingBackward(const std::vector<int> &ids, int length, const MatrixIn<S> &dh, RowMatrix<S> &dTokenEmbedding,
                       RowMatrix<S> &dPositionEmbedding)
{
    for (std::size_t i = 0; i < ids.size(); ++i) {
        dTokenEmbedding.row(ids[i]) += dh.row(Eigen::Index(i));
        dPositionEmbedding.row(Eigen::Index(i % std::size_t(length))) += dh.row(Eigen::Index(i));
    }
}

template<typename S>
void tokenEmbeddingBackward(const std::vector<int> &ids, const MatrixIn<S> &dh, RowMatrix<S> &dTokenEmbedding)
{
    for (std::size_t i = 0; i < ids.size(); ++i)
        dTokenEmbedding.row(ids[i]) += dh.row(Eigen::Index(i));
}

template<typename S>
RowMatrix<S> unembeddingBackward(const MatrixIn<S> &h, const MatrixIn<S> &embedding, const MatrixIn<S> &dLogits,
                                 RowMatrix<S> &dEmbedding)
{
    dEmbedding.noalias() += dLogits.transpose() * h;
    RowMatrix<S> dh(h.rows(), h.cols());
    dh.noalias() = dLogits * embedding;
    return dh;
}

template<typename S>
CrossEntropy<S> crossEntropy(const MatrixIn<S> &logits, const std::vector<int> &targets,
                             const std::vector<float> &weights)
{
    CrossEntropy<S> out;
    out.dLogits = RowMatrix<S>::Zero(logits.rows(), logits.cols());
    for (float w : weights)
        out.weightSum += S(w);
    if (out.weightSum <= S(0))
        return out;
    for (Eigen::Index r = 0; r < logits.rows(); ++r) {
        const S w = S(weights[std::size_t(r)]);
        if (w <= S(0))
            continue;
        const int target = targets[std::size_t(r)];
        Eigen::Index best = 0;
        const S largest = logits.row(r).maxCoeff(&best);
        auto p = out.dLogits.row(r);
        p = (logits.row(r).array() - largest).exp().matrix();
        const S sum = p.sum();
        out.loss -= w * (logits(r, target) - largest - std::log(sum));
        p *= w / (sum * out.weightSum);
        p[target] -= w / out.weightSum;
        ++out.counted;
        out.correct += best == target ? 1 : 0;
    }
    out.loss /= out.weightSum;
    return out;
}

#define ATTN_BACKWARD_INSTANTIATE(S)                                                                                 \
    template LinearGradients<S> linearBackward<S>(const MatrixIn<S> &, const MatrixIn<S> &, const MatrixIn<S> &);     \
    template LinearGradients<S> linearTransposedBackward<S>(const MatrixIn<S> &, const MatrixIn<S> &,                \
                                                            const MatrixIn<S> &);                                    \
    template LayerNormGradients<S> rmsNormBackward<S>(const MatrixIn<S> &, const VectorIn<S> &, double,              \
                                                      const MatrixIn<S> &);                                          \
    template GatedGradients<S> swigluBackward<S>(const MatrixIn<S> &, const MatrixIn<S> &, const MatrixIn<S> &);     \
    template void tokenEmbeddingBackward<S>(const std::vector<int> &, const MatrixIn<S> &, RowMatrix<S> &);          \
    template LayerNormGradients<S> layerNormBackward<S>(const MatrixIn<S> &, const VectorIn<S> &, double,            \
                                                        const MatrixIn<S> &);                                        \
    template RowMatrix<S> geluNewBackward<S>(const MatrixIn<S> &, const MatrixIn<S> &);                             \
    template AttentionGradients<S> attentionBackward<S>(const MatrixIn<S> &, const MatrixIn<S> &, const MatrixIn<S> &, \
                                                        const std::vector<RowMatrix<S>> &, double, const MatrixIn<S> &, \
                                                        int);                                                        \
    template void residualBackward<S>(RowMatrix<S> &, const MatrixIn<S> &);                                          \
    template void embeddingBackward<S>(const std::vector<int> &, int, const MatrixIn<S> &, RowMatrix<S> &,           \
                                       RowMatrix<S> &);                                                              \
    template RowMatrix<S> unembeddingBackward<S>(const MatrixIn<S> &, const MatrixIn<S> &, const MatrixIn<S> &,     \
                                                 RowMatrix<S> &);                                                    \
    template CrossEntropy<S> crossEntropy<S>(const MatrixIn<S> &, const std::vector<int> &, const std::vector<float> &);

ATTN_BACKWARD_INSTANTIATE(float)
ATTN_BACKWARD_INSTANTIATE(double)

} // namespace attn
