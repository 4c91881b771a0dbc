// The layers × heads grid when its tiles have fewer pixels than their
// thumbnails (a 12 x 12 grid in a dock): the thumbnails are pooled to the
// tiles' pixels, the largest weight of a block winning, so a head that puts
// all its weight on one key per query still draws an unbroken line. Scaled
// down instead, the picture lost more than half its rows and columns.

#include "linepixels.h"
#include "modelgridpainter.h"
#include "modelgridview.h"

#include <QImage>
#include <QPainter>
#include <QTest>

namespace {

// One head's weights over n tokens, causal: each query's weight 1 on the key
// halfway back, 0 elsewhere.
attn::RowMatrix<float> halfwayWeights(int n)
{
    attn::RowMatrix<float> w = attn::RowMatrix<float>::Zero(n, n);
    for (int r = 0; r < n; ++r)
        w(r, r / 2) = 1.0f;
    return w;
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

class TestModelGridPixels : public QObject
{
    Q_OBJECT
private slots:
    // The pooled levels, against the rule computed here cell by cell from
    // the weights: a pixel is the level of the largest weight among the
    // cells of its block the mask leaves, masked when it leaves none.
    void pooledLevelsKeepEachBlocksLargestWeight()
    {
        const int n = 300, side = 37;
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
};

QTEST_MAIN(TestModelGridPixels)
#include "tst_modelgridpixels.moc"
