// The average of a layer's heads against one head, in every place that draws
// or writes one: the heatmap painter, the heads grid, the heads export and the
// CSV export. The expected numbers are the per-cell mean of the snapshot's own
// head matrices, so a painter or exporter that showed a head for the average
// (or the average for a head) fails. Run with QT_QPA_PLATFORM=offscreen.

#include "exporter.h"
#include "exportheads.h"
#include "headsgridview.h"
#include "session/embedding.h"
#include "heatmappainter.h"
#include "paintedby.h"
#include "testdata.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <optional>

namespace {

// The example sentence with three heads of width 2; seed 123 gives heads
// whose patterns differ clearly (checked by headsDiffer()).
attn::Session threeHeadSession(bool causal)
{
    attn::Session s = attn::exampleSession();
    s.attention.mode = attn::Mode::ScaledDotProduct;
    s.attention.heads = 3;
    s.attention.headDim = 2;
    s.attention.scale = true;
    s.attention.causal = causal;
    s.attention.outputProjection = true;
    s.attention.seed = 123;
    return s;
}

Eigen::MatrixXd headMatrix(const attn::AttentionResult &r, int head, bool scores)
{
    const attn::HeadResult &h = r.heads[std::size_t(head)];
    return scores ? h.scores.toDouble() : h.weights.toDouble();
}

// The per-cell mean over the heads, summed here from the head matrices.
Eigen::MatrixXd meanOfHeads(const attn::AttentionResult &r, bool scores)
{
    Eigen::MatrixXd sum = Eigen::MatrixXd::Zero(headMatrix(r, 0, scores).rows(), headMatrix(r, 0, scores).cols());
    for (int h = 0; h < int(r.heads.size()); ++h)
        sum += headMatrix(r, h, scores);
    return sum / double(r.heads.size());
}

// The largest difference between the painter's visible cells and `expected`.
double largestDifference(const HeatmapPainter &p, const Eigen::MatrixXd &expected)
{
    double largest = 0.0;
    for (int r = 0; r < p.rows(); ++r)
        for (int c = 0; c < p.columns(); ++c)
            if (!p.isMasked(r, c))
                largest = std::max(largest, std::abs(p.valueAt(r, c) - expected(r, c)));
    return largest;
}

// The numbers of a CSV export (its first row and column are labels).
Eigen::MatrixXd readCsvNumbers(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QList<QByteArray> lines = f.readAll().split('\n');
    while (!lines.isEmpty() && lines.last().trimmed().isEmpty())
        lines.removeLast();
    if (lines.size() < 2)
        return {};
    const int columns = int(lines[1].split(',').size()) - 1;
    Eigen::MatrixXd m(lines.size() - 1, columns);
    for (int r = 1; r < lines.size(); ++r) {
        const QList<QByteArray> fields = lines[r].trimmed().split(',');
        if (fields.size() != columns + 1)
            return {};
        for (int c = 0; c < columns; ++c)
            m(r - 1, c) = fields[c + 1].toDouble();
    }
    return m;
}

constexpr double kTolerance = 1e-12;
// How far head 2 must be from the mean somewhere for the test to tell them apart.
constexpr double kClearlyApart = 1e-3;

} // namespace

class TestHeadAverage : public QObject
{
    Q_OBJECT

private slots:
    void headsDiffer_data();
    void headsDiffer();
    void painterAverageAndHead_data() { headsDiffer_data(); }
    void painterAverageAndHead();
    void headsGridTiles();
    void headsExportTiles();
    void sharedKeyValueHeadsAreGrouped();
    void csvAverageAndHead_data();
    void csvAverageAndHead();
    void csvAverageInSinglePrecision();
};

void TestHeadAverage::headsDiffer_data()
{
    QTest::addColumn<bool>("causal");
    QTest::addColumn<bool>("scores");
    QTest::newRow("weights") << false << false;
    QTest::newRow("scores") << false << true;
    QTest::newRow("causal weights") << true << false;
    QTest::newRow("causal scores") << true << true;
}

// The fixture can tell the average from head 2, and head 2 from head 0.
void TestHeadAverage::headsDiffer()
{
    QFETCH(bool, causal);
    QFETCH(bool, scores);
    const SnapshotPtr snapshot = snapshotForSession(threeHeadSession(causal));
    QVERIFY(snapshot->result);
    const attn::AttentionResult &r = *snapshot->result;
    QCOMPARE(int(r.heads.size()), 3);
    QVERIFY((headMatrix(r, 2, scores) - meanOfHeads(r, scores)).cwiseAbs().maxCoeff() > kClearlyApart);
    QVERIFY((headMatrix(r, 2, scores) - headMatrix(r, 0, scores)).cwiseAbs().maxCoeff() > kClearlyApart);
}

void TestHeadAverage::painterAverageAndHead()
{
    QFETCH(bool, causal);
    QFETCH(bool, scores);
    const SnapshotPtr snapshot = snapshotForSession(threeHeadSession(causal));
    QVERIFY(snapshot->result);
    const attn::AttentionResult &r = *snapshot->result;
    const Eigen::MatrixXd mean = meanOfHeads(r, scores);
    const Eigen::MatrixXd head2 = headMatrix(r, 2, scores);

    HeatmapPainter p;
    p.setSnapshot(snapshot);
    p.setShowScores(scores);
    p.setHead(std::nullopt);
    QVERIFY(!p.effectiveHead());
    QVERIFY(largestDifference(p, mean) < kTolerance);
    QVERIFY(largestDifference(p, head2) > kClearlyApart);
    QVERIFY(p.title().endsWith(QStringLiteral("average of 3 heads")));

    p.setHead(std::optional<int>(2));
    QCOMPARE(p.effectiveHead(), std::optional<int>(2));
    QCOMPARE(largestDifference(p, head2), 0.0); // read in place
    QVERIFY(largestDifference(p, mean) > kClearlyApart);
    QVERIFY(p.title().endsWith(QStringLiteral("head 2 (heads 0–2)")));

    // Back to the average after a head: the painter's own average is rebuilt.
    p.setHead(std::nullopt);
    QVERIFY(largestDifference(p, mean) < kTolerance);
    // A head the snapshot does not have draws the average, as before.
    p.setHead(std::optional<int>(3));
    QVERIFY(!p.effectiveHead());
    QVERIFY(largestDifference(p, mean) < kTolerance);
}

void TestHeadAverage::headsGridTiles()
{
    const SnapshotPtr snapshot = snapshotForSession(threeHeadSession(false));
    QVERIFY(snapshot->result);
    const attn::AttentionResult &r = *snapshot->result;
    HeadsGridPainter grid;
    grid.setSnapshot(snapshot);
    QCOMPARE(grid.tileCount(), 4);
    for (int tile = 0; tile < 3; ++tile) {
        QCOMPARE(grid.headOfTile(tile), std::optional<int>(tile));
        QCOMPARE(largestDifference(grid.tile(tile), headMatrix(r, tile, false)), 0.0);
    }
    QVERIFY(!grid.headOfTile(3).has_value());
    QCOMPARE(grid.tileTitle(3), QStringLiteral("average"));
    QVERIFY(largestDifference(grid.tile(3), meanOfHeads(r, false)) < kTolerance);
    // The average and a head that does not exist select the average's tile.
    QCOMPARE(grid.tileOfHead(std::nullopt), 3);
    QCOMPARE(grid.tileOfHead(std::optional<int>(2)), 2);
    QCOMPARE(grid.tileOfHead(std::optional<int>(7)), 3);
    grid.setShowScores(true);
    QVERIFY(largestDifference(grid.tile(3), meanOfHeads(r, true)) < kTolerance);
}

void TestHeadAverage::headsExportTiles()
{
    HeadsExportPainter heads;
    heads.setSnapshot(snapshotForSession(threeHeadSession(false)));
    QCOMPARE(heads.tileCount(), 4);
    QCOMPARE(heads.headOfTile(2), std::optional<int>(2));
    QVERIFY(!heads.headOfTile(3).has_value());
    QCOMPARE(heads.tileTitle(2), QStringLiteral("head 2"));
    QCOMPARE(heads.tileTitle(3), QStringLiteral("average"));
}

void TestHeadAverage::sharedKeyValueHeadsAreGrouped()
{
    // Four query heads, two key/value heads: heads 0 and 1 share one, 2 and 3 the other.
    attn::Session s = threeHeadSession(false);
    s.embeddings = attn::resizeEmbeddings(s.tokens, s.embeddings, 8);
    s.attention.heads = 4;
    s.attention.kvHeads = 2;
    const SnapshotPtr snapshot = snapshotForSession(s);
    QVERIFY(snapshot->result);
    HeadsGridPainter grid;
    grid.setSnapshot(snapshot);
    QCOMPARE(grid.tileCount(), 5);
    QCOMPARE(grid.groupSize(), 2);
    QCOMPARE(grid.groupCount(), 2);
    QCOMPARE(grid.tileTitle(0), QStringLiteral("head 0 · k/v 0"));
    QCOMPARE(grid.tileTitle(3), QStringLiteral("head 3 · k/v 1"));
    QCOMPARE(grid.tileTitle(4), QStringLiteral("average"));
    QCOMPARE(grid.keyValueHeadOfTile(2), std::optional<int>(1));
    QVERIFY(!grid.keyValueHeadOfTile(4));
    // Each group in one row: its frame holds its two tiles and no other.
    const QRectF bounds(0, 0, 400, 600);
    for (int g = 0; g < 2; ++g) {
        const QRectF frame = grid.groupRect(bounds, g);
        QVERIFY(!frame.isEmpty());
        for (int tile = 0; tile < 5; ++tile) {
            const bool member = tile / 2 == g && tile < 4;
            QCOMPARE(frame.contains(grid.tileRect(bounds, tile)), member);
        }
        QCOMPARE(grid.tileRect(bounds, 2 * g).top(), grid.tileRect(bounds, 2 * g + 1).top());
    }
    QVERIFY(!grid.groupRect(bounds, 0).intersects(grid.groupRect(bounds, 1)));
    // The frames are drawn: a pixel in the gap between a group's two tiles is tinted, the gap between groups is not.
    const QImage image = paintedBy(grid, bounds.size().toSize());
    const QRectF a = grid.tileRect(bounds, 0), b = grid.tileRect(bounds, 1), c = grid.tileRect(bounds, 2);
    const QPoint inside(int((a.right() + b.left()) / 2), int(a.center().y()));
    const QPoint between(int(a.center().x()), int((grid.groupRect(bounds, 0).bottom() + grid.groupRect(bounds, 1).top()) / 2));
    QVERIFY(c.top() > a.bottom());
    QVERIFY(image.pixel(inside) != image.pixel(between));
    QCOMPARE(QColor(image.pixel(between)), QPalette().color(QPalette::Base));
    // The heads export names the key/value heads too.
    HeadsExportPainter heads;
    heads.setSnapshot(snapshot);
    QCOMPARE(heads.tileTitle(1), QStringLiteral("head 1 · k/v 0"));
    // One key/value head per head: no groups.
    grid.setSnapshot(snapshotForSession(threeHeadSession(false)));
    QVERIFY(!grid.showsGroups());
    QVERIFY(grid.groupRect(bounds, 0).isEmpty());
    QCOMPARE(grid.tileTitle(0), QStringLiteral("head 0"));
}

void TestHeadAverage::csvAverageAndHead_data()
{
    QTest::addColumn<ExportView>("view");
    QTest::addColumn<bool>("scores");
    QTest::newRow("weights") << ExportView::Heatmap << false;
    QTest::newRow("scores") << ExportView::Scores << true;
}

void TestHeadAverage::csvAverageAndHead()
{
    QFETCH(ExportView, view);
    QFETCH(bool, scores);
    const attn::Session session = threeHeadSession(false);
    const SnapshotPtr snapshot = snapshotForSession(session);
    QVERIFY(snapshot->result && !snapshot->result->singlePrecision);
    const attn::AttentionResult &r = *snapshot->result;
    QTemporaryDir dir;
    ExportOptions options;
    options.view = view;
    QString error;

    options.head = std::nullopt;
    const QString averagePath = dir.filePath(QStringLiteral("average.csv"));
    QVERIFY2(exportFile(session, snapshot, options, averagePath, &error), qPrintable(error));
    const Eigen::MatrixXd average = readCsvNumbers(averagePath);
    QCOMPARE(average.rows(), Eigen::Index(r.heads[0].weights.rows()));
    QVERIFY((average - meanOfHeads(r, scores)).cwiseAbs().maxCoeff() < kTolerance);

    options.head = 2;
    const QString headPath = dir.filePath(QStringLiteral("head2.csv"));
    QVERIFY2(exportFile(session, snapshot, options, headPath, &error), qPrintable(error));
    const Eigen::MatrixXd head2 = readCsvNumbers(headPath);
    QCOMPARE(head2.rows(), average.rows());
    QCOMPARE(head2, headMatrix(r, 2, scores)); // every digit
    QVERIFY((head2 - average).cwiseAbs().maxCoeff() > kClearlyApart);
}

// A session shown in single precision exports numbers computed again in
// double (core's headMatrixInDouble): the average still means the mean.
void TestHeadAverage::csvAverageInSinglePrecision()
{
    const attn::Session session = largeSession(); // four heads: the work that picks single precision
    const SnapshotPtr snapshot = snapshotForSession(session);
    QVERIFY(snapshot->result && snapshot->result->singlePrecision);
    const attn::AttentionResult exact = attn::computeSession(session, attn::Precision::Double);
    QTemporaryDir dir;
    ExportOptions options;
    options.head = std::nullopt;
    QString error;
    const QString path = dir.filePath(QStringLiteral("average.csv"));
    QVERIFY2(exportFile(session, snapshot, options, path, &error), qPrintable(error));
    const Eigen::MatrixXd average = readCsvNumbers(path);
    QCOMPARE(average.rows(), Eigen::Index(256));
    const Eigen::MatrixXd mean = meanOfHeads(exact, false);
    QVERIFY((average - mean).cwiseAbs().maxCoeff() < 1e-12);
    QVERIFY((average - headMatrix(exact, 2, false)).cwiseAbs().maxCoeff() > kClearlyApart);
}

QTEST_MAIN(TestHeadAverage)
#include "tst_headaverage.moc"
