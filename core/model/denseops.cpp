#include "model/denseops.h"

#include "runtime/blasruntime.h"
#include "model/attentionkernels.h"
#include "runtime/twothreads.h"

#include <QByteArray>
#include <QtGlobal>
#include <algorithm>
#include <atomic>
#include <optional>
#include <vector>

namespace attn {
namespace {

using Index = Eigen::Index;
using Band = Eigen::Map<const RowMatrix<float>>;

// Rows of x from which the program's own product is used (when it is, see
// ownProductsWanted): packing a panel of the weight costs about what a few
// rows' products over it do, so fewer rows go to OpenBLAS, which is also
// the better at products of one row (the extension of a trace).
constexpr Index kOwnProductRows = 128;
// The weight's depth (its input features) is taken in pieces this deep, so
// a packed panel (512 x 64 floats, 128 KiB with AVX-512) stays in the
// second-level cache while every row passes over it.
constexpr Index kPieceDepth = 512;

std::optional<bool> &ownProductsChosen()
{
    static std::optional<bool> chosen;
    return chosen;
}

// ATTN_DENSE_PRODUCTS=own or openblas, read once.
std::optional<bool> productsAsked()
{
    static const std::optional<bool> asked = []() -> std::optional<bool> {
        const QByteArray value = qgetenv("ATTN_DENSE_PRODUCTS");
        if (value == "own")
            return true;
        if (value == "openblas")
            return false;
        return std::nullopt;
    }();
    return asked;
}

// OpenBLAS picks its kernels for the processor, but may pick narrower ones
// than the processor runs: the environment may name them
// (OPENBLAS_CORETYPE=Haswell on an AVX-512 machine), or OpenBLAS may not know
// the processor. There the program's own AVX-512 product runs the dense
// layers at about twice OpenBLAS's AVX2 speed (docs: Performance). Where
// OpenBLAS runs its own AVX-512 kernels, they are kept. The environment
// variable ATTN_DENSE_PRODUCTS (own or openblas) decides instead, for
// comparisons.
bool ownProductsWanted()
{
    if (const std::optional<bool> chosen = ownProductsChosen())
        return *chosen;
    static const bool wanted = [] {
        if (const std::optional<bool> asked = productsAsked())
            return *asked;
        const std::string core = blasCoreName();
        const bool blasWide = core == "SkylakeX" || core == "Cooperlake" || core == "SapphireRapids";
        return std::string(kernels::activeAttentionKernels().name) == "avx512" && !blasWide;
    }();
    return wanted;
}

// Up to this many rows (typing a word: the new positions only), x times a
// weight whose rows are its output features is a set of dot products over
// the weight's rows as they lie (kernels' rowDots): each weight travels from
// memory once, in its stored size, and nothing is packed. OpenBLAS packs
// the whole weight for a product of two rows (half of a typed word's time
// with F32 weights), and the band way writes a stored weight out as floats
// first, five times the traffic.
constexpr Index kDotRows = 8;
// Floats of weight rows dotted (or converted, then dotted) at a time by
// each thread: 64 KiB, so a second group of x's rows finds them in the cache.
constexpr Index kDotChunkFloats = Index(1) << 14;

// Few rows go through the program's own kernels whatever the processor,
// unless OpenBLAS was chosen (useOwnDenseProducts(false), or
// ATTN_DENSE_PRODUCTS=openblas).
bool fewRowsByOwnKernels()
{
    const std::optional<bool> chosen = ownProductsChosen() ? ownProductsChosen() : productsAsked();
    return chosen.value_or(true);
}

// Whether x's `rows` times w go through rowDots.
bool fewRowsDotted(Index rows, const WeightMatrix &w, bool transposed)
{
    if (!transposed || rows == 0 || rows > kDotRows || w.colCount() == 0)
        return false;
    return fewRowsByOwnKernels();
}

// A weight stored in another type (F16, BF16, quantised) times fewer rows
// than kOwnProductRows (and more than kDotRows) goes through the program's
// own packed product, which converts a panel of the weight's rows into the
// cache and multiplies it at once.
bool fewRowsFromStorage(Index rows, const WeightMatrix &w, bool transposed)
{
    if (!w.isStored() || !transposed || rows == 0 || rows >= kOwnProductRows || w.colCount() == 0)
        return false;
    return fewRowsByOwnKernels();
}

// About 16 MB of floats a band: large enough that BLAS runs at full speed,
// small enough that an 8B model's 14336 x 4096 MLP never exists as floats.
constexpr Index kBandFloats = Index(1) << 22;

// The calling thread's band buffer (passes run on workers, two at most).
float *bandBuffer(Index floats)
{
    thread_local std::vector<float> buffer;
    if (Index(buffer.size()) < floats)
        buffer.resize(std::size_t(floats));
    return buffer.data();
}

// Items 0 ... count-1 handed to whichever of the two threads is free.
template<typename Work>
void shareItems(Index count, Work work)
{
    std::atomic<Index> next{0};
    const auto run = [&] {
        for (Index i = next++; i < count; i = next++)
            work(i);
    };
    if (count > 1)
        runBoth(run, run);
    else
        run();
}

// Items 0 ... count-1 in two streams: one thread takes them from the first
// on, the other from the last back, until they meet. Each thread then reads
// the weights' rows in long runs (contiguous chunks, in place), which
// memory serves faster than chunks taken in turn; a thread slowed by
// another program still leaves the rest to the other.
template<typename Work>
void shareFromBothEnds(Index count, Work work)
{
    std::atomic<Index> taken{0};
    const auto from = [&](Index first, Index step) {
        for (Index item = first; taken++ < count; item += step)
            work(item);
    };
    if (count > 1)
        runBoth([&] { from(0, 1); }, [&] { from(count - 1, -1); });
    else
        from(0, 1);
}

// Where W's rows lie for rowDots: in place (floats, BF16, F16), or null (converted first).
RowsInPlace rowsOf(const WeightMatrix &w)
{
    return w.isStored() ? w.storedRows()->inPlace()
                        : RowsInPlace{w.data(), w.outerStride(), kernels::RowElement::Float};
}

// Output features [first, first + count) of y = x * Wᵀ: W's rows dotted
// where they lie, or converted into the cache first (quantised blocks).
void dotChunk(const MatrixIn<float> &x, const WeightMatrix &w, const RowsInPlace &place, Index first, Index count,
              RowMatrix<float> &y)
{
    const kernels::AttentionKernels &k = kernels::activeAttentionKernels();
    const Index inputs = w.colCount();
    float *out = y.data() + first;
    if (place.data) {
        k.rowDots(x.data(), long(x.outerStride()), long(x.rows()), place.at(first, 0), place.element,
                  long(place.stride), long(inputs), long(count), out, long(y.outerStride()));
        return;
    }
    thread_local std::vector<float> rows;
    rows.resize(std::size_t(count * inputs));
    w.toFloat(first, count, rows.data());
    k.rowDots(x.data(), long(x.outerStride()), long(x.rows()), rows.data(), kernels::RowElement::Float, long(inputs),
              long(inputs), long(count), out, long(y.outerStride()));
}

// The rows of W taken at a time by one thread.
Index dotChunkRows(const WeightMatrix &w)
{
    return std::max<Index>(4, kDotChunkFloats / std::max<Index>(1, w.colCount()));
}

// y = x * Wᵀ for a few rows, W's rows (output features) a chunk at a time on both threads.
void fewRowDots(const MatrixIn<float> &x, const WeightMatrix &w, RowMatrix<float> &y)
{
    const RowsInPlace place = rowsOf(w);
    const Index outputs = w.rowCount(), chunk = dotChunkRows(w);
    shareFromBothEnds((outputs + chunk - 1) / chunk, [&](Index c) {
        dotChunk(x, w, place, c * chunk, std::min(chunk, outputs - c * chunk), y);
    });
}

// Rows [first, first + count) of a stored weight as floats, converted on
// both threads when there are many: converting is most of the work of a
// pass over a few rows (typing a word) with BF16 or quantised weights.
void convertRows(const WeightMatrix &w, Index first, Index count, float *out)
{
    if (count < 2 || count * w.colCount() < (Index(1) << 16)) {
        w.toFloat(first, count, out);
        return;
    }
    const Index half = count / 2;
    runBoth([&] { w.toFloat(first, half, out); },
            [&] { w.toFloat(first + half, count - half, out + half * w.colCount()); });
}

// A panel of `depth` x `width` floats, element (k, c) at [k * width + c],
// zero past `count` columns, from a transposed weight's rows (its output
// features: `count` rows of `source`, ld apart) ...
void packTransposed(const float *source, Index ld, Index count, Index depth, Index width, float *panel)
{
    for (Index k = 0; k < depth; ++k) {
        float *to = panel + k * width;
        for (Index c = 0; c < count; ++c)
            to[c] = source[c * ld + k];
        std::fill(to + count, to + width, 0.0f);
    }
}

// ... or from a weight stored [in, out]: `depth` rows of `source`, ld apart, `count` columns of each.
void packRows(const float *source, Index ld, Index count, Index depth, Index width, float *panel)
{
    for (Index k = 0; k < depth; ++k) {
        std::copy_n(source + k * ld, count, panel + k * width);
        std::fill(panel + k * width + count, panel + (k + 1) * width, 0.0f);
    }
}

// y = x * W (or x * Wᵀ) by the program's own kernel, on both threads: a
// panel of the weight's columns (output features) at a time, in pieces of
// its depth added one after the other. Each output is then one fixed
// sequence of multiply-adds, whichever thread and however many rows.
void ownProduct(const MatrixIn<float> &x, const WeightMatrix &w, bool transposed, RowMatrix<float> &y)
{
    const kernels::AttentionKernels &k = kernels::activeAttentionKernels();
    const Index rows = x.rows(), inputs = transposed ? w.colCount() : w.rowCount(),
                outputs = transposed ? w.rowCount() : w.colCount(), width = k.panelWidth;
    const Index panels = (outputs + width - 1) / width;
    const auto multiply = [&](Index k0, Index depth, const float *panel, Index t, Index count) {
        k.denseProduct(x.data() + k0, long(x.outerStride()), long(rows), panel, long(depth), long(count),
                       y.data() + t * width, long(y.outerStride()), k0 > 0);
    };
    if (transposed) {
        // Rows of W are output features: a panel is `width` of its rows,
        // converted first when stored in another type.
        shareItems(panels, [&](Index t) {
            thread_local std::vector<float> rowsAsFloat, panel;
            const Index count = std::min(width, outputs - t * width);
            const float *source = w.isStored() ? nullptr : w.data() + t * width * w.outerStride();
            Index ld = w.isStored() ? inputs : w.outerStride();
            if (w.isStored()) {
                rowsAsFloat.resize(std::size_t(width * inputs));
                w.toFloat(t * width, count, rowsAsFloat.data());
                source = rowsAsFloat.data();
            }
            panel.resize(std::size_t(kPieceDepth * width));
            for (Index k0 = 0; k0 < inputs; k0 += kPieceDepth) {
                const Index depth = std::min(kPieceDepth, inputs - k0);
                packTransposed(source + k0, ld, count, depth, width, panel.data());
                multiply(k0, depth, panel.data(), t, count);
            }
        });
        return;
    }
    // Rows of W are input features: a piece of them at a time, converted
    // first (on both threads) when stored in another type.
    std::vector<float> band;
    for (Index k0 = 0; k0 < inputs; k0 += kPieceDepth) {
        const Index depth = std::min(kPieceDepth, inputs - k0);
        const float *source = w.isStored() ? nullptr : w.data() + k0 * w.outerStride();
        Index ld = w.outerStride();
        if (w.isStored()) {
            band.resize(std::size_t(depth * outputs));
            convertRows(w, k0, depth, band.data());
            source = band.data();
            ld = outputs;
        }
        shareItems(panels, [&](Index t) {
            thread_local std::vector<float> panel;
            const Index count = std::min(width, outputs - t * width);
            panel.resize(std::size_t(kPieceDepth * width));
            packRows(source + t * width, ld, count, depth, width, panel.data());
            multiply(k0, depth, panel.data(), t, count);
        });
    }
}

} // namespace

void useOwnDenseProducts(std::optional<bool> own)
{
    ownProductsChosen() = own;
}

Index bandRows(Index cols)
{
    return std::max<Index>(1, kBandFloats / std::max<Index>(1, cols));
}

RowMatrix<float> dense(const MatrixIn<float> &x, const DenseParameters &p)
{
    RowMatrix<float> y = product(x, p);
    if (p.bias.size() > 0) // biases are always floats (model/modelloader.cpp)
        y.rowwise() += p.bias;
    return y;
}

RowMatrix<float> product(const MatrixIn<float> &x, const DenseParameters &p)
{
    const WeightMatrix &w = p.weight;
    RowMatrix<float> y(x.rows(), p.outputs());
    const bool fromStorage = fewRowsFromStorage(x.rows(), w, p.transposed);
    if (fewRowsDotted(x.rows(), w, p.transposed)) {
        fewRowDots(x, w, y);
    } else if (fromStorage || (x.rows() >= kOwnProductRows && p.inputs() > 0 && ownProductsWanted())) {
        ownProduct(x, w, p.transposed, y);
    } else if (!w.isStored()) {
        if (p.transposed)
            y.noalias() = x * w.transpose();
        else
            y.noalias() = x * w;
    } else {
        const Index rows = w.rowCount(), cols = w.colCount(), step = bandRows(cols);
        float *buffer = bandBuffer(std::min(rows, step) * cols);
        if (!p.transposed)
            y.setZero();
        for (Index r0 = 0; r0 < rows; r0 += step) {
            const Index count = std::min(step, rows - r0);
            convertRows(w, r0, count, buffer);
            const Band band(buffer, count, cols);
            if (p.transposed) // output features r0 ... r0 + count
                y.middleCols(r0, count).noalias() = x * band.transpose();
            else // input features r0 ... r0 + count
                y.noalias() += x.middleCols(r0, count) * band;
        }
    }
    return y;
}

std::vector<RowMatrix<float>> denseEach(const MatrixIn<float> &x, const std::vector<const DenseParameters *> &layers)
{
    std::vector<RowMatrix<float>> out;
    bool together = true;
    for (const DenseParameters *p : layers)
        together = together && fewRowsDotted(x.rows(), p->weight, p->transposed);
    if (!together) {
        for (const DenseParameters *p : layers)
            out.push_back(dense(x, *p));
        return out;
    }
    // Every layer's chunks in one list, shared by the two threads at once.
    struct Chunk
    {
        std::size_t layer;
        Index first, count;
    };
    std::vector<Chunk> chunks;
    std::vector<RowsInPlace> places;
    for (std::size_t i = 0; i < layers.size(); ++i) {
        const WeightMatrix &w = layers[i]->weight;
        out.emplace_back(x.rows(), w.rowCount());
        places.push_back(rowsOf(w));
        const Index outputs = w.rowCount(), chunk = dotChunkRows(w);
        for (Index first = 0; first < outputs; first += chunk)
            chunks.push_back({i, first, std::min(chunk, outputs - first)});
    }
    shareFromBothEnds(Index(chunks.size()), [&](Index c) {
        const Chunk &k = chunks[std::size_t(c)];
        dotChunk(x, layers[k.layer]->weight, places[k.layer], k.first, k.count, out[k.layer]);
    });
    for (std::size_t i = 0; i < layers.size(); ++i)
        if (layers[i]->bias.size() > 0)
            out[i].rowwise() += layers[i]->bias;
    return out;
}

RowVector<float> weightRow(const WeightMatrix &w, Index row)
{
    RowVector<float> out(w.colCount());
    w.toFloat(row, 1, out.data());
    return out;
}

RowVector<float> unembed(const RowVector<float> &h, const WeightMatrix &w)
{
    if (fewRowsDotted(1, w, true)) {
        RowMatrix<float> y(1, w.rowCount());
        fewRowDots(h, w, y);
        return y.row(0);
    }
    RowVector<float> logits(w.rowCount());
    if (!w.isStored()) {
        logits.noalias() = h * w.transpose();
        return logits;
    }
    const Index rows = w.rowCount(), cols = w.colCount(), step = bandRows(cols);
    float *buffer = bandBuffer(std::min(rows, step) * cols);
    for (Index r0 = 0; r0 < rows; r0 += step) {
        const Index count = std::min(step, rows - r0);
        convertRows(w, r0, count, buffer);
        logits.segment(r0, count).noalias() = h * Band(buffer, count, cols).transpose();
    }
    return logits;
}

} // namespace attn
