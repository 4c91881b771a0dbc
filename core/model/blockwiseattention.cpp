#include "model/blockwiseattention.h"

#include "model/attentionkernels.h"
#include "twothreads.h"

#include <algorithm>
#include <atomic>
#include <vector>

namespace attn::detail {

namespace {

using Index = Eigen::Index;
using kernels::AttentionKernels;

Index roundUp(Index x, Index multiple)
{
    return (x + multiple - 1) / multiple * multiple;
}

// Query rows per block: a multiple of the kernels' row group, and few enough
// that a block's scores (rows x keys) stay in the second-level cache.
Index blockRows(const AttentionKernels &k)
{
    return 10 * k.rowGroup;
}

// One head's Q, K and V in the layouts the kernels read.
struct PackedHead
{
    std::vector<float> queries; // n x dk, row by row
    std::vector<float> keys;    // panels of panelWidth keys (attentionkernels.h)
    std::vector<float> values;  // m x ldv, zero past dv
};

// Element (i, c) of columns [first, first + count) of `m`, for every i and c,
// in the order its storage holds them (a session's Q, K and V are stored by columns).
template<typename In, typename Visit>
void forEachOf(const In &m, Index first, Index count, Visit visit)
{
    if constexpr (In::IsRowMajor) {
        for (Index i = 0; i < m.rows(); ++i)
            for (Index c = 0; c < count; ++c)
                visit(i, c, m(i, first + c));
    } else {
        for (Index c = 0; c < count; ++c)
            for (Index i = 0; i < m.rows(); ++i)
                visit(i, c, m(i, first + c));
    }
}

template<typename In>
void pack(const In &queries, const In &keys, const In &values, Index h, Index dk, Index dv, Index ldv, Index panel,
          PackedHead &out)
{
    const Index n = queries.rows(), m = keys.rows(), panels = roundUp(m, panel) / panel;
    out.queries.resize(std::size_t(n * dk));
    forEachOf(queries, h * dk, dk, [&](Index i, Index k, float x) { out.queries[std::size_t(i * dk + k)] = x; });
    out.keys.assign(std::size_t(panels * dk * panel), 0.0f);
    forEachOf(keys, h * dk, dk, [&](Index j, Index k, float x) {
        out.keys[std::size_t(((j / panel) * dk + k) * panel + j % panel)] = x;
    });
    out.values.assign(std::size_t(m * ldv), 0.0f);
    forEachOf(values, h * dv, dv, [&](Index j, Index c, float x) { out.values[std::size_t(j * ldv + c)] = x; });
}

// A thread's own working memory, allocated before the threads start.
struct Scratch
{
    std::vector<float> scores;  // block rows x padded keys: the scores or the weights that are not kept
    std::vector<float> context; // block rows x ldv
};

struct HeadJob
{
    const AttentionKernels *kernels;
    const PackedHead *packed;
    Index n, m, dk, dv, ldv, paddedKeys, block;
    int head;
    bool causal, statistics, keepScores, sumWeights, switchedOff;
    float scale;
    AttentionOutput<float> *out;
};

// The keys query row i may see (attentionop.h): at least one.
Index visibleKeys(const HeadJob &job, Index i)
{
    return job.causal ? std::clamp<Index>(i + 1 + job.m - job.n, 1, job.m) : job.m;
}

void computeBlock(const HeadJob &job, Index r0, Scratch &scratch)
{
    const Index rows = std::min(job.block, job.n - r0), m = job.m;
    // The keys the block's last row may see; later ones get weight 0 in every row.
    const Index seen = job.causal ? visibleKeys(job, r0 + rows - 1) : m;
    const std::size_t h = std::size_t(job.head);
    AttentionOutput<float> &out = *job.out;
    // Scores straight into the output when they are kept (masked ones too:
    // they are shown), weights too; what is not kept goes to the scratch.
    float *s = job.keepScores ? out.scores[h].data() + r0 * m : scratch.scores.data();
    const Index lds = job.keepScores ? m : job.paddedKeys;
    float *w = job.statistics ? scratch.scores.data() : out.weights[h].data() + r0 * m;
    const Index ldw = job.statistics ? job.paddedKeys : m;
    job.kernels->scores(job.packed->queries.data() + r0 * job.dk, long(job.dk), long(rows),
                        job.packed->keys.data(), long(job.dk), long(job.keepScores ? m : seen), s, long(lds));
    for (Index r = 0; r < rows; ++r) {
        const Index i = r0 + r, visible = visibleKeys(job, i);
        float *row = w + r * ldw;
        if (job.statistics)
            job.kernels->softmax(s + r * lds, row, long(visible), job.scale, &out.rowStatistics[h].max[i],
                                 &out.rowStatistics[h].inverseSum[i]);
        else
            job.kernels->softmax(s + r * lds, row, long(visible), job.scale, nullptr, nullptr);
        std::fill(row + visible, row + (job.statistics ? seen : m), 0.0f);
        if (job.sumWeights) {
            auto sum = out.weightSum.row(i);
            const Eigen::Map<const Eigen::RowVectorXf> weights(row, visible);
            if (job.head == 0) {
                sum.head(visible) = weights;
                sum.tail(m - visible).setZero();
            } else {
                sum.head(visible) += weights;
            }
        }
    }

    auto z = out.context.block(r0, Index(job.head) * job.dv, rows, job.dv);
    if (job.switchedOff) {
        z.setZero();
        return;
    }
    float *c = scratch.context.data();
    job.kernels->context(w, long(ldw), long(rows), long(seen), job.packed->values.data(), long(job.ldv), c,
                         long(job.ldv));
    for (Index r = 0; r < rows; ++r)
        z.row(r) = Eigen::Map<const Eigen::RowVectorXf>(c + r * job.ldv, job.dv);
}

// Blocks from the bottom up: under the mask the lower ones see more keys, and
// handing out the largest first leaves the two threads less to wait for at the end.
void computeHead(const HeadJob &job, Scratch *scratch, bool twoThreads)
{
    const Index blocks = roundUp(job.n, job.block) / job.block;
    std::atomic<Index> next{0};
    auto work = [&](Scratch &mine) {
        for (Index b = next++; b < blocks; b = next++)
            computeBlock(job, (blocks - 1 - b) * job.block, mine);
    };
    if (twoThreads && blocks > 1)
        runBoth([&] { work(scratch[0]); }, [&] { work(scratch[1]); });
    else
        work(scratch[0]);
}

} // namespace

template<typename In>
AttentionOutput<float> blockwiseAttention(const In &queries, const In &keys, const In &values,
                                          const AttentionSettings &settings)
{
    const AttentionKernels &kernels = kernels::activeAttentionKernels();
    const int heads = settings.heads;
    const Index n = queries.rows(), m = keys.rows();
    const Index dk = queries.cols() / heads, dv = values.cols() / heads;

    HeadJob job{};
    job.kernels = &kernels;
    job.n = n;
    job.m = m;
    job.dk = dk;
    job.dv = dv;
    job.ldv = std::max<Index>(roundUp(dv, kernels.vectorWidth), kernels.vectorWidth);
    job.paddedKeys = roundUp(m, kernels.panelWidth);
    job.block = blockRows(kernels);
    job.causal = settings.causal;
    job.statistics = settings.weightsKept == WeightsKept::RowStatistics;
    job.keepScores = settings.keepScores || job.statistics;
    job.sumWeights = settings.sumWeights;
    job.scale = float(settings.scale);

    AttentionOutput<float> out;
    job.out = &out;
    if (job.keepScores)
        out.scores.resize(std::size_t(heads));
    if (job.statistics)
        out.rowStatistics.resize(std::size_t(heads));
    else
        out.weights.resize(std::size_t(heads));
    if (settings.sumWeights)
        out.weightSum.resize(n, m);
    out.context.resize(n, values.cols());

    // Two threads pay off from about a hundred thousand scores per head.
    const bool twoThreads = n * m >= (Index(1) << 16);
    Scratch scratch[2];
    for (Scratch &s : scratch) {
        s.scores.assign(std::size_t(job.block * job.paddedKeys), 0.0f);
        s.context.assign(std::size_t(job.block * job.ldv), 0.0f);
        if (!twoThreads)
            break;
    }
    PackedHead packed;
    job.packed = &packed;
    for (int h = 0; h < heads; ++h) {
        stopIfCancelled(settings.cancel);
        job.head = h;
        job.switchedOff = !settings.switchedOff.empty() && settings.switchedOff[std::size_t(h)];
        pack(queries, keys, values, h, dk, dv, job.ldv, kernels.panelWidth, packed);
        if (job.keepScores)
            out.scores[std::size_t(h)].resize(n, m);
        if (job.statistics) {
            out.rowStatistics[std::size_t(h)].max.resize(n);
            out.rowStatistics[std::size_t(h)].inverseSum.resize(n);
        } else {
            out.weights[std::size_t(h)].resize(n, m);
        }
        computeHead(job, scratch, twoThreads);
    }
    return out;
}

template AttentionOutput<float> blockwiseAttention<MatrixIn<float>>(const MatrixIn<float> &, const MatrixIn<float> &,
                                                                    const MatrixIn<float> &,
                                                                    const AttentionSettings &);
template AttentionOutput<float> blockwiseAttention<ColumnMatrixIn<float>>(const ColumnMatrixIn<float> &,
                                                                          const ColumnMatrixIn<float> &,
                                                                          const ColumnMatrixIn<float> &,
                                                                          const AttentionSettings &);

} // namespace attn::detail
