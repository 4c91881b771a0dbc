// The heatmap in three layers: the layout's maths, the painter's pixels, and
// the widgets' interaction (clicks, keys, tooltips, the heads grid).
#include "colordistance.h"
#include "document.h"
#include "lessons/examples.h"
#include "headsgridview.h"
#include "heatmaplayout.h"
#include "heatmappainter.h"
#include "heatmapview.h"

#include <QBuffer>
#include <QFile>
#include <QPainter>
#include <QSignalSpy>
#include <QSvgGenerator>
#include <QTest>
#include <QToolButton>
#include <cmath>

namespace {

QStringList numberedTokens(int n)
{
    QStringList tokens;
    tokens.reserve(n);
    for (int i = 0; i < n; ++i)
        tokens << QStringLiteral("token%1").arg(i);
    return tokens;
}

// How many pixels of `area` are within `tolerance` of `color`.
int pixelsNear(const QImage &image, const QRect &area, const QColor &color, int tolerance)
{
    int count = 0;
    const QRect clipped = area.intersected(image.rect());
    for (int y = clipped.top(); y <= clipped.bottom(); ++y) {
        for (int x = clipped.left(); x <= clipped.right(); ++x)
            count += colorDistance(image.pixelColor(x, y), color) <= tolerance;
    }
    return count;
}

QPalette darkPalette()
{
    QPalette p;
    p.setColor(QPalette::Window, QColor(0x2b, 0x2b, 0x2b));
    p.setColor(QPalette::WindowText, QColor(0xe8, 0xe8, 0xe8));
    p.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
    p.setColor(QPalette::Text, QColor(0xf0, 0xf0, 0xf0));
    p.setColor(QPalette::Mid, QColor(0x70, 0x70, 0x70));
    p.setColor(QPalette::Highlight, QColor(0x3d, 0xae, 0xe9));
    return p;
}

// PNGs to look at by eye: set ATTN_HEATMAP_PNG_DIR to a folder to get them.
void maybeSave(QWidget &widget, const char *name)
{
    const QString dir = qEnvironmentVariable("ATTN_HEATMAP_PNG_DIR");
    if (!dir.isEmpty())
        widget.grab().save(dir + QStringLiteral("/heatmap-%1.png").arg(QLatin1String(name)));
}

} // namespace

class TestHeatmap : public QObject
{
    Q_OBJECT
private slots:
    void layoutRoundTrip_data()
    {
        QTest::addColumn<int>("rows");
        QTest::addColumn<int>("columns");
        QTest::newRow("1x1") << 1 << 1;
        QTest::newRow("6x6") << 6 << 6;
        QTest::newRow("20x20") << 20 << 20;
        QTest::newRow("cross 3x17") << 3 << 17;
        QTest::newRow("512x512") << 512 << 512;
        QTest::newRow("4096x4096") << 4096 << 4096;
    }
    void layoutRoundTrip()
    {
        QFETCH(int, rows);
        QFETCH(int, columns);
        const QRectF bounds(0, 0, 600, 450);
        const QFontMetricsF metrics(QFont{});
        // No timing here: a shared machine makes timed assertions flaky (bench measures speed).
        const HeatmapLayout l(bounds, rows, columns, numberedTokens(rows), numberedTokens(columns), metrics);
        QVERIFY(bounds.contains(l.cellArea()));
        QVERIFY(l.cellArea().width() > 200 && l.cellArea().height() > 150);
        QVERIFY(l.rowLabelArea().right() <= l.cellArea().left() + 1e-9);
        QVERIFY(l.colorBarRect().left() > l.cellArea().right());
        QVERIFY(bounds.contains(l.colorBarTitleRect()));
        QVERIFY(l.columnLabelArea().bottom() <= l.cellArea().top() + 1e-9);
        const QList<QPair<int, int>> cells = {{0, 0}, {rows - 1, columns - 1}, {rows / 2, columns / 3},
                                              {rows - 1, 0}, {0, columns - 1}};
        for (const auto &[r, c] : cells) {
            const QRectF cell = l.cellRect(r, c);
            QVERIFY(l.cellArea().adjusted(-1e-6, -1e-6, 1e-6, 1e-6).contains(cell));
            const auto hit = l.cellAt(cell.center());
            QVERIFY(hit.has_value());
            QCOMPARE(hit->first, r);
            QCOMPARE(hit->second, c);
        }
        QVERIFY(!l.cellAt(l.cellArea().topLeft() - QPointF(2, 2)).has_value());
        QVERIFY(!l.cellAt(l.colorBarRect().center()).has_value());
    }

    void labelsDecimated()
    {
        const QFontMetricsF metrics(QFont{});
        const HeatmapLayout small(QRectF(0, 0, 600, 450), 6, 6, numberedTokens(6), numberedTokens(6), metrics);
        QCOMPARE(small.rowLabelStep(), 1);
        QCOMPARE(small.columnLabelStep(), 1);
        QVERIFY(small.numbersFit());
        QVERIFY(!small.columnLabelsRotated());

        const HeatmapLayout big(QRectF(0, 0, 600, 450), 512, 512, numberedTokens(512), numberedTokens(512), metrics);
        QVERIFY(big.rowLabelStep() > 1);
        QVERIFY(big.columnLabelStep() > 1);
        QVERIFY(big.columnLabelsRotated());
        QVERIFY(!big.numbersFit());
        // Shown labels are at least a line apart, and not much further.
        QVERIFY(big.rowLabelStep() * big.cellHeight() >= metrics.height());
        QVERIFY((big.rowLabelStep() - 1) * big.cellHeight() < metrics.height());
        QVERIFY(big.columnLabelStep() * big.cellWidth() >= metrics.height());
        QVERIFY(big.isRowLabelShown(0));
        QVERIFY(!big.isRowLabelShown(1));

        const HeatmapLayout compact(QRectF(0, 0, 100, 100), 6, 6, {}, {}, metrics, {true, true});
        QVERIFY(compact.colorBarRect().isEmpty());
        QVERIFY(compact.cellArea().width() > 95);
        QVERIFY(!compact.numbersFit());
    }

    void clickSelectsQuery()
    {
        Document doc(attn::exampleSession());
        HeatmapView view;
        view.setSnapshot(doc.snapshot());
        view.setQuery(doc.query());
        view.resize(600, 500);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QSignalSpy selected(&view, &HeatmapView::querySelected);
        QSignalSpy hovered(&view, &HeatmapView::cellHovered);
        const QPoint centre = view.cellRect(3, 2).center().toPoint();
        QTest::mouseMove(&view, centre);
        QTRY_VERIFY(!hovered.isEmpty());
        QCOMPARE(hovered.last().at(0).toInt(), 3);
        QCOMPARE(hovered.last().at(1).toInt(), 2);
        QTest::mouseClick(&view, Qt::LeftButton, {}, centre);
        QCOMPARE(selected.size(), 1);
        QCOMPARE(selected.first().first().toInt(), 3);

        // Arrow keys move the query; the owner decides by calling setQuery.
        QTest::keyClick(&view, Qt::Key_Down);
        QCOMPARE(selected.last().first().toInt(), doc.query() + 1);
        QTest::keyClick(&view, Qt::Key_Up);
        QCOMPARE(selected.last().first().toInt(), doc.query() - 1);
        QVERIFY(view.accessibleDescription().contains(QStringLiteral("journey")));
        maybeSave(view, "example-weights");
        view.setShowScores(true);
        maybeSave(view, "example-scores");
    }

    // The title keeps clear of the Fit and Scale buttons in its row's corners
    // at every width: elided, centred between them. A switched-off head's
    // title, "… · head 0 (heads 0–1) · switched off", ran under "Scale".
    void titleKeepsClearOfTheButtons()
    {
        std::optional<attn::Session> fourHeads;
        for (const attn::Example &e : attn::builtInExamples())
            if (e.id == QStringLiteral("four-heads-causal"))
                fourHeads = e.session;
        QVERIFY(fourHeads);
        Document doc(*fourHeads);
        HeatmapView view;
        view.setSnapshot(doc.snapshot());
        view.setHead(std::optional<int>(1));
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const QString title = view.painter().title();
        QVERIFY2(title.contains(QStringLiteral("head 1")), qPrintable(title));
        QFont bold = view.font();
        bold.setBold(true);
        const QFontMetricsF metrics(bold);
        const auto buttons = view.findChildren<QToolButton *>();
        QCOMPARE(buttons.size(), 2);
        bool elided = false, whole = false;
        for (int width = 200; width <= 700; width += 20) {
            view.resize(width, 420);
            QCoreApplication::processEvents();
            const HeatmapLayout l = view.painter().layout(QRectF(view.rect()), view.font(), &view);
            const QRectF area = view.painter().titleArea(l);
            // As drawn: centred in the area, elided to its width.
            const qreal textWidth = std::min(metrics.horizontalAdvance(title), area.width());
            const QRectF text(area.center().x() - textWidth / 2, area.top(), textWidth, area.height());
            QCOMPARE(area.left() - l.titleRect().left(), l.titleRect().right() - area.right()); // centred over the row
            for (QToolButton *button : buttons)
                if (button->isVisible())
                    QVERIFY2(!QRectF(button->geometry()).intersects(text),
                             qPrintable(QStringLiteral("%1 px: title %2..%3, %4 at %5..%6")
                                            .arg(width).arg(text.left()).arg(text.right()).arg(button->text())
                                            .arg(button->geometry().left()).arg(button->geometry().right() + 1)));
            (metrics.horizontalAdvance(title) <= area.width() ? whole : elided) = true;
        }
        QVERIFY(elided && whole); // both cases were met
    }

    void causalCellsLookMasked()
    {
        Document doc(attn::exampleSession());
        HeatmapView view;
        view.setSnapshot(doc.snapshot());
        view.resize(600, 500);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const QRect cell = view.cellRect(0, 5).toAlignedRect().adjusted(3, 3, -3, -3);
        const QImage before = view.grab().toImage();

        attn::AttentionConfig cfg = doc.session().attention;
        cfg.causal = true;
        doc.setAttention(cfg);
        view.setSnapshot(doc.snapshot());
        QVERIFY(doc.result().causal);
        const QImage after = view.grab().toImage();
        maybeSave(view, "causal");

        const QColor centreBefore = before.pixelColor(cell.center());
        const QColor centreAfter = after.pixelColor(cell.center());
        QVERIFY(colorDistance(centreBefore, centreAfter) > 30);
        const QColor background = HeatmapPainter::maskedBackground(view.palette());
        const QColor hatch = HeatmapPainter::maskedHatch(view.palette());
        QVERIFY2(colorDistance(centreAfter, background) <= 6 || colorDistance(centreAfter, hatch) <= 6,
                 qPrintable(centreAfter.name()));
        // No colour of the weight map comes near the masked look.
        for (int i = 0; i <= 255; ++i) {
            const QColor mapped = sequentialColor(ColorMap::Viridis, i / 255.0);
            QVERIFY(colorDistance(mapped, background) > 40);
            QVERIFY(colorDistance(mapped, hatch) > 40);
        }
        // The hatch is there: both the background and the hatch colour show.
        QVERIFY(pixelsNear(after, cell, hatch, 6) > cell.width());
        QVERIFY(pixelsNear(after, cell, background, 6) > cell.width());
        // An unmasked cell keeps the colour of its weight.
        const QColor kept = after.pixelColor(view.cellRect(5, 0).toAlignedRect().adjusted(3, 3, -3, -3).topLeft());
        QVERIFY(colorDistance(kept, view.painter().colorFor(doc.result().heads[0].weights(5, 0))) <= 6);
        QVERIFY(view.tooltipText(0, 5).contains(QStringLiteral("masked (weight 0)")));
    }

    // Scores of 1e300 are valid in double; painted through float they were
    // infinite and the largest came out in the colour of the most negative.
    void hugeScoresKeepTheirColours()
    {
        Document doc(attn::exampleSession());
        attn::Session s = doc.session();
        s.embeddings *= 1e150;
        s.attention.mode = attn::Mode::Simplified;
        doc.resetSession(s);
        QVERIFY2(doc.snapshot()->result, qPrintable(doc.snapshot()->error));
        HeatmapView view;
        view.setShowScores(true);
        view.setSnapshot(doc.snapshot());
        view.resize(600, 500);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const QImage image = view.grab().toImage();
        maybeSave(view, "huge-scores");
        const attn::AttentionMatrix &scores = doc.result().heads[0].scores;
        for (int r = 0; r < 6; ++r) {
            for (int c = 0; c < 6; ++c) {
                const QPoint centre = view.cellRect(r, c).toAlignedRect().adjusted(3, 3, -3, -3).topLeft(); // clear of the number
                QVERIFY2(colorDistance(image.pixelColor(centre), view.painter().colorFor(scores(r, c))) <= 8,
                         qPrintable(QStringLiteral("cell %1,%2: %3, expected %4 for %5")
                                        .arg(r).arg(c).arg(image.pixelColor(centre).name(),
                                                           view.painter().colorFor(scores(r, c)).name())
                                        .arg(scores(r, c))));
            }
        }
    }

    void tooltip()
    {
        Document doc(attn::exampleSession());
        HeatmapView view;
        view.setSnapshot(doc.snapshot());
        const attn::HeadResult &head = doc.result().heads[0];
        const QString text = view.tooltipText(1, 2);
        QVERIFY(text.contains(QStringLiteral("journey")));
        QVERIFY(text.contains(QStringLiteral("starts")));
        QVERIFY2(text.contains(QString::number(head.weights(1, 2), 'f', 4).replace(QLatin1Char('-'), QChar(0x2212))), qPrintable(text));
        QVERIFY2(text.contains(QString::number(head.scores(1, 2), 'f', 4).replace(QLatin1Char('-'), QChar(0x2212))), qPrintable(text));
        const double scale = doc.result().scoreScale;
        QVERIFY(scale != 1.0);
        QVERIFY2(text.contains(QString::number(head.scores(1, 2) * scale, 'f', 4).replace(QLatin1Char('-'), QChar(0x2212))), qPrintable(text));
        QVERIFY(text.contains(QStringLiteral("q·k = ")));
        QVERIFY(view.tooltipText(-1, 0).isEmpty());
        QVERIFY(view.tooltipText(0, 6).isEmpty());

        // Simplified mode without scaling: the scores are the dot products of
        // the embeddings themselves (the contract's example).
        attn::AttentionConfig cfg = doc.session().attention;
        cfg.mode = attn::Mode::Simplified;
        cfg.scale = false;
        cfg.outputProjection = false;
        doc.setAttention(cfg);
        view.setSnapshot(doc.snapshot());
        // journey·journey = 0.55² + 0.87² + 0.66² = 1.4950
        QVERIFY2(view.tooltipText(1, 1).contains(QStringLiteral("score ω = 1.4950\n")), qPrintable(view.tooltipText(1, 1)));
        // journey·starts = 0.55×0.57 + 0.87×0.85 + 0.66×0.64 = 1.4754
        QVERIFY(view.tooltipText(1, 2).contains(QStringLiteral("q·k = 0.55×0.57 + 0.87×0.85 + 0.66×0.64 = 1.475")));
        QVERIFY(view.tooltipText(1, 0).contains(QStringLiteral("q·k = 0.55×0.43 + 0.87×0.15 + 0.66×0.89 = 0.9544")));
        QVERIFY(!view.tooltipText(1, 2).contains(QStringLiteral("scaled")));
    }

    void headsGrid()
    {
        Document doc(attn::exampleSession());
        attn::AttentionConfig cfg = doc.session().attention;
        cfg.heads = 4;
        cfg.headDim = 1;
        doc.setAttention(cfg);
        QCOMPARE(int(doc.result().heads.size()), 4);
        HeadsGridView grid;
        grid.setSnapshot(doc.snapshot());
        grid.setSelectedHead(std::nullopt);
        grid.setQuery(doc.query());
        grid.resize(400, 400);
        grid.show();
        QVERIFY(QTest::qWaitForWindowExposed(&grid));
        QCOMPARE(grid.tileCount(), 5);
        for (int i = 0; i < 5; ++i) {
            for (int j = i + 1; j < 5; ++j)
                QVERIFY(!grid.tileRect(i).intersects(grid.tileRect(j)));
            QVERIFY(QRectF(grid.rect()).contains(grid.tileRect(i)));
        }
        QSignalSpy selected(&grid, &HeadsGridView::headSelected);
        QTest::mouseClick(&grid, Qt::LeftButton, {}, grid.tileRect(2).center().toPoint());
        QCOMPARE(selected.size(), 1);
        QCOMPARE(selected.first().first().value<std::optional<int>>(), std::optional<int>(2));
        QTest::mouseClick(&grid, Qt::LeftButton, {}, grid.tileRect(4).center().toPoint());
        QVERIFY(!selected.last().first().value<std::optional<int>>().has_value()); // the average
        // The selected tile is outlined in the highlight colour.
        const QImage image = grid.grab().toImage();
        const QColor highlight = grid.palette().color(QPalette::Highlight);
        // (The left edge of a tile: inside, the query row is outlined in it too.)
        auto leftEdge = [&](int i) {
            const QRect t = grid.tileRect(i).toAlignedRect();
            return QRect(t.left(), t.top(), 3, t.height());
        };
        QVERIFY(pixelsNear(image, leftEdge(4), highlight, 12) > grid.tileRect(4).height() / 2);
        QCOMPARE(pixelsNear(image, leftEdge(1), highlight, 12), 0);
        maybeSave(grid, "heads-grid");

        // The big view's title names the head.
        HeatmapView view;
        view.setSnapshot(doc.snapshot());
        view.setHead(std::optional<int>(1));
        QCOMPARE(view.painter().title(), QStringLiteral("Attention weights α · head 1 (heads 0–3)"));
        view.setHead(std::nullopt);
        QVERIFY(view.tooltipText(1, 2).contains(QStringLiteral("average over 4 heads")));
        view.setHead(std::optional<int>(9)); // gone: falls back to the average
        QVERIFY(!view.painter().effectiveHead().has_value());
    }

    void darkPaletteStaysReadable()
    {
        Document doc(attn::exampleSession());
        HeatmapView view;
        view.setPalette(darkPalette());
        view.setSnapshot(doc.snapshot());
        view.setQuery(1);
        view.resize(600, 450);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const QImage image = view.grab().toImage();
        maybeSave(view, "dark");
        const HeatmapLayout &l = view.painter().layout(QRectF(view.rect()), view.font(), &view);
        const QColor text = darkPalette().color(QPalette::Text);
        const QColor base = darkPalette().color(QPalette::Base);
        QCOMPARE(image.pixelColor(2, 2), base);
        QVERIFY(pixelsNear(image, l.colorBarTitleRect().toAlignedRect(), text, 60) > 10);
        QVERIFY(pixelsNear(image, l.rowLabelArea().toAlignedRect(), text, 60) > 20);
        QVERIFY(pixelsNear(image, l.titleRect().toAlignedRect(), text, 60) > 20);
    }

    void errorIsShown()
    {
        auto snapshot = std::make_shared<AttentionSnapshot>();
        snapshot->error = QStringLiteral("embeddings are not finite");
        HeatmapView view;
        view.setSnapshot(snapshot);
        view.resize(400, 300);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const QImage image = view.grab().toImage();
        QVERIFY(pixelsNear(image, QRect(0, 130, 400, 40), view.palette().color(QPalette::Text), 60) > 20);
        QVERIFY(view.tooltipText(0, 0).isEmpty());
        QVERIFY(!view.cellAt(QPointF(200, 150)).has_value());
    }

    void vectorExport()
    {
        Document doc(attn::exampleSession());
        HeatmapPainter painter;
        painter.setSnapshot(doc.snapshot());
        painter.setVectorCells(true);
        QBuffer buffer;
        buffer.open(QIODevice::WriteOnly);
        QSvgGenerator svg;
        svg.setOutputDevice(&buffer);
        svg.setSize(QSize(600, 450));
        svg.setViewBox(QRect(0, 0, 600, 450));
        {
            QPainter p(&svg);
            painter.paint(p, QRectF(0, 0, 600, 450), QPalette());
        }
        const QString out = QString::fromUtf8(buffer.data());
        if (!qEnvironmentVariableIsEmpty("ATTN_HEATMAP_PNG_DIR")) {
            QFile file(qEnvironmentVariable("ATTN_HEATMAP_PNG_DIR") + QStringLiteral("/heatmap.svg"));
            if (file.open(QIODevice::WriteOnly))
                file.write(buffer.data());
        }
        QVERIFY(!out.contains(QStringLiteral("<image")));
        QVERIFY(out.contains(QStringLiteral("journey")));  // labels stay text
        QVERIFY(out.contains(QStringLiteral(">weight"))); // the colour bar title (α may come in a fallback font)
    }

    void manyTokens()
    {
        Document doc(attn::exampleSession());
        QStringList words;
        for (int i = 0; i < 512; ++i)
            words << QStringLiteral("w%1").arg(i);
        doc.setSentence(words.join(QLatin1Char(' ')));
        QCOMPARE(doc.tokenCount(), 512);
        HeatmapView view;
        view.setSnapshot(doc.snapshot());
        view.resize(600, 450);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const auto hit = view.cellAt(view.cellRect(300, 100).center());
        QVERIFY(hit.has_value());
        QCOMPARE(hit->first, 300);
        QCOMPARE(hit->second, 100);
        maybeSave(view, "512");
        doc.setSentence(QStringLiteral("The quick brown fox jumps over the lazy dog while seven tired "
                                       "engineers quietly watch attention weights shift across tokens"));
        QCOMPARE(doc.tokenCount(), 20);
        view.setSnapshot(doc.snapshot());
        view.setQuery(4);
        maybeSave(view, "20-tokens");
    }
};

QTEST_MAIN(TestHeatmap)
#include "tst_heatmap.moc"
