// What the views draw of a large result whose heads are not all kept in full
// (attn::HeadsKept): the heads grid from the pass's thumbnails and the
// heatmap from rows computed on demand look as they do from the same pass
// keeping every head; and the document keeps in full the head the views show.

#include "colordistance.h"
#include "colormap.h"
#include "document.h"
#include "headsgridview.h"
#include "heatmappainter.h"
#include "paintedby.h"
#include "session/session.h"
#include "snapshot.h"

#include <QImage>
#include <QPainter>
#include <QSignalSpy>
#include <QTest>
#include <random>

namespace {

attn::Session largeSession(int tokens, int dModel, int heads, bool causal)
{
    attn::Session s = attn::exampleSession();
    s.tokens.clear();
    for (int i = 0; i < tokens; ++i)
        s.tokens << QStringLiteral("w%1").arg(i % 37);
    std::mt19937 gen(5);
    std::normal_distribution<double> normal(0.0, 1.0);
    s.embeddings.resize(tokens, dModel);
    for (Eigen::Index i = 0; i < s.embeddings.size(); ++i)
        s.embeddings.data()[i] = normal(gen);
    s.attention.mode = attn::Mode::ScaledDotProduct;
    s.attention.heads = heads;
    s.attention.headDim = dModel / heads;
    s.attention.causal = causal;
    s.attention.outputProjection = true;
    s.query = 3;
    return s;
}

// How many pixels differ by more than `tolerance` in a channel: float's
// rounding may move a colour by a step of the colour map, no more.
int differingPixels(const QImage &a, const QImage &b, int tolerance)
{
    int count = 0;
    for (int y = 0; y < a.height(); ++y)
        for (int x = 0; x < a.width(); ++x) {
            const QRgb p = a.pixel(x, y), q = b.pixel(x, y);
            if (std::abs(qRed(p) - qRed(q)) > tolerance || std::abs(qGreen(p) - qGreen(q)) > tolerance
                || std::abs(qBlue(p) - qBlue(q)) > tolerance)
                ++count;
        }
    return count;
}

} // namespace

class TestHeadThumbnails : public QObject
{
    Q_OBJECT
private slots:
    void gridFromThumbnailsLooksAsFromEveryHead_data();
    void gridFromThumbnailsLooksAsFromEveryHead();
    void heatmapOfAHeadOnDemand();
    void documentKeepsTheShownHead();
    void cellsAreColouredByTheirValues();
};

void TestHeadThumbnails::gridFromThumbnailsLooksAsFromEveryHead_data()
{
    QTest::addColumn<bool>("causal");
    QTest::addColumn<bool>("scores");
    QTest::newRow("weights") << false << false;
    QTest::newRow("weights, causal") << true << false;
    QTest::newRow("scores") << false << true;
    QTest::newRow("scores, causal") << true << true;
}

void TestHeadThumbnails::gridFromThumbnailsLooksAsFromEveryHead()
{
    QFETCH(bool, causal);
    QFETCH(bool, scores);
    const attn::Session s = largeSession(700, 32, 4, causal);
    const SnapshotPtr kept = makeSnapshot(s, attn::Precision::Single, nullptr, attn::HeadsKept::only(0));
    const SnapshotPtr every = makeSnapshot(s, attn::Precision::Single, nullptr, attn::HeadsKept::all());
    QVERIFY(kept->result && every->result);
    QVERIFY(kept->result->heads[1].weights.isOnDemand());
    QVERIFY(!every->result->heads[1].weights.isOnDemand());

    HeadsGridPainter a, b;
    for (HeadsGridPainter *grid : {&a, &b})
        grid->setShowScores(scores);
    a.setSnapshot(kept);
    b.setSnapshot(every);
    // Tiles of 256 pixels or more a side: the thumbnails are drawn as they are.
    const QSize size(3 * 300, 2 * 320);
    const QImage fromThumbnails = paintedBy(a, size), fromMatrices = paintedBy(b, size);
    QCOMPARE(differingPixels(fromThumbnails, fromMatrices, 0) < size.width() * size.height() / 1000, true);
    QCOMPARE(differingPixels(fromThumbnails, fromMatrices, 8), 0);
    // The colour scale of each tile spans what its head holds.
    for (int tile = 0; tile < a.tileCount(); ++tile)
        QCOMPARE(float(a.tile(tile).dataMax()), float(b.tile(tile).dataMax()));
    // And the picture is not blank: masked cells and colours both appear.
    QVERIFY(fromThumbnails.pixel(size.width() / 6, size.height() / 4) != fromThumbnails.pixel(5, 5));
}

void TestHeadThumbnails::heatmapOfAHeadOnDemand()
{
    const attn::Session s = largeSession(600, 24, 3, true);
    const SnapshotPtr kept = makeSnapshot(s, attn::Precision::Single, nullptr, attn::HeadsKept::only(0));
    const SnapshotPtr every = makeSnapshot(s, attn::Precision::Single, nullptr, attn::HeadsKept::all());
    for (bool scores : {false, true}) {
        HeatmapPainter a, b;
        for (HeatmapPainter *h : {&a, &b}) {
            h->setHead(std::optional<int>(2));
            h->setShowScores(scores);
        }
        a.setSnapshot(kept);
        b.setSnapshot(every);
        QVERIFY(a.values()->isOnDemand());
        QVERIFY(std::abs(a.dataMax() - b.dataMax()) < 1e-5 * b.dataMax());
        QVERIFY(std::abs(a.valueAt(400, 123) - b.valueAt(400, 123)) < 1e-5);
        const QSize size(900, 800);
        QCOMPARE(differingPixels(paintedBy(a, size), paintedBy(b, size), 8), 0);
    }
}

void TestHeadThumbnails::documentKeepsTheShownHead()
{
    Document doc(largeSession(600, 48, 3, false));
    doc.selection()->setHead(HeadRef::one(0, 2));
    doc.setEmbeddingValue(4, 1, 0.5);
    QTRY_VERIFY(!doc.isComputing());
    QVERIFY(doc.result().singlePrecision);
    QVERIFY(!doc.result().heads[2].weights.isOnDemand());
    QVERIFY(doc.result().heads[0].weights.isOnDemand());
    QVERIFY(doc.result().heads[0].weights.pooled());
    // The mean only as its thumbnail, for the heads grid.
    QVERIFY(doc.result().meanWeights.isOnDemand());
    QVERIFY(doc.result().meanWeights.pooled());
    // The average shown: computed again at once (no edit needed), every
    // head on demand, the mean kept.
    doc.selection()->setHead(HeadRef::average(0));
    QVERIFY(doc.isComputing());
    QTRY_VERIFY(!doc.isComputing());
    QVERIFY(!doc.result().meanWeights.isOnDemand());
    doc.setEmbeddingValue(4, 1, 0.6);
    QTRY_VERIFY(!doc.isComputing());
    QVERIFY(doc.result().heads[2].weights.isOnDemand());
    QVERIFY(!doc.result().meanWeights.isOnDemand());
    QVERIFY(!doc.result().heads[0].scores.pooled()); // the views show weights

    // Picking a head, or showing scores, computes again on the worker (no edit
    // needed); the numbers are the same session's.
    const attn::Session session = doc.session();
    QSignalSpy results(&doc, &Document::resultChanged);
    doc.selection()->setHead(HeadRef::one(0, 1));
    QVERIFY(doc.isComputing());
    QTRY_VERIFY(!doc.isComputing());
    QCOMPARE(results.count(), 1);
    QVERIFY(!doc.result().heads[1].weights.isOnDemand());
    QVERIFY(doc.result().heads[2].weights.isOnDemand());
    doc.selection()->setShowScores(true);
    QTRY_VERIFY(!doc.isComputing());
    QCOMPARE(results.count(), 2);
    for (const attn::HeadResult &head : doc.result().heads)
        QVERIFY(head.scores.pooled() && head.weights.pooled());
    QVERIFY(doc.session() == session);
    // Back to weights: what the result holds will do, nothing is computed.
    doc.selection()->setShowScores(false);
    doc.selection()->setHead(HeadRef::one(0, 1));
    QVERIFY(!doc.isComputing());
    QCOMPARE(results.count(), 2);
}

// Each cell of a large single-precision heatmap drawn one pixel per cell
// (stored weights, a head on demand, the mean on demand) has the colour of
// its weight computed again in double (headMatrixInDouble): the colour map's
// own step apart. Masked cells show the masked look.
void TestHeadThumbnails::cellsAreColouredByTheirValues()
{
    const attn::Session s = largeSession(600, 32, 4, true);
    const SnapshotPtr snapshot = makeSnapshot(s, attn::Precision::Single, nullptr, attn::HeadsKept::only(0));
    QVERIFY(snapshot->result && snapshot->result->singlePrecision);
    const attn::AttentionResult &result = *snapshot->result;
    QVERIFY(result.meanWeights.isOnDemand() && result.heads[1].weights.isOnDemand());
    const QSize size(2600, 2600); // about 4 pixels a cell
    for (const std::optional<int> head : {std::optional<int>(0), std::optional<int>(1), std::optional<int>()}) {
        HeatmapPainter painter;
        painter.setHead(head);
        painter.setSnapshot(snapshot);
        const QImage image = paintedBy(painter, size);
        const HeatmapLayout &l = painter.layout(QRectF(QPointF(0, 0), size), QFont(), &image);
        const Eigen::MatrixXd expected = attn::headMatrixInDouble(result, head.value_or(-1), false);
        const QColor background = HeatmapPainter::maskedBackground(QPalette());
        const QColor hatch = HeatmapPainter::maskedHatch(QPalette());
        std::mt19937 gen(3);
        std::uniform_int_distribution<int> index(0, 599);
        for (int i = 0; i < 400; ++i) {
            const int r = index(gen), c = index(gen);
            const QColor pixel = image.pixelColor(l.cellRect(r, c).center().toPoint());
            const QString where = QStringLiteral("head %1, cell %2,%3").arg(head.value_or(-1)).arg(r).arg(c);
            if (c > r) {
                QVERIFY2(colorDistance(pixel, background) <= 6 || colorDistance(pixel, hatch) <= 6, qPrintable(where));
                continue;
            }
            QVERIFY2(colorDistance(pixel, painter.colorFor(expected(r, c))) <= 6,
                     qPrintable(where + QStringLiteral(": %1, expected %2").arg(pixel.name(),
                                                                             painter.colorFor(expected(r, c)).name())));
        }
    }
}

QTEST_MAIN(TestHeadThumbnails)
#include "tst_headthumbnails.moc"
