// A head that puts all its weight on one key per query draws a line one cell
// wide. Every picture with fewer pixels than cells (2000 tokens in a few
// hundred pixels) pools its cells to its pixels, the strongest value of each
// block winning, so the line shows in every pixel row: the heatmap, the heads
// grid's tiles and their export, the layers x heads grid and its export, and
// Compare. Scaled down from one pixel a cell instead, a picture lost most of
// its rows and columns and the line with them: each test here fails so.
// ATTN_HEATMAP_PNG_DIR=<folder> keeps the heatmap's picture to look at.

#include "colordistance.h"
#include "colormap.h"
#include "comparisonpainter.h"
#include "exportheads.h"
#include "headsgridview.h"
#include "heatmapview.h"
#include "modelgridpainter.h"
#include "modelgridview.h"
#include "model/firsttokenaside.h"
#include "paintedby.h"

#include <QImage>
#include <QPainter>
#include <QTest>
#include <cmath>
#include <random>

namespace {

void maybeSave(const QImage &image, const QString &name)
{
    if (!qEnvironmentVariableIsEmpty("ATTN_HEATMAP_PNG_DIR"))
        image.save(qEnvironmentVariable("ATTN_HEATMAP_PNG_DIR") + QStringLiteral("/thin-line-%1.png").arg(name));
}

QStringList numberedTokens(int n)
{
    QStringList tokens;
    for (int i = 0; i < n; ++i)
        tokens << QStringLiteral("t%1").arg(i);
    return tokens;
}

// Pictures of such a line in viridis: pixel rows showing cells, and the first
// of them that does not show the line.
struct LineRows
{
    int cellRows = 0;       // pixel rows showing cells: more than `minCells` pixels of viridis(0)
    int firstMiss = -1;     // the first of them without 1 ... maxLine pixels of viridis(1); -1: none
    int firstMissPixels = 0; // how many line pixels it had
};

LineRows rowsShowingTheLine(const QImage &image, const QRect &area, int minCells = 10, int maxLine = 4)
{
    const QColor low = sequentialColor(ColorMap::Viridis, 0.0), peak = sequentialColor(ColorMap::Viridis, 1.0);
    LineRows rows;
    for (int y = area.top(); y <= area.bottom(); ++y) {
        int lows = 0, peaks = 0;
        for (int x = area.left(); x <= area.right(); ++x) {
            lows += colorDistance(image.pixelColor(x, y), low) <= 8;
            peaks += colorDistance(image.pixelColor(x, y), peak) <= 24;
        }
        if (lows <= minCells)
            continue; // a title, labels, margins
        ++rows.cellRows;
        if ((peaks < 1 || peaks > maxLine) && rows.firstMiss < 0) {
            rows.firstMiss = y;
            rows.firstMissPixels = peaks;
        }
    }
    return rows;
}

// One head's weights over n tokens, causal: each query's weight 1 on the key
// halfway back, 0 elsewhere.
attn::RowMatrix<float> halfwayWeights(int n)
{
    attn::RowMatrix<float> w = attn::RowMatrix<float>::Zero(n, n);
    for (int r = 0; r < n; ++r)
        w(r, r / 2) = 1.0f;
    return w;
}

// n tokens whose every head puts weight 1 on the key halfway back (a line
// one cell wide), with the 256 x 256 thumbnail the pass would pool from it.
SnapshotPtr halfwayLine(int heads)
{
    const int n = 2000, side = attn::kThumbnailSide;
    auto weights = std::make_shared<attn::RowMatrixF>(halfwayWeights(n));
    auto thumbnail = std::make_shared<attn::PooledMatrix>();
    thumbnail->cells = attn::RowMatrixF::Zero(side, side);
    thumbnail->matrixRows = thumbnail->matrixCols = n;
    // The thumbnail's block holding row (or column) r: block i covers [i n / side, (i + 1) n / side).
    const auto blockOf = [&](int r) {
        int i = 0;
        while (i + 1 < side && std::int64_t(i + 1) * n / side <= r)
            ++i;
        return i;
    };
    for (int r = 0; r < n; ++r)
        thumbnail->cells(blockOf(r), blockOf(r / 2)) = 1.0f;
    thumbnail->findLargestMagnitude();
    attn::AttentionMatrix matrix{std::shared_ptr<const attn::RowMatrixF>(weights)};
    matrix.setPooled(thumbnail);
    auto result = std::make_shared<attn::AttentionResult>();
    result->singlePrecision = true;
    result->heads.assign(std::size_t(heads), attn::HeadResult{});
    for (attn::HeadResult &head : result->heads)
        head.weights = matrix;
    if (heads > 1)
        result->meanWeights = matrix;
    auto snapshot = std::make_shared<AttentionSnapshot>();
    snapshot->rowTokens = snapshot->columnTokens = numberedTokens(n);
    snapshot->result = result;
    return snapshot;
}

attn::ModelTrace halfwayTrace(int n, int layers, int heads)
{
    attn::ModelTrace trace;
    trace.layers.resize(std::size_t(layers));
    for (attn::LayerTrace &layer : trace.layers)
        layer.weights.assign(std::size_t(heads), halfwayWeights(n));
    return trace;
}

} // namespace

class TestThinLines : public QObject
{
    Q_OBJECT
private slots:
    // A previous-token head (each row's weight 1 on the key before it) of n
    // tokens fitted into about 500 pixels: a pixel stands for a block of
    // about 4 x 4 cells and shows the block's strongest weight. The diagonal
    // is one cell wide, so it must show in every pixel row, and only over
    // its own columns. (Scaling a picture of one pixel a cell down to the
    // screen dropped three rows and columns in four, and with them most of
    // the diagonal.)
    void aThinDiagonalShowsInEveryPixelRow_data()
    {
        QTest::addColumn<int>("n");
        QTest::newRow("2000") << 2000;
        QTest::newRow("3000") << 3000;
    }
    void aThinDiagonalShowsInEveryPixelRow()
    {
        QFETCH(int, n);
        auto weights = std::make_shared<attn::RowMatrixF>(attn::RowMatrixF::Zero(n, n));
        (*weights)(0, 0) = 1.0f;
        for (int r = 1; r < n; ++r)
            (*weights)(r, r - 1) = 1.0f;
        auto result = std::make_shared<attn::AttentionResult>();
        result->singlePrecision = true; // no mask: its hatching would cover pixels the diagonal shares with it
        result->heads.resize(1);
        result->heads[0].weights = attn::AttentionMatrix(std::shared_ptr<const attn::RowMatrixF>(weights));
        auto snapshot = std::make_shared<AttentionSnapshot>();
        snapshot->rowTokens = snapshot->columnTokens = numberedTokens(n);
        snapshot->result = result;
        HeatmapView view;
        view.setSnapshot(snapshot);
        view.setQuery(-1);
        view.resize(700, 560);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const QImage image = view.grab().toImage();
        const QRectF area = view.currentLayout().cellArea();
        QVERIFY2(area.height() < n / 3.0, qPrintable(QString::number(area.height())));
        const QColor peak = sequentialColor(ColorMap::Viridis, 1.0);
        // Cells [first, last] a pixel covers along an axis of the cell area.
        const auto cellsOf = [n](double pixel, double start, double length) {
            return std::make_pair(int(std::floor((pixel - start) * n / length)),
                                  int(std::ceil((pixel + 1 - start) * n / length)) - 1);
        };
        const int slack = int(std::ceil(n / area.width()));
        int rowsChecked = 0;
        for (int y = int(std::ceil(area.top())) + 1; y < int(std::floor(area.bottom())) - 1; ++y) {
            const auto [r0, r1] = cellsOf(y, area.top(), area.height());
            int peaks = 0;
            for (int x = int(std::ceil(area.left())); x < int(std::floor(area.right())); ++x) {
                if (colorDistance(image.pixelColor(x, y), peak) > 24)
                    continue;
                ++peaks;
                const auto [c0, c1] = cellsOf(x, area.left(), area.width());
                // The diagonal's columns in these rows are r0 - 1 ... r1 - 1, give or take a pixel of rounding.
                QVERIFY2(c1 >= r0 - 1 - slack && c0 <= r1 - 1 + slack, qPrintable(QStringLiteral("pixel %1,%2: columns %3–%4, rows %5–%6")
                                                               .arg(x).arg(y).arg(c0).arg(c1).arg(r0).arg(r1)));
            }
            QVERIFY2(peaks > 0, qPrintable(QStringLiteral("pixel row %1 (rows %2–%3) shows no diagonal").arg(y).arg(r0).arg(r1)));
            ++rowsChecked;
        }
        QVERIFY2(rowsChecked > 300, qPrintable(QString::number(rowsChecked)));
        maybeSave(image, QStringLiteral("heatmap-%1").arg(n));
    }

    // Tiles smaller than the pass's thumbnails (256 cells a side) pool them
    // again to their own pixels, the strongest thumbnail cell winning: a line
    // one cell wide (each query's weight 1 on the key halfway back) shows in
    // every pixel row of a tile of about 120 pixels. Scaled down instead, more
    // than half the thumbnail's rows and columns were dropped, and with them
    // most of the line. (The main diagonal would survive that by chance: rows
    // and columns of a square tile are dropped alike.)
    void smallTilesKeepAThinDiagonal()
    {
        HeadsGridPainter grid;
        grid.setSnapshot(halfwayLine(2));
        QCOMPARE(grid.tileCount(), 3);
        const QSize size(300, 300);
        const QImage image = paintedBy(grid, size);
    maybeSave(image, QStringLiteral("heads-grid"));
        for (int tile = 0; tile < grid.tileCount(); ++tile) {
            const QRect area = grid.tileRect(QRectF(QPointF(0, 0), size), tile).toAlignedRect().intersected(image.rect());
            const LineRows rows = rowsShowingTheLine(image, area);
            QVERIFY2(rows.cellRows > 80 && rows.cellRows < attn::kThumbnailSide, qPrintable(QString::number(rows.cellRows)));
            QVERIFY2(rows.firstMiss < 0, qPrintable(QStringLiteral("tile %1, pixel row %2: %3 pixels of the line")
                                                        .arg(tile).arg(rows.firstMiss).arg(rows.firstMissPixels)));
        }
    }

    // The same in an exported picture of the heads (PNG): its tiles pool to
    // their pixels too.
    void exportedTilesKeepAThinDiagonal()
    {
        HeadsExportPainter heads;
        heads.setSnapshot(halfwayLine(1));
        QCOMPARE(heads.tileCount(), 1);
        const QImage image = paintedBy(heads, QSize(400, 300));
    maybeSave(image, QStringLiteral("heads-export"));
        // The cells fill the left of the picture; the colour bar (right of x = 300) is left out.
        const LineRows rows = rowsShowingTheLine(image, QRect(0, 0, 300, 300));
        QVERIFY2(rows.cellRows > 150 && rows.cellRows < 300, qPrintable(QString::number(rows.cellRows)));
        QVERIFY2(rows.firstMiss < 0, qPrintable(QStringLiteral("pixel row %1: %2 pixels of the line")
                                                    .arg(rows.firstMiss).arg(rows.firstMissPixels)));
    }

    // A layer's thumbnail of more tokens than it has pixels, against the rule
    // computed here cell by cell: 301 tokens make blocks of 3 (the last of
    // one), 101 pixels a side (250: 2 and 125; 700: 6 and 117); a pixel is the level of the largest weight
    // (times its row's factor with the first token set aside) among the keys
    // its block's first row sees (inside the sliding window, right of the
    // first token when set aside), masked when there are none; random
    // causal rows, with and without a window and the first token set aside.
    void layerThumbnailsKeepEachBlocksLargestWeight_data()
    {
        QTest::addColumn<int>("n");
        QTest::addColumn<int>("side");
        QTest::addColumn<int>("block");
        QTest::newRow("301 tokens") << 301 << 101 << 3;
        QTest::newRow("250 tokens") << 250 << 125 << 2;
        QTest::newRow("700 tokens") << 700 << 117 << 6;
    }
    void layerThumbnailsKeepEachBlocksLargestWeight()
    {
        QFETCH(int, n);
        QFETCH(int, side);
        QFETCH(int, block);
        const int window = 40;
        std::mt19937 random(7);
        std::uniform_real_distribution<float> uniform(0.0f, 1.0f);
        attn::LayerTrace layer;
        attn::RowMatrix<float> w = attn::RowMatrix<float>::Zero(n, n);
        for (int r = 0; r < n; ++r) {
            for (int c = std::max(0, r - window + 1); c <= r; ++c)
                w(r, c) = uniform(random);
            w.row(r) /= w.row(r).sum();
        }
        layer.weights = {w};
        for (const bool aside : {false, true}) {
            for (const int layerWindow : {0, window}) {
                const QImage image = modelGridLayerLevels(layer, true, kModelGridMaxSide, aside, layerWindow).front();
                QCOMPARE(image.size(), QSize(side, side));
                for (int y = 0; y < side; ++y) {
                    const int r0 = y * block, r1 = std::min(n, r0 + block);
                    for (int x = 0; x < side; ++x) {
                        int c0 = std::max(x * block, aside ? 1 : 0);
                        if (layerWindow > 0)
                            c0 = std::max(c0, r0 - layerWindow + 1);
                        const int c1 = std::min(n, x * block + block);
                        const int got = image.constScanLine(y)[x];
                        if (c0 > r1 - 1 || c0 >= c1) {
                            QVERIFY2(got == kGridMasked, qPrintable(QStringLiteral("%1,%2: %3").arg(x).arg(y).arg(got)));
                            continue;
                        }
                        float largest = 0;
                        for (int r = r0; r < r1; ++r) {
                            const float scale = aside ? float(attn::firstTokenAsideScale(w.row(r).data(), n)) : 1.0f;
                            for (int c = c0; c < c1; ++c)
                                largest = std::max(largest, w(r, c) * scale);
                        }
                        const int expected = int(double(std::min(largest, 1.0f)) * kGridLevelTop + 0.5);
                        QVERIFY2(got == expected, qPrintable(QStringLiteral("aside %1 window %2, %3,%4: %5, not %6")
                                                                 .arg(aside).arg(layerWindow).arg(x).arg(y).arg(got)
                                                                 .arg(expected)));
                    }
                }
            }
        }
    }

    // The pooled levels, against the rule computed here cell by cell from
    // the weights: a pixel is the level of the largest weight among the
    // cells of its block the mask leaves, masked when it leaves none.
    void pooledLevelsKeepEachBlocksLargestWeight()
    {
        const int n = 256, side = 37; // thumbnails of 128: blocks of 2 tokens
        const attn::RowMatrix<float> w = halfwayWeights(n);
        const ModelGridLevels full = modelGridLevels(halfwayTrace(n, 1, 1), true, kModelGridMaxSide);
        QCOMPARE(full[0][0].width(), kModelGridMaxSide);
        const ModelGridLevels pooled = pooledLevels(full, side);
        const QImage &image = pooled[0][0];
        QCOMPARE(image.size(), QSize(side, side));
        int lineCells = 0;
        for (int y = 0; y < side; ++y) {
            for (int x = 0; x < side; ++x) {
                // The weights' rows and columns under pixel (x, y), through the thumbnail's blocks.
                const int t0 = y * kModelGridMaxSide / side, t1 = (y + 1) * kModelGridMaxSide / side;
                const int u0 = x * kModelGridMaxSide / side, u1 = (x + 1) * kModelGridMaxSide / side;
                const int r0 = t0 * n / kModelGridMaxSide, r1 = t1 * n / kModelGridMaxSide;
                const int c0 = u0 * n / kModelGridMaxSide, c1 = u1 * n / kModelGridMaxSide;
                float largest = -1.0f;
                for (int r = r0; r < r1; ++r)
                    for (int c = c0; c < std::min(c1, r + 1); ++c)
                        largest = std::max(largest, w(r, c));
                const int got = image.constScanLine(y)[x];
                if (largest < 0) {
                    QVERIFY2(got == kGridMasked, qPrintable(QStringLiteral("%1,%2: %3").arg(x).arg(y).arg(got)));
                } else {
                    QVERIFY2(got == int(std::lround(largest * kGridLevelTop)),
                             qPrintable(QStringLiteral("%1,%2: %3, largest %4").arg(x).arg(y).arg(got).arg(largest)));
                    lineCells += got == kGridLevelTop;
                }
            }
        }
        QVERIFY(lineCells >= side);
        // Thumbnails no larger than the side are the same images.
        QCOMPARE(pooledLevels(full, kModelGridMaxSide)[0][0].cacheKey(), full[0][0].cacheKey());
    }

    // The window's grid of 2 layers x 3 heads at 2000 tokens in 220 x 160
    // pixels: tiles of about 45 pixels for thumbnails of 128.
    void smallTilesDrawAnUnbrokenLine()
    {
        const attn::ModelTrace trace = halfwayTrace(2000, 2, 3);
        auto levels = std::make_shared<const ModelGridLevels>(modelGridLevels(trace, true, kModelGridMaxSide));
        ModelGridView grid;
        grid.setColorMap(ColorMap::Viridis);
        grid.setLevels(levels);
        grid.resize(220, 160);
        const QImage image = grid.grab().toImage();
        maybeSave(image, QStringLiteral("model-grid"));
        for (int layer = 0; layer < 2; ++layer) {
            for (int head = 0; head < 3; ++head) {
                const QRect tile = grid.tileRect(layer, head).toAlignedRect();
                QVERIFY2(tile.width() < kModelGridMaxSide / 2, qPrintable(QString::number(tile.width())));
                // Tiles of about 45 pixels: more than 3 cell pixels make a row of cells, the line 1 to 3 pixels.
                const LineRows rows = rowsShowingTheLine(image, tile, 3, 3);
                QVERIFY2(rows.cellRows > tile.height() / 2, qPrintable(QString::number(rows.cellRows)));
                QVERIFY2(rows.firstMiss < 0, qPrintable(QStringLiteral("layer %1 head %2: pixel row %3 has %4 pixels of the line")
                                                            .arg(layer).arg(head).arg(rows.firstMiss).arg(rows.firstMissPixels)));
            }
        }
    }

    // A PNG of the grid, as export draws it: thumbnails of the tiles' pixels
    // (modelGridTilePixels), pooled from the weights themselves.
    void exportedTilesDrawAnUnbrokenLine()
    {
        const attn::ModelTrace trace = halfwayTrace(2000, 2, 3);
        QImage image(240, 170, QImage::Format_RGB32);
        image.fill(Qt::white);
        const QRectF bounds(0, 0, 240, 170);
        {
            QPainter p(&image);
            const int side = modelGridTilePixels(p, bounds, 2, 3);
            QVERIFY2(side < kModelGridMaxSide, qPrintable(QString::number(side)));
            paintModelGrid(p, bounds, modelGridImages(trace, true, ColorMap::Viridis, Qt::gray, side), -1, -1,
                           QPalette());
        }
        maybeSave(image, QStringLiteral("model-grid-export"));
        const ModelGridLayout l = modelGridLayout(bounds, 2, 3, QFontMetricsF(QFont()));
        for (int layer = 0; layer < 2; ++layer) {
            for (int head = 0; head < 3; ++head) {
                const QRect tile = l.tileRect(layer, head).toAlignedRect();
                // Tiles of about 45 pixels: more than 3 cell pixels make a row of cells, the line 1 to 3 pixels.
                const LineRows rows = rowsShowingTheLine(image, tile, 3, 3);
                QVERIFY2(rows.cellRows > tile.height() / 2, qPrintable(QString::number(rows.cellRows)));
                QVERIFY2(rows.firstMiss < 0, qPrintable(QStringLiteral("layer %1 head %2: pixel row %3 has %4 pixels of the line")
                                                            .arg(layer).arg(head).arg(rows.firstMiss).arg(rows.firstMissPixels)));
            }
        }
    }
    // Panels of a long text have fewer pixels than cells: each pixel shows
    // the strongest weight of its block, so a head that puts its weight on
    // one key per query (here the key halfway back, over 1000 tokens) draws
    // a line in every pixel row of the panel. Scaled down from one pixel a
    // cell, the picture lost most of its rows and columns, and the line with them.
    void longTextPanelsKeepAThinLine()
    {
        const int n = 1000;
        auto data = std::make_shared<ComparisonData>();
        data->a.weights = halfwayWeights(n);
        data->a.labels = numberedTokens(n);
        data->b = data->a;
        data->causal = true;
        ComparisonPainter painter;
        painter.setData(data);
        painter.setColorMap(ColorMap::Viridis);
        const QRectF bounds(0, 0, 900, 420);
        QImage image(bounds.size().toSize(), QImage::Format_RGB32);
        image.fill(Qt::white);
        {
            QPainter p(&image);
            painter.paint(p, bounds, QPalette(), QFont());
        }
        maybeSave(image, QStringLiteral("compare"));
        const QRect panel = painter.layout(bounds, QFont()).a.toAlignedRect().intersected(image.rect());
        const LineRows rows = rowsShowingTheLine(image, panel);
        QVERIFY2(rows.cellRows > 100 && rows.cellRows < n / 2, qPrintable(QString::number(rows.cellRows)));
        // The cells stay inside their panel: under it, no row shows them (a
        // floor of half a pixel a cell made 1000 cells run 200 pixels past it).
        const QRect under(panel.left(), panel.bottom() + 1, panel.width(), image.height() - panel.bottom() - 1);
        QCOMPARE(rowsShowingTheLine(image, under).cellRows, 0);
        QVERIFY2(rows.firstMiss < 0, qPrintable(QStringLiteral("pixel row %1: %2 pixels of the line")
                                                    .arg(rows.firstMiss).arg(rows.firstMissPixels)));
    }
};

QTEST_MAIN(TestThinLines)
#include "tst_thinlines.moc"
