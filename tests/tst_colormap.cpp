// The colour maps alone: published endpoints, rising lightness, a neutral
// diverging centre, names and the text-contrast helper; the fixed colour
// scale's round range and its settings.
#include "colormap.h"
#include "colorscale.h"
#include "modelgridpainter.h"

#include <QSettings>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>
#include <limits>

Q_DECLARE_METATYPE(ColorMap)

namespace {

bool near(const QColor &actual, const QColor &expected, int tolerance)
{
    return std::abs(actual.red() - expected.red()) <= tolerance
        && std::abs(actual.green() - expected.green()) <= tolerance
        && std::abs(actual.blue() - expected.blue()) <= tolerance;
}

} // namespace

class TestColormap : public QObject
{
    Q_OBJECT
private slots:
    void endpoints_data()
    {
        QTest::addColumn<ColorMap>("map");
        QTest::addColumn<double>("t");
        QTest::addColumn<QColor>("expected");
        QTest::newRow("viridis 0") << ColorMap::Viridis << 0.0 << QColor("#440154");
        QTest::newRow("viridis 1") << ColorMap::Viridis << 1.0 << QColor("#fde725");
        QTest::newRow("viridis 0.5") << ColorMap::Viridis << 0.5 << QColor("#21918c");
        QTest::newRow("magma 0") << ColorMap::Magma << 0.0 << QColor("#000004");
        QTest::newRow("magma 1") << ColorMap::Magma << 1.0 << QColor("#fcfdbf");
        QTest::newRow("cividis 0") << ColorMap::Cividis << 0.0 << QColor("#00224e");
        QTest::newRow("cividis 1") << ColorMap::Cividis << 1.0 << QColor("#fee838");
        QTest::newRow("grayscale 0") << ColorMap::Grayscale << 0.0 << QColor(Qt::black);
        QTest::newRow("grayscale 1") << ColorMap::Grayscale << 1.0 << QColor(Qt::white);
        QTest::newRow("clamped below") << ColorMap::Viridis << -3.0 << QColor("#440154");
        QTest::newRow("clamped above") << ColorMap::Viridis << 7.0 << QColor("#fde725");
        QTest::newRow("NaN") << ColorMap::Viridis << std::nan("") << QColor("#440154");
    }
    void endpoints()
    {
        QFETCH(ColorMap, map);
        QFETCH(double, t);
        QFETCH(QColor, expected);
        const QColor actual = sequentialColor(map, t);
        QVERIFY2(near(actual, expected, 2), qPrintable(actual.name() + " != " + expected.name()));
    }

    void luminanceRises_data()
    {
        QTest::addColumn<ColorMap>("map");
        for (ColorMap map : allColorMaps())
            QTest::newRow(qPrintable(colorMapName(map))) << map;
    }
    void luminanceRises()
    {
        QFETCH(ColorMap, map);
        double previous = -1.0;
        for (int i = 0; i < 50; ++i) {
            const double l = relativeLuminance(sequentialColor(map, i / 49.0));
            QVERIFY2(l > previous, qPrintable(QStringLiteral("t=%1: %2 <= %3").arg(i / 49.0).arg(l).arg(previous)));
            previous = l;
        }
    }

    void diverging_data()
    {
        QTest::addColumn<double>("t");
        for (double t : {-1.0, -0.6, -0.2, -0.05, 0.05, 0.2, 0.6, 1.0})
            QTest::newRow(qPrintable(QString::number(t))) << t;
    }
    void diverging()
    {
        QFETCH(double, t);
        const QColor c = divergingColor(t);
        if (t < 0)
            QVERIFY2(c.blue() > c.red(), qPrintable(c.name()));
        else
            QVERIFY2(c.red() > c.blue(), qPrintable(c.name()));
    }
    void divergingCentreIsNeutral()
    {
        const QColor c = divergingColor(0.0);
        QVERIFY(std::abs(c.red() - c.green()) <= 3 && std::abs(c.green() - c.blue()) <= 3);
        QVERIFY(c.lightness() > 200); // a light grey, not a colour
        // Symmetric in lightness: equal magnitudes read as equally strong.
        for (double t : {0.25, 0.5, 1.0})
            QVERIFY(std::abs(divergingColor(t).lightness() - divergingColor(-t).lightness()) < 40);
    }

    void names()
    {
        QCOMPARE(allColorMaps().size(), 4);
        for (ColorMap map : allColorMaps())
            QCOMPARE(colorMapFromName(colorMapName(map)), std::optional<ColorMap>(map));
        QCOMPARE(colorMapName(ColorMap::Viridis), QStringLiteral("viridis"));
        QCOMPARE(colorMapName(ColorMap::Cividis), QStringLiteral("cividis"));
        QCOMPARE(colorMapName(ColorMap::Magma), QStringLiteral("magma"));
        QCOMPARE(colorMapName(ColorMap::Grayscale), QStringLiteral("grayscale"));
        QCOMPARE(colorMapFromName(QStringLiteral("Magma")), std::optional<ColorMap>(ColorMap::Magma));
        QCOMPARE(colorMapFromName(QStringLiteral("jet")), std::nullopt);
        QCOMPARE(colorMapFromName(QString()), std::nullopt);
    }

    void contrast()
    {
        QCOMPARE(contrastingTextColor(sequentialColor(ColorMap::Viridis, 0.0)), QColor(Qt::white));
        QCOMPARE(contrastingTextColor(sequentialColor(ColorMap::Viridis, 1.0)), QColor(Qt::black));
        QCOMPARE(contrastingTextColor(QColor(Qt::black)), QColor(Qt::white));
        QCOMPARE(contrastingTextColor(QColor(Qt::white)), QColor(Qt::black));
        QCOMPARE(contrastingTextColor(divergingColor(0.0)), QColor(Qt::black));
        QCOMPARE(contrastingTextColor(divergingColor(-1.0)), QColor(Qt::white));
    }

    // R of a fixed score range: the next of 1, 2, 5 × 10ⁿ at or above the largest |score|.
    void roundScoreLimit_data()
    {
        QTest::addColumn<double>("largest");
        QTest::addColumn<double>("limit");
        QTest::newRow("0.7") << 0.7 << 1.0;
        QTest::newRow("1 exactly") << 1.0 << 1.0;
        QTest::newRow("1.2") << 1.2 << 2.0;
        QTest::newRow("2 exactly") << 2.0 << 2.0;
        QTest::newRow("3.2") << 3.2 << 5.0;
        QTest::newRow("7") << 7.0 << 10.0;
        QTest::newRow("12") << 12.0 << 20.0;
        QTest::newRow("0.031") << 0.031 << 0.05;
        QTest::newRow("4.9e200") << 4.9e200 << 5e200;
        QTest::newRow("zero") << 0.0 << 1.0;
        QTest::newRow("negative") << -3.0 << 1.0;
        QTest::newRow("NaN") << std::nan("") << 1.0;
        QTest::newRow("infinity") << std::numeric_limits<double>::infinity() << 1.0;
    }
    void roundScoreLimit()
    {
        QFETCH(double, largest);
        QFETCH(double, limit);
        const double r = ColorScale::roundLimitAbove(largest);
        QVERIFY2(std::abs(r - limit) <= 1e-12 * limit, qPrintable(QString::number(r, 'g', 17)));
    }

    void scaleSettings()
    {
        QTemporaryDir dir;
        QSettings settings(dir.filePath(QStringLiteral("view.ini")), QSettings::IniFormat);
        QCOMPARE(ColorScale::fromSettings(settings), ColorScale()); // nothing saved: fitted
        ColorScale fixed;
        fixed.fixedWeights = true;
        fixed.fixedScores = true;
        fixed.scoreLimit = 5;
        fixed.save(settings);
        QCOMPARE(settings.value(QStringLiteral("view/weightScale")).toString(), QStringLiteral("fixed"));
        QCOMPARE(ColorScale::fromSettings(settings), fixed);
        // A hand-edited file: unknown words are "fit", a bad R is dropped.
        settings.setValue(QStringLiteral("view/weightScale"), QStringLiteral("sometimes"));
        settings.setValue(QStringLiteral("view/scoreLimit"), QStringLiteral("-inf"));
        const ColorScale edited = ColorScale::fromSettings(settings);
        QVERIFY(!edited.fixedWeights);
        QVERIFY(edited.fixedScores);
        QCOMPARE(edited.scoreLimit, 0.0);
        settings.setValue(QStringLiteral("view/scoreLimit"), QStringLiteral("lots"));
        QCOMPARE(ColorScale::fromSettings(settings).scoreLimit, 0.0);
    }

    // The grid's thumbnails: a level per pixel (built on a worker), then the
    // colour map's colours by table look-up.
    void gridThumbnailsKeepLevelsAndColours()
    {
        attn::ModelTrace trace;
        trace.layers.resize(1);
        attn::RowMatrix<float> w(3, 3);
        w << 1.0f, 0.0f, 0.0f, 0.5f, 0.5f, 0.0f, 0.2f, 0.3f, 0.5f;
        trace.layers[0].weights = {w};
        const ModelGridLevels causal = modelGridLevels(trace, true, 128);
        const QImage &l = causal[0][0];
        QCOMPARE(l.size(), QSize(3, 3));
        QCOMPARE(int(l.constScanLine(0)[0]), kGridLevelTop);
        QCOMPARE(int(l.constScanLine(0)[1]), kGridMasked);
        QCOMPARE(int(l.constScanLine(1)[0]), 127); // 0.5 * 254
        QCOMPARE(int(l.constScanLine(2)[0]), 51);  // 0.2 * 254 = 50.8
        QCOMPARE(int(l.constScanLine(2)[1]), 76);  // 0.3 * 254 = 76.2
        // Without the mask the zero above the diagonal is level 0, not masked.
        QCOMPARE(int(modelGridLevels(trace, false, 128)[0][0].constScanLine(0)[1]), 0);
        // Shrunk to 1 x 1: the largest weight of the block.
        QCOMPARE(int(modelGridLevels(trace, false, 1)[0][0].constScanLine(0)[0]), kGridLevelTop);

        const QColor masked(Qt::magenta);
        const QImage coloured = colouredTiles(causal, ColorMap::Magma, masked)[0][0];
        QCOMPARE(coloured.pixelColor(1, 0), masked);
        QCOMPARE(coloured.pixelColor(0, 1).rgb(), sequentialColor(ColorMap::Magma, 127.0 / 254).rgb());
        QCOMPARE(coloured.pixelColor(0, 0).rgb(), sequentialColor(ColorMap::Magma, 1.0).rgb());
    }
};

QTEST_GUILESS_MAIN(TestColormap)
#include "tst_colormap.moc"
