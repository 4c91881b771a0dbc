#include "model/thumbnailpooling.h"

#include <algorithm>
#include <limits>

namespace attn::detail {

using Index = Eigen::Index;
using kernels::AttentionKernels;

Pooling poolingFor(Index n, Index m, Index side)
{
    Pooling p;
    if (side <= 0)
        return p;
    p.lines = std::min(n, side);
    p.columns = std::min(m, side);
    for (Index y = 0; y <= p.lines; ++y)
        p.lineStart.push_back(poolStart(y, n, p.lines));
    for (Index x = 0; x <= p.columns; ++x)
        p.columnStart.push_back(poolStart(x, m, p.columns));
    p.narrowest = m / p.columns;
    p.lineOf.resize(std::size_t(n));
    for (Index y = 0; y < p.lines; ++y)
        std::fill(p.lineOf.begin() + p.lineStart[std::size_t(y)], p.lineOf.begin() + p.lineStart[std::size_t(y) + 1],
                  y);
    return p;
}

std::vector<Index> blockStarts(Index n, Index rows, const Pooling &pooling)
{
    std::vector<Index> starts;
    if (pooling.lines == 0 || pooling.lines == n) {
        for (Index r = 0; r < n; r += rows)
            starts.push_back(r);
    } else {
        const Index lines = std::max<Index>(1, (rows * pooling.lines + n / 2) / n);
        for (Index y = 0; y < pooling.lines; y += lines)
            starts.push_back(pooling.lineStart[std::size_t(y)]);
    }
    starts.push_back(n);
    return starts;
}

PooledMatrix emptyPooled(const Pooling &p, Index n, Index m)
{
    PooledMatrix pooled;
    pooled.cells.resize(p.lines, p.columns);
    pooled.matrixRows = n;
    pooled.matrixCols = m;
    return pooled;
}

void startLine(Index first, Index end, std::initializer_list<std::vector<float> *> accumulators)
{
    for (std::vector<float> *a : accumulators)
        std::fill(a->data() + first, a->data() + end, -std::numeric_limits<float>::infinity());
}

void finishLine(const AttentionKernels &kernels, const Pooling &pooling, Index y, Index visible, float *high,
                float *low, PooledMatrix &into)
{
    // Every cell spans `narrow` keys or one more: after slidingLargest the
    // largest of a cell is at most two reads, not a loop. The one cell the
    // mask cuts short is read first, before the windows overwrite it.
    const Index narrow = pooling.narrowest;
    const auto largestOf = [](const float *values, Index c0, Index c1) {
        float largest = values[c0];
        for (Index c = c0 + 1; c < c1; ++c)
            largest = std::max(largest, values[c]);
        return largest;
    };
    Index cutX = -1;
    float cutHigh = 0.0f, cutLow = 0.0f;
    for (Index x = 0; x < pooling.columns; ++x) {
        const Index c0 = pooling.columnStart[std::size_t(x)], c1 = pooling.columnStart[std::size_t(x) + 1];
        if (c0 < visible && visible < c1) {
            cutX = x;
            cutHigh = largestOf(high, c0, visible);
            cutLow = low ? largestOf(low, c0, visible) : 0.0f;
            break;
        }
    }
    if (visible >= narrow) {
        kernels.slidingLargest(high, long(visible), long(narrow));
        if (low)
            kernels.slidingLargest(low, long(visible), long(narrow));
    }
    float *cells = into.cells.data() + y * pooling.columns;
    for (Index x = 0; x < pooling.columns; ++x) {
        const Index c0 = pooling.columnStart[std::size_t(x)], c1 = pooling.columnStart[std::size_t(x) + 1];
        if (c0 >= visible) {
            cells[x] = std::numeric_limits<float>::quiet_NaN();
            continue;
        }
        const float largest = x == cutX ? cutHigh : std::max(high[c0], high[c1 - narrow]);
        if (low) {
            const float smallest = -(x == cutX ? cutLow : std::max(low[c0], low[c1 - narrow]));
            cells[x] = -smallest > largest ? smallest : largest; // the larger on a tie
        } else {
            cells[x] = largest;
        }
    }
}

} // namespace attn::detail
