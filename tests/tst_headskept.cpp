// A large single-precision pass keeps one head in full and the others as
// their q and k, row statistics and thumbnails (attn::HeadsKept). Against
// the same pass keeping every head, and against a plain double computation
// written here: the shown head, context and output are the same bits; a head
// computed on demand differs by float's rounding at most; every thumbnail is
// the pooling, written here apart from the code under test, of its matrix.
// Several sizes, with and without the causal mask, and cross-attention.

#include "attention/attention.h"
#include "byhand.h"

#include <QTest>
#include <cmath>
#include <limits>
#include <random>

using namespace attn;
using Index = Eigen::Index;

namespace {

Eigen::MatrixXd randomEmbeddings(Index rows, Index cols, unsigned seed)
{
    std::mt19937 gen(seed);
    std::normal_distribution<double> normal(0.0, 1.0);
    Eigen::MatrixXd m(rows, cols);
    for (Index i = 0; i < m.size(); ++i)
        m.data()[i] = normal(gen);
    return m;
}

double largestVisibleMagnitude(const Eigen::MatrixXd &m, bool causal)
{
    double largest = 0;
    for (Index r = 0; r < m.rows(); ++r)
        for (Index c = 0; c < (causal ? r + 1 + m.cols() - m.rows() : m.cols()); ++c)
            largest = std::max(largest, std::abs(m(r, c)));
    return largest;
}

// One head's scores and weights in double (long double sums) from the
// head's q and k as the pass kept them.
struct Reference
{
    Eigen::MatrixXd scores, weights, bound; // bound: sum over c of |q_c k_c|
};

Reference referenceHead(const HeadResult &head, double scale, bool causal)
{
    const Index n = head.queries.rows(), m = head.keys.rows(), dk = head.queries.cols();
    Reference r;
    r.scores = Eigen::MatrixXd::Zero(n, m);
    r.bound = Eigen::MatrixXd::Zero(n, m);
    for (Index i = 0; i < n; ++i) {
        for (Index j = 0; j < m; ++j)
            for (Index c = 0; c < dk; ++c) {
                r.scores(i, j) += head.queries(i, c) * head.keys(j, c);
                r.bound(i, j) += std::abs(head.queries(i, c) * head.keys(j, c));
            }
    }
    r.weights = softmaxByHand(r.scores, scale, causal);
    return r;
}

struct Case
{
    // kept: what the window asks for while it shows weights; keptWithScores:
    // while it shows scores (their thumbnails pooled too); every: every head.
    AttentionResult kept, keptWithScores, every;
    bool causal = false;
};

Case computeBoth(Index n, Index m, int dModel, int heads, bool causal, int shown)
{
    AttentionConfig config;
    config.heads = heads;
    config.headDim = dModel / heads;
    config.causal = causal;
    config.outputProjection = true;
    config.seed = 7;
    const Eigen::MatrixXd x = randomEmbeddings(n, dModel, 11);
    const Eigen::MatrixXd source = randomEmbeddings(m, dModel, 12);
    const Eigen::MatrixXd *cross = m != n ? &source : nullptr;
    Case c;
    c.causal = causal && !cross;
    c.kept = computeAttention(x, config, {}, cross, Precision::Single, nullptr, HeadsKept::only(shown));
    c.keptWithScores = computeAttention(x, config, {}, cross, Precision::Single, nullptr, HeadsKept::only(shown, true));
    c.every = computeAttention(x, config, {}, cross, Precision::Single, nullptr, HeadsKept::all());
    return c;
}

// The case of the data row running now (the columns of the _data function).
Case fetchedCase()
{
    QFETCH(int, n);
    QFETCH(int, m);
    QFETCH(int, dModel);
    QFETCH(int, heads);
    QFETCH(bool, causal);
    QFETCH(int, shown);
    return computeBoth(n, m, dModel, heads, causal, shown);
}

bool sameBits(const AttentionMatrix &a, const AttentionMatrix &b)
{
    return a.rows() == b.rows() && a.cols() == b.cols() && a.toDouble() == b.toDouble();
}

} // namespace

class TestHeadsKept : public QObject
{
    Q_OBJECT
private slots:
    void shownHeadContextAndOutputAreTheFullPassBitForBit_data();
    void shownHeadContextAndOutputAreTheFullPassBitForBit();
    void headsOnDemandDifferByFloatRoundingAtMost_data() { shownHeadContextAndOutputAreTheFullPassBitForBit_data(); }
    void headsOnDemandDifferByFloatRoundingAtMost();
    void thumbnailsAreTheirMatricesPooled_data() { shownHeadContextAndOutputAreTheFullPassBitForBit_data(); }
    void thumbnailsAreTheirMatricesPooled();
    void rowsAtOnceEqualRowsOneByOne();
    void meanOnDemandIsTheHeadsMean();
    void smallResultsKeepEveryHead();
    void theMeanShownKeepsNoHead();
};

void TestHeadsKept::shownHeadContextAndOutputAreTheFullPassBitForBit_data()
{
    QTest::addColumn<int>("n");
    QTest::addColumn<int>("m");
    QTest::addColumn<int>("dModel");
    QTest::addColumn<int>("heads");
    QTest::addColumn<bool>("causal");
    QTest::addColumn<int>("shown");
    // Lines of the thumbnails of 1, 2 and 3 rows (257, 520, 700 tokens); a
    // matrix wider than tall (cross-attention: 100 queries over 400 keys).
    QTest::newRow("257 tokens, 4 heads") << 257 << 257 << 32 << 4 << false << 1;
    QTest::newRow("257 tokens, 4 heads, causal") << 257 << 257 << 32 << 4 << true << 3;
    QTest::newRow("520 tokens, 3 heads, causal") << 520 << 520 << 48 << 3 << true << 0;
    QTest::newRow("700 tokens, 2 heads") << 700 << 700 << 16 << 2 << false << 1;
    QTest::newRow("700 tokens, 5 heads, causal") << 700 << 700 << 40 << 5 << true << 2;
    QTest::newRow("cross, 100 over 400") << 100 << 400 << 24 << 3 << false << 2;
}

void TestHeadsKept::shownHeadContextAndOutputAreTheFullPassBitForBit()
{
    QFETCH(int, heads);
    QFETCH(int, shown);
    const Case c = fetchedCase();
    QVERIFY(c.kept.singlePrecision && c.every.singlePrecision);
    QCOMPARE(int(c.kept.heads.size()), heads);
    for (int h = 0; h < heads; ++h) {
        const HeadResult &a = c.kept.heads[std::size_t(h)], &b = c.every.heads[std::size_t(h)];
        QCOMPARE(a.weights.isOnDemand(), h != shown);
        QVERIFY(a.scores.isOnDemand()); // scores are always computed again when shown
        QVERIFY(!b.weights.isOnDemand());
        QVERIFY(a.context == b.context);
        QVERIFY(a.queries == b.queries && a.keys == b.keys && a.values == b.values);
        if (h == shown) {
            QVERIFY(sameBits(a.weights, b.weights));
            QVERIFY(sameBits(a.scores, b.scores));
        }
    }
    QVERIFY(c.kept.output == c.every.output);
    // The mean, not shown in full, keeps only its thumbnail: the same bits
    // as the full pass's (the same sums, pooled the same way); its rows are
    // the heads' rows averaged when asked, float's rounding apart.
    const AttentionMatrix &mean = c.kept.meanWeights, &fullMean = c.every.meanWeights;
    QVERIFY(mean.isOnDemand() && !fullMean.isOnDemand());
    QVERIFY(mean.pooled() && fullMean.pooled());
    QCOMPARE(pooledDifference(mean.pooled()->cells, fullMean.pooled()->cells.cast<double>()), 0.0);
    QCOMPARE(mean.pooled()->largestMagnitude, fullMean.pooled()->largestMagnitude);
    QVERIFY((mean.toDouble() - fullMean.toDouble()).cwiseAbs().maxCoeff() < 2e-6);
}

void TestHeadsKept::headsOnDemandDifferByFloatRoundingAtMost()
{
    QFETCH(int, n);
    QFETCH(int, m);
    QFETCH(int, heads);
    QFETCH(int, shown);
    const Case c = fetchedCase();
    for (int h = 0; h < heads; ++h) {
        if (h == shown)
            continue;
        const HeadResult &head = c.kept.heads[std::size_t(h)];
        const Reference r = referenceHead(head, c.kept.scoreScale, c.causal);
        const Eigen::MatrixXd scores = head.scores.toDouble(), weights = head.weights.toDouble();
        const Eigen::MatrixXd fullWeights = c.every.heads[std::size_t(h)].weights.toDouble();
        const Index dk = head.queries.cols();
        // A float dot product of dk terms is within dk * 2^-24 of the sum of their sizes.
        for (Index i = 0; i < n; ++i)
            for (Index j = 0; j < m; ++j)
                QVERIFY2(std::abs(scores(i, j) - r.scores(i, j)) <= double(dk) * 0x1p-24 * r.bound(i, j) + 1e-30,
                         qPrintable(QStringLiteral("head %1 score (%2, %3)").arg(h).arg(i).arg(j)));
        // Weights below 1, scores of a few units: float's rounding is about 1e-7.
        QVERIFY2((weights - r.weights).cwiseAbs().maxCoeff() < 2e-6, qPrintable(QString::number(h)));
        QVERIFY((weights - fullWeights).cwiseAbs().maxCoeff() < 2e-6);
        // And against the head computed again in double from the inputs and
        // the weights, not from the pass's own q and k.
        QVERIFY((weights - headMatrixInDouble(c.kept, h, false)).cwiseAbs().maxCoeff() < 2e-6);
        for (Index i = 0; i < n; ++i) // masked weights stay exactly 0
            for (Index j = c.causal ? i + 1 : m; j < m; ++j)
                QCOMPARE(weights(i, j), 0.0);
    }
}

void TestHeadsKept::thumbnailsAreTheirMatricesPooled()
{
    QFETCH(int, heads);
    const Case c = fetchedCase();
    // Without scores shown, no scores' thumbnails; the weights' are the same bits.
    for (int h = 0; h < heads; ++h) {
        const HeadResult &head = c.kept.heads[std::size_t(h)];
        QVERIFY(head.weights.pooled() && !head.scores.pooled());
        QCOMPARE(pooledDifference(head.weights.pooled()->cells,
                                  c.keptWithScores.heads[std::size_t(h)].weights.pooled()->cells.cast<double>()),
                 0.0);
    }
    for (const AttentionResult *result : {&c.keptWithScores, &c.every}) {
        for (int h = 0; h < heads; ++h) {
            const HeadResult &head = result->heads[std::size_t(h)];
            const HeadResult &full = c.every.heads[std::size_t(h)];
            QVERIFY(head.weights.pooled() && head.scores.pooled());
            const Eigen::MatrixXd scores = full.scores.toDouble(), weights = full.weights.toDouble();
            // Kept weights are the kernel's own, as the thumbnail's: the same bits.
            QCOMPARE(pooledDifference(head.weights.pooled()->cells, pooledByHand(weights, c.causal, kThumbnailSide)), 0.0);
            QCOMPARE(head.weights.pooled()->largestMagnitude, largestVisibleMagnitude(weights, c.causal));
            // Scores are computed again when asked (another order of the same
            // products): float's rounding apart.
            const double top = largestVisibleMagnitude(scores, c.causal);
            QVERIFY(pooledDifference(head.scores.pooled()->cells, pooledByHand(scores, c.causal, kThumbnailSide))
                    < 1e-5 * top);
            QVERIFY(std::abs(head.scores.pooled()->largestMagnitude - top) < 1e-5 * top);
            // And against the double computation, independent of the pass.
            const Reference r = referenceHead(head, result->scoreScale, c.causal);
            QVERIFY(pooledDifference(head.weights.pooled()->cells, pooledByHand(r.weights, c.causal, kThumbnailSide)) < 2e-6);
        }
        const AttentionMatrix &mean = result->meanWeights;
        QVERIFY(mean.pooled());
        QVERIFY(pooledDifference(mean.pooled()->cells, pooledByHand(mean.toDouble(), c.causal, kThumbnailSide)) < 1e-6);
    }
}

void TestHeadsKept::rowsAtOnceEqualRowsOneByOne()
{
    const Case c = computeBoth(600, 600, 32, 4, true, 0);
    const AttentionMatrix &weights = c.kept.heads[2].weights, &scores = c.kept.heads[2].scores;
    QVERIFY(weights.isOnDemand());
    for (const AttentionMatrix *matrix : {&weights, &scores}) {
        RowMatrixF block;
        matrix->rowsInto(100, 37, block);
        QCOMPARE(block.rows(), Index(37));
        QCOMPARE(block.cols(), Index(600));
        Eigen::RowVectorXf row(600);
        for (Index i = 0; i < 37; ++i) {
            matrix->rowInto(100 + i, row);
            QVERIFY((block.row(i) - row).cwiseAbs().maxCoeff() < 1e-5);
            QCOMPARE(float((*matrix)(100 + i, 7)), row[7]);
        }
    }
    // A row's largest weight comes from its statistics, as for kept weights.
    QCOMPARE(weights.largestInRow(300, 301, false), c.every.heads[2].weights.largestInRow(300, 301, false));
}

void TestHeadsKept::meanOnDemandIsTheHeadsMean()
{
    for (const bool causal : {false, true}) {
        const Case c = computeBoth(520, 520, 24, 3, causal, 1);
        const AttentionMatrix &mean = c.kept.meanWeights;
        QVERIFY(mean.isOnDemand() && mean.isSinglePrecision());
        QCOMPARE(mean.rows(), Index(520));
        QCOMPARE(mean.cols(), Index(520));
        // Against the heads' weights computed in double here, from their q and k.
        Eigen::MatrixXd expected = Eigen::MatrixXd::Zero(520, 520);
        for (const HeadResult &head : c.kept.heads)
            expected += referenceHead(head, c.kept.scoreScale, c.causal).weights / 3.0;
        QVERIFY((mean.toDouble() - expected).cwiseAbs().maxCoeff() < 2e-6);
        // Rows at once, one by one and one entry at a time agree.
        RowMatrixF block;
        mean.rowsInto(200, 37, block);
        QCOMPARE(block.rows(), Index(37));
        Eigen::RowVectorXf row(520);
        for (Index i = 0; i < 37; ++i) {
            mean.rowInto(200 + i, row);
            QVERIFY((block.row(i) - row).cwiseAbs().maxCoeff() < 1e-6);
            QVERIFY(std::abs(mean(200 + i, 150) - double(row[150])) < 1e-6);
            QVERIFY(std::abs(row.sum() - 1.0f) < 1e-5);
            if (causal)
                QCOMPARE(mean(200 + i, 200 + i + 1), 0.0);
        }
        QVERIFY(std::abs(mean.largestInRow(300, 520, false) - expected.row(300).maxCoeff()) < 2e-6);
        QVERIFY(mean.allFinite());
    }
}

void TestHeadsKept::smallResultsKeepEveryHead()
{
    // 200 tokens fit a thumbnail one cell per entry: nothing to save.
    const Case c = computeBoth(200, 200, 32, 4, false, 1);
    QVERIFY(c.kept.singlePrecision);
    for (const HeadResult &head : c.kept.heads) {
        QVERIFY(!head.weights.isOnDemand());
        QVERIFY(!head.weights.pooled());
    }
    // Double passes keep every head whatever is asked.
    AttentionConfig config;
    config.heads = 2;
    config.headDim = 4;
    const AttentionResult small =
        computeAttention(randomEmbeddings(300, 8, 3), config, {}, nullptr, Precision::Double, nullptr,
                         HeadsKept::only(0));
    QVERIFY(!small.singlePrecision);
    QVERIFY(!small.heads[1].weights.isOnDemand());
}

void TestHeadsKept::theMeanShownKeepsNoHead()
{
    AttentionConfig config;
    config.heads = 3;
    config.headDim = 8;
    const AttentionResult r = computeAttention(randomEmbeddings(300, 24, 5), config, {}, nullptr, Precision::Single,
                                               nullptr, HeadsKept::only(std::nullopt));
    for (const HeadResult &head : r.heads)
        QVERIFY(head.weights.isOnDemand());
    QVERIFY(!r.meanWeights.isOnDemand()); // shown: kept in full
    QCOMPARE(r.meanWeights.rows(), Index(300));
    // Each row of the mean still sums to 1.
    QVERIFY(std::abs(r.meanWeights.row(123).sum() - 1.0) < 1e-5);
}

QTEST_APPLESS_MAIN(TestHeadsKept)
#include "tst_headskept.moc"
