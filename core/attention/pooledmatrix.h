#pragma once
// A matrix too large for its picture, pooled block by block: what the heads
// grid draws of every head. Made by the forward pass while each head's
// scores are in the cache, so that a head nobody shows in full needs no
// n x m matrix kept (4096 tokens, 64 heads: 64 KiB a head instead of 64 MiB).

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

namespace attn {

// At most this many rows and columns of pooled cells per head (the heads
// grid's tiles are never drawn larger).
constexpr int kThumbnailSide = 256;

// Cell x of `count` rows or columns drawn in `pixels` (at most `count`)
// covers [poolStart(x), poolStart(x + 1)): the heatmap's blocks exactly.
inline Eigen::Index poolStart(Eigen::Index x, Eigen::Index count, Eigen::Index pixels)
{
    return Eigen::Index(std::int64_t(x) * count / pixels);
}

// The value a pooled cell shows: the one of largest magnitude, so a lone
// peak stays visible; between two of equal magnitude the larger (a score
// of +3 over -3), so the pick does not depend on the order they are met.
inline bool strongerThan(double candidate, double best)
{
    const double a = std::abs(candidate), b = std::abs(best);
    return a > b || (a == b && candidate > best);
}

// The value a pixel over rows [r0, r1) x columns [c0, c1) of `m` shows: the
// strongest of them, skipping NaN (masked) entries and, with `causal`, the
// entries above the diagonal; NaN when every one is skipped.
template<typename Matrix>
float strongestInBlock(const Matrix &m, Eigen::Index r0, Eigen::Index r1, Eigen::Index c0, Eigen::Index c1,
                       bool causal = false)
{
    float best = std::numeric_limits<float>::quiet_NaN();
    for (Eigen::Index r = r0; r < r1; ++r) {
        const Eigen::Index end = causal ? std::min(c1, r + 1) : c1;
        for (Eigen::Index c = c0; c < end; ++c) {
            const float v = float(m(r, c));
            if (!std::isnan(v) && (std::isnan(best) || strongerThan(v, best)))
                best = v;
        }
    }
    return best;
}

struct PooledMatrix
{
    // rows x cols cells (each min(kThumbnailSide, the matrix's size)) over a
    // matrixRows x matrixCols matrix; a cell with no unmasked entry is NaN.
    Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> cells;
    Eigen::Index matrixRows = 0, matrixCols = 0;
    // The largest magnitude among the unmasked entries (what a fitted colour scale spans).
    double largestMagnitude = 0.0;

    Eigen::Index rows() const { return cells.rows(); }
    Eigen::Index cols() const { return cells.cols(); }
    bool isMasked(Eigen::Index row, Eigen::Index col) const { return std::isnan(cells(row, col)); }

    void findLargestMagnitude()
    {
        // NaN (masked) cells count as 0: x == x is false only for NaN.
        const auto a = cells.array();
        largestMagnitude = cells.size() > 0 ? double((a == a).select(a.abs(), 0.0f).maxCoeff()) : 0.0;
    }
};

} // namespace attn
