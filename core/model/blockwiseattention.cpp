#include "model/blockwiseattention.h"

#include "model/attentionkernels.h"
#include "model/thumbnailpooling.h"
#include "runtime/twothreads.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#endif

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

// A matrix of tens of megabytes (a head's scores at 4096 tokens) is mapped
// fresh from the system for each result, and its first touch faults each of
// its pages in: 4 KiB at a time that was a third of a 4096-token pass. Where
// the system lends 2 MiB pages on request (transparent huge pages, "madvise"),
// ask for them; elsewhere nothing changes.
void preferLargePages(float *data, Index count)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    constexpr std::uintptr_t kLarge = std::uintptr_t(2) << 20;
    const std::uintptr_t begin = reinterpret_cast<std::uintptr_t>(data);
    const std::uintptr_t end = begin + std::uintptr_t(count) * sizeof(float);
    const std::uintptr_t first = (begin + kLarge - 1) & ~(kLarge - 1), last = end & ~(kLarge - 1);
    if (last > first && last - first >= 8 * kLarge)
        madvise(reinterpret_cast<void *>(first), last - first, MADV_HUGEPAGE); // advice: failure changes nothing
#else
    (void)data;
    (void)count;
#endif
}

// One query head's Q, and one key/value head's K and V, in the layouts the
// kernels read (with grouped-query attention several query heads read one
// key/value head, packed once). Allocated (not filled) before the threads
// start, which then fill every element.
struct PackedQueries
{
    std::unique_ptr<float[]> queries; // n x dk, row by row
};
struct PackedKeysValues
{
    std::unique_ptr<float[]> keys;   // panels of panelWidth keys (attentionkernels.h), zero past the last
    std::unique_ptr<float[]> values; // m x ldv, zero past dv; for narrowContext dv x m (V transposed)
};

// Element (i, c) of columns [first, first + count) of `m`, for every i and c,
// along its storage. Stored by columns (a session's Q, K and V), 64 rows at a
// time: the rows written (by rows) then stay in the first-level cache.
template<typename In, typename Visit>
void forEachOf(const In &m, Index first, Index count, Visit visit)
{
    if constexpr (In::IsRowMajor) {
        for (Index i = 0; i < m.rows(); ++i)
            for (Index c = 0; c < count; ++c)
                visit(i, c, m(i, first + c));
    } else {
        for (Index i0 = 0; i0 < m.rows(); i0 += 64)
            for (Index c = 0; c < count; ++c)
                for (Index i = i0; i < std::min(i0 + 64, m.rows()); ++i)
                    visit(i, c, m(i, first + c));
    }
}

// Where pack() puts V: its rows ldv apart (zero past dv), or, for
// narrowContext, its columns m apart.
struct ValueLayout
{
    Index ldv;
    bool transposed;
};

template<typename In>
void packQueries(const In &queries, Index h, Index dk, PackedQueries &out)
{
    float *q = out.queries.get();
    forEachOf(queries, h * dk, dk, [&](Index i, Index c, float x) { q[i * dk + c] = x; });
}

template<typename In>
void packKeysValues(const In &keys, const In &values, Index g, Index dk, Index dv, const ValueLayout &layout,
                    Index panel, PackedKeysValues &out)
{
    const Index m = keys.rows(), panels = roundUp(m, panel) / panel;
    float *k = out.keys.get(), *v = out.values.get();
    const Index inLastPanel = m - (panels - 1) * panel;
    for (Index c = 0; c < dk; ++c) // the last panel past the last key
        std::fill(k + ((panels - 1) * dk + c) * panel + inLastPanel, k + ((panels - 1) * dk + c + 1) * panel, 0.0f);
    int shift = 0; // panel is a power of two: key j is in panel j >> shift
    while ((Index(1) << shift) < panel)
        ++shift;
    forEachOf(keys, g * dk, dk, [&](Index j, Index c, float x) {
        const Index t = j >> shift;
        k[(t * dk + c) * panel + (j - (t << shift))] = x;
    });
    if (layout.transposed) {
        forEachOf(values, g * dv, dv, [&](Index j, Index c, float x) { v[c * m + j] = x; });
        return;
    }
    const Index ldv = layout.ldv;
    for (Index j = 0; j < m; ++j)
        std::fill(v + j * ldv + dv, v + (j + 1) * ldv, 0.0f);
    forEachOf(values, g * dv, dv, [&](Index j, Index c, float x) { v[j * ldv + c] = x; });
}

// A thread's own working memory, allocated before the threads start.
struct Scratch
{
    std::vector<float> scores;  // block rows x padded keys: a head's scores, then its weights
    std::vector<float> context; // block rows x ldv
    // One line of thumbnails at a time: per key, the largest score, the
    // largest negated score, the largest weight (and summed weight) of the
    // line's rows so far.
    std::vector<float> highScore, lowScore, highWeight, highSum;
    std::vector<float> weightSum; // block rows x m: the block's summed weights, when the sum is not kept
};


struct Job
{
    const AttentionKernels *kernels;
    std::vector<PackedQueries> packedQueries;     // per query head
    std::vector<PackedKeysValues> packedKeysValues; // per key/value head
    Index n, m, dk, dv, paddedKeys;
    ValueLayout values;
    // Block b holds query rows [blockStart[b], blockStart[b + 1]): whole
    // lines of the thumbnails, so that no line is shared by two threads.
    std::vector<Index> blockStart;
    Pooling pooling; // no lines: no thumbnails
    bool poolScores;  // with pooling: the scores' thumbnails too
    int heads, group; // group: query heads per key/value head
    bool causal, statistics, keepScores, sumWeights, keepWeightSum;
    int window;    // AttentionSettings::window
    float softcap; // AttentionSettings::softcap
    std::vector<bool> inFull; // per head: its weights are kept
    float scale;
    const std::vector<bool> *switchedOff;
    const CancelFlag *cancel;
    std::atomic<bool> cancelled{false};
    AttentionOutput<float> *out;
};

// The keys query row i may see (attentionop.h): [0, visibleKeys), at least one.
Index visibleKeys(const Job &job, Index i)
{
    return job.causal ? std::clamp<Index>(i + 1 + job.m - job.n, 1, job.m) : job.m;
}

// The first key query row i may see: 0 but in a sliding window.
Index firstVisibleKey(const Job &job, Index i)
{
    return job.window > 0 ? std::max<Index>(0, visibleKeys(job, i) - job.window) : 0;
}

// Rows of the scratch (stride lds, `seen` entries used) into the output (stride m), zero after them.
void keepRows(const float *from, Index lds, Index rows, Index seen, float *to, Index m)
{
    for (Index r = 0; r < rows; ++r) {
        std::copy_n(from + r * lds, seen, to + r * m);
        std::fill(to + r * m + seen, to + (r + 1) * m, 0.0f);
    }
}

// Query rows of block b for every head in turn, so that the sum of their
// weights stays in the cache instead of passing through memory once per head.
// The weights of a head kept in full, and the sum, are written where the
// output keeps them: a copy from the scratch rows was 4-9 % of a profile.
// False when the computation was cancelled.
bool computeBlock(Job &job, Index b, Scratch &scratch)
{
    const Index r0 = job.blockStart[std::size_t(b)], rows = job.blockStart[std::size_t(b) + 1] - r0;
    const Index m = job.m, lds = job.paddedKeys, dk = job.dk;
    // The keys the block's last row may see; later ones get weight 0 in every
    // row, and so do those before the window of its first row.
    const Index seen = job.causal ? visibleKeys(job, r0 + rows - 1) : m;
    const Index firstSeen = firstVisibleKey(job, r0);
    AttentionOutput<float> &out = *job.out;
    const Pooling &pooling = job.pooling;
    const bool pooled = pooling.lines > 0;
    const AttentionKernels &k = *job.kernels;
    float *s = scratch.scores.data(), *z = scratch.context.data();
    // The block's summed weights, rows m apart: where the output keeps them, or in the scratch.
    float *sum = !job.sumWeights ? nullptr
        : job.keepWeightSum      ? out.weightSum.data() + r0 * m
                                 : scratch.weightSum.data();
    // Row i is the first (or last) of its thumbnail line.
    const auto opensLine = [&](Index i) { return pooling.lineStart[std::size_t(pooling.lineOf[std::size_t(i)])] == i; };
    // The keys the last row of row i's line sees: the most of any of its rows.
    const auto lineVisible = [&](Index i) {
        return visibleKeys(job, pooling.lineStart[std::size_t(pooling.lineOf[std::size_t(i)]) + 1] - 1);
    };
    const auto closesLine = [&](Index i) {
        return pooling.lineStart[std::size_t(pooling.lineOf[std::size_t(i)]) + 1] == i + 1;
    };
    for (int head = 0; head < job.heads; ++head) {
        if (job.cancelled || (job.cancel && job.cancel->load(std::memory_order_relaxed))) {
            job.cancelled = true;
            return false;
        }
        const std::size_t h = std::size_t(head);
        const float *packedQueries = job.packedQueries[h].queries.get();
        const PackedKeysValues &packed = job.packedKeysValues[std::size_t(head / job.group)];
        // Masked scores too when they are kept: they are shown.
        const bool keepScores = job.keepScores;
        const Index scored = keepScores ? m : seen;
        k.scores(packedQueries + r0 * dk, long(dk), long(rows), packed.keys.get(), long(dk), long(scored), s,
                 long(lds));
        if (keepScores)
            keepRows(s, lds, rows, m, out.scores[h].data() + r0 * m, m);
        // Soft-capped scores are scaled and capped here, then taken as they are.
        const float scale = job.softcap > 0 ? 1.0f : job.scale;
        if (job.softcap > 0)
            for (Index r = 0; r < rows; ++r) {
                auto row = Eigen::Map<Eigen::ArrayXf>(s + r * lds, seen);
                row = (row * (job.scale / job.softcap)).tanh() * job.softcap;
            }
        // Where the weights go: the output's rows for a head kept in full
        // (zero up to m), else over the scores (zero up to the keys the block sees).
        const bool inFull = job.inFull[h];
        float *w = inFull ? out.weights[h].data() + r0 * m : s;
        const Index ldw = inFull ? m : lds, zeroTo = inFull ? m : seen;
        for (Index r = 0; r < rows; ++r) {
            const Index i = r0 + r, visible = visibleKeys(job, i), first = firstVisibleKey(job, i);
            const float *row = s + r * lds + first;
            float *weights = w + r * ldw + first;
            // Pooled and summed while the row is in registers.
            kernels::RowExtras extras;
            if (pooled) {
                // The first row of a line stores its values; keys only later
                // rows see (under the mask) start as nothing seen.
                extras.firstRow = opensLine(i);
                if (extras.firstRow && job.poolScores)
                    startLine(visible, lineVisible(i), {&scratch.highScore, &scratch.lowScore, &scratch.highWeight});
                else if (extras.firstRow)
                    startLine(visible, lineVisible(i), {&scratch.highWeight});
                if (job.poolScores) {
                    extras.high = scratch.highScore.data();
                    extras.low = scratch.lowScore.data();
                }
                extras.weightHigh = scratch.highWeight.data();
            }
            float *total = job.sumWeights ? sum + r * m : nullptr;
            if (job.sumWeights) {
                extras.sum = total + first;
                extras.firstTerm = head == 0;
            }
            // Thumbnails are not made with a window (attentionop.cpp refuses), so
            // the pooling pointers always start at key 0 with `first` 0.
            k.softmaxWithExtras(row, weights, long(visible - first), scale,
                                job.statistics ? &out.rowStatistics[h].max[i] : nullptr,
                                job.statistics ? &out.rowStatistics[h].inverseSum[i] : nullptr, extras);
            std::fill(weights - first, weights, 0.0f);
            std::fill(w + r * ldw + visible, w + r * ldw + zeroTo, 0.0f);
            if (job.sumWeights && head == 0) {
                std::fill(total, total + first, 0.0f);
                std::fill(total + visible, total + m, 0.0f);
            }
            if (pooled && closesLine(i)) {
                const Index y = pooling.lineOf[std::size_t(i)];
                if (job.poolScores)
                    finishLine(k, pooling, y, visible, scratch.highScore.data(), scratch.lowScore.data(),
                               out.pooledScores[h]);
                finishLine(k, pooling, y, visible, scratch.highWeight.data(), nullptr, out.pooledWeights[h]);
            }
        }
        auto context = out.context.block(r0, Index(head) * job.dv, rows, job.dv);
        if (!job.switchedOff->empty() && (*job.switchedOff)[h]) {
            context.setZero();
            continue;
        }
        // Keys [firstSeen, seen): every row's weights are 0 outside them.
        const Index ldz = job.values.ldv, keys = seen - firstSeen;
        if (job.values.transposed)
            k.narrowContext(w + firstSeen, long(ldw), long(rows), long(keys), packed.values.get() + firstSeen, long(m),
                            long(job.dv), z, long(ldz));
        else
            k.context(w + firstSeen, long(ldw), long(rows), long(keys), packed.values.get() + firstSeen * ldz,
                      long(ldz), z, long(ldz));
        for (Index r = 0; r < rows; ++r)
            context.row(r) = Eigen::Map<const Eigen::RowVectorXf>(z + r * ldz, job.dv);
    }
    if (job.sumWeights) {
        if (pooled) {
            for (Index r = 0; r < rows; ++r) {
                const Index i = r0 + r, visible = visibleKeys(job, i);
                if (opensLine(i))
                    startLine(0, lineVisible(i), {&scratch.highSum});
                k.largest(sum + r * m, long(visible), 1.0f, scratch.highSum.data());
                if (closesLine(i))
                    finishLine(k, pooling, pooling.lineOf[std::size_t(i)], visible, scratch.highSum.data(), nullptr,
                               out.pooledWeightSum);
            }
        }
    }
    return true;
}

// Items handed out one at a time to whichever of the two threads (0 and 1)
// is free; item(i, thread) returns false to stop that thread.
template<typename Item>
void shareOut(Index items, bool twoThreads, Item item)
{
    std::atomic<Index> next{0};
    auto work = [&](int thread) {
        for (Index i = next++; i < items; i = next++)
            if (!item(i, thread))
                return;
    };
    if (twoThreads && items > 1)
        runBoth([&] { work(0); }, [&] { work(1); });
    else
        work(0);
}

} // namespace

template<typename In>
AttentionOutput<float> blockwiseAttention(const In &queries, const In &keys, const In &values,
                                          const AttentionSettings &settings)
{
    stopIfCancelled(settings.cancel);
    const AttentionKernels &kernels = kernels::activeAttentionKernels();
    const int heads = settings.heads, kvHeads = settings.kvHeads > 0 ? settings.kvHeads : heads;
    const Index n = queries.rows(), m = keys.rows();
    const Index dk = queries.cols() / heads, dv = values.cols() / kvHeads;

    Job job;
    job.kernels = &kernels;
    job.n = n;
    job.m = m;
    job.dk = dk;
    job.dv = dv;
    job.values.ldv = std::max<Index>(roundUp(dv, kernels.vectorWidth), kernels.vectorWidth);
    job.values.transposed = dv > 0 && dv <= kernels.narrowValues;
    job.paddedKeys = roundUp(m, kernels.panelWidth);
    job.pooling = poolingFor(n, m, settings.poolSide);
    job.poolScores = settings.poolScores;
    job.blockStart = blockStarts(n, blockRows(kernels), job.pooling);
    job.heads = heads;
    job.group = heads / kvHeads;
    job.causal = settings.causal;
    job.window = settings.window;
    job.softcap = float(settings.softcap);
    job.statistics = settings.weightsKept == WeightsKept::RowStatistics;
    job.keepScores = settings.keepScores;
    job.inFull = settings.inFull;
    job.inFull.resize(std::size_t(heads), settings.inFull.empty() || !job.statistics);
    job.sumWeights = settings.sumWeights;
    job.keepWeightSum = settings.keepWeightSum;
    job.scale = float(settings.scale);
    job.switchedOff = &settings.switchedOff;
    job.cancel = settings.cancel;

    AttentionOutput<float> out;
    job.out = &out;
    if (job.keepScores) {
        out.scores.resize(std::size_t(heads));
        for (RowMatrix<float> &s : out.scores) {
            s.resize(n, m);
            preferLargePages(s.data(), s.size());
        }
    }
    const bool pooled = job.pooling.lines > 0;
    if (pooled) {
        out.pooledWeights.assign(std::size_t(heads), emptyPooled(job.pooling, n, m));
        if (job.poolScores)
            out.pooledScores.assign(std::size_t(heads), emptyPooled(job.pooling, n, m));
        if (settings.sumWeights)
            out.pooledWeightSum = emptyPooled(job.pooling, n, m);
    }
    if (job.statistics) {
        out.rowStatistics.resize(std::size_t(heads));
        for (RowStatistics<float> &rows : out.rowStatistics) {
            rows.max.resize(n);
            rows.inverseSum.resize(n);
        }
    }
    out.weights.resize(std::size_t(heads));
    for (std::size_t h = 0; h < out.weights.size(); ++h) {
        if (!job.inFull[h])
            continue;
        out.weights[h].resize(n, m);
        preferLargePages(out.weights[h].data(), out.weights[h].size());
    }
    if (settings.sumWeights && settings.keepWeightSum) {
        out.weightSum.resize(n, m);
        preferLargePages(out.weightSum.data(), out.weightSum.size());
    }
    out.context.resize(n, heads * dv);

    // Two threads pay off from about a hundred thousand scores per head.
    const bool twoThreads = n * m >= (Index(1) << 16);
    Scratch scratch[2];
    Index scratchRows = 0; // one row when a single new token is computed
    for (std::size_t b = 0; b + 1 < job.blockStart.size(); ++b)
        scratchRows = std::max(scratchRows, job.blockStart[b + 1] - job.blockStart[b]);
    for (Scratch &s : scratch) {
        s.scores.assign(std::size_t(scratchRows * job.paddedKeys), 0.0f);
        s.context.assign(std::size_t(scratchRows * job.values.ldv), 0.0f);
        if (pooled) {
            for (std::vector<float> *line : {&s.highScore, &s.lowScore, &s.highWeight, &s.highSum})
                line->assign(std::size_t(m), 0.0f);
        }
        if (settings.sumWeights && !settings.keepWeightSum)
            s.weightSum.assign(std::size_t(scratchRows * m), 0.0f);
        if (!twoThreads)
            break;
    }
    job.packedQueries.resize(std::size_t(heads));
    for (PackedQueries &p : job.packedQueries)
        p.queries.reset(new float[std::size_t(n * dk)]);
    job.packedKeysValues.resize(std::size_t(kvHeads));
    for (PackedKeysValues &p : job.packedKeysValues) {
        p.keys.reset(new float[std::size_t(job.paddedKeys * dk)]);
        p.values.reset(new float[std::size_t(m * (job.values.transposed ? dv : job.values.ldv))]);
    }
    shareOut(heads + kvHeads, twoThreads, [&](Index item, int) {
        if (item < heads)
            packQueries(queries, item, dk, job.packedQueries[std::size_t(item)]);
        else
            packKeysValues(keys, values, item - heads, dk, dv, job.values, kernels.panelWidth,
                           job.packedKeysValues[std::size_t(item - heads)]);
        return true;
    });
    // Blocks from the bottom up: under the mask the lower ones see more keys,
    // and handing out the largest first leaves the threads less to wait for at the end.
    const Index blocks = Index(job.blockStart.size()) - 1;
    shareOut(blocks, twoThreads,
             [&](Index b, int thread) { return computeBlock(job, blocks - 1 - b, scratch[thread]); });
    if (job.cancelled)
        throw Cancelled();
    if (pooled) {
        for (PooledMatrix &p : out.pooledWeights)
            p.findLargestMagnitude();
        for (PooledMatrix &p : out.pooledScores)
            p.findLargestMagnitude();
        if (settings.sumWeights)
            out.pooledWeightSum.findLargestMagnitude();
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
