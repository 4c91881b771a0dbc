// The first token set aside (core/model/firsttokenaside.h): hand-worked rows,
// the lazy single-precision matrix against the rows computed at once, the
// double path, and a whole result (heads, their mean, everything else kept),
// for a teaching-size session and a large one whose heads are computed on demand.

#include "model/firsttokenaside.h"

#include "runtime/prng.h"
#include "session/session.h"

#include <QTest>
#include <cmath>

using namespace attn;

namespace {

// Random causal softmax rows with a sink: key 0 scores 8, the others -2 ... 2.
RowMatrix<float> sinkHead(SplitMix64 &rng, int n)
{
    RowMatrix<float> w = RowMatrix<float>::Zero(n, n);
    for (int i = 0; i < n; ++i) {
        double sum = 0;
        for (int j = 0; j <= i; ++j)
            sum += (w(i, j) = float(std::exp(j == 0 ? 8.0 : rng.nextSymmetric(2.0))));
        w.row(i).head(i + 1) /= float(sum);
    }
    return w;
}

Session sessionOf(int tokens, int dModel, int heads, std::uint64_t seed)
{
    Session s;
    SplitMix64 rng(seed);
    s.embeddings.resize(tokens, dModel);
    for (int i = 0; i < tokens; ++i) {
        s.tokens << QStringLiteral("t%1").arg(i);
        for (int d = 0; d < dModel; ++d)
            s.embeddings(i, d) = rng.nextSymmetric(1.0);
    }
    s.attention.heads = heads;
    s.attention.headDim = dModel / heads;
    s.attention.causal = true;
    s.attention.outputProjection = true;
    s.attention.seed = 7;
    return s;
}

} // namespace

class TestFirstTokenAside : public QObject
{
    Q_OBJECT

private slots:
    // Query 0 sees only key 0: nothing is left. Query 1 puts 0.8 on the
    // sink and 0.2 on itself: 0.2 / 0.2 = 1. Query 2: 0.3 and 0.1 of the
    // 0.4 left are 0.75 and 0.25.
    void handWorkedRows()
    {
        RowMatrix<float> w(3, 3);
        w << 1.0f, 0, 0, 0.8f, 0.2f, 0, 0.6f, 0.3f, 0.1f;
        const RowMatrix<float> aside = firstTokenAside(w);
        QCOMPARE(aside.row(0).cwiseAbs().maxCoeff(), 0.0f);
        QCOMPARE(aside(1, 0), 0.0f);
        QCOMPARE(aside(1, 1), 1.0f);
        QVERIFY(std::abs(aside(2, 1) - 0.75f) < 1e-6f);
        QVERIFY(std::abs(aside(2, 2) - 0.25f) < 1e-6f);
        QCOMPARE(aside(2, 0), 0.0f);
        // The factor is summed from the other weights, not taken as 1 - w0:
        // a sink of 0.99999 leaves 1e-5 that float's 1 - w0 gets 20 % wrong.
        const float sink[3] = {0.99999f, 0.000004f, 0.000006f};
        QVERIFY(std::abs(firstTokenAsideScale(sink, 3) * 0.00001 - 1.0) < 1e-6);
        const double none[2] = {1.0, 0.0};
        QCOMPARE(firstTokenAsideScale(none, 2), 0.0);
    }

    // A stored float head read through the lazy matrix gives the rows
    // computed at once, by every way of reading.
    void lazyMatrixReadsAsComputed()
    {
        SplitMix64 rng(11);
        const int n = 70; // more than one block of 64 rows
        const RowMatrix<float> w = sinkHead(rng, n);
        const RowMatrix<float> expected = firstTokenAside(w);
        const AttentionMatrix lazy = firstTokenAside(AttentionMatrix(std::make_shared<const RowMatrixF>(w)));
        QVERIFY(lazy.isOnDemand());
        QVERIFY(lazy.isSinglePrecision());
        QVERIFY(!lazy.storedRow(3));
        QVERIFY(lazy.allFinite());
        QCOMPARE(lazy.rows(), Eigen::Index(n));
        RowMatrixF block;
        lazy.rowsInto(60, 10, block);
        Eigen::RowVectorXf row(n);
        for (int r = 0; r < n; ++r) {
            lazy.rowInto(r, row);
            QVERIFY((row - expected.row(r)).cwiseAbs().maxCoeff() < 1e-6f);
            if (r >= 60)
                QVERIFY((block.row(r - 60) - expected.row(r)).cwiseAbs().maxCoeff() < 1e-6f);
            QCOMPARE(lazy(r, 0), 0.0);
            QVERIFY(std::abs(lazy(r, r) - double(expected(r, r))) < 1e-6);
            if (r > 0)
                QVERIFY(std::abs(row.sum() - 1.0f) < 1e-5f);
        }
        // The sink hid the rest: aside, the largest other weight is several times larger.
        QVERIFY(expected.row(n - 1).maxCoeff() > 10 * w.row(n - 1).tail(n - 1).maxCoeff());
    }

    void doubleMatrixComputedAtOnce()
    {
        RowMatrixD w(2, 3);
        w << 0.5, 0.25, 0.25, 0.9, 0.1, 0.0;
        const AttentionMatrix aside = firstTokenAside(AttentionMatrix(w));
        QVERIFY(!aside.isSinglePrecision());
        QCOMPARE(aside(0, 0), 0.0);
        QCOMPARE(aside(0, 1), 0.5);
        QCOMPARE(aside(0, 2), 0.5);
        QCOMPARE(aside(1, 1), 1.0);
    }

    // A whole result: each head set aside, the mean the mean of those, the
    // rest untouched.
    void wholeResult_data()
    {
        QTest::addColumn<int>("tokens");
        QTest::addColumn<int>("dModel");
        QTest::addColumn<bool>("large");
        QTest::newRow("teaching size, double") << 6 << 8 << false;
        QTest::newRow("large, float, heads on demand") << 300 << 64 << true;
    }

    void wholeResult()
    {
        QFETCH(int, tokens);
        QFETCH(int, dModel);
        QFETCH(bool, large);
        const Session s = sessionOf(tokens, dModel, 4, 99);
        // The large one keeps head 1 in full and the others as q and k.
        const AttentionResult real = computeSession(s, large ? Precision::Single : Precision::Double, nullptr,
                                                    large ? HeadsKept::only(1) : HeadsKept::all());
        QCOMPARE(real.singlePrecision, large);
        if (large)
            QVERIFY(real.heads[0].weights.isOnDemand());
        const AttentionResult aside = firstTokenAside(real);
        QCOMPARE(aside.heads.size(), real.heads.size());
        const double tolerance = large ? 1e-5 : 1e-12;
        Eigen::MatrixXd mean = Eigen::MatrixXd::Zero(tokens, tokens);
        for (std::size_t h = 0; h < real.heads.size(); ++h) {
            const Eigen::MatrixXd w = real.heads[h].weights.toDouble();
            Eigen::MatrixXd expected = Eigen::MatrixXd::Zero(tokens, tokens);
            for (int r = 1; r < tokens; ++r)
                expected.row(r).tail(tokens - 1) = w.row(r).tail(tokens - 1) / w.row(r).tail(tokens - 1).sum();
            mean += expected / double(real.heads.size());
            QVERIFY((aside.heads[h].weights.toDouble() - expected).cwiseAbs().maxCoeff() < tolerance);
            QCOMPARE(aside.heads[h].scores(tokens - 1, 0), real.heads[h].scores(tokens - 1, 0));
            QCOMPARE(aside.heads[h].queries, real.heads[h].queries);
            QCOMPARE(aside.heads[h].context, real.heads[h].context);
        }
        QVERIFY((aside.meanWeights.toDouble() - mean).cwiseAbs().maxCoeff() < tolerance);
        QCOMPARE(aside.output, real.output);
        QCOMPARE(aside.causal, real.causal);
        // The real result is untouched.
        QVERIFY(real.heads[0].weights(tokens - 1, 0) > 0);
    }
};

QTEST_GUILESS_MAIN(TestFirstTokenAside)
#include "tst_firsttokenaside.moc"
