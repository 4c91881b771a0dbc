#pragma once
// Inputs several tests build alike: random matrices from a fixed seed, and a
// session large enough for the window to compute it in single precision.

#include "runtime/prng.h"
#include "session/session.h"

#include <Eigen/Dense>
#include <cmath>
#include <limits>

inline Eigen::MatrixXd randomMatrix(std::uint64_t seed, int rows, int cols, double limit = 2.0)
{
    attn::SplitMix64 rng(seed);
    Eigen::MatrixXd m(rows, cols);
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c)
            m(r, c) = rng.nextSymmetric(limit);
    return m;
}

inline double maxAbsDiff(const Eigen::MatrixXd &a, const Eigen::MatrixXd &b)
{
    if (a.rows() != b.rows() || a.cols() != b.cols())
        return std::numeric_limits<double>::infinity();
    return a.size() == 0 ? 0.0 : (a - b).cwiseAbs().maxCoeff();
}

// 256 tokens, d_model 128, 4 heads of 32: over attn::kFullPrecisionFlops.
inline attn::Session largeSession()
{
    attn::Session s = attn::exampleSession();
    s.tokens.clear();
    for (int i = 0; i < 256; ++i)
        s.tokens << QStringLiteral("w%1").arg(i);
    s.sentence = s.tokens.join(QLatin1Char(' '));
    s.embeddings = Eigen::MatrixXd::NullaryExpr(256, 128, [](Eigen::Index r, Eigen::Index c) {
        return std::sin(0.37 * double(r) + 1.3 * double(c));
    });
    s.attention.heads = 4;
    s.attention.headDim = 32;
    s.weights = {};
    return s;
}
