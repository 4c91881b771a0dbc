#include "model/firsttokenaside.h"

#include <algorithm>

namespace attn {
namespace {

template<typename T>
double scaleOf(const T *weights, Eigen::Index count)
{
    double others = 0;
    for (Eigen::Index j = 1; j < count; ++j)
        others += double(weights[j]);
    return others > 0 ? 1.0 / others : 0.0;
}

} // namespace

double firstTokenAsideScale(const float *weights, Eigen::Index count) { return scaleOf(weights, count); }
double firstTokenAsideScale(const double *weights, Eigen::Index count) { return scaleOf(weights, count); }

RowMatrix<float> firstTokenAside(const MatrixIn<float> &weights)
{
    RowMatrix<float> out(weights.rows(), weights.cols());
    for (Eigen::Index r = 0; r < weights.rows(); ++r) {
        const double scale = firstTokenAsideScale(weights.row(r).data(), weights.cols());
        out.row(r) = (weights.row(r).cast<double>() * scale).cast<float>();
        if (out.cols() > 0)
            out(r, 0) = 0.0f;
    }
    return out;
}

AttentionMatrix firstTokenAside(const AttentionMatrix &weights)
{
    const Eigen::Index rows = weights.rows(), cols = weights.cols();
    if (!weights.isSinglePrecision()) {
        RowMatrixD out(rows, cols);
        for (Eigen::Index r = 0; r < rows; ++r) {
            const Eigen::RowVectorXd row = weights.row(r);
            out.row(r) = row * firstTokenAsideScale(row.data(), cols);
            if (cols > 0)
                out(r, 0) = 0.0;
        }
        return AttentionMatrix(std::move(out));
    }
    // Each row's factor needs the row's sum: one pass now, a block of rows at
    // a time (one matrix product for a head computed on demand).
    constexpr Eigen::Index kBlock = 64;
    Eigen::VectorXf scale(rows);
    RowMatrixF block;
    for (Eigen::Index r = 0; r < rows; r += kBlock) {
        const Eigen::Index taken = std::min(kBlock, rows - r);
        weights.rowsInto(r, taken, block);
        for (Eigen::Index i = 0; i < taken; ++i)
            scale[r + i] = float(firstTokenAsideScale(block.row(i).data(), cols));
    }
    return AttentionMatrix::firstColumnAside(weights, std::move(scale));
}

AttentionResult firstTokenAside(const AttentionResult &result)
{
    AttentionResult out = result;
    for (HeadResult &head : out.heads)
        head.weights = firstTokenAside(head.weights);
    out.meanWeights = {};
    if (out.heads.size() > 1) {
        const bool single = std::all_of(out.heads.begin(), out.heads.end(),
                                        [](const HeadResult &h) { return h.weights.isSinglePrecision(); });
        if (single) {
            std::vector<AttentionMatrix> parts;
            for (const HeadResult &head : out.heads)
                parts.push_back(head.weights);
            out.meanWeights = AttentionMatrix::meanOnDemand(std::move(parts));
        } else {
            std::vector<const AttentionMatrix *> parts;
            for (const HeadResult &head : out.heads)
                parts.push_back(&head.weights);
            out.meanWeights = averageOf(parts);
        }
    }
    return out;
}

} // namespace attn
