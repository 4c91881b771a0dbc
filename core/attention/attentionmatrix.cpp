#include "attention/attentionmatrix.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace attn {

AttentionMatrix::AttentionMatrix(RowMatrixD values)
    : m_rows(values.rows()), m_cols(values.cols()), m_double(std::move(values))
{
}

AttentionMatrix::AttentionMatrix(std::shared_ptr<const RowMatrixF> values)
    : m_rows(values ? values->rows() : 0), m_cols(values ? values->cols() : 0), m_single(std::move(values))
{
}

AttentionMatrix AttentionMatrix::softmaxOf(std::shared_ptr<const RowMatrixF> scores, float scale, bool causal,
                                           Eigen::VectorXf rowMax, Eigen::VectorXf rowInverseSum)
{
    AttentionMatrix m = storedWeights(std::move(scores), causal, std::move(rowMax), std::move(rowInverseSum));
    m.m_softmax = true; // what is stored is the scores: weights are derived from them
    m.m_scale = scale;
    return m;
}

AttentionMatrix AttentionMatrix::storedWeights(std::shared_ptr<const RowMatrixF> weights, bool causal,
                                               Eigen::VectorXf rowMax, Eigen::VectorXf rowInverseSum)
{
    if (!weights || rowMax.size() != weights->rows() || rowInverseSum.size() != weights->rows())
        throw std::logic_error("AttentionMatrix: one maximum and one sum per row");
    AttentionMatrix m(std::move(weights));
    m.m_statistics = true;
    m.m_causal = causal;
    m.m_rowMax = std::move(rowMax);
    m.m_rowInverseSum = std::move(rowInverseSum);
    return m;
}

AttentionMatrix AttentionMatrix::scoresOnDemand(std::shared_ptr<const Factors> factors, Eigen::Index first,
                                                Eigen::Index keyFirst, Eigen::Index width)
{
    if (!factors || first < 0 || keyFirst < 0 || width < 1 || first + width > factors->width
        || keyFirst + width > factors->keyWidth || factors->width > factors->projected.cols()
        || factors->keyStart + factors->keyWidth > factors->keyMatrix().cols())
        throw std::logic_error("AttentionMatrix::scoresOnDemand: columns outside the projections");
    AttentionMatrix m;
    m.m_rows = factors->projected.rows();
    m.m_cols = factors->keyMatrix().rows();
    m.m_factors = std::move(factors);
    m.m_firstFactor = first;
    m.m_firstKeyFactor = keyFirst;
    m.m_factorWidth = width;
    return m;
}

AttentionMatrix AttentionMatrix::weightsOnDemand(std::shared_ptr<const Factors> factors, Eigen::Index first,
                                                 Eigen::Index keyFirst, Eigen::Index width, float scale, bool causal,
                                                 Eigen::VectorXf rowMax, Eigen::VectorXf rowInverseSum)
{
    AttentionMatrix m = scoresOnDemand(std::move(factors), first, keyFirst, width);
    if (rowMax.size() != m.m_rows || rowInverseSum.size() != m.m_rows)
        throw std::logic_error("AttentionMatrix::weightsOnDemand: one maximum and one sum per row");
    m.m_statistics = true;
    m.m_softmax = true;
    m.m_causal = causal;
    m.m_scale = scale;
    m.m_rowMax = std::move(rowMax);
    m.m_rowInverseSum = std::move(rowInverseSum);
    return m;
}

AttentionMatrix AttentionMatrix::meanOnDemand(std::vector<AttentionMatrix> parts)
{
    if (parts.empty())
        throw std::logic_error("AttentionMatrix::meanOnDemand: the mean of nothing");
    for (const AttentionMatrix &part : parts)
        if (part.rows() != parts.front().rows() || part.cols() != parts.front().cols() || !part.isSinglePrecision())
            throw std::logic_error("AttentionMatrix::meanOnDemand: parts of different shapes or in double");
    AttentionMatrix m;
    m.m_rows = parts.front().rows();
    m.m_cols = parts.front().cols();
    m.m_parts = std::make_shared<const std::vector<AttentionMatrix>>(std::move(parts));
    return m;
}

AttentionMatrix AttentionMatrix::firstColumnAside(AttentionMatrix base, Eigen::VectorXf rowScale)
{
    if (!base.isSinglePrecision() || rowScale.size() != base.rows())
        throw std::logic_error("AttentionMatrix::firstColumnAside: a single-precision matrix and one factor per row");
    AttentionMatrix m;
    m.m_rows = base.rows();
    m.m_cols = base.cols();
    m.m_aside = std::make_shared<const AttentionMatrix>(std::move(base));
    m.m_asideRowScale = std::move(rowScale);
    return m;
}

void AttentionMatrix::scoresInto(Eigen::Index r, Eigen::Ref<Eigen::RowVectorXf> out) const
{
    if (m_single) {
        out = m_single->row(r);
        return;
    }
    // k_j . q_r for every key: one column of K per element of q_r, each a
    // contiguous run (K is stored by columns).
    const auto keys = m_factors->keys().middleCols(m_firstKeyFactor, m_factorWidth);
    out.setZero();
    for (Eigen::Index c = 0; c < m_factorWidth; ++c)
        out += m_factors->projected(r, m_firstFactor + c) * keys.col(c).transpose();
}

double AttentionMatrix::operator()(Eigen::Index row, Eigen::Index column) const
{
    if (!isSinglePrecision())
        return m_double(row, column);
    if (m_aside)
        return column == 0 ? 0.0 : double(float((*m_aside)(row, column)) * m_asideRowScale[row]);
    if (m_parts) {
        float sum = 0.0f; // in float, as rowInto sums
        for (const AttentionMatrix &part : *m_parts)
            sum += float(part(row, column));
        return sum / float(m_parts->size());
    }
    if (m_softmax && m_causal && column > row)
        return 0.0;
    const float score = m_single ? (*m_single)(row, column)
                                 : m_factors->queries().row(row).segment(m_firstFactor, m_factorWidth).dot(
                                       m_factors->keys().row(column).segment(m_firstKeyFactor, m_factorWidth));
    if (!m_softmax)
        return score;
    return std::exp(score * m_scale - m_rowMax[row]) * m_rowInverseSum[row];
}

void AttentionMatrix::rowInto(Eigen::Index r, Eigen::Ref<Eigen::RowVectorXf> out) const
{
    if (!isSinglePrecision()) {
        out = m_double.row(r).cast<float>();
        return;
    }
    if (m_aside) {
        m_aside->rowInto(r, out);
        out *= m_asideRowScale[r];
        if (m_cols > 0)
            out[0] = 0.0f;
        return;
    }
    if (m_parts) {
        Eigen::RowVectorXf part(m_cols);
        out.setZero();
        for (const AttentionMatrix &p : *m_parts) {
            p.rowInto(r, part);
            out += part;
        }
        out /= float(m_parts->size());
        return;
    }
    scoresInto(r, out);
    if (!m_softmax)
        return;
    const Eigen::Index visible = m_causal ? std::min(r + 1, m_cols) : m_cols;
    out.head(visible) = ((out.head(visible) * m_scale).array() - m_rowMax[r]).exp() * m_rowInverseSum[r];
    out.tail(m_cols - visible).setZero();
}

void AttentionMatrix::rowsInto(Eigen::Index first, Eigen::Index count, RowMatrixF &out) const
{
    out.resize(count, m_cols);
    if (m_aside) {
        m_aside->rowsInto(first, count, out);
        out.array().colwise() *= m_asideRowScale.segment(first, count).array();
        if (m_cols > 0)
            out.col(0).setZero();
        return;
    }
    if (m_parts) {
        RowMatrixF part;
        out.setZero();
        for (const AttentionMatrix &p : *m_parts) {
            p.rowsInto(first, count, part);
            out += part;
        }
        out /= float(m_parts->size());
        return;
    }
    if (!m_factors) {
        for (Eigen::Index i = 0; i < count; ++i)
            rowInto(first + i, out.row(i));
        return;
    }
    out.noalias() = m_factors->queries().block(first, m_firstFactor, count, m_factorWidth)
        * m_factors->keys().middleCols(m_firstKeyFactor, m_factorWidth).transpose();
    if (!m_softmax)
        return;
    for (Eigen::Index i = 0; i < count; ++i) {
        const Eigen::Index r = first + i, visible = m_causal ? std::min(r + 1, m_cols) : m_cols;
        auto row = out.row(i);
        row.head(visible) = ((row.head(visible) * m_scale).array() - m_rowMax[r]).exp() * m_rowInverseSum[r];
        row.tail(m_cols - visible).setZero();
    }
}

Eigen::RowVectorXd AttentionMatrix::row(Eigen::Index r) const
{
    if (!isSinglePrecision())
        return m_double.row(r);
    Eigen::RowVectorXf values(m_cols);
    rowInto(r, values);
    return values.cast<double>();
}

Eigen::MatrixXd AttentionMatrix::toDouble() const
{
    if (!isSinglePrecision())
        return m_double;
    Eigen::MatrixXd out(m_rows, m_cols);
    for (Eigen::Index r = 0; r < m_rows; ++r)
        out.row(r) = row(r);
    return out;
}

double AttentionMatrix::largestInRow(Eigen::Index r, Eigen::Index count, bool magnitude) const
{
    if (count <= 0)
        return 0.0;
    const Eigen::Index visible = m_causal ? std::min(r + 1, m_cols) : m_cols;
    if (m_statistics && count >= visible)
        return m_rowInverseSum[r]; // weights are never negative: value and magnitude agree
    const Eigen::RowVectorXd values = row(r).head(count);
    return magnitude ? values.cwiseAbs().maxCoeff() : values.maxCoeff();
}

bool AttentionMatrix::allFinite() const
{
    if (!isSinglePrecision())
        return allFiniteFast(m_double);
    if (m_aside) // finite numbers times finite factors
        return m_asideRowScale.allFinite() && m_aside->allFinite();
    if (m_parts) // a mean of finite numbers is finite
        return std::all_of(m_parts->begin(), m_parts->end(), [](const AttentionMatrix &p) { return p.allFinite(); });
    if (m_statistics) // +inf or NaN among the scores makes the row's maximum or sum so; -inf is a weight of 0
        return m_rowMax.allFinite() && m_rowInverseSum.allFinite();
    if (m_factors) // a NaN or infinite score needs a NaN or infinite factor, or a product past float's range
        return m_pooled ? std::isfinite(m_pooled->largestMagnitude)
                        : allFiniteFast(m_factors->queries()) && allFiniteFast(m_factors->keys());
    return allFiniteFast(*m_single);
}

AttentionMatrix averageOf(const std::vector<const AttentionMatrix *> &matrices)
{
    if (matrices.empty())
        return {};
    const Eigen::Index rows = matrices.front()->rows(), cols = matrices.front()->cols();
    bool single = false;
    for (const AttentionMatrix *m : matrices) {
        if (m->rows() != rows || m->cols() != cols)
            throw std::logic_error("averageOf: matrices of different shapes");
        single = single || m->isSinglePrecision();
    }
    const double count = double(matrices.size());
    if (!single) {
        RowMatrixD sum = RowMatrixD::Zero(rows, cols);
        for (const AttentionMatrix *m : matrices)
            for (Eigen::Index r = 0; r < rows; ++r)
                sum.row(r) += m->row(r);
        return AttentionMatrix(RowMatrixD(sum / count));
    }
    // A block of rows at a time: a head computed on demand gives them by one
    // matrix product (rowsInto), not one per row.
    constexpr Eigen::Index kBlock = 64;
    auto sum = std::make_shared<RowMatrixF>(RowMatrixF::Zero(rows, cols));
    RowMatrixF block;
    for (const AttentionMatrix *m : matrices)
        for (Eigen::Index r = 0; r < rows; r += kBlock) {
            const Eigen::Index taken = std::min(kBlock, rows - r);
            m->rowsInto(r, taken, block);
            sum->middleRows(r, taken) += block;
        }
    *sum /= float(count);
    return AttentionMatrix(std::shared_ptr<const RowMatrixF>(std::move(sum)));
}

} // namespace attn
