// Sliding windows in the window, on the test checkpoints: mistral (a window
// of 3 on both layers) and qwen2-window (a window of 3 on layer 1 only).
// Keys outside a query's window (j <= i - 3) are drawn as masked cells are,
// and the colour bar, the band itself, the title and the tooltips say why;
// the pipeline names them; the layers × heads grid masks them in its tiles
// and marks the windowed layers' row labels, with a caption saying what the
// mark means; the first token's share counts only the queries that see it.
// Expected weights come from tests/data/families/expected.json.

#include "heatmapview.h"
#include "model/headscores.h"
#include "modelfixtures.h"
#include "modelgridview.h"
#include "modelwindowfixture.h"
#include "pipelineview.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QStandardPaths>

namespace {

const QString kText = QStringLiteral("The robot moved the box because it was heavy");

QString folder(const char *name) { return QStringLiteral(ATTN_TEST_DATA "/families/") + QLatin1String(name); }

QJsonObject expectedCase(const char *name)
{
    return fixtures::readJson(QStringLiteral(ATTN_TEST_DATA "/families/expected.json"))
        .value(QStringLiteral("cases")).toObject().value(QLatin1String(name)).toObject();
}

int distance(QColor a, QColor b)
{
    return std::max({std::abs(a.red() - b.red()), std::abs(a.green() - b.green()), std::abs(a.blue() - b.blue())});
}

} // namespace

class TestWindowViews : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void heatmapPipelineAndScores()
    {
        ModelWindowFixture f;
        f.window.sentenceEdit()->setText(kText);
        QVERIFY(f.open(folder("mistral")));
        QCOMPARE(f.model()->config()->windowOf(0), 3);
        f.window.selectHead(1);
        QVERIFY(f.idle());
        HeatmapView *heat = f.window.heatmap();
        QCOMPARE(heat->painter().rows(), 11);
        QVERIFY(heat->painter().title().endsWith(QStringLiteral(" · window 3")));
        QVERIFY(heat->painter().colorBarTitle().startsWith(QStringLiteral("hatched: outside the window of 3 · ")));
        QCOMPARE(heat->painter().outsideWindowText(), QStringLiteral("outside the window of 3"));

        // Query 8 sees keys 6, 7, 8: key 5 and before are hatched like the keys after it;
        // key 6 has its weight's colour (the reference's number).
        const QImage image = heat->grab().toImage();
        const QColor background = HeatmapPainter::maskedBackground(heat->palette());
        const QColor hatch = HeatmapPainter::maskedHatch(heat->palette());
        const auto covered = [&](int row, int column) {
            const QRect cell = heat->cellRect(row, column).toAlignedRect().adjusted(2, 2, -2, -2);
            for (int y = cell.top(); y <= cell.bottom(); ++y)
                for (int x = cell.left(); x <= cell.right(); ++x) {
                    const QColor c = image.pixelColor(x, y);
                    if (distance(c, background) > 2 && distance(c, hatch) > 2)
                        return false;
                }
            return true;
        };
        QVERIFY(covered(8, 5));
        QVERIFY(covered(8, 2));
        QVERIFY(covered(8, 9)); // after the query: the causal mask, as before
        QVERIFY(!covered(8, 6));
        const double weight = fixtures::matrix(expectedCase("mistral")["layers"][0]["heads"][1]["weights"])(8, 6);
        QVERIFY(weight > 0.01);
        QVERIFY(distance(image.pixelColor((heat->cellRect(8, 6).topLeft() + QPointF(3, 3)).toPoint()),
                         heat->painter().colorFor(weight)) <= 2);
        QVERIFY(heat->tooltipText(8, 5).contains(QStringLiteral("weight α: outside the window of 3 (weight 0)")));
        QVERIFY(heat->tooltipText(8, 9).contains(QStringLiteral("weight α: masked (weight 0)")));

        // The pipeline names the keys the window hides.
        f.doc.setQuery(8);
        const PipelineModel pipeline = f.window.pipeline()->currentModel();
        for (const PipelineKeyRow &row : pipeline.rows)
            QCOMPARE(row.outsideWindow, row.key <= 5);

        // The first token's share: only queries 1 and 2 see key 0.
        const auto table = f.model()->headScores();
        QVERIFY(table);
        const attn::RowMatrix<double> w = fixtures::matrix(expectedCase("mistral")["layers"][1]["heads"][2]["weights"]);
        QVERIFY(std::abs((*table)[1][2].firstToken - (w(1, 0) + w(2, 0)) / 2) < 1e-5);
    }

    void gridMasksAndMarksWindowedLayers()
    {
        ModelWindowFixture f;
        f.window.sentenceEdit()->setText(kText);
        QVERIFY(f.open(folder("qwen2-window")));
        ModelGridView *grid = f.actions()->grid();
        QCOMPARE(grid->marks().windows, (std::vector<int>{0, 3}));
        QCOMPARE(modelGridRowLabel(0, grid->marks()), QStringLiteral("L0"));
        QCOMPARE(modelGridRowLabel(1, grid->marks()), QStringLiteral("L1 w"));
        QCOMPARE(modelGridCaption(grid->marks()), QStringLiteral("w: layer with a sliding window of 3 tokens"));
        QVERIFY(grid->gridLayout().captionHeight > 0);
        // A tile's pixel is one weight here: layer 1 hides key 2 from query 6, layer 0 does not.
        const QImage &full = (*grid->levels())[0][0], &windowed = (*grid->levels())[1][0];
        QCOMPARE(int(windowed.constScanLine(6)[2]), kGridMasked);
        QCOMPARE(int(windowed.constScanLine(6)[3]), kGridMasked);
        QVERIFY(int(windowed.constScanLine(6)[4]) != kGridMasked);
        QVERIFY(int(full.constScanLine(6)[2]) != kGridMasked);
        // Drawn: the mark after layer 1's number in the highlight colour, none after layer 0's.
        const QImage image = grid->grab().toImage();
        const ModelGridLayout l = grid->gridLayout();
        const auto highlighted = [&](int layer) {
            const QRectF label(l.bounds.left(), grid->tileRect(layer, 0).top(), l.labelWidth - 4, l.tileSide());
            int count = 0;
            for (int y = int(label.top()); y < int(label.bottom()); ++y)
                for (int x = int(label.left()); x < int(label.right()); ++x)
                    count += distance(image.pixelColor(x, y), grid->palette().color(QPalette::Highlight)) < 60;
            return count;
        };
        QVERIFY(highlighted(1) > 5);
        QCOMPARE(highlighted(0), 0);
    }
};

QTEST_MAIN(TestWindowViews)
#include "tst_windowviews.moc"
