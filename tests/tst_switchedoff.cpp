// A switched-off head is marked in every view that shows it: its weights are
// what it computed, but the layer adds none of its context, and a heatmap
// that looked normal beside a pipeline context of zeros taught the wrong
// thing. The main heatmap (veil over the cells, a banner, " · switched off"
// in the title, in exports too), the pipeline ("switched off: z = 0" over the zeros), the
// walkthrough (a line above the steps), a heads-grid tile (veil and cross,
// as the layers × heads grid draws), the layers × heads grid itself.
//
// Pixels are checked against colours worked out here: the cell's colour from
// its weight, blended with the window colour at the veil's opacity.

#include "headsgridview.h"
#include "heatmapview.h"
#include "modelgridview.h"
#include "modelwindowfixture.h"
#include "pipelineview.h"
#include "walkthroughpanel.h"

#include <QAction>
#include <QDockWidget>
#include <QPainter>
#include <QStandardPaths>

namespace {

int distance(QColor a, QColor b)
{
    return std::max({std::abs(a.red() - b.red()), std::abs(a.green() - b.green()), std::abs(a.blue() - b.blue())});
}

// What a cell of colour `cell` looks like under the veil of `window` colour.
QColor veiled(QColor cell, QColor window)
{
    const double a = 190 / 255.0; // the veil's opacity (modelgridpainter.h)
    return QColor::fromRgbF(float(cell.redF() * (1 - a) + window.redF() * a), float(cell.greenF() * (1 - a) + window.greenF() * a),
                            float(cell.blueF() * (1 - a) + window.blueF() * a));
}

QColor pixelAt(const QImage &image, const QPointF &p) { return image.pixelColor(p.toPoint()); }

} // namespace

class TestSwitchedOff : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void everyViewMarksASwitchedOffHead()
    {
        ModelWindowFixture f;
        f.window.findChild<QAction *>(QStringLiteral("example-trained-pronoun"))->trigger();
        QVERIFY(QTest::qWaitFor([&] { return f.model()->isOpen() && f.model()->trace() && f.idle(); }, 20000));
        f.window.selectHead(1); // layer 0, head 1
        QVERIFY(f.idle());
        HeatmapView *heat = f.window.heatmap();
        const QColor window = heat->palette().color(QPalette::Window);
        const QRectF cell = heat->cellRect(7, 1);
        const double weight = heat->painter().valueAt(7, 1);
        QVERIFY(weight > 0);

        // On: the cell has its own colour, nothing says "off".
        QImage on = heat->grab().toImage();
        QVERIFY(distance(pixelAt(on, cell.topLeft() + QPointF(3, 3)), heat->painter().colorFor(weight)) <= 2);
        QVERIFY(!heat->painter().title().contains(QStringLiteral("switched off")));
        QVERIFY(!f.window.pipeline()->currentModel().switchedOff);
        QVERIFY(f.window.walkthrough()->switchedOffNote().isEmpty());
        const PipelineLayout pipelineLayout = f.window.pipeline()->currentLayout();
        const PipelineModel pipelineOn = f.window.pipeline()->currentModel();
        const QRectF z = pipelineLayout.steps[PipelineLayout::ContextStep];
        const QRectF title(z.left(), z.top(), z.width(), pipelineLayout.lineHeight);
        const QImage pipelineImageOn = f.window.pipeline()->grab().toImage();
        QCOMPARE(PipelinePainter::contextTitle(pipelineOn), QStringLiteral("context z = Σ α·v"));

        f.doc.setAblatedHeads({{0, 1}}, QStringLiteral("Switch head 0:1 off"));
        QVERIFY(f.idle());
        QTRY_VERIFY(heat->snapshot()->isSwitchedOff(1));

        // The heatmap: veil, banner and title.
        QCOMPARE(heat->painter().title(), QStringLiteral("Attention weights α · layer 0 · head 1 (heads 0–%1) · switched off")
                                              .arg(f.model()->config()->heads - 1));
        QCOMPARE(heat->painter().switchedOffText(), QStringLiteral("Head 1 of layer 0 is switched off: its output is zero"));
        QImage off = heat->grab().toImage();
        const QColor under = pixelAt(off, cell.topLeft() + QPointF(3, 3));
        QVERIFY2(distance(under, veiled(heat->painter().colorFor(weight), window)) <= 3,
                 qPrintable(under.name() + QStringLiteral(" vs ") + veiled(heat->painter().colorFor(weight), window).name()));
        // The banner's box (the base colour) across the middle of the cells.
        const QRectF cells = heat->currentLayout().cellArea();
        const QColor base = heat->palette().color(QPalette::Base);
        int boxPixels = 0;
        for (int x = int(cells.left()); x < int(cells.right()); ++x)
            boxPixels += distance(off.pixelColor(x, int(cells.center().y()) - 12), base) <= 2 ? 1 : 0;
        QVERIFY2(boxPixels > 100, qPrintable(QString::number(boxPixels)));

        if (qEnvironmentVariableIsSet("ATTN_SWITCHED_OFF_SHOT")) // a picture for a person to look at
            f.window.grab().save(qEnvironmentVariable("ATTN_SWITCHED_OFF_SHOT"));
        // The pipeline: zeros, under a title that says why.
        const PipelineModel pipeline = f.window.pipeline()->currentModel();
        QVERIFY(pipeline.switchedOff);
        for (double v : pipeline.contextValues)
            QCOMPARE(v, 0.0);
        QCOMPARE(PipelinePainter::contextTitle(pipeline), QStringLiteral("switched off: z = 0"));
        const QImage pipelineImageOff = f.window.pipeline()->grab().toImage();
        QVERIFY(pipelineImageOff.copy(title.toRect()) != pipelineImageOn.copy(title.toRect())); // the title drawn is the new one

        // The walkthrough, when its tab is raised (the model's grid takes the dock first).
        f.window.findChild<QDockWidget *>(QStringLiteral("walkthrough"))->raise();
        QTRY_VERIFY(f.window.walkthrough()->isVisible());
        QCOMPARE(f.window.walkthrough()->switchedOffNote(),
                 QStringLiteral("Head 1 is switched off: its output is zero. These are the weights it computes; the "
                                "layer adds none of its context."));

        // The layers × heads grid, and a heads-grid tile of the same layer.
        QVERIFY(f.actions()->grid()->switchedOff().count({0, 1}) == 1);
        HeadsGridView tiles;
        tiles.resize(400, 400);
        tiles.setSnapshot(f.doc.snapshot());
        tiles.show();
        QVERIFY(QTest::qWaitForWindowExposed(&tiles));
        const QImage grid = tiles.grab().toImage();
        const qreal line = QFontMetricsF(tiles.font()).height();
        const int n = heat->painter().rows();
        const auto cellsOf = [&](int tile) { return HeadsGridPainter::tileCellsRect(tiles.tileRect(tile), line, n, n); };
        // The cross runs through the middle of head 1's cells in the text colour; head 0's are bare.
        QVERIFY(distance(pixelAt(grid, cellsOf(1).center()), tiles.palette().color(QPalette::Text)) < 60);
        QVERIFY(distance(pixelAt(grid, cellsOf(0).center()), tiles.palette().color(QPalette::Text)) >= 60);
        // The veil over its first cell (weight 1: the query 0 sees only itself).
        const QPointF first = cellsOf(1).topLeft() + QPointF(2, 2);
        QVERIFY(distance(pixelAt(grid, first), veiled(heat->painter().colorFor(1.0), window)) <= 3);

        // Switched back on: every mark goes.
        f.doc.setAblatedHeads({}, QStringLiteral("Switch head 0:1 back on"));
        QVERIFY(f.idle());
        QTRY_VERIFY(!heat->snapshot()->isSwitchedOff(1));
        QVERIFY(!heat->painter().title().contains(QStringLiteral("switched off")));
        QVERIFY(f.window.walkthrough()->switchedOffNote().isEmpty());
        QVERIFY(distance(pixelAt(heat->grab().toImage(), cell.topLeft() + QPointF(3, 3)), heat->painter().colorFor(weight)) <= 2);
    }
};

QTEST_MAIN(TestSwitchedOff)
#include "tst_switchedoff.moc"
