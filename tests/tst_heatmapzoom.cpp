// Zoom, pan and colour scales of the heatmap: the layout's maths as values,
// then the widget driven by wheel, gesture, mouse and key events, then pixels.
#include "colordistance.h"
#include "document.h"
#include "headsgridview.h"
#include "heatmaplayout.h"
#include "heatmapview.h"
#include "mainwindow.h"

#include <QAction>
#include <QNativeGestureEvent>
#include <QPointingDevice>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>
#include <QToolButton>
#include <QWheelEvent>
#include <cmath>

namespace {

QStringList numberedTokens(int n)
{
    QStringList tokens;
    for (int i = 0; i < n; ++i)
        tokens << QStringLiteral("t%1").arg(i);
    return tokens;
}

HeatmapLayout layoutAt(int n, const HeatmapZoom &zoom)
{
    HeatmapLayoutOptions options;
    options.zoom = zoom;
    return HeatmapLayout(QRectF(0, 0, 600, 450), n, n, numberedTokens(n), numberedTokens(n), QFontMetricsF(QFont()),
                         options);
}

// A sentence of n words from a short list, so words repeat ("the₆").
bool setWords(Document &doc, int n)
{
    const QStringList base = QStringLiteral("the quick brown fox jumps over the lazy dog and then rests").split(' ');
    QStringList words;
    for (int i = 0; i < n; ++i)
        words << base[i % base.size()];
    doc.setSentence(words.join(QLatin1Char(' ')));
    // A large sentence is computed on a worker thread.
    return QTest::qWaitFor([&] { return !doc.isComputing(); }, 20000) && doc.snapshot()->result;
}

// A cell's colour, sampled away from its number and from the grid lines.
QColor cellColor(const QImage &image, const QRectF &cell)
{
    return image.pixelColor((cell.topLeft() + QPointF(3.5, 3.5)).toPoint());
}

int textPixels(const QImage &image, const QRect &area, const QColor &text)
{
    int count = 0;
    const QRect clipped = area.intersected(image.rect());
    for (int y = clipped.top(); y <= clipped.bottom(); ++y)
        for (int x = clipped.left(); x <= clipped.right(); ++x)
            count += colorDistance(image.pixelColor(x, y), text) <= 200;
    return count;
}

void sendWheel(QWidget *widget, const QPointF &pos, QPoint angle, Qt::KeyboardModifiers modifiers)
{
    QWheelEvent event(pos, widget->mapToGlobal(pos), QPoint(), angle, Qt::NoButton, modifiers, Qt::NoScrollPhase,
                      false);
    QCoreApplication::sendEvent(widget, &event);
}

void sendMouse(QWidget *widget, QEvent::Type type, const QPointF &pos, Qt::MouseButton button,
               Qt::MouseButtons buttons)
{
    QMouseEvent event(type, pos, widget->mapToGlobal(pos), button, buttons, Qt::NoModifier);
    QCoreApplication::sendEvent(widget, &event);
}

} // namespace

class TestHeatmapZoom : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true); // never the user's settings
        QSettings().clear();
    }

    // Expected values worked by hand: the cell area is W × H; zoomed by z the
    // matrix is zW × zH, and a centre (cx, cy) scrolls cx·zW − W/2 out on the
    // left. With n cells of zW/n each, the first visible column is
    // floor((cx·zW − W/2) / (zW/n)) = floor(n·(cx − 1/(2z))), whatever W is.
    void zoomMaths_data()
    {
        QTest::addColumn<int>("n");
        QTest::addColumn<double>("factor");
        QTest::addColumn<QPointF>("centre");
        QTest::addColumn<int>("first");   // first visible row and column
        QTest::addColumn<int>("end");
        QTest::addColumn<int>("middle");  // the cell under the cell area's centre
        QTest::addColumn<QPointF>("clampedCentre");
        QTest::newRow("fit") << 20 << 1.0 << QPointF(0.5, 0.5) << 0 << 20 << 10 << QPointF(0.5, 0.5);
        // 20·(0.5 − 1/8) = 7.5 → 7; 20·(0.5 + 1/8) = 12.5 → 13; 20·0.5 = 10.
        QTest::newRow("x4 middle") << 20 << 4.0 << QPointF(0.5, 0.5) << 7 << 13 << 10 << QPointF(0.5, 0.5);
        // A centre of 0 is clamped to 1/(2z) = 0.25: columns 0–9, the middle on 5.
        QTest::newRow("x2 corner") << 20 << 2.0 << QPointF(0, 0) << 0 << 10 << 5 << QPointF(0.25, 0.25);
        QTest::newRow("x2 far corner") << 20 << 2.0 << QPointF(1, 1) << 10 << 20 << 15 << QPointF(0.75, 0.75);
        // 2000·(0.5 ∓ 1/20) = 900 and 1100.
        QTest::newRow("2000 x10") << 2000 << 10.0 << QPointF(0.5, 0.5) << 900 << 1100 << 1000 << QPointF(0.5, 0.5);
        QTest::newRow("below fit") << 20 << 0.25 << QPointF(0.3, 0.3) << 0 << 20 << 10 << QPointF(0.5, 0.5);
    }
    void zoomMaths()
    {
        QFETCH(int, n);
        QFETCH(double, factor);
        QFETCH(QPointF, centre);
        QFETCH(int, first);
        QFETCH(int, end);
        QFETCH(int, middle);
        QFETCH(QPointF, clampedCentre);
        const HeatmapLayout fit = layoutAt(n, {});
        const HeatmapLayout l = layoutAt(n, {factor, centre});
        QCOMPARE(l.cellArea(), fit.cellArea()); // zoom changes what is shown, not where
        QCOMPARE(l.zoom().factor, std::max(1.0, factor));
        QVERIFY(std::abs(l.zoom().centre.x() - clampedCentre.x()) < 1e-12);
        QVERIFY(std::abs(l.zoom().centre.y() - clampedCentre.y()) < 1e-12);
        QCOMPARE(l.visibleRows(), std::make_pair(first, end));
        QCOMPARE(l.visibleColumns(), std::make_pair(first, end));
        QVERIFY(std::abs(l.cellWidth() - fit.cellWidth() * l.zoom().factor) < 1e-9);
        const auto hit = l.cellAt(l.cellArea().center() + QPointF(0.01, 0.01));
        QVERIFY(hit.has_value());
        QCOMPARE(*hit, std::make_pair(middle, middle));
        // Every visible cell maps back to itself; the first visible cell
        // starts at or before the area's corner.
        for (int i : {first, (first + end) / 2, end - 1}) {
            const QRectF cell = l.cellRect(i, i);
            const auto back = l.cellAt(cell.intersected(l.cellArea()).center());
            QVERIFY(back.has_value());
            QCOMPARE(*back, std::make_pair(i, i));
        }
        QVERIFY(l.cellRect(first, first).left() <= l.cellArea().left() + 1e-9);
        QVERIFY(l.cellRect(end - 1, end - 1).right() >= l.cellArea().right() - 1e-9);
        QVERIFY(!l.cellAt(l.cellArea().topLeft() - QPointF(2, 2)).has_value());
    }

    void zoomIsBounded()
    {
        const HeatmapLayout l = layoutAt(2000, {1e9, QPointF(0.5, 0.5)});
        QCOMPARE(l.zoom().factor, l.maxZoom());
        QVERIFY(std::min(l.cellWidth(), l.cellHeight()) <= 120 + 1e-9);
        QVERIFY(l.maxZoom() > 100); // 2000 cells in ~400 px: room to zoom until they hold text
        QCOMPARE(layoutAt(20, {std::nan(""), QPointF(0.5, 0.5)}).zoom().factor, 1.0);
    }

    // Zooming about a point keeps the matrix point under it: the same cell,
    // at the same fraction of that cell.
    void zoomAboutKeepsThePointsCell_data()
    {
        QTest::addColumn<double>("startFactor");
        QTest::addColumn<QPointF>("startCentre");
        QTest::addColumn<QPointF>("anchorShare"); // where in the cell area, as fractions
        QTest::addColumn<double>("factor");
        QTest::newRow("fit, in x1.25, middle") << 1.0 << QPointF(0.5, 0.5) << QPointF(0.5003, 0.4997) << 1.25;
        QTest::newRow("fit, in x4, near top left") << 1.0 << QPointF(0.5, 0.5) << QPointF(0.1, 0.2) << 4.0;
        QTest::newRow("fit, in x4, bottom right") << 1.0 << QPointF(0.5, 0.5) << QPointF(0.97, 0.9) << 4.0;
        QTest::newRow("x4, in x3, off centre") << 4.0 << QPointF(0.3, 0.6) << QPointF(0.7, 0.25) << 3.0;
        QTest::newRow("x8, out x0.5, middle") << 8.0 << QPointF(0.5, 0.5) << QPointF(0.5003, 0.4997) << 0.5;
    }
    void zoomAboutKeepsThePointsCell()
    {
        QFETCH(double, startFactor);
        QFETCH(QPointF, startCentre);
        QFETCH(QPointF, anchorShare);
        QFETCH(double, factor);
        const int n = 2000;
        const HeatmapLayout before = layoutAt(n, {startFactor, startCentre});
        const QRectF area = before.cellArea();
        const QPointF anchor(area.left() + anchorShare.x() * area.width(), area.top() + anchorShare.y() * area.height());
        const HeatmapLayout after = layoutAt(n, before.zoomedAbout(anchor, factor));
        QVERIFY(std::abs(after.zoom().factor - startFactor * factor) < 1e-9);
        QCOMPARE(after.cellAt(anchor), before.cellAt(anchor));
        // Where in the matrix the anchor points, in cells: unchanged.
        const auto inCells = [&](const HeatmapLayout &l) {
            return QPointF((anchor.x() - l.contentRect().left()) / l.cellWidth(),
                           (anchor.y() - l.contentRect().top()) / l.cellHeight());
        };
        QVERIFY2(std::abs(inCells(after).x() - inCells(before).x()) < 1e-6
                     && std::abs(inCells(after).y() - inCells(before).y()) < 1e-6,
                 qPrintable(QStringLiteral("%1,%2 became %3,%4")
                                .arg(inCells(before).x()).arg(inCells(before).y())
                                .arg(inCells(after).x()).arg(inCells(after).y())));
    }

    void scrolledToShowsTheCell()
    {
        const HeatmapLayout l = layoutAt(20, {4.0, QPointF(0.5, 0.5)}); // rows and columns 7–12
        QCOMPARE(l.scrolledTo(10, 10), l.zoom());                      // already visible: no move
        const HeatmapLayout top = layoutAt(20, l.scrolledTo(2, -1));
        QCOMPARE(top.visibleRows().first, 2);                          // the least move: 2 at the top edge
        QCOMPARE(top.visibleColumns(), l.visibleColumns());            // the other axis stays
        const HeatmapLayout corner = layoutAt(20, l.scrolledTo(19, 19));
        QCOMPARE(corner.visibleRows().second, 20);
        QCOMPARE(corner.visibleColumns().second, 20);
        QVERIFY(corner.cellRect(19, 19).right() <= corner.cellArea().right() + 1e-9);
        const HeatmapLayout panned = layoutAt(20, l.pannedBy(QPointF(-l.cellWidth() * 2, 0)));
        QCOMPARE(panned.visibleColumns().first, l.visibleColumns().first + 2);
    }

    // At 2000 tokens fitted, labels are decimated and numbers hidden; zoomed
    // until a cell is a line tall every label shows, and then the numbers.
    void labelsAppearAsCellsGrow()
    {
        const QFontMetricsF metrics{QFont()};
        const HeatmapLayout fit = layoutAt(2000, {});
        QVERIFY(fit.rowLabelStep() > 20);
        QVERIFY(!fit.numbersFit());
        const qreal lineZoom = metrics.height() / fit.cellHeight();
        const HeatmapLayout almost = layoutAt(2000, {lineZoom * 0.9, QPointF(0.5, 0.5)});
        QCOMPARE(almost.rowLabelStep(), 2);
        const HeatmapLayout line = layoutAt(2000, {lineZoom * 1.01, QPointF(0.5, 0.5)});
        QCOMPARE(line.rowLabelStep(), 1);
        QCOMPARE(line.columnLabelStep(), 1);
        QVERIFY(line.isRowLabelShown(line.visibleRows().first + 1));
        QVERIFY(!line.numbersFit());
        const HeatmapLayout big = layoutAt(2000, {line.maxZoom(), QPointF(0.5, 0.5)});
        QVERIFY(big.numbersFit());
        // Labels follow their rows as the view pans.
        const int row = line.visibleRows().first + 3;
        QVERIFY(std::abs(line.rowLabelRect(row).center().y() - line.cellRect(row, 0).center().y()) < 1e-9);
        QVERIFY(std::abs(line.columnLabelRect(row).center().x() - line.cellRect(0, row).center().x()) < 1e-9);
    }

    void wheelZoomsAndPans()
    {
        Document doc;
        QVERIFY(setWords(doc, 200));
        HeatmapView view;
        view.setSnapshot(doc.snapshot());
        view.resize(600, 500);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QSignalSpy zoomed(&view, &HeatmapView::zoomChanged);
        const QRectF area = view.currentLayout().cellArea();
        const QPointF pointer(area.left() + area.width() * 0.3, area.top() + area.height() * 0.6);
        const auto under = view.cellAt(pointer);
        // A plain wheel over a fitted heatmap is left to the window around it.
        sendWheel(&view, pointer, QPoint(0, -120), Qt::NoModifier);
        QVERIFY(zoomed.isEmpty());
        // Ctrl+wheel: two notches in zoom by 1.25² about the pointer.
        sendWheel(&view, pointer, QPoint(0, 240), Qt::ControlModifier);
        QCOMPARE(zoomed.size(), 1);
        QVERIFY(std::abs(view.zoom().factor - 1.5625) < 1e-9);
        QCOMPARE(view.cellAt(pointer), under);
        const auto rows = view.currentLayout().visibleRows();
        QVERIFY(rows.second - rows.first < 200 / 1.5625 + 2);
        QVERIFY(rows.first > 0 && rows.second < 200);
        // Now the wheel scrolls: down shows later rows, Shift+wheel later columns.
        const auto columns = view.currentLayout().visibleColumns();
        sendWheel(&view, pointer, QPoint(0, -120), Qt::NoModifier);
        QVERIFY(view.currentLayout().visibleRows().first > rows.first);
        QCOMPARE(view.currentLayout().visibleColumns(), columns);
        sendWheel(&view, pointer, QPoint(0, -120), Qt::ShiftModifier);
        QVERIFY(view.currentLayout().visibleColumns().first > columns.first);
        // Ctrl+0 fits again.
        QVERIFY(view.fitButton()->isEnabled());
        QTest::keyClick(&view, Qt::Key_0, Qt::ControlModifier);
        QVERIFY(view.zoom().isFit());
        QCOMPARE(view.currentLayout().visibleRows(), std::make_pair(0, 200));
        QVERIFY(!view.fitButton()->isEnabled());
    }

    void keysGesturesAndDragZoomAndPan()
    {
        Document doc;
        QVERIFY(setWords(doc, 200));
        HeatmapView view;
        view.setSnapshot(doc.snapshot());
        view.resize(600, 500);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QTest::keyClick(&view, Qt::Key_Equal, Qt::ControlModifier);
        QVERIFY(std::abs(view.zoom().factor - 1.25) < 1e-9);
        QTest::keyClick(&view, Qt::Key_Minus, Qt::ControlModifier);
        QVERIFY(view.zoom().isFit());
        // A touchpad pinch (value: the change of scale) about its position.
        const QPointF at = view.currentLayout().cellArea().center();
        QNativeGestureEvent pinch(Qt::ZoomNativeGesture, QPointingDevice::primaryPointingDevice(), 2, at, at,
                                  view.mapToGlobal(at), 1.0, QPointF());
        QCoreApplication::sendEvent(&view, &pinch);
        QVERIFY(std::abs(view.zoom().factor - 2.0) < 1e-9);
        // The middle button drags the matrix: up by two cells shows two rows more below.
        const int first = view.currentLayout().visibleRows().first;
        const qreal cell = view.currentLayout().cellHeight();
        sendMouse(&view, QEvent::MouseButtonPress, at, Qt::MiddleButton, Qt::MiddleButton);
        sendMouse(&view, QEvent::MouseMove, at - QPointF(0, 2 * cell + 0.01), Qt::NoButton, Qt::MiddleButton);
        sendMouse(&view, QEvent::MouseButtonRelease, at - QPointF(0, 2 * cell + 0.01), Qt::MiddleButton, Qt::NoButton);
        QCOMPARE(view.currentLayout().visibleRows().first, first + 2);
        // The Fit button resets.
        view.fitButton()->click();
        QVERIFY(view.zoom().isFit());
    }

    void clickAtZoomFourSelectsTheRightQuery()
    {
        Document doc;
        QVERIFY(setWords(doc, 20));
        HeatmapView view;
        view.setSnapshot(doc.snapshot());
        view.resize(600, 500);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setZoom({4.0, QPointF(0.5, 0.5)});
        QSignalSpy selected(&view, &HeatmapView::querySelected);
        QSignalSpy hovered(&view, &HeatmapView::cellHovered);
        // Hand-worked as in zoomMaths: the area's centre is cell (10, 10), and
        // a quarter cell further right and down is still in it; one cell left
        // and up is (9, 9).
        const HeatmapLayout &l = view.currentLayout();
        const QPoint centre = (l.cellArea().center() + QPointF(l.cellWidth() / 4, l.cellHeight() / 4)).toPoint();
        QTest::mouseMove(&view, centre);
        QTRY_VERIFY(!hovered.isEmpty());
        QCOMPARE(hovered.last().at(0).toInt(), 10);
        QCOMPARE(hovered.last().at(1).toInt(), 10);
        QTest::mouseClick(&view, Qt::LeftButton, {}, centre);
        QCOMPARE(selected.size(), 1);
        QCOMPARE(selected.last().first().toInt(), 10);
        const QPoint upLeft = (l.cellArea().center() - QPointF(l.cellWidth() * 0.75, l.cellHeight() * 0.75)).toPoint();
        QTest::mouseClick(&view, Qt::LeftButton, {}, upLeft);
        QCOMPARE(selected.last().first().toInt(), 9);
        // Tooltips name the cell under the pointer, positions from 0.
        QVERIFY2(view.tooltipText(10, 10).startsWith(QStringLiteral("query 10 “then” · key 10 “then”")),
                 qPrintable(view.tooltipText(10, 10)));
    }

    void arrowKeysScrollTheCursorIntoView()
    {
        Document doc;
        QVERIFY(setWords(doc, 40));
        HeatmapView view;
        view.setSnapshot(doc.snapshot());
        view.resize(600, 500);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setQuery(20);
        view.setZoom({4.0, QPointF(0.5, 0.5)}); // rows 15–24 of 40
        connect(&view, &HeatmapView::querySelected, &view, &HeatmapView::setQuery); // as the window does
        for (int i = 0; i < 8; ++i)
            QTest::keyClick(&view, Qt::Key_Down);
        QCOMPARE(view.query(), 28);
        const auto rows = view.currentLayout().visibleRows();
        QVERIFY2(rows.first <= 28 && 28 < rows.second, qPrintable(QStringLiteral("%1–%2").arg(rows.first).arg(rows.second)));
        QVERIFY(view.currentLayout().cellRect(28, 0).bottom() <= view.currentLayout().cellArea().bottom() + 1e-6);
        for (int i = 0; i < 30; ++i)
            QTest::keyClick(&view, Qt::Key_Right);
        QCOMPARE(view.focusedColumn(), 29);
        QVERIFY(view.currentLayout().isCellVisible(28, 29));
        // A query picked elsewhere (a chip) is scrolled to as well.
        view.setQuery(0);
        QCOMPARE(view.currentLayout().visibleRows().first, 0);
    }

    // At 2000 tokens the image holds one pixel per cell; past 2048 it is
    // pooled, and zoomed in the visible cells get their own image: either
    // way a zoomed cell shows its own value's colour.
    void zoomedCellsShowTheirOwnColour_data()
    {
        QTest::addColumn<int>("n");
        QTest::newRow("2000, one pixel per cell") << 2000;
        QTest::newRow("2500, pooled when fitted") << 2500;
    }
    void zoomedCellsShowTheirOwnColour()
    {
        QFETCH(int, n);
        Document doc;
        QVERIFY(setWords(doc, n));
        QCOMPARE(doc.tokenCount(), n);
        HeatmapView view;
        view.setSnapshot(doc.snapshot());
        view.setQuery(-1);
        view.resize(700, 560);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const double cellsPerPixel = n / view.currentLayout().cellArea().height();
        view.setZoom({cellsPerPixel * 24, QPointF(0.61, 0.37)}); // cells about 24 px
        const QImage image = view.grab().toImage();
        const HeatmapLayout &l = view.currentLayout();
        const auto [r0, r1] = l.visibleRows();
        const auto [c0, c1] = l.visibleColumns();
        QVERIFY(r1 - r0 < 40 && c1 - c0 < 40);
        const attn::HeadResult &head = doc.result().heads[0];
        const double largest = head.weights.toDouble().maxCoeff();
        int checked = 0;
        for (int r = r0 + 1; r < r1 - 1; r += 3) {
            for (int c = c0 + 1; c < c1 - 1; c += 2) {
                const QColor expected = sequentialColor(ColorMap::Viridis, head.weights(r, c) / largest);
                QVERIFY2(colorDistance(cellColor(image, l.cellRect(r, c)), expected) <= 8,
                         qPrintable(QStringLiteral("cell %1,%2: %3, expected %4")
                                        .arg(r).arg(c).arg(cellColor(image, l.cellRect(r, c)).name(), expected.name())));
                ++checked;
            }
        }
        QVERIFY2(checked > 50, qPrintable(QStringLiteral("%1 cells in rows %2–%3, columns %4–%5").arg(checked).arg(r0).arg(r1).arg(c0).arg(c1)));
        // The row labels of the visible rows are drawn: "the₂₁₆"-like text in each one's slot.
        const QColor text = view.palette().color(QPalette::Text);
        for (int r = r0 + 1; r < r1 - 1; r += 5)
            QVERIFY2(textPixels(image, l.rowLabelRect(r).toAlignedRect(), text) > 8, qPrintable(QString::number(r)));
        if (n == 2000 && !qEnvironmentVariableIsEmpty("ATTN_HEATMAP_PNG_DIR"))
            image.save(qEnvironmentVariable("ATTN_HEATMAP_PNG_DIR") + QStringLiteral("/heatmap-2000-zoomed-test.png"));
    }

    void tokenLabelsNameRepeatedWords()
    {
        Document doc;
        QVERIFY(setWords(doc, 12)); // the quick brown fox jumps over the lazy dog and then rests
        HeatmapView view;
        view.setSnapshot(doc.snapshot());
        QCOMPARE(view.painter().rowLabels().value(0), QStringLiteral("the₀"));
        QCOMPARE(view.painter().rowLabels().value(6), QStringLiteral("the₆"));
        QCOMPARE(view.painter().columnLabels().value(5), QStringLiteral("over"));
        QVERIFY2(view.tooltipText(6, 0).startsWith(QStringLiteral("query 6 “the₆” · key 0 “the₀”\n")),
                 qPrintable(view.tooltipText(6, 0)));
    }

    // On the fixed scale a weight's colour is viridis(weight) whatever else
    // the result holds, so a cell can be compared before and after an edit;
    // fitted, the same weight takes another colour when the largest changes.
    void fixedScaleKeepsColoursAcrossResults()
    {
        Document doc;
        HeatmapView before, after;
        const SnapshotPtr first = doc.snapshot();
        attn::Session s = doc.session();
        s.embeddings.row(1) *= 3;
        doc.resetSession(s);
        const SnapshotPtr second = doc.snapshot();
        before.setSnapshot(first);
        after.setSnapshot(second);
        ColorScale fixed;
        fixed.fixedWeights = true;
        QSignalSpy changed(&before, &HeatmapView::colorScaleChanged);
        for (HeatmapView *view : {&before, &after}) {
            view->setQuery(-1);
            view->resize(520, 420);
            view->show();
            QVERIFY(QTest::qWaitForWindowExposed(view));
        }
        const QImage fittedBefore = before.grab().toImage();
        before.setColorScale(fixed);
        after.setColorScale(fixed);
        QCOMPARE(changed.size(), 1);
        QVERIFY(changed.first().first().value<ColorScale>().fixedWeights);
        for (const auto &[view, snapshot] : {std::pair{&before, first}, std::pair{&after, second}}) {
            const QImage image = view->grab().toImage();
            for (int r = 0; r < 6; ++r)
                for (int c = 0; c < 6; ++c) {
                    const double w = snapshot->result->heads[0].weights(r, c);
                    QVERIFY2(colorDistance(cellColor(image, view->cellRect(r, c)), sequentialColor(ColorMap::Viridis, w)) <= 6,
                             qPrintable(QStringLiteral("cell %1,%2 weight %3").arg(r).arg(c).arg(w)));
                }
        }
        // Fitted, the first result's largest weight was the top colour.
        Eigen::Index row = 0, column = 0;
        const double largest = first->result->heads[0].weights.toDouble().maxCoeff(&row, &column);
        QVERIFY(colorDistance(cellColor(fittedBefore, before.cellRect(int(row), int(column))),
                              sequentialColor(ColorMap::Viridis, 1.0)) <= 6);
        QVERIFY(colorDistance(sequentialColor(ColorMap::Viridis, 1.0), sequentialColor(ColorMap::Viridis, largest)) > 100);
    }

    void fixedScoreRange()
    {
        Document doc;
        HeatmapView view;
        view.setShowScores(true);
        view.setSnapshot(doc.snapshot());
        const double largest = doc.result().heads[0].scores.toDouble().cwiseAbs().maxCoeff();
        QCOMPARE(view.painter().rangeMax(), largest);
        // The menu's "Fixed ±R" picks the round number above the largest |score|.
        view.scoresFixedAction()->trigger();
        const double r = ColorScale::roundLimitAbove(largest);
        QVERIFY(r >= largest && r <= 2.5 * largest);
        QCOMPARE(view.colorScale().scoreLimit, r);
        QCOMPARE(view.painter().rangeMax(), r);
        QCOMPARE(view.painter().rangeMin(), -r);
        QCOMPARE(view.painter().colorFor(largest), divergingColor(largest / r));
        QCOMPARE(view.painter().colorFor(-1e9), divergingColor(-1.0)); // beyond ±R: the end colour
        // R stays when the next result's scores grow.
        attn::Session s = doc.session();
        s.embeddings *= 2;
        doc.resetSession(s);
        view.setSnapshot(doc.snapshot());
        QCOMPARE(view.painter().rangeMax(), r);
        view.scoresFitAction()->trigger();
        QVERIFY(view.painter().rangeMax() > largest * 3);
    }

    void colourBarSaysWhichScale()
    {
        Document doc;
        HeatmapView view;
        view.setSnapshot(doc.snapshot());
        // The example's largest weight (between 0.1 and 1: two decimals).
        const double largest = doc.result().heads[0].weights.toDouble().maxCoeff();
        QVERIFY(largest > 0.1 && largest < 1);
        QCOMPARE(view.painter().colorBarTitle(),
                 QStringLiteral("weights α, scale 0–max %1").arg(QString::number(largest, 'f', 2)));
        view.weightsFixedAction()->trigger();
        QCOMPARE(view.painter().colorBarTitle(), QStringLiteral("weights α, fixed scale 0–1"));
        QCOMPARE(view.painter().rangeMax(), 1.0);
        view.setShowScores(true);
        const double scores = doc.result().heads[0].scores.toDouble().cwiseAbs().maxCoeff();
        QCOMPARE(view.painter().colorBarTitle(),
                 QStringLiteral("scores ω, scale ±max %1").arg(QString::number(scores, 'f', 2)));
        ColorScale scale = view.colorScale();
        scale.fixedScores = true;
        scale.scoreLimit = 5;
        view.setColorScale(scale);
        QCOMPARE(view.painter().colorBarTitle(), QStringLiteral("scores ω, fixed scale ±5.00"));
        // The colour bar's title is drawn: text pixels in its strip.
        view.resize(600, 450);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const QImage image = view.grab().toImage();
        QVERIFY(textPixels(image, view.currentLayout().colorBarTitleRect().toAlignedRect(),
                           view.palette().color(QPalette::Text)) > 40);
        QVERIFY(view.scaleButton()->isVisible());
        QVERIFY(view.currentLayout().topRightCorner().contains(QRectF(view.scaleButton()->geometry())));
    }

    void headsGridFollowsTheScale()
    {
        Document doc;
        attn::AttentionConfig cfg = doc.session().attention;
        cfg.heads = 3;
        cfg.headDim = 1;
        doc.setAttention(cfg);
        HeadsGridView grid;
        grid.setSnapshot(doc.snapshot());
        QVERIFY(grid.gridPainter().tile(0).rangeMax() < 1.0);
        ColorScale fixed;
        fixed.fixedWeights = true;
        grid.setColorScale(fixed);
        for (int i = 0; i < grid.tileCount(); ++i)
            QCOMPARE(grid.gridPainter().tile(i).rangeMax(), 1.0);
        grid.setSnapshot(doc.snapshot()); // a new result keeps the scale
        QCOMPARE(grid.gridPainter().tile(1).rangeMax(), 1.0);
        QCOMPARE(grid.gridPainter().tileTitle(0), QStringLiteral("head 0"));
    }

    // The window only wires: the grid follows the heatmap's scale, and the
    // choice is in the settings the next window starts from.
    void windowRemembersTheScale()
    {
        Document doc; // unedited: closing asks nothing
        {
            MainWindow window(&doc);
            QVERIFY(!window.heatmap()->colorScale().fixedWeights);
            window.heatmap()->weightsFixedAction()->trigger();
            QCOMPARE(window.headsGrid()->gridPainter().tile(0).rangeMax(), 1.0);
            window.show();
            QVERIFY(window.close());
        }
        QCOMPARE(QSettings().value(QStringLiteral("view/weightScale")).toString(), QStringLiteral("fixed"));
        MainWindow again(&doc);
        QVERIFY(again.heatmap()->colorScale().fixedWeights);
        QCOMPARE(again.headsGrid()->gridPainter().tile(0).rangeMax(), 1.0);
        QSettings().clear();
    }
};

QTEST_MAIN(TestHeatmapZoom)
#include "tst_heatmapzoom.moc"
