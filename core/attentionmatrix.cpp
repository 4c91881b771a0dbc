#include "attentionmatrix.h"

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
    if (!scores || rowMax.size() != scores->rows() || rowInverseSum.size() != scores->rows())
        throw std::logic_error("AttentionMatrix::softmaxOf: one maximum and one sum per row");
    AttentionMatrix m(std::move(scores));
    m.m_softmax = true;
    m.m_causal = causal;
    m.m_scale = scale;
    m.m_rowMax = std::move(rowMax);
    m.m_rowInverseSum = std::move(rowInverseSum);
    return m;
}

double AttentionMatrix::operator()(Eigen::Index row, Eigen::Index column) const
{
    if (!m_single)
        return m_double(row, column);
    const float score = (*m_single)(row, column);
    if (!m_softmax)
        return score;
    if (m_causal && column > row)
        return 0.0;
    return std::exp(score * m_scale - m_rowMax[row]) * m_rowInverseSum[row];
}

void AttentionMatrix::rowInto(Eigen::Index r, Eigen::Ref<Eigen::RowVectorXf> out) const
{
    if (!m_single) {
        out = m_double.row(r).cast<float>();
        return;
    }
    if (!m_softmax) {
        out = m_single->row(r);
        return;
    }
    const Eigen::Index visible = m_causal ? std::min(r + 1, m_cols) : m_cols;
    out.head(visible) = ((m_single->row(r).head(visible) * m_scale).array() - m_rowMax[r]).exp() * m_rowInverseSum[r];
    out.tail(m_cols - visible).setZero();
}

Eigen::RowVectorXd AttentionMatrix::row(Eigen::Index r) const
{
    if (!m_single)
        return m_double.row(r);
    Eigen::RowVectorXf values(m_cols);
    rowInto(r, values);
    return values.cast<double>();
}

Eigen::MatrixXd AttentionMatrix::toDouble() const
{
    if (!m_single)
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
    if (m_softmax && count >= visible)
        return m_rowInverseSum[r]; // weights are never negative: value and magnitude agree
    const Eigen::RowVectorXd values = row(r).head(count);
    return magnitude ? values.cwiseAbs().maxCoeff() : values.maxCoeff();
}

bool AttentionMatrix::allFinite() const
{
    if (!m_single)
        return allFiniteFast(m_double);
    if (m_softmax) // +inf or NaN among the scores makes the row's maximum or sum so; -inf is a weight of 0
        return m_rowMax.allFinite() && m_rowInverseSum.allFinite();
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
    auto sum = std::make_shared<RowMatrixF>(RowMatrixF::Zero(rows, cols));
    Eigen::RowVectorXf line(cols);
    for (const AttentionMatrix *m : matrices)
        for (Eigen::Index r = 0; r < rows; ++r) {
            m->rowInto(r, line);
            sum->row(r) += line;
        }
    *sum /= float(count);
    return AttentionMatrix(std::shared_ptr<const RowMatrixF>(std::move(sum)));
}

} // namespace attn
