#pragma once
// How blockwise attention pools each head into thumbnails (attn::PooledMatrix)
// while its rows are in the cache: which query rows and keys each cell
// covers, blocks of whole lines (no line shared by the two threads), and
// turning a line's accumulated largest values into cells. Part of
// model/blockwiseattention.cpp; not to be called from elsewhere.

#include "model/attentionkernels.h"
#include "attention/pooledmatrix.h"

#include <initializer_list>
#include <vector>

namespace attn::detail {

// Pooled row y covers query rows [lineStart[y], lineStart[y + 1]), pooled
// column x keys [columnStart[x], columnStart[x + 1]) (attn::poolStart).
struct Pooling
{
    Eigen::Index lines = 0, columns = 0;
    Eigen::Index narrowest = 1; // keys of the narrowest cell: every cell has this many or one more
    std::vector<Eigen::Index> lineStart, columnStart;
    std::vector<Eigen::Index> lineOf; // per query row
};

// The thumbnails' lines and columns for n queries and m keys (none unless `side` is positive).
Pooling poolingFor(Eigen::Index n, Eigen::Index m, Eigen::Index side);

// Blocks of about `rows` query rows, each made of whole thumbnail lines: block
// b is rows [starts[b], starts[b + 1]).
std::vector<Eigen::Index> blockStarts(Eigen::Index n, Eigen::Index rows, const Pooling &pooling);

// An n x m matrix's thumbnail, its cells not yet filled.
PooledMatrix emptyPooled(const Pooling &p, Eigen::Index n, Eigen::Index m);

// Starts a thumbnail line: nothing seen yet among keys [first, end).
void startLine(Eigen::Index first, Eigen::Index end, std::initializer_list<std::vector<float> *> accumulators);

// Pooled line y from the line's accumulated largest values over keys
// [0, visible) (the last row's visible keys, the most of any row of the
// line): each cell the strongest value of its keys (attn::strongerThan); a
// cell whose keys are all masked is NaN. `low` (the largest negated values)
// only for scores, which may be negative. Both are used up.
void finishLine(const kernels::AttentionKernels &kernels, const Pooling &pooling, Eigen::Index y,
                Eigen::Index visible, float *high, float *low, PooledMatrix &into);

} // namespace attn::detail
