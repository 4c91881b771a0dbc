#include "barchartview.h"
#include "document.h"
#include "heatmapview.h"

#include <QTest>

// Run with QT_SCALE_FACTOR=2 (set by CTest): the views render their caches at
// the device pixel ratio, so cell edges and bars stay one physical pixel sharp.
class TestHighDpi : public QObject
{
    Q_OBJECT

    // Across a vertical cell edge, how many physical pixels are neither the left
    // colour nor the right one (a blurred, scaled-up cache shows several).
    static int blendedPixelsAcross(const QImage &image, int y, int fromX, int toX)
    {
        const QRgb left = image.pixel(fromX, y);
        const QRgb right = image.pixel(toX, y);
        int blended = 0;
        for (int x = fromX; x <= toX; ++x) {
            const QRgb p = image.pixel(x, y);
            if (p != left && p != right)
                ++blended;
        }
        return blended;
    }

private slots:
    void heatmapIsCrispAtRatioTwo()
    {
        QCOMPARE(qgetenv("QT_SCALE_FACTOR"), QByteArray("2"));
        Document doc;
        HeatmapView view;
        view.setSnapshot(doc.snapshot());
        view.setQuery(-1); // no outline in the way
        view.resize(500, 420);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QCOMPARE(view.devicePixelRatioF(), 2.0);
        const QImage image = view.grab().toImage();
        QCOMPARE(image.width(), 1000);
        QCOMPARE(image.devicePixelRatio(), 2.0);
        // The edge between cells (2,0) and (2,1), sampled on the cells' lower quarter
        // (away from the numbers): at most the 1-px grid line in between.
        const QRectF a = view.cellRect(2, 0);
        const int y = int((a.top() + a.height() * 0.85) * 2);
        const int edge = int(a.right() * 2);
        QVERIFY2(blendedPixelsAcross(image, y, edge - 6, edge + 6) <= 3,
                 qPrintable(QString::number(blendedPixelsAcross(image, y, edge - 6, edge + 6))));
    }

    // Zoomed in, the one-pixel-per-cell image is scaled without smoothing:
    // a cell edge is as sharp as at fit.
    void zoomedHeatmapIsCrispAtRatioTwo()
    {
        Document doc;
        QStringList words;
        for (int i = 0; i < 300; ++i)
            words << QStringLiteral("w%1").arg(i % 37);
        doc.setSentence(words.join(QLatin1Char(' ')));
        QVERIFY(QTest::qWaitFor([&] { return !doc.isComputing(); }, 20000));
        HeatmapView view;
        view.setSnapshot(doc.snapshot());
        view.setQuery(-1);
        view.resize(500, 420);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setZoom({12, QPointF(0.4, 0.6)}); // cells about 12 px: no grid lines, no numbers
        const QImage image = view.grab().toImage();
        const HeatmapLayout &l = view.currentLayout();
        const int row = (l.visibleRows().first + l.visibleRows().second) / 2;
        const int column = (l.visibleColumns().first + l.visibleColumns().second) / 2;
        const QRectF a = l.cellRect(row, column);
        QVERIFY(a.width() > 8);
        const int y = int(a.center().y() * 2);
        const int edge = int(a.right() * 2);
        QVERIFY2(blendedPixelsAcross(image, y, edge - 6, edge + 6) <= 1,
                 qPrintable(QString::number(blendedPixelsAcross(image, y, edge - 6, edge + 6))));
    }

    void barChartIsCrispAtRatioTwo()
    {
        Document doc;
        BarChartView view;
        view.setSnapshot(doc.snapshot());
        view.setQuery(1);
        view.resize(640, 300);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const QImage image = view.grab().toImage();
        QCOMPARE(image.width(), 1280);
        const QRectF bar = view.currentLayout().barRect(0, 1);
        const int y = int(bar.center().y() * 2);
        const int edge = int(bar.left() * 2);
        QVERIFY(blendedPixelsAcross(image, y, edge - 4, edge + 4) <= 1);
    }
};

QTEST_MAIN(TestHighDpi)
#include "tst_highdpi.moc"
