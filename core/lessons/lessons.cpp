#include "lessons/lessons.h"

#include "runtime/prng.h"

#include <algorithm>
#include <numeric>

namespace attn {

Session withoutSource(const Session &session)
{
    Session s = session;
    s.source.reset();
    return s;
}

Session withCausal(const Session &session, bool causal)
{
    Session s = session;
    s.attention.causal = causal;
    return s;
}

Session withScaling(const Session &session, bool scale, int minHeadDim)
{
    Session s = session;
    AttentionConfig &c = s.attention;
    const int current = c.mode == Mode::ScaledDotProduct ? c.headDim : 0;
    c.mode = Mode::ScaledDotProduct;
    c.heads = 1;
    c.headDim = std::clamp(std::max(current, minHeadDim), 1, kMaxHeadDim);
    c.scale = scale;
    c.outputProjection = false;
    s.weights = {}; // fixed matrices would not fit the new width
    return s;
}

Session withPositionalEncoding(const Session &session, PositionalEncoding encoding)
{
    Session s = session;
    s.attention.positionalEncoding = encoding;
    return s;
}

std::vector<int> shuffleOrder(int tokens, std::uint64_t seed)
{
    std::vector<int> order(std::size_t(std::max(tokens, 0)));
    std::iota(order.begin(), order.end(), 0);
    if (tokens < 2)
        return order;
    SplitMix64 rng(seed);
    // Fisher-Yates with our own generator: the same shuffle on every platform.
    do {
        for (int i = tokens - 1; i > 0; --i)
            std::swap(order[std::size_t(i)], order[std::size_t(rng.next() % std::uint64_t(i + 1))]);
    } while (std::is_sorted(order.begin(), order.end()));
    return order;
}

Session shuffled(const Session &session, const std::vector<int> &order)
{
    Session s = session;
    const int n = int(order.size());
    if (n != session.tokenCount())
        return s;
    for (int p = 0; p < n; ++p) {
        s.tokens[p] = session.tokens[order[std::size_t(p)]];
        s.embeddings.row(p) = session.embeddings.row(order[std::size_t(p)]);
        if (order[std::size_t(p)] == session.query)
            s.query = p;
    }
    s.sentence = s.tokens.join(QLatin1Char(' '));
    return s;
}

Eigen::MatrixXd unshuffle(const Eigen::MatrixXd &shuffledMatrix, const std::vector<int> &order)
{
    // Rows are queries of the shuffled sentence; columns are its keys when the
    // matrix is square (self-attention), else the source, which was not shuffled.
    const bool square = shuffledMatrix.cols() == Eigen::Index(order.size());
    Eigen::MatrixXd out(shuffledMatrix.rows(), shuffledMatrix.cols());
    for (Eigen::Index a = 0; a < shuffledMatrix.rows(); ++a)
        for (Eigen::Index b = 0; b < shuffledMatrix.cols(); ++b)
            out(order[std::size_t(a)], square ? order[std::size_t(b)] : b) = shuffledMatrix(a, b);
    return out;
}

Eigen::MatrixXd contributions(const HeadResult &head, int query)
{
    const Eigen::VectorXd weights = head.weights.row(query).transpose();
    return weights.asDiagonal() * head.values;
}

} // namespace attn
