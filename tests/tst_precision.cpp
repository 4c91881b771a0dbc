// The single-precision path for large inputs: it agrees with double to well
// within what the views show (4 decimals), keeps every invariant, falls back to
// double when float would overflow, and teaching-size inputs never use it.

#include "attention/attention.h"
#include "runtime/prng.h"
#include "session/session.h"
#include "session/sessionio.h"
#include "testdata.h"

#include <QTest>

using attn::AttentionConfig;
using attn::AttentionMatrix;
using attn::AttentionResult;
using attn::Precision;
using Eigen::MatrixXd;

namespace {

AttentionConfig config(attn::Mode mode, int heads, int headDim, bool causal)
{
    AttentionConfig c;
    c.mode = mode;
    c.heads = heads;
    c.headDim = headDim;
    c.causal = causal;
    c.outputProjection = true;
    c.seed = 5;
    return c;
}

} // namespace

class TestPrecision : public QObject
{
    Q_OBJECT
private slots:
    void singleAgreesWithDouble_data()
    {
        QTest::addColumn<int>("mode");
        QTest::addColumn<bool>("causal");
        QTest::addColumn<bool>("cross");
        QTest::newRow("scaled") << int(attn::Mode::ScaledDotProduct) << false << false;
        QTest::newRow("scaled causal") << int(attn::Mode::ScaledDotProduct) << true << false;
        QTest::newRow("scaled cross") << int(attn::Mode::ScaledDotProduct) << false << true;
        QTest::newRow("simplified") << int(attn::Mode::Simplified) << false << false;
        QTest::newRow("simplified causal") << int(attn::Mode::Simplified) << true << false;
    }
    void singleAgreesWithDouble()
    {
        QFETCH(int, mode);
        QFETCH(bool, causal);
        QFETCH(bool, cross);
        const AttentionConfig c = config(attn::Mode(mode), 3, 16, causal);
        const MatrixXd x = randomMatrix(1, 70, 48, 1.0);
        const MatrixXd source = randomMatrix(2, 90, 48, 1.0);
        const MatrixXd *from = cross ? &source : nullptr;
        const AttentionResult d = attn::computeAttention(x, c, {}, from, Precision::Double);
        const AttentionResult s = attn::computeAttention(x, c, {}, from, Precision::Single);
        QVERIFY(!d.singlePrecision);
        QVERIFY(s.singlePrecision);
        QCOMPARE(s.heads.size(), d.heads.size());
        for (std::size_t h = 0; h < d.heads.size(); ++h) {
            const attn::HeadResult &a = d.heads[h], &b = s.heads[h];
            QVERIFY(b.weights.isSinglePrecision());
            QCOMPARE(b.weights.rows(), a.weights.rows());
            QCOMPARE(b.weights.cols(), a.weights.cols());
            // Weights are below 1: float's 7 digits leave the 4 shown untouched.
            QVERIFY2(maxAbsDiff(a.weights.toDouble(), b.weights.toDouble()) < 2e-6,
                     qPrintable(QString::number(maxAbsDiff(a.weights.toDouble(), b.weights.toDouble()))));
            const double scoreSize = a.scores.toDouble().cwiseAbs().maxCoeff();
            QVERIFY(maxAbsDiff(a.scores.toDouble(), b.scores.toDouble()) < 1e-5 * std::max(1.0, scoreSize));
            QVERIFY(maxAbsDiff(a.queries, b.queries) < 1e-5);
            QVERIFY(maxAbsDiff(a.context, b.context) < 1e-5);
            for (Eigen::Index i = 0; i < b.weights.rows(); ++i) {
                QVERIFY(std::abs(b.weights.row(i).sum() - 1.0) < 1e-5);
                for (Eigen::Index j = i + 1; causal && j < b.weights.cols(); ++j)
                    QCOMPARE(b.weights(i, j), 0.0);
            }
        }
        QVERIFY(maxAbsDiff(d.output, s.output) < 1e-4);
    }

    // The three ways of reading a derived weight give one number.
    void derivedWeightsReadAlike()
    {
        const AttentionResult s = attn::computeAttention(randomMatrix(3, 40, 8, 1.0), config(attn::Mode::ScaledDotProduct, 2, 4, true),
                                                         {}, nullptr, Precision::Single);
        const AttentionMatrix &w = s.heads[1].weights;
        const MatrixXd all = w.toDouble();
        Eigen::RowVectorXf line(w.cols());
        for (Eigen::Index i = 0; i < w.rows(); i += 7) {
            w.rowInto(i, line);
            for (Eigen::Index j = 0; j < w.cols(); ++j) {
                QVERIFY(std::abs(w(i, j) - all(i, j)) < 1e-7);
                QCOMPARE(double(line[j]), all(i, j));
            }
        }
        QVERIFY(w.allFinite());
    }

    void autoKeepsTeachingSizesInDouble()
    {
        const attn::Session example = attn::exampleSession();
        QVERIFY(attn::sessionFlops(example) <= attn::kFullPrecisionFlops);
        QVERIFY(!attn::computeSession(example).singlePrecision);
        QVERIFY(!attn::computeSession(example).heads.front().weights.isSinglePrecision());

        const AttentionConfig large = config(attn::Mode::ScaledDotProduct, 8, 32, false);
        const MatrixXd x = randomMatrix(4, 200, 256, 1.0);
        QVERIFY(attn::forwardFlops(200, 200, 256, large) > attn::kFullPrecisionFlops);
        QVERIFY(attn::computeAttention(x, large).singlePrecision);
        QVERIFY(!attn::computeAttention(x, large, {}, nullptr, Precision::Double).singlePrecision);
    }

    // 1e25 squared overflows float but not double: the result is right, in double.
    void floatOverflowFallsBackToDouble()
    {
        const AttentionConfig c = config(attn::Mode::Simplified, 1, 1, false);
        const MatrixXd x = randomMatrix(6, 5, 3, 1.0) * 1e25;
        const AttentionResult s = attn::computeAttention(x, c, {}, nullptr, Precision::Single);
        QVERIFY(!s.singlePrecision);
        QVERIFY(s.output.allFinite());
        const AttentionResult d = attn::computeAttention(x, c, {}, nullptr, Precision::Double);
        QCOMPARE(s.heads[0].weights.toDouble(), d.heads[0].weights.toDouble());
    }

    // One huge row among ordinary ones: its squares overflow float, where
    // Eigen's vectorised row norms come out NaN and the bound on the scores
    // used to pass (found by fuzz_session). Double must be used.
    void oneHugeRowFallsBackToDouble()
    {
        const QByteArray json = R"({"format": "attention-explorer-session", "version": 1,
            "sentence": "Your journey starts with one step",
            "tokens": ["Your", "journey", "starts", "with", "one", "step"],
            "embeddings": [[0.43, 0.15, 0.89], [0.55, 0.87, 0.66], [0.57, 0.85, 0.64],
                           [4.4e35, 0.58, 0.33], [0.77, 0.25, 0.10], [0.05, 0.80, 0.55]],
            "query": 1, "attention": {}})";
        QString error;
        const std::optional<attn::Session> session = attn::parseSession(json, QStringLiteral("x"), &error);
        QVERIFY2(session, qPrintable(error));
        const AttentionResult s = attn::computeSession(*session, Precision::Single);
        QVERIFY(!s.singlePrecision);
        QVERIFY(s.heads[0].scores.allFinite());
        QVERIFY(s.heads[0].weights.allFinite());
        const AttentionResult d = attn::computeSession(*session, Precision::Double);
        QCOMPARE(s.heads[0].scores.toDouble(), d.heads[0].scores.toDouble());
    }

    // Float's rounding grows with the size of the scores: inputs that make
    // them large (here |q||k| / sqrt(d_k) far over 1e3) are computed in double.
    void largeScoresUseDouble()
    {
        const AttentionConfig c = config(attn::Mode::ScaledDotProduct, 2, 8, false);
        QVERIFY(attn::computeAttention(randomMatrix(7, 30, 16, 1.0), c, {}, nullptr, Precision::Single).singlePrecision);
        const AttentionResult big = attn::computeAttention(randomMatrix(7, 30, 16, 1.0) * 1e3, c, {}, nullptr, Precision::Single);
        QVERIFY(!big.singlePrecision);
        QVERIFY(!big.heads[0].weights.isSinglePrecision());
    }

    // Number files of a single-precision result: one head, or the mean, again in double.
    void headMatrixInDoubleMatchesTheDoublePass()
    {
        const AttentionConfig c = config(attn::Mode::ScaledDotProduct, 3, 4, true);
        const MatrixXd x = randomMatrix(8, 20, 12, 1.0);
        const AttentionResult single = attn::computeAttention(x, c, {}, nullptr, Precision::Single);
        const AttentionResult exact = attn::computeAttention(x, c, {}, nullptr, Precision::Double);
        QVERIFY(single.singlePrecision);
        QCOMPARE(attn::headMatrixInDouble(single, 2, false), exact.heads[2].weights.toDouble());
        QCOMPARE(attn::headMatrixInDouble(single, 1, true), exact.heads[1].scores.toDouble());
        QCOMPARE(attn::headMatrixInDouble(single, -1, false), exact.meanWeights.toDouble());
        QCOMPARE(attn::averageWeights(exact).toDouble(), exact.meanWeights.toDouble());
    }

    void averageOfMixesPrecisions()
    {
        const AttentionMatrix a(attn::RowMatrixD(MatrixXd::Constant(2, 3, 0.25)));
        auto floats = std::make_shared<attn::RowMatrixF>(attn::RowMatrixF::Constant(2, 3, 0.75f));
        const AttentionMatrix b{std::shared_ptr<const attn::RowMatrixF>(floats)};
        QVERIFY(!attn::averageOf({&a, &a}).isSinglePrecision());
        const AttentionMatrix mean = attn::averageOf({&a, &b});
        QVERIFY(mean.isSinglePrecision());
        QCOMPARE(mean(1, 2), 0.5);
        QCOMPARE(attn::averageOf({}).size(), Eigen::Index(0));
        const AttentionMatrix wide(attn::RowMatrixD(MatrixXd::Zero(2, 4)));
        QVERIFY_THROWS_EXCEPTION(std::logic_error, attn::averageOf({&a, &wide}));
    }
};

QTEST_APPLESS_MAIN(TestPrecision)
#include "tst_precision.moc"
