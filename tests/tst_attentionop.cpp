// The modes of attn::attention that the session path needs (row statistics
// instead of weights, the weights' sum over heads, cancellation, Q/K/V stored
// by columns) and its two-thread softmax. Expected numbers come from a plain
// softmax written here, in long double, apart from the code under test.

#include "model/attentionop.h"

#include <QTest>
#include <cmath>
#include <random>

using namespace attn;
using MatD = RowMatrix<double>;
using MatF = RowMatrix<float>;

namespace {

MatD randomMatrix(Eigen::Index rows, Eigen::Index cols, unsigned seed, double scale = 1.0)
{
    std::mt19937 gen(seed);
    std::normal_distribution<double> normal(0.0, scale);
    MatD m(rows, cols);
    for (Eigen::Index i = 0; i < m.size(); ++i)
        m.data()[i] = normal(gen);
    return m;
}

// Each row's softmax of scores * scale over the keys 0 .. i + m - n (causal)
// or all keys, one element at a time in long double.
MatD plainSoftmax(const MatD &scores, double scale, bool causal, MatD *rowMax = nullptr, MatD *rowSum = nullptr)
{
    const Eigen::Index n = scores.rows(), m = scores.cols();
    MatD w = MatD::Zero(n, m);
    if (rowMax) {
        *rowMax = MatD(n, 1);
        *rowSum = MatD(n, 1);
    }
    for (Eigen::Index i = 0; i < n; ++i) {
        const Eigen::Index visible = causal ? i + 1 + m - n : m;
        long double largest = -INFINITY, sum = 0;
        for (Eigen::Index j = 0; j < visible; ++j)
            largest = std::max(largest, (long double)(scores(i, j) * scale));
        for (Eigen::Index j = 0; j < visible; ++j)
            sum += std::exp((long double)(scores(i, j) * scale) - largest);
        for (Eigen::Index j = 0; j < visible; ++j)
            w(i, j) = double(std::exp((long double)(scores(i, j) * scale) - largest) / sum);
        if (rowMax) {
            (*rowMax)(i) = double(largest);
            (*rowSum)(i) = double(sum);
        }
    }
    return w;
}

double largestDifference(const MatD &a, const MatD &b)
{
    if (a.rows() != b.rows() || a.cols() != b.cols())
        return INFINITY;
    return (a - b).cwiseAbs().maxCoeff();
}

// Masked entries are exactly zero.
bool maskIsExact(const MatD &w, bool causal)
{
    const Eigen::Index n = w.rows(), m = w.cols();
    for (Eigen::Index i = 0; causal && i < n; ++i)
        for (Eigen::Index j = i + 1 + m - n; j < m; ++j)
            if (w(i, j) != 0.0)
                return false;
    return true;
}

} // namespace

class TestAttentionOp : public QObject
{
    Q_OBJECT

private slots:
    // Above 2^17 entries the rows are split between two threads (at n * 0.7071
    // under the mask, n / 2 without): every row, on both sides of the split,
    // must be the softmax of its own scores.
    void softmaxTwoThreads_data()
    {
        QTest::addColumn<bool>("causal");
        QTest::addColumn<int>("queries");
        QTest::addColumn<int>("keys");
        QTest::newRow("one thread") << false << 100 << 130;
        QTest::newRow("one thread, causal") << true << 100 << 130;
        QTest::newRow("two threads") << false << 401 << 400;
        QTest::newRow("two threads, causal") << true << 401 << 401;
        QTest::newRow("two threads, causal, earlier keys") << true << 390 << 420;
    }
    void softmaxTwoThreads()
    {
        QFETCH(bool, causal);
        QFETCH(int, queries);
        QFETCH(int, keys);
        const MatD scores = randomMatrix(queries, keys, 11, 30.0);
        const double scale = 0.37;
        MatD expectedMax, expectedSum;
        const MatD expected = plainSoftmax(scores, scale, causal, &expectedMax, &expectedSum);

        MatD weights;
        scaledSoftmaxRows<double>(scores, scale, causal, weights);
        QVERIFY(largestDifference(weights, expected) < 2e-14);
        QVERIFY(maskIsExact(weights, causal));

        RowStatistics<double> rows;
        MatD inPlace = scores; // out may be the scores themselves
        scaledSoftmaxRows<double>(inPlace, scale, causal, inPlace, &rows);
        QVERIFY(largestDifference(inPlace, expected) < 2e-14);
        QVERIFY(maskIsExact(inPlace, causal));
        QCOMPARE(rows.max.size(), Eigen::Index(queries));
        QVERIFY(largestDifference(rows.max, expectedMax) == 0.0); // the largest scaled score itself
        QVERIFY(largestDifference(MatD(rows.inverseSum.cwiseInverse()), expectedSum)
                < 1e-13 * expectedSum.maxCoeff());

        // Float, where the session's large results are computed.
        MatF single;
        scaledSoftmaxRows<float>(scores.cast<float>(), float(scale), causal, single);
        QVERIFY(largestDifference(single.cast<double>(), expected) < 1e-5);
    }

    // The memory-saving mode: each row's maximum and reciprocal sum, from
    // which a weight is derived again, and the weights of one head only.
    void rowStatisticsGiveTheWeights_data()
    {
        QTest::addColumn<bool>("causal");
        QTest::newRow("no mask") << false;
        QTest::newRow("causal") << true;
    }
    void rowStatisticsGiveTheWeights()
    {
        QFETCH(bool, causal);
        const int heads = 3, n = 37, dk = 8;
        const MatD q = randomMatrix(n, heads * dk, 1), k = randomMatrix(n, heads * dk, 2),
                   v = randomMatrix(n, heads * dk, 3);
        AttentionSettings settings;
        settings.heads = heads;
        settings.causal = causal;
        settings.scale = 1.0 / std::sqrt(double(dk));
        settings.sumWeights = true;
        const AttentionOutput<float> kept =
            attention<float>(q.cast<float>(), k.cast<float>(), v.cast<float>(), settings);
        settings.weightsKept = WeightsKept::RowStatistics;
        settings.keepScores = true; // to derive the weights from
        settings.inFull = {false, true, false};
        const AttentionOutput<float> derived =
            attention<float>(q.cast<float>(), k.cast<float>(), v.cast<float>(), settings);

        QCOMPARE(int(derived.weights.size()), heads);
        QCOMPARE(derived.weights[0].size(), Eigen::Index(0));
        QCOMPARE(derived.weights[2].size(), Eigen::Index(0));
        QVERIFY(largestDifference(derived.weights[1].cast<double>(),
                                  plainSoftmax(q.middleCols(dk, dk) * k.middleCols(dk, dk).transpose(),
                                               settings.scale, causal)) < 1e-6);
        QCOMPARE(int(derived.scores.size()), heads);
        QCOMPARE(int(derived.rowStatistics.size()), heads);
        MatD sum = MatD::Zero(n, n);
        for (int h = 0; h < heads; ++h) {
            const MatD scores = q.middleCols(h * dk, dk) * k.middleCols(h * dk, dk).transpose();
            QVERIFY(largestDifference(derived.scores[std::size_t(h)].cast<double>(), scores) < 1e-5);
            const MatD expected = plainSoftmax(scores, settings.scale, causal);
            const RowStatistics<float> &rows = derived.rowStatistics[std::size_t(h)];
            MatD fromStatistics = MatD::Zero(n, n);
            for (int i = 0; i < n; ++i)
                for (int j = 0; j <= (causal ? i : n - 1); ++j)
                    fromStatistics(i, j) = std::exp(derived.scores[std::size_t(h)](i, j) * float(settings.scale)
                                                    - rows.max[i]) * rows.inverseSum[i];
            QVERIFY(largestDifference(fromStatistics, expected) < 1e-6);
            QVERIFY(largestDifference(kept.weights[std::size_t(h)].cast<double>(), expected) < 1e-6);
            sum += expected;
        }
        // The context and the sum over heads are the same in both modes, to float's rounding.
        QVERIFY(largestDifference(derived.context.cast<double>(), kept.context.cast<double>()) < 1e-5);
        QVERIFY(largestDifference(derived.weightSum.cast<double>(), sum) < 1e-5);
        QVERIFY(largestDifference(kept.weightSum.cast<double>(), sum) < 1e-5);
        QVERIFY(maskIsExact(derived.weightSum.cast<double>(), causal));
    }

    void weightSumAddsTheHeads()
    {
        const MatD q = randomMatrix(6, 12, 4), k = randomMatrix(9, 12, 5), v = randomMatrix(9, 6, 6);
        AttentionSettings settings;
        settings.heads = 3;
        settings.sumWeights = true;
        const AttentionOutput<double> out = attention<double>(q, k, v, settings);
        MatD sum = MatD::Zero(6, 9);
        for (int h = 0; h < 3; ++h)
            sum += plainSoftmax(q.middleCols(h * 4, 4) * k.middleCols(h * 4, 4).transpose(), 1.0, false);
        QVERIFY(largestDifference(out.weightSum, sum) < 1e-14);
        settings.sumWeights = false;
        QCOMPARE(attention<double>(q, k, v, settings).weightSum.size(), Eigen::Index(0));
    }

    // The session path's storage: the same attention, to double's rounding.
    void columnsGiveTheSameAttention()
    {
        const MatD q = randomMatrix(20, 6, 7), k = randomMatrix(20, 6, 8), v = randomMatrix(20, 6, 9);
        AttentionSettings settings;
        settings.heads = 2;
        settings.causal = true;
        settings.scale = 0.5;
        settings.keepScores = true;
        const AttentionOutput<double> rows = attention<double>(q, k, v, settings);
        const Eigen::MatrixXd qc = q, kc = k, vc = v;
        const AttentionOutput<double> columns = attentionByColumns<double>(qc, kc, vc, settings);
        for (int h = 0; h < 2; ++h) {
            const MatD scores = q.middleCols(h * 3, 3) * k.middleCols(h * 3, 3).transpose();
            QVERIFY(largestDifference(columns.scores[std::size_t(h)], scores) < 1e-14);
            QVERIFY(largestDifference(columns.weights[std::size_t(h)], plainSoftmax(scores, 0.5, true)) < 2e-14);
            QVERIFY(largestDifference(columns.weights[std::size_t(h)], rows.weights[std::size_t(h)]) < 2e-14);
        }
        QVERIFY(largestDifference(columns.context, rows.context) < 1e-14);
    }

    void cancelStopsBeforeAHead()
    {
        const MatD q = randomMatrix(4, 4, 10);
        CancelFlag cancel(false);
        AttentionSettings settings;
        settings.heads = 2;
        settings.cancel = &cancel;
        QCOMPARE(attention<double>(q, q, q, settings).context.rows(), Eigen::Index(4)); // not raised: runs
        cancel = true;
        QVERIFY_THROWS_EXCEPTION(Cancelled, attention<double>(q, q, q, settings));
        QVERIFY_THROWS_EXCEPTION(Cancelled, attention<float>(q.cast<float>(), q.cast<float>(), q.cast<float>(),
                                                             settings));
        const Eigen::MatrixXd c = q;
        QVERIFY_THROWS_EXCEPTION(Cancelled, attentionByColumns<double>(c, c, c, settings));
    }
};

QTEST_APPLESS_MAIN(TestAttentionOp)
#include "tst_attentionop.moc"
