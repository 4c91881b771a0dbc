// The bar chart: the two vectors it compares (BarChartModel), its geometry
// (BarChartLayout), tooltips, and the colours it paints.
#include "barchartpainter.h"
#include "barchartview.h"
#include "document.h"

#include <QBuffer>
#include <QMouseEvent>
#include <QPainter>
#include <QSignalSpy>
#include <QSvgGenerator>
#include <QTest>
#include <cmath>

namespace {

QString paintedText(const BarChartPainter &painter, const QSize &size)
{
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator svg;
    svg.setOutputDevice(&buffer);
    svg.setSize(size);
    svg.setViewBox(QRect(QPoint(0, 0), size));
    QPainter p(&svg);
    painter.paint(p, QRectF(QPoint(0, 0), size), QPalette());
    p.end();
    return QString::fromUtf8(buffer.data());
}

void useOutputProjection(Document &doc, bool on)
{
    attn::AttentionConfig cfg = doc.session().attention;
    cfg.outputProjection = on;
    doc.setAttention(cfg);
}

} // namespace

class TestBarchart : public QObject
{
    Q_OBJECT
private slots:
    void modelMatchesSnapshot_data();
    void modelMatchesSnapshot();
    void negativeBarsHangBelowZero();
    void ticksAreRoundAndHoldZero();
    void tooltipHoldsBothNumbers();
    void barsHaveSeriesColours();
    void lengthsDifferNote();
    void manyDimensionsPaintQuickly();
    void hoverReportsDimension();
    void showsErrorWithoutResult();
    void savePictures();
};

void TestBarchart::modelMatchesSnapshot_data()
{
    QTest::addColumn<int>("query");
    QTest::addColumn<bool>("projection");
    QTest::newRow("journey") << 1 << false;
    QTest::newRow("with") << 3 << false;
    QTest::newRow("journey, projected") << 1 << true;
}

void TestBarchart::modelMatchesSnapshot()
{
    QFETCH(int, query);
    QFETCH(bool, projection);
    Document doc(attn::exampleSession());
    useOutputProjection(doc, projection);
    doc.setQuery(query);
    const SnapshotPtr snap = doc.snapshot();
    const BarChartModel m = buildBarChartModel(*snap, query);
    QVERIFY(m.isValid());
    QCOMPARE(m.token, snap->rowTokens[query]);
    QCOMPARE(int(m.embedding.size()), int(snap->embeddings.cols()));
    QCOMPARE(int(m.context.size()), int(snap->result->output.cols()));
    for (size_t d = 0; d < m.embedding.size(); ++d)
        QCOMPARE(m.embedding[d], snap->embeddings(query, Eigen::Index(d)));
    for (size_t d = 0; d < m.context.size(); ++d)
        QCOMPARE(m.context[d], snap->result->output(query, Eigen::Index(d)));
    QCOMPARE(m.lengthsDiffer(), !projection); // head_dim 2 against d_model 3
}

void TestBarchart::negativeBarsHangBelowZero()
{
    Document doc(attn::exampleSession());
    doc.setEmbeddingValue(1, 0, -1.5);
    const BarChartModel m = buildBarChartModel(*doc.snapshot(), 1);
    QCOMPARE(m.embedding[0], -1.5);
    const BarChartLayout layout(m, QRectF(0, 0, 640, 300), QFont());
    const double zero = layout.zeroY();
    QVERIFY(layout.plotRect().top() < zero && zero < layout.plotRect().bottom());
    const QRectF negative = layout.barRect(BarChartModel::Embedding, 0);
    QVERIFY(negative.top() >= zero - 1e-9);
    QVERIFY(std::abs(negative.bottom() - layout.valueToY(-1.5)) < 1e-9);
    QVERIFY(negative.bottom() <= layout.plotRect().bottom() + 1e-9);
    const QRectF positive = layout.barRect(BarChartModel::Embedding, 1); // 0.87
    QVERIFY(positive.bottom() <= zero + 1e-9);
    QVERIFY(positive.top() < zero - 10);
    QVERIFY(layout.valueToY(1.0) < layout.valueToY(0.5));
    // The two series of a dimension sit side by side inside its slot.
    const QRectF other = layout.barRect(BarChartModel::Context, 1);
    QVERIFY(other.left() >= positive.right() - 1e-9);
    QVERIFY(layout.slotRect(1).contains(QPointF(other.center().x(), layout.plotRect().center().y())));
    QVERIFY(layout.barRect(BarChartModel::Context, 2).isNull()); // context has two numbers
}

void TestBarchart::ticksAreRoundAndHoldZero()
{
    Document doc(attn::exampleSession());
    doc.setEmbeddingValue(1, 0, -1.5);
    const BarChartModel m = buildBarChartModel(*doc.snapshot(), 1);
    const BarChartLayout layout(m, QRectF(0, 0, 640, 300), QFont());
    const std::vector<double> &ticks = layout.ticks();
    QVERIFY(ticks.size() >= 3);
    const double step = ticks[1] - ticks[0];
    bool hasZero = false;
    for (double t : ticks) {
        QVERIFY(std::abs(t / step - std::round(t / step)) < 1e-9);
        hasZero |= std::abs(t) < 1e-12;
    }
    QVERIFY(hasZero);
    const double mantissa = step / std::pow(10.0, std::floor(std::log10(step)));
    QVERIFY(std::abs(mantissa - 1) < 1e-9 || std::abs(mantissa - 2) < 1e-9 || std::abs(mantissa - 5) < 1e-9);
    QVERIFY(layout.axisMin() <= -1.5 && layout.axisMax() >= 0.87);
}

void TestBarchart::tooltipHoldsBothNumbers()
{
    Document doc(attn::exampleSession());
    useOutputProjection(doc, true);
    BarChartView view;
    view.setSnapshot(doc.snapshot());
    view.setQuery(1);
    const BarChartModel &m = view.model();
    for (int d = 0; d < 3; ++d) {
        const QString text = view.tooltipText(d);
        QVERIFY(text.startsWith(QStringLiteral("d%1: ").arg(d)));
        QVERIFY2(text.contains(QStringLiteral("embedding ") + QString::number(m.embedding[size_t(d)], 'g', 4)), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("context ") + QString::number(m.context[size_t(d)], 'g', 4)), qPrintable(text));
    }
    QVERIFY(view.tooltipText(2).startsWith(QStringLiteral("d2: embedding 0.66, context ")));
    QVERIFY(view.tooltipText(3).isEmpty());
    QVERIFY(view.tooltipText(-1).isEmpty());
}

void TestBarchart::barsHaveSeriesColours()
{
    Document doc(attn::exampleSession());
    useOutputProjection(doc, true);
    BarChartView view;
    view.resize(640, 300);
    view.setSnapshot(doc.snapshot());
    view.setQuery(1);
    const QImage image = view.grab().toImage();
    const BarChartLayout layout = view.currentLayout();
    QVERIFY(!layout.dense());
    for (int s = 0; s < BarChartModel::SeriesCount; ++s) {
        // The tallest bar of the series is big enough to hit.
        int best = 0;
        for (int d = 1; d < 3; ++d)
            if (layout.barRect(s, d).height() > layout.barRect(s, best).height())
                best = d;
        const QRectF bar = layout.barRect(s, best);
        QVERIFY(bar.height() > 6 && bar.width() > 6);
        const QColor seen(image.pixel(bar.center().toPoint()));
        QCOMPARE(seen, BarChartPainter::seriesColor(s, view.palette()));
    }
    QVERIFY(BarChartPainter::seriesColor(0, view.palette()) != BarChartPainter::seriesColor(1, view.palette()));
}

void TestBarchart::lengthsDifferNote()
{
    Document doc(attn::exampleSession()); // one head of width 2, no projection: 2 numbers against 3
    BarChartPainter painter;
    painter.setSnapshot(doc.snapshot());
    painter.setQuery(1);
    QVERIFY(painter.model().lengthsDiffer());
    QCOMPARE(painter.model().length(), 3);
    QVERIFY(!painter.layout(QRectF(0, 0, 640, 300)).noteRect().isEmpty());
    const QString svg = paintedText(painter, {900, 300});
    QVERIFY(svg.contains(QStringLiteral("output projection")));
    QVERIFY(svg.contains(QStringLiteral("“journey”: embedding vs context")));
    QVERIFY(svg.contains(QStringLiteral("embedding x")) && svg.contains(QStringLiteral("context z")));

    useOutputProjection(doc, true);
    painter.setSnapshot(doc.snapshot());
    QVERIFY(!painter.model().lengthsDiffer());
    QVERIFY(painter.layout(QRectF(0, 0, 640, 300)).noteRect().isEmpty());
    QVERIFY(!paintedText(painter, {900, 300}).contains(QStringLiteral("output projection")));
}

void TestBarchart::manyDimensionsPaintQuickly()
{
    Document doc(attn::exampleSession());
    doc.setDModel(1024);
    useOutputProjection(doc, true);
    BarChartPainter painter;
    painter.setSnapshot(doc.snapshot());
    painter.setQuery(1);
    QCOMPARE(painter.model().length(), 1024);
    const BarChartLayout layout = painter.layout(QRectF(0, 0, 640, 300));
    QVERIFY(layout.dense());
    QVERIFY(layout.labelStep() >= 100); // "d1000" labels cannot sit every few pixels
    QCOMPARE(layout.dimensionAt(layout.plotRect().right() - 0.5), 1023);
    QCOMPARE(layout.dimensionAt(layout.plotRect().left()), 0);
    QImage image(640, 300, QImage::Format_ARGB32_Premultiplied);
    // Painting a chart this wide runs clean under the sanitizers (its speed is
    // bench's to measure: a timed assertion fails on a busy machine).
    QPainter p(&image);
    painter.paint(p, QRectF(image.rect()), QPalette());
}

void TestBarchart::hoverReportsDimension()
{
    Document doc(attn::exampleSession());
    BarChartView view;
    view.resize(640, 300);
    view.setSnapshot(doc.snapshot());
    QSignalSpy spy(&view, &BarChartView::dimensionHovered);
    const BarChartLayout layout = view.currentLayout();
    const QPointF inside(layout.slotRect(2).center().x(), layout.plotRect().center().y());
    QMouseEvent move(QEvent::MouseMove, inside, view.mapToGlobal(inside), Qt::NoButton, Qt::NoButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&view, &move);
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.at(0).at(0).toInt(), 2);
    QCOMPARE(view.hoveredDimension(), 2);
    QCOMPARE(layout.dimensionAt(layout.plotRect().left() - 5), -1);
}

void TestBarchart::showsErrorWithoutResult()
{
    auto snap = std::make_shared<AttentionSnapshot>();
    snap->error = QStringLiteral("head_dim too large");
    BarChartPainter painter;
    painter.setSnapshot(snap);
    QVERIFY(!painter.model().isValid());
    QVERIFY(paintedText(painter, {640, 300}).contains(snap->error));
}

void TestBarchart::savePictures()
{
    const QString dir = qEnvironmentVariable("ATTN_SAVE_PICTURES");
    if (dir.isEmpty())
        QSKIP("set ATTN_SAVE_PICTURES=DIR to save pictures for a look");
    QPalette dark(QColor(0x35, 0x35, 0x35), QColor(0x2b, 0x2b, 0x2b));
    dark.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
    dark.setColor(QPalette::Text, QColor(0xe8, 0xe8, 0xe8));
    auto save = [&](Document &doc, const QString &name, QSize size = {640, 300}, bool useDark = false) {
        BarChartView view;
        if (useDark)
            view.setPalette(dark);
        view.resize(size);
        view.setSnapshot(doc.snapshot());
        view.setQuery(doc.query());
        QVERIFY(view.grab().save(dir + QStringLiteral("/bars-%1.png").arg(name)));
    };
    Document doc(attn::exampleSession());
    save(doc, QStringLiteral("example"));
    save(doc, QStringLiteral("dark"), {640, 300}, true);
    doc.setEmbeddingValue(1, 0, -1.5);
    useOutputProjection(doc, true);
    save(doc, QStringLiteral("projected"));
    save(doc, QStringLiteral("projected-900"), {900, 400});
    attn::AttentionConfig cfg = doc.session().attention;
    cfg.mode = attn::Mode::Simplified;
    cfg.scale = false;
    cfg.outputProjection = false;
    doc.setAttention(cfg);
    save(doc, QStringLiteral("simplified"));
    Document wide;
    wide.setDModel(64);
    useOutputProjection(wide, true);
    save(wide, QStringLiteral("dmodel64"));
    save(wide, QStringLiteral("dmodel64-dark"), {640, 300}, true);
    wide.setDModel(1024);
    save(wide, QStringLiteral("dmodel1024"));
    save(wide, QStringLiteral("dmodel1024-900"), {900, 400});
    Document split;
    split.setDModel(64);
    attn::AttentionConfig splitCfg = split.session().attention;
    splitCfg.heads = 3;
    splitCfg.headDim = 16;
    splitCfg.outputProjection = false;
    split.setAttention(splitCfg);
    save(split, QStringLiteral("dmodel64-lengths"));
}

QTEST_MAIN(TestBarchart)
#include "tst_barchart.moc"
