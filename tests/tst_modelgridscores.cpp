// The layers × heads grid coloured and sorted by a pattern score, on the
// shipped trained model (resources/examples/models/induction), whose layer-1
// induction head and layer-0 previous-token head are known: the numbers
// under the tiles are the core's scores of the shown trace, the sorted grid
// puts the best head first, and a click on a tile opens the head drawn there.

#include "model/headscores.h"
#include "modelgridpanel.h"
#include "modelgridview.h"
#include "modelwindowfixture.h"

#include <QCheckBox>
#include <QComboBox>
#include <QSignalSpy>
#include <QTest>
#include <cmath>

namespace {
const QString kModel = QStringLiteral(ATTN_TEST_DATA "/../../resources/examples/models/induction");
const QString kText = QStringLiteral("qmEjxBtrkwaDcsqmEjxBtrkwaDcs"); // a random stretch, then again

// The left edge of a layer's first column: the leftmost of its tiles.
double firstColumnLeft(const ModelGridView *grid, int layer)
{
    double left = grid->tileRect(layer, 0).left();
    for (int h = 1; h < grid->headCount(); ++h)
        left = std::min(left, grid->tileRect(layer, h).left());
    return left;
}
} // namespace

class TestModelGridScores : public QObject
{
    Q_OBJECT
private slots:
    void gridShowsAndSortsByAScore()
    {
        ModelWindowFixture f;
        f.window.sentenceEdit()->setText(kText);
        QVERIFY(f.open(kModel));
        ModelGridPanel *panel = f.actions()->gridPanel();
        ModelGridView *grid = panel->grid();
        QVERIFY(panel->isVisible());
        QVERIFY(grid->scores().values.empty()); // attention only, at first
        QVERIFY(!panel->sortBox()->isEnabled());

        // The core's scores of the trace the window shows, found independently of the panel.
        std::vector<int> ids;
        for (const attn::ModelToken &t : f.model()->tokens())
            ids.push_back(t.id);
        QCOMPARE(int(ids.size()), kText.size());
        const auto expected = attn::traceHeadScores(*f.model()->trace(), ids);
        const std::optional<int> inductionHead = attn::bestHead(expected[1], &attn::HeadScores::induction);
        QVERIFY(inductionHead);
        QVERIFY(expected[1][std::size_t(*inductionHead)].induction > 0.5); // the trained head, as tst_shippedmodel finds

        panel->scoreBox()->setCurrentIndex(panel->scoreBox()->findText(QStringLiteral("Induction")));
        QVERIFY(panel->sortBox()->isEnabled());
        const ModelGridScores &shown = grid->scores();
        QCOMPARE(int(shown.values.size()), 2);
        for (int l = 0; l < 2; ++l)
            for (int h = 0; h < f.model()->config()->heads; ++h)
                QCOMPARE(shown.values[std::size_t(l)][std::size_t(h)], expected[std::size_t(l)][std::size_t(h)].induction);
        QVERIFY(!shown.sorted);
        QCOMPARE(grid->tileRect(1, 2), grid->tileRect(1, 0).translated(2 * (grid->tileRect(1, 1).left()
                                                                             - grid->tileRect(1, 0).left()), 0));

        // Sorted: the best induction head of layer 1 is drawn first, and a click there opens it.
        panel->sortBox()->setChecked(true);
        QVERIFY(grid->scores().sorted);
        const QRectF first = grid->tileRect(1, *inductionHead);
        QCOMPARE(first.left(), firstColumnLeft(grid, 1));
        QSignalSpy picked(grid, &ModelGridView::tileSelected);
        QTest::mouseClick(grid, Qt::LeftButton, {}, first.center().toPoint());
        QCOMPARE(picked.count(), 1);
        QCOMPARE(picked.first().value(0).toInt(), 1);
        QCOMPARE(picked.first().value(1).toInt(), *inductionHead);
        QCOMPARE(f.doc.selection()->head(), HeadRef::one(1, *inductionHead));

        // The band under the tile has the score's colour.
        grid->resize(600, 500);
        QCoreApplication::processEvents();
        const QImage shot = grid->grab().toImage();
        const QRectF tile = grid->tileRect(1, *inductionHead);
        const double value = expected[1][std::size_t(*inductionHead)].induction;
        const QPointF inBand(tile.left() + 2, tile.bottom() - 2);
        const QColor band = shot.pixelColor((inBand * shot.devicePixelRatio()).toPoint());
        const QColor want = sequentialColor(ColorMap::Viridis, std::clamp(value, 0.0, 1.0));
        QVERIFY2(std::abs(band.red() - want.red()) <= 2 && std::abs(band.green() - want.green()) <= 2
                     && std::abs(band.blue() - want.blue()) <= 2,
                 qPrintable(QStringLiteral("%1 vs %2").arg(band.name(), want.name())));
        shot.save(QStringLiteral("/tmp/attn-grid-induction-sorted.png"));

        // Back to attention only: no bands, heads in their own order.
        panel->scoreBox()->setCurrentIndex(0);
        QVERIFY(grid->scores().values.empty());
        QVERIFY(!panel->sortBox()->isEnabled());
        QCOMPARE(grid->tileRect(1, 0).left(), firstColumnLeft(grid, 1));
    }

    // The worker colours the tiles with the levels; the grid takes them as
    // they are (the same images) while its colours match, and colours the
    // levels itself after the colour map changes.
    void gridTakesTheWorkersColours()
    {
        ModelWindowFixture f;
        f.window.sentenceEdit()->setText(kText);
        QVERIFY(f.open(kModel));
        ModelGridView *grid = f.actions()->gridPanel()->grid();
        const auto tiles = f.model()->gridTiles();
        QVERIFY(tiles);
        QCOMPARE(tiles->map, f.doc.selection()->colorMap());
        QCOMPARE(grid->thumbnail(1, 2).cacheKey(), tiles->images[1][2].cacheKey());

        const ColorMap other = f.doc.selection()->colorMap() == ColorMap::Magma ? ColorMap::Cividis : ColorMap::Magma;
        f.doc.selection()->setColorMap(other);
        const QImage recoloured = grid->thumbnail(1, 2);
        QVERIFY(recoloured.cacheKey() != tiles->images[1][2].cacheKey());
        const QImage expected =
            colouredTiles(*f.model()->gridLevels(), other, grid->palette().color(QPalette::Window))[1][2];
        QCOMPARE(recoloured, expected);

        f.type(kText.left(20));
        QVERIFY(f.idle());
        QCOMPARE(f.model()->gridTiles()->map, other);
        QCOMPARE(grid->thumbnail(1, 2).cacheKey(), f.model()->gridTiles()->images[1][2].cacheKey());
    }

    void orderPutsNumberlessHeadsLast()
    {
        ModelGridScores s;
        s.values = {{0.2, std::nan(""), 0.9, 0.2}};
        s.sorted = true;
        QCOMPARE(modelGridOrder(1, 4, &s), (std::vector<std::vector<int>>{{2, 0, 3, 1}}));
        s.sorted = false;
        QCOMPARE(modelGridOrder(1, 4, &s), (std::vector<std::vector<int>>{{0, 1, 2, 3}}));
        QCOMPARE(modelGridOrder(2, 2, nullptr), (std::vector<std::vector<int>>{{0, 1}, {0, 1}}));
    }
};

QTEST_MAIN(TestModelGridScores)
#include "tst_modelgridscores.moc"
