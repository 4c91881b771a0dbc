#include "model/denseops.h"

#include <algorithm>
#include <vector>

namespace attn {
namespace {

using Index = Eigen::Index;
using Band = Eigen::Map<const RowMatrix<float>>;

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

} // namespace

Index bandRows(Index cols)
{
    return std::max<Index>(1, kBandFloats / std::max<Index>(1, cols));
}

RowMatrix<float> dense(const MatrixIn<float> &x, const DenseParameters &p)
{
    const WeightMatrix &w = p.weight;
    RowMatrix<float> y(x.rows(), p.outputs());
    if (!w.isStored()) {
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
            w.toFloat(r0, count, buffer);
            const Band band(buffer, count, cols);
            if (p.transposed) // output features r0 ... r0 + count
                y.middleCols(r0, count).noalias() = x * band.transpose();
            else // input features r0 ... r0 + count
                y.noalias() += x.middleCols(r0, count) * band;
        }
    }
    if (p.bias.size() > 0) // biases are always floats (model/modelloader.cpp)
        y.rowwise() += p.bias;
    return y;
}

RowVector<float> weightRow(const WeightMatrix &w, Index row)
{
    RowVector<float> out(w.colCount());
    w.toFloat(row, 1, out.data());
    return out;
}

RowVector<float> unembed(const RowVector<float> &h, const WeightMatrix &w)
{
    RowVector<float> logits(w.rowCount());
    if (!w.isStored()) {
        logits.noalias() = h * w.transpose();
        return logits;
    }
    const Index rows = w.rowCount(), cols = w.colCount(), step = bandRows(cols);
    float *buffer = bandBuffer(std::min(rows, step) * cols);
    for (Index r0 = 0; r0 < rows; r0 += step) {
        const Index count = std::min(step, rows - r0);
        w.toFloat(r0, count, buffer);
        logits.segment(r0, count).noalias() = h * Band(buffer, count, cols).transpose();
    }
    return logits;
}

} // namespace attn
