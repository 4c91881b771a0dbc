// The exporter and the export actions in-process: sizes, colours, formats,
// and the dialog-free paths the menus use. Run with QT_QPA_PLATFORM=offscreen.

#include "colormap.h"
#include "document.h"
#include "exportactions.h"
#include "exporter.h"
#include "exportheads.h"
#include "exportseries.h"
#include "heatmappainter.h"
#include "testdata.h"

#include <QApplication>
#include <QClipboard>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMenu>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QWidget>

namespace {

SnapshotPtr exampleSnapshot()
{
    return snapshotForSession(attn::exampleSession());
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// The example sentence with four heads of width 2 (weights from seed 123).
attn::Session fourHeadSession(bool causal = false)
{
    attn::Session s = attn::exampleSession();
    s.attention.mode = attn::Mode::ScaledDotProduct;
    s.attention.heads = 4;
    s.attention.headDim = 2;
    s.attention.scale = true;
    s.attention.causal = causal;
    s.attention.outputProjection = true;
    s.attention.seed = 123;
    return s;
}

bool near(const QColor &a, const QColor &b)
{
    return std::abs(a.red() - b.red()) <= 1 && std::abs(a.green() - b.green()) <= 1
        && std::abs(a.blue() - b.blue()) <= 1;
}

// Pixels in `rect` that are much darker than the light background: drawn text.
int darkPixels(const QImage &image, const QRectF &rect)
{
    int count = 0;
    const QRect r = rect.toAlignedRect().intersected(image.rect());
    for (int y = r.top(); y <= r.bottom(); ++y)
        for (int x = r.left(); x <= r.right(); ++x)
            count += qGray(image.pixel(x, y)) < 128;
    return count;
}

} // namespace

class TestExport : public QObject
{
    Q_OBJECT
private slots:
    void viewNames();
    void scaleDoublesPixels_data();
    void scaleDoublesPixels();
    void heatmapCellColours_data();
    void heatmapCellColours();
    void vectorFiles_data();
    void vectorFiles();
    void checkRejects_data();
    void checkRejects();
    void headsTilesLabelsAndColourBar();
    void headsSvgText();
    void headsRepeatedTokens();
    void transparentPicture();
    void eachHeadPaths_data();
    void eachHeadPaths();
    void numberFilesKeepDoublePrecision();
    void actionsExportWithoutDialogs();
    void actionsFollowWindowState();
    void actionsCopyToClipboard();
    void actionsMenus();
};

void TestExport::viewNames()
{
    for (ExportView view : allExportViews())
        QCOMPARE(exportViewFromName(exportViewName(view)), std::optional<ExportView>(view));
    QCOMPARE(exportViewFromName(QStringLiteral("bars")), std::optional<ExportView>(ExportView::Bars));
    QVERIFY(!exportViewFromName(QStringLiteral("nope")));
    QCOMPARE(exportFormatForPath(QStringLiteral("a/b.SVG")), std::optional<ExportFormat>(ExportFormat::Svg));
    QVERIFY(!exportFormatForPath(QStringLiteral("out.xyz")));
}

void TestExport::scaleDoublesPixels_data()
{
    QTest::addColumn<ExportView>("view");
    for (ExportView view : allExportViews())
        QTest::newRow(qPrintable(exportViewName(view))) << view;
}

void TestExport::scaleDoublesPixels()
{
    QFETCH(ExportView, view);
    const SnapshotPtr snapshot = exampleSnapshot();
    ExportOptions options;
    options.view = view;
    options.query = 1;
    const QImage one = renderImage(snapshot, options);
    options.scale = 2;
    const QImage two = renderImage(snapshot, options);
    QVERIFY(!one.isNull());
    QCOMPARE(one.size(), exportSize(snapshot, options));
    QCOMPARE(two.size(), one.size() * 2);
    QCOMPARE(two.devicePixelRatio(), 2.0);
    QCOMPARE(two.deviceIndependentSize(), QSizeF(one.size()));
}

void TestExport::heatmapCellColours_data()
{
    QTest::addColumn<ColorMap>("map");
    QTest::addColumn<double>("scale");
    QTest::newRow("viridis 1x") << ColorMap::Viridis << 1.0;
    QTest::newRow("magma 2x") << ColorMap::Magma << 2.0;
    QTest::newRow("grayscale 1x") << ColorMap::Grayscale << 1.0;
}

void TestExport::heatmapCellColours()
{
    QFETCH(ColorMap, map);
    QFETCH(double, scale);
    const SnapshotPtr snapshot = exampleSnapshot();
    ExportOptions options;
    options.colorMap = map;
    options.scale = scale;
    options.query = 1;
    const QImage image = renderImage(snapshot, options);
    QVERIFY(!image.isNull());

    // Where the cells are: the heatmap's own layout for the same rectangle and font.
    const QSize size = exportSize(snapshot, options);
    HeatmapPainter painter;
    painter.setSnapshot(snapshot);
    const QRectF content = exportContentRect(QRectF(QPointF(0, 0), QSizeF(size)), ExportView::Heatmap);
    const HeatmapLayout &layout = painter.layout(content, defaultExportFont(), &image);
    const Eigen::MatrixXd &weights = snapshot->result->heads[0].weights.toDouble();
    const double largest = weights.maxCoeff();
    for (int r : {0, 3, 5}) { // not the query row, which has an outline
        for (int c = 0; c < weights.cols(); ++c) {
            // A corner of the cell, clear of the grid lines and of the number in its middle.
            const QPointF at = layout.cellRect(r, c).topLeft() + QPointF(5, 5);
            const QColor expected = sequentialColor(map, weights(r, c) / largest);
            const QColor actual = image.pixelColor((at * scale).toPoint());
            QVERIFY2(std::abs(actual.red() - expected.red()) <= 1 && std::abs(actual.green() - expected.green()) <= 1
                         && std::abs(actual.blue() - expected.blue()) <= 1,
                     qPrintable(QStringLiteral("cell %1,%2: %3 instead of %4")
                                    .arg(r).arg(c).arg(actual.name(), expected.name())));
        }
    }
}

void TestExport::vectorFiles_data()
{
    QTest::addColumn<ExportView>("view");
    QTest::addColumn<QString>("suffix");
    for (ExportView view : {ExportView::Heatmap, ExportView::Scores, ExportView::Heads, ExportView::Dashboard}) {
        for (const char *suffix : {"svg", "pdf"})
            QTest::addRow("%s.%s", qPrintable(exportViewName(view)), suffix) << view << suffix;
    }
}

void TestExport::vectorFiles()
{
    QFETCH(ExportView, view);
    QFETCH(QString, suffix);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("out.") + suffix);
    ExportOptions options;
    options.view = view;
    QString error;
    QVERIFY2(exportFile(attn::exampleSession(), exampleSnapshot(), options, path, &error), qPrintable(error));
    const QByteArray bytes = readAll(path);
    if (suffix == QLatin1String("svg")) {
        QVERIFY(bytes.startsWith("<?xml"));
        QVERIFY(!bytes.contains("<image")); // 36 cells: rectangles, not a bitmap
        QVERIFY(bytes.contains("<title>Attention Explorer — " + exportViewName(view).toUtf8() + "</title>"));
    } else {
        QVERIFY(bytes.startsWith("%PDF-"));
        QVERIFY(!bytes.contains("/Subtype /Image"));
    }
}

void TestExport::checkRejects_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<QString>("head"); // a number, or "average"
    QTest::addColumn<int>("query");
    QTest::addColumn<QSize>("size");
    QTest::addColumn<QString>("message"); // empty: accepted
    QTest::newRow("fine") << "a.png" << "0" << 0 << QSize() << "";
    QTest::newRow("average") << "a.csv" << "average" << 5 << QSize() << "";
    QTest::newRow("suffix") << "dir/a.txt" << "0" << 0 << QSize()
                            << "a.txt: unknown file type; use .png, .svg, .pdf, .csv or .json";
    QTest::newRow("head") << "a.png" << "1" << 0 << QSize() << "a.png: head 1 does not exist; the session has one head, head 0";
    QTest::newRow("negative head") << "a.png" << "-1" << 0 << QSize()
                                   << "a.png: head -1 does not exist; the session has one head, head 0";
    QTest::newRow("query") << "a.svg" << "0" << -1 << QSize() << "a.svg: query -1 does not exist; the session has queries 0 to 5";
    QTest::newRow("size") << "a.pdf" << "0" << 0 << QSize(20000, 100)
                          << "a.pdf: size 20000x100 out of range; each side must be 16 to 16384 pixels";
    QTest::newRow("numbers ignore size") << "a.json" << "0" << 0 << QSize(1, 1) << "";
}

void TestExport::headsTilesLabelsAndColourBar()
{
    const SnapshotPtr snapshot = snapshotForSession(fourHeadSession());
    ExportOptions options;
    options.view = ExportView::Heads;
    options.query = 1;
    const QImage image = renderImage(snapshot, options);
    const QSize size = exportSize(snapshot, options);
    QCOMPARE(image.size(), size);

    HeadsExportPainter painter;
    painter.setSnapshot(snapshot);
    painter.setQuery(1);
    QCOMPARE(painter.tileCount(), 5);
    QStringList titles;
    for (int i = 0; i < painter.tileCount(); ++i)
        titles << painter.tileTitle(i);
    QCOMPARE(titles, (QStringList{"head 0", "head 1", "head 2", "head 3", "average"}));

    // One range for every tile: the largest weight of any head, read from the result.
    const attn::AttentionResult &result = *snapshot->result;
    double largest = 0;
    for (const attn::HeadResult &head : result.heads)
        largest = std::max(largest, head.weights.toDouble().maxCoeff());
    QCOMPARE(painter.rangeMax(), largest);
    QCOMPARE(painter.rangeMin(), 0.0);

    const QRectF content = exportContentRect(QRectF(QPointF(0, 0), QSizeF(size)), ExportView::Heads);
    QFont font = defaultExportFont();
    const HeadsExportLayout layout = painter.layout(content, font, &image);
    QCOMPARE(int(layout.tiles.size()), 5);
    for (int i = 0; i < 5; ++i) {
        const HeadsExportLayout::Tile &tile = layout.tiles[std::size_t(i)];
        const Eigen::MatrixXd w = i < 4 ? result.heads[std::size_t(i)].weights.toDouble()
                                        : attn::averageWeights(result).toDouble();
        const qreal side = layout.cellSide;
        QVERIFY(side >= 20);
        for (int r : {0, 2, 5}) { // clear of the query row's outline
            for (int c = 0; c < 6; ++c) {
                const QPointF at = tile.cells.topLeft() + QPointF((c + 0.5) * side, (r + 0.5) * side);
                const QColor expected = sequentialColor(ColorMap::Viridis, w(r, c) / largest);
                QVERIFY2(near(image.pixelColor(at.toPoint()), expected),
                         qPrintable(QStringLiteral("tile %1 cell %2,%3: %4 instead of %5").arg(i).arg(r).arg(c)
                                        .arg(image.pixelColor(at.toPoint()).name(), expected.name())));
            }
        }
        // Labels on both axes, and a title above.
        QVERIFY(!tile.rowLabels.isEmpty() && !tile.columnLabels.isEmpty());
        QVERIFY2(darkPixels(image, tile.rowLabels) > 40, qPrintable(QString::number(i)));
        QVERIFY2(darkPixels(image, tile.columnLabels) > 40, qPrintable(QString::number(i)));
        QVERIFY(darkPixels(image, tile.title) > 10);
    }
    // The colour bar: the map's top colour at the top, its bottom colour at the bottom, ticks beside it.
    const QRectF bar = layout.colorBar;
    QVERIFY(bar.height() > 100);
    QVERIFY(near(image.pixelColor(QPointF(bar.center().x(), bar.top() + 2).toPoint()),
                 sequentialColor(ColorMap::Viridis, 1.0 - 2 / bar.height())));
    QVERIFY(near(image.pixelColor(QPointF(bar.center().x(), bar.bottom() - 2).toPoint()),
                 sequentialColor(ColorMap::Viridis, 2 / bar.height())));
    QVERIFY(darkPixels(image, layout.colorBarLabels) > 30);
    QVERIFY(bar.left() > layout.tiles[2].frame.right());
}

void TestExport::headsSvgText()
{
    const attn::Session session = fourHeadSession();
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("heads.svg"));
    ExportOptions options;
    options.view = ExportView::Heads;
    options.showScores = true;
    QString error;
    QVERIFY2(exportFile(session, snapshotForSession(session), options, path, &error), qPrintable(error));
    const QString svg = QString::fromUtf8(readAll(path));
    for (const char *text : {">head 0<", ">head 3<", ">average<", ">Your<", ">journey<", ">step<", ">score "})
        QVERIFY2(svg.contains(QLatin1String(text)), text);
    QVERIFY(!svg.contains(QLatin1String(">head 4<")));
    // Scores share a symmetric range; the bar says both ends with a real minus sign.
    HeadsExportPainter painter;
    painter.setSnapshot(snapshotForSession(session));
    painter.setShowScores(true);
    QVERIFY(svg.contains(QLatin1Char('>') + painter.formatTick(painter.rangeMax()) + QLatin1Char('<')));
    QVERIFY(svg.contains(QLatin1Char('>') + painter.formatTick(painter.rangeMin()) + QLatin1Char('<')));
    QVERIFY(painter.formatTick(painter.rangeMin()).startsWith(QChar(0x2212)));
}

void TestExport::headsRepeatedTokens()
{
    attn::Session session = fourHeadSession(true);
    session.tokens = QStringList{"the", "cat", "saw", "the", "dog", "run"};
    session.sentence.clear();
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("heads.svg"));
    ExportOptions options;
    options.view = ExportView::Heads;
    QString error;
    QVERIFY2(exportFile(session, snapshotForSession(session), options, path, &error), qPrintable(error));
    const QString svg = QString::fromUtf8(readAll(path));
    QVERIFY(svg.contains(QStringLiteral(">the₀<")));
    QVERIFY(svg.contains(QStringLiteral(">the₃<")));
    QVERIFY(svg.contains(QStringLiteral(">cat<")));
    // One head: one tile, no "average" repeating it.
    const SnapshotPtr one = exampleSnapshot();
    HeadsExportPainter painter;
    painter.setSnapshot(one);
    QCOMPARE(painter.tileCount(), 1);
    QCOMPARE(painter.tileTitle(0), QStringLiteral("head 0"));
}

void TestExport::transparentPicture()
{
    const SnapshotPtr snapshot = snapshotForSession(fourHeadSession());
    ExportOptions options;
    options.view = ExportView::Heads;
    options.transparent = true;
    options.scale = 2;
    const QImage image = renderImage(snapshot, options);
    QCOMPARE(qAlpha(image.pixel(0, 0)), 0);
    QCOMPARE(qAlpha(image.pixel(image.width() - 1, image.height() - 1)), 0);
    HeadsExportPainter painter;
    painter.setSnapshot(snapshot);
    const QSize size = exportSize(snapshot, options);
    const HeadsExportLayout layout = painter.layout(exportContentRect(QRectF(QPointF(0, 0), QSizeF(size)),
                                                                      ExportView::Heads), defaultExportFont(), nullptr);
    const QRectF cells = layout.tiles[1].cells;
    const QPoint cell = ((cells.topLeft() + QPointF(0.5, 0.5) * layout.cellSide) * 2).toPoint();
    QCOMPARE(qAlpha(image.pixel(cell)), 255);
    const double w = snapshot->result->heads[1].weights(0, 0);
    QVERIFY(near(image.pixelColor(cell), sequentialColor(ColorMap::Viridis, w / painter.rangeMax())));

    // PDF pages and number files have no background to leave out.
    for (const char *path : {"a.pdf", "a.csv", "a.json"})
        QCOMPARE(checkExport(snapshot, options, QLatin1String(path)),
                 QLatin1String(path) + QStringLiteral(": a transparent background is for PNG and SVG pictures only"));
    QCOMPARE(checkExport(snapshot, options, QStringLiteral("a.svg")), QString());
}

void TestExport::eachHeadPaths_data()
{
    QTest::addColumn<QString>("path");
    QTest::addColumn<int>("index");
    QTest::addColumn<int>("count");
    QTest::addColumn<QString>("expected");
    QTest::newRow("first") << "out.png" << 0 << 4 << "out-head0.png";
    QTest::newRow("folder kept") << "slides/out.svg" << 3 << 4 << "slides/out-head3.svg";
    QTest::newRow("absolute") << "/tmp/a b/out.pdf" << 1 << 2 << "/tmp/a b/out-head1.pdf";
    QTest::newRow("dots in the name") << "talk.v2.png" << 2 << 3 << "talk.v2-head2.png";
    QTest::newRow("padded from 11 heads") << "out.csv" << 3 << 12 << "out-head03.csv";
    QTest::newRow("last of 12") << "out.csv" << 11 << 12 << "out-head11.csv";
    QTest::newRow("10 heads need no padding") << "out.png" << 9 << 10 << "out-head9.png";
    QTest::newRow("no suffix") << "out" << 0 << 1 << "out-head0";
}

void TestExport::eachHeadPaths()
{
    QFETCH(QString, path);
    QFETCH(int, index);
    QFETCH(int, count);
    QFETCH(QString, expected);
    QCOMPARE(eachHeadPath(path, index, count), expected);
    QCOMPARE(::eachHeadPaths(path, count).value(index), expected);
}

void TestExport::checkRejects()
{
    QFETCH(QString, path);
    QFETCH(QString, head);
    QFETCH(int, query);
    QFETCH(QSize, size);
    QFETCH(QString, message);
    ExportOptions options;
    options.head = head == QLatin1String("average") ? std::nullopt : std::optional<int>(head.toInt());
    options.query = query;
    options.size = size;
    QCOMPARE(checkExport(exampleSnapshot(), options, path), message);
}

// A session large enough to be shown in single precision still exports every
// digit of the double computation to CSV and JSON.
void TestExport::numberFilesKeepDoublePrecision()
{
    const attn::Session s = largeSession();
    const SnapshotPtr shown = snapshotForSession(s);
    QVERIFY(shown->result && shown->result->singlePrecision);
    const attn::AttentionResult exact = attn::computeSession(s, attn::Precision::Double);

    QTemporaryDir dir;
    ExportOptions options;
    options.view = ExportView::Scores;
    QString error;
    const QString csv = dir.filePath(QStringLiteral("scores.csv"));
    QVERIFY2(exportFile(s, shown, options, csv, &error), qPrintable(error));
    const QList<QByteArray> lines = readAll(csv).split('\n');
    const QList<QByteArray> firstRow = lines.value(1).split(',');
    QCOMPARE(firstRow.size(), 257);
    for (int j = 1; j < 257; j += 13)
        QCOMPARE(firstRow[j].toDouble(), exact.heads[0].scores(0, j - 1));

    const QString json = dir.filePath(QStringLiteral("result.json"));
    QVERIFY2(exportFile(s, shown, options, json, &error), qPrintable(error));
    const QJsonObject head = QJsonDocument::fromJson(readAll(json)).object()["heads"].toArray()[0].toObject();
    QCOMPARE(head["weights"].toArray()[3].toArray()[7].toDouble(), exact.heads[0].weights(3, 7));
    QCOMPARE(head["scores"].toArray()[5].toArray()[2].toDouble(), exact.heads[0].scores(5, 2));
}

void TestExport::actionsExportWithoutDialogs()
{
    QWidget window;
    Document document;
    ExportActions actions(&document, &window);
    actions.setInteractive(false);
    QSignalSpy errors(&actions, &ExportActions::errorOccurred);
    QSignalSpy exported(&actions, &ExportActions::exported);
    QTemporaryDir dir;

    const QString png = dir.filePath(QStringLiteral("heatmap.png"));
    QVERIFY(actions.exportTo(ExportView::Heatmap, png, QSize(400, 300), 2));
    QCOMPARE(QImage(png).size(), QSize(800, 600));
    QCOMPARE(exported.size(), 1);
    QCOMPARE(exported.first().first().toString(), png);

    const QString json = dir.filePath(QStringLiteral("result.json"));
    QVERIFY(actions.exportTo(ExportView::Dashboard, json));
    QVERIFY(readAll(json).contains("\"attention-explorer-result\""));

    const QString bad = dir.filePath(QStringLiteral("out.xyz"));
    QVERIFY(!actions.exportTo(ExportView::Heatmap, bad));
    QVERIFY(!QFile::exists(bad));
    QCOMPARE(errors.size(), 1);
    QCOMPARE(errors.first().first().toString(), QStringLiteral("out.xyz: unknown file type; use .png, .svg, .pdf, .csv or .json"));

    // Every head: the window's session has one, so one file, with the head in its name.
    const QStringList written = actions.exportEachHeadTo(ExportView::Scores, dir.filePath(QStringLiteral("s.svg")),
                                                         QSize(300, 200), 1.0, true);
    QCOMPARE(written, QStringList{dir.filePath(QStringLiteral("s-head0.svg"))});
    QVERIFY(readAll(written.first()).startsWith("<?xml"));
    QVERIFY(actions.exportEachHeadTo(ExportView::Heads, dir.filePath(QStringLiteral("h.png"))).isEmpty());
    QCOMPARE(errors.last().first().toString(),
             QStringLiteral("h.png: the heads view already shows every head in one picture"));
}

void TestExport::actionsFollowWindowState()
{
    QWidget window;
    Document document;
    document.setQuery(2);
    ExportActions actions(&document, &window);
    actions.setStateProvider([] { return ExportViewState{std::nullopt, true, ColorMap::Cividis}; });
    const ExportOptions options = actions.optionsFor(ExportView::Heads);
    QCOMPARE(options.view, ExportView::Heads);
    QVERIFY(!options.head.has_value()); // the average
    QCOMPARE(options.query, 2);
    QVERIFY(options.showScores);
    QCOMPARE(options.colorMap, ColorMap::Cividis);
    QVERIFY(options.title.contains(QStringLiteral("query “%1”").arg(document.session().tokens[2])));
}

void TestExport::actionsCopyToClipboard()
{
    QWidget window;
    Document document;
    ExportActions actions(&document, &window);
    actions.setInteractive(false);
    QGuiApplication::clipboard()->clear();
    const QImage copied = actions.copyToClipboard(ExportView::Pipeline, QSize(300, 200), 2);
    QCOMPARE(copied.size(), QSize(600, 400));
    const QImage onClipboard = QGuiApplication::clipboard()->image();
    QCOMPARE(onClipboard.size(), QSize(600, 400));
}

void TestExport::actionsMenus()
{
    QWidget window;
    Document document;
    ExportActions actions(&document, &window);
    QMenu file;
    actions.addToMenu(&file);
    QCOMPARE(file.actions().size(), 1);
    QMenu *exportMenu = file.actions().first()->menu();
    QVERIFY(exportMenu);
    QStringList texts;
    for (QAction *a : exportMenu->actions()) {
        if (!a->isSeparator())
            texts << a->text().remove(QLatin1Char('&'));
    }
    QCOMPARE(texts, (QStringList{"Heatmap…", "Scores Heatmap…", "Pipeline…", "Bar Chart…", "All Heads…",
                                 "Dashboard…", "Every Head as Separate Files…", "Numbers as CSV…",
                                 "Result as JSON…", "Copy View as Image"}));

    QWidget view(&window);
    actions.attachContextMenu(&view, ExportView::Bars);
    QCOMPARE(view.contextMenuPolicy(), Qt::CustomContextMenu);
}

QTEST_MAIN(TestExport)
#include "tst_export.moc"
