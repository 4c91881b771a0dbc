#pragma once
// One head's scores or weights: an n x m matrix whose storage depends on size.
//
// Teaching-size results keep every number in double, row by row. Large ones
// (see Precision in attention/attention.h) keep the scores in float and no weights at
// all: a weight is exp(score * scale - rowMax) / rowSum, computed from its
// score when asked, with the row's maximum and sum saved by the forward pass.
// At 4096 tokens and 8 heads that is 0.5 GB of scores instead of 2.1 GB, so
// the window can hold the shown result and compute the next one in 2 GiB.
// A head no view shows in full keeps not even its scores: its rows are
// computed again from the head's q and k when asked (onDemand), and its
// picture in the heads grid is pooled by the forward pass (pooled()).

#include "attention/pooledmatrix.h"

#include <Eigen/Dense>
#include <memory>
#include <vector>

namespace attn {

using RowMatrixD = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using RowMatrixF = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// x - x is 0 for every finite x and NaN for infinity or NaN, so the sum is 0
// exactly when all are finite: one vectorized pass, unlike Eigen's allFinite(),
// which took 15 % of a 1024-token forward pass.
template<typename Derived>
bool allFiniteFast(const Eigen::DenseBase<Derived> &m)
{
    return (m.derived().array() - m.derived().array()).sum() == 0;
}

class AttentionMatrix
{
public:
    AttentionMatrix() = default;
    explicit AttentionMatrix(RowMatrixD values);
    explicit AttentionMatrix(std::shared_ptr<const RowMatrixF> values);

    // The softmax of `scores` * scale by rows, given each row's maximum of the
    // scaled scores and the reciprocal of its sum of exponentials. Keys after
    // the query are 0 under the causal mask.
    static AttentionMatrix softmaxOf(std::shared_ptr<const RowMatrixF> scores, float scale, bool causal,
                                     Eigen::VectorXf rowMax, Eigen::VectorXf rowInverseSum);

    // Weights stored as the pass computed them, with the row statistics they
    // were computed with: a row's largest weight and the check for overflow
    // read the statistics, not the n x m weights.
    static AttentionMatrix storedWeights(std::shared_ptr<const RowMatrixF> weights, bool causal,
                                         Eigen::VectorXf rowMax, Eigen::VectorXf rowInverseSum);

    // Scores kept as the projections they come from: row r is q_r . k_j for
    // every key j, with q columns [first, first + width) and k columns
    // [keyFirst, keyFirst + width) of `factors` (a head and the key/value head
    // it reads: the same columns unless heads share keys). Rows are computed
    // when asked, in float.
    // Every head's q (n rows, `width` columns) and every key/value head's k
    // (m rows, `keyWidth` columns), side by side: q in the first columns of
    // `projected`, k from column `keyStart` of `source` in cross-attention,
    // else of `projected`. One product computes q, k and v of every head into
    // one matrix, kept as it is.
    struct Factors
    {
        Eigen::MatrixXf projected, source;
        Eigen::Index width = 0, keyWidth = 0, keyStart = 0;

        const Eigen::MatrixXf &keyMatrix() const { return source.size() > 0 ? source : projected; }
        auto queries() const { return projected.leftCols(width); }
        auto keys() const { return keyMatrix().middleCols(keyStart, keyWidth); }
    };
    static AttentionMatrix scoresOnDemand(std::shared_ptr<const Factors> factors, Eigen::Index first,
                                          Eigen::Index keyFirst, Eigen::Index width);
    // Their softmax, as softmaxOf with the pass's row statistics.
    static AttentionMatrix weightsOnDemand(std::shared_ptr<const Factors> factors, Eigen::Index first,
                                           Eigen::Index keyFirst, Eigen::Index width, float scale, bool causal,
                                           Eigen::VectorXf rowMax, Eigen::VectorXf rowInverseSum);
    // The mean of `parts` (one shape; each single precision) with no entry
    // stored: a row is the parts' rows summed and divided, when asked. The
    // window shows one head in full, and the mean only as a thumbnail
    // (pooled by the pass): 16 MB a pass not written at 2000 tokens.
    static AttentionMatrix meanOnDemand(std::vector<AttentionMatrix> parts);
    // `base` (single precision) with column 0 read as 0 and row r multiplied
    // by rowScale[r]: a head's weights with the first token set aside and
    // each row renormalised (model/firsttokenaside.h). Nothing n x m is
    // stored: every read goes to `base`, which this matrix keeps alive.
    static AttentionMatrix firstColumnAside(AttentionMatrix base, Eigen::VectorXf rowScale);
    // True when no entry is stored: reading all of them costs a matrix product.
    bool isOnDemand() const { return bool(m_factors) || bool(m_parts) || bool(m_aside); }

    // The pass's pooled picture of this matrix, or null.
    const PooledMatrix *pooled() const { return m_pooled.get(); }
    void setPooled(std::shared_ptr<const PooledMatrix> pooled) { m_pooled = std::move(pooled); }

    Eigen::Index rows() const { return m_rows; }
    Eigen::Index cols() const { return m_cols; }
    Eigen::Index size() const { return m_rows * m_cols; }
    bool isSinglePrecision() const { return bool(m_single) || isOnDemand(); }

    double operator()(Eigen::Index row, Eigen::Index column) const;
    Eigen::RowVectorXd row(Eigen::Index r) const;
    // Row r in float, whatever the storage: what painters read 16 M cells with.
    void rowInto(Eigen::Index r, Eigen::Ref<Eigen::RowVectorXf> out) const;
    // Row r where it is stored, when the matrix stores its values in float
    // (weights the pass kept, a mean kept): read in place, not copied. Null otherwise.
    const float *storedRow(Eigen::Index r) const
    {
        return m_single && !m_softmax ? m_single->data() + r * m_cols : nullptr;
    }
    // Rows [first, first + count) in float, into a count x cols matrix: for
    // scores computed on demand one matrix product, not one per row.
    void rowsInto(Eigen::Index first, Eigen::Index count, RowMatrixF &out) const;
    Eigen::MatrixXd toDouble() const;
    // The largest value, or the largest magnitude, among the first `count`
    // entries of row r. Free for derived weights: the row's largest weight
    // is exp(0) times the reciprocal of its sum.
    double largestInRow(Eigen::Index r, Eigen::Index count, bool magnitude) const;
    bool allFinite() const;

private:
    // Row r's raw scores, stored or computed.
    void scoresInto(Eigen::Index r, Eigen::Ref<Eigen::RowVectorXf> out) const;

    Eigen::Index m_rows = 0, m_cols = 0;
    RowMatrixD m_double;
    std::shared_ptr<const RowMatrixF> m_single;
    // Only for scores computed when asked:
    std::shared_ptr<const Factors> m_factors;
    Eigen::Index m_firstFactor = 0, m_firstKeyFactor = 0, m_factorWidth = 0;
    // Only for a mean computed when asked: what it is the mean of.
    std::shared_ptr<const std::vector<AttentionMatrix>> m_parts;
    // Only for a matrix with its first column set aside: the matrix it is
    // read from, and each row's factor.
    std::shared_ptr<const AttentionMatrix> m_aside;
    Eigen::VectorXf m_asideRowScale;
    std::shared_ptr<const PooledMatrix> m_pooled;
    // For a softmax over single-precision scores, derived (m_softmax) or
    // stored (storedWeights): the row statistics are known.
    bool m_statistics = false;
    bool m_softmax = false;
    bool m_causal = false;
    float m_scale = 1.0f;
    Eigen::VectorXf m_rowMax, m_rowInverseSum;
};

// The mean over several matrices of one shape, stored in float when any of
// them is (the heatmap's "average of heads").
AttentionMatrix averageOf(const std::vector<const AttentionMatrix *> &matrices);

} // namespace attn
