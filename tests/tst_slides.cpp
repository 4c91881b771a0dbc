// Pictures for slides. The window's export of the heads view starts from the
// picture `export --view heads` makes (titled tiles with token labels, at the
// command line's size) at twice its pixels, not from the dock's squeezed grid;
// SVG exports hold nothing that LibreOffice, PowerPoint or Keynote drop (a
// mask inside a pattern hatched the masked cells) and render as the PNG does,
// in Qt's renderer and in librsvg's rsvg-convert when it is installed.

#include "document.h"
#include "lessons/examples.h"
#include "exportactions.h"
#include "exporter.h"
#include "headlessrun.h"
#include "headsgridview.h"
#include "mainwindow.h"
#include "session/sessionio.h"

#include <QFile>
#include <QImage>
#include <QPainter>
#include <QStandardPaths>
#include <QSvgRenderer>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>

namespace {

attn::Session example(const QString &id)
{
    for (const attn::Example &e : attn::builtInExamples())
        if (e.id == id)
            return e.session;
    return {};
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// The mean absolute difference of two pictures of one size, per channel, in
// 0 ... 255, seen from a step back (4 x 4 pixels averaged): renderers differ
// in how they smooth a one-pixel line, not in where it goes.
double meanDifference(const QImage &a, const QImage &b)
{
    const QSize small = a.size() / 4;
    const QImage x = a.convertToFormat(QImage::Format_RGB32).scaled(small, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
    const QImage y = b.convertToFormat(QImage::Format_RGB32).scaled(small, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
    double sum = 0;
    for (int r = 0; r < x.height(); ++r)
        for (int c = 0; c < x.width(); ++c) {
            const QRgb p = x.pixel(c, r), q = y.pixel(c, r);
            sum += std::abs(qRed(p) - qRed(q)) + std::abs(qGreen(p) - qGreen(q)) + std::abs(qBlue(p) - qBlue(q));
        }
    return sum / (3.0 * x.width() * x.height());
}

// The hatch's ink in `area`: how much darker than the masked cells'
// background its pixels are, on average (antialiasing spreads a line over
// two pixels of half the ink; the total stays).
double hatchInk(const QImage &image, const QRect &area, const QColor &background)
{
    double ink = 0;
    for (int y = area.top(); y <= area.bottom(); ++y)
        for (int x = area.left(); x <= area.right(); ++x)
            ink += std::max(0, qGray(background.rgb()) - qGray(image.pixel(x, y)));
    return ink / (area.width() * area.height());
}

QImage renderSvg(const QString &path, const QSize &size)
{
    QSvgRenderer svg(path);
    QImage image(size, QImage::Format_RGB32);
    image.fill(Qt::white);
    QPainter p(&image);
    svg.render(&p, QRectF(QPointF(0, 0), QSizeF(size)));
    return image;
}

} // namespace

class TestSlides : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
    }

    void headsExportIsTheCommandLinesPicture()
    {
        Document doc(example(QStringLiteral("four-heads-causal")));
        MainWindow window(&doc);
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.selectHead(2);
        doc.setQuery(3);
        ExportActions *actions = window.exportActions();
        actions->setInteractive(false);

        // What the heads view's "Export This View…" starts from, and File › Export › All Heads.
        const ExportActions::PictureDefaults fromView = actions->pictureDefaults(ExportView::Heads, window.headsGrid());
        const ExportActions::PictureDefaults fromMenu = actions->pictureDefaults(ExportView::Heads);
        const QSize commandLine = exportSize(doc.snapshot(), actions->optionsFor(ExportView::Heads));
        QCOMPARE(fromView.size, commandLine);
        QCOMPARE(fromMenu.size, commandLine);
        QVERIFY(fromView.size != window.headsGrid()->size());
        QCOMPARE(fromView.scale, 2.0);
        QVERIFY2(fromView.size.width() * fromView.scale >= 1600,
                 qPrintable(QString::number(fromView.size.width()))); // slide-sized

        const QString shown = m_dir.filePath(QStringLiteral("window-heads.png"));
        QVERIFY(actions->exportTo(ExportView::Heads, shown, fromView.size, fromView.scale));
        const QString session = m_dir.filePath(QStringLiteral("four-heads.attn.json"));
        QString error;
        QVERIFY2(attn::writeSession(session, doc.session(), &error), qPrintable(error));
        const QString cli = m_dir.filePath(QStringLiteral("cli-heads.png"));
        const HeadlessRun run = runHeadless(QStringLiteral(ATTN_APP_PATH),
                                            {QStringLiteral("export"), session, QStringLiteral("-o"), cli,
                                             QStringLiteral("--view"), QStringLiteral("heads"), QStringLiteral("--head"),
                                             QStringLiteral("2"), QStringLiteral("--query"), QStringLiteral("3"),
                                             QStringLiteral("--scale"), QStringLiteral("2")});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        const QImage a(shown), b(cli);
        QCOMPARE(a.size(), commandLine * 2);
        QCOMPARE(a.size(), b.size());
        // Pixel for pixel the same picture: one painter, one font.
        QVERIFY2(a.convertToFormat(QImage::Format_RGB32) == b.convertToFormat(QImage::Format_RGB32),
                 qPrintable(QString::number(meanDifference(a, b))));
        const QString keepAs = qEnvironmentVariable("ATTN_SLIDES_HEADS_PNG");
        if (!keepAs.isEmpty())
            QFile::copy(shown, keepAs);
    }

    void svgHasNoMasksAndRendersAsThePng_data()
    {
        QTest::addColumn<int>("view");
        QTest::newRow("heatmap") << int(ExportView::Heatmap);
        QTest::newRow("heads") << int(ExportView::Heads);
        QTest::newRow("dashboard") << int(ExportView::Dashboard);
    }
    void svgHasNoMasksAndRendersAsThePng()
    {
        QFETCH(int, view);
        const attn::Session session = example(QStringLiteral("four-heads-causal"));
        const SnapshotPtr snapshot = snapshotForSession(session);
        ExportOptions options;
        options.view = ExportView(view);
        options.query = 3;
        options.title = dashboardTitle(session, 3);
        const QString name = exportViewName(options.view);
        const QString svg = m_dir.filePath(name + QStringLiteral(".svg")), png = m_dir.filePath(name + QStringLiteral(".png"));
        QString error;
        QVERIFY2(exportFile(session, snapshot, options, svg, &error), qPrintable(error));
        QVERIFY2(exportFile(session, snapshot, options, png, &error), qPrintable(error));

        // Masks (in patterns or anywhere) and patterns are what slide programs drop.
        const QByteArray text = readAll(svg);
        QVERIFY(!text.isEmpty());
        for (const char *dropped : {"<mask", "mask=", "<pattern", "url(#fillpattern"})
            QVERIFY2(!text.contains(dropped), dropped);

        const QImage reference(png);
        const QImage qt = renderSvg(svg, reference.size());
        QVERIFY2(meanDifference(reference, qt) < 3.0, qPrintable(QString::number(meanDifference(reference, qt))));
        // The masked cells of head 0 above its diagonal: hatched alike (about one pixel in eight).
        const QRect masked = options.view == ExportView::Heatmap ? QRect(560, 75, 140, 90)
                             : options.view == ExportView::Heads ? QRect(210, 66, 40, 40)
                                                                 : QRect();
        if (!masked.isEmpty()) {
            const QColor background = lightExportPalette().color(QPalette::Window);
            const double inPng = hatchInk(reference, masked, background), inSvg = hatchInk(qt, masked, background);
            // Lines of #a0a0a0 on #efefef, one every 8 / √2 pixels across: about 79 / 5.7 = 14 of ink.
            QVERIFY2(inPng > 7 && inPng < 28, qPrintable(QString::number(inPng)));
            QVERIFY2(std::fabs(inPng - inSvg) < 0.15 * inPng, qPrintable(QStringLiteral("%1 vs %2").arg(inPng).arg(inSvg)));
        }

        // A real SVG consumer from Debian (librsvg2-bin), where installed.
        const QString rsvg = QStandardPaths::findExecutable(QStringLiteral("rsvg-convert"));
        if (rsvg.isEmpty())
            return;
        const QString rendered = m_dir.filePath(name + QStringLiteral("-rsvg.png"));
        const HeadlessRun run = runHeadless(rsvg, {QStringLiteral("-w"), QString::number(reference.width()),
                                                   QStringLiteral("-h"), QString::number(reference.height()),
                                                   QStringLiteral("-b"), QStringLiteral("white"), svg,
                                                   QStringLiteral("-o"), rendered});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        const QImage byRsvg(rendered);
        QCOMPARE(byRsvg.size(), reference.size());
        QVERIFY2(meanDifference(reference, byRsvg) < 4.0, qPrintable(QString::number(meanDifference(reference, byRsvg))));
        if (!masked.isEmpty()) {
            const QColor background = lightExportPalette().color(QPalette::Window);
            const double inPng = hatchInk(reference, masked, background), inRsvg = hatchInk(byRsvg, masked, background);
            // The same lines; librsvg's antialiasing gives a one-pixel diagonal the full ink
            // of the geometry (about 14), Qt's raster engine about three quarters of it.
            QVERIFY2(inRsvg > 0.9 * inPng && inRsvg < 1.6 * inPng,
                     qPrintable(QStringLiteral("%1 vs %2").arg(inPng).arg(inRsvg)));
        }
    }
};

QTEST_MAIN(TestSlides)
#include "tst_slides.moc"
