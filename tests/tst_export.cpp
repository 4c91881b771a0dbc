// The exporter and the export actions in-process: sizes, colours, formats,
// and the dialog-free paths the menus use. Run with QT_QPA_PLATFORM=offscreen.

#include "colormap.h"
#include "document.h"
#include "exportactions.h"
#include "exporter.h"
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
    QTest::addColumn<int>("head");
    QTest::addColumn<int>("query");
    QTest::addColumn<QSize>("size");
    QTest::addColumn<QString>("message"); // empty: accepted
    QTest::newRow("fine") << "a.png" << 0 << 0 << QSize() << "";
    QTest::newRow("average") << "a.csv" << -1 << 5 << QSize() << "";
    QTest::newRow("suffix") << "dir/a.txt" << 0 << 0 << QSize()
                            << "a.txt: unknown file type; use .png, .svg, .pdf, .csv or .json";
    QTest::newRow("head") << "a.png" << 1 << 0 << QSize() << "a.png: head 1 does not exist; the session has one head, head 0";
    QTest::newRow("query") << "a.svg" << 0 << -1 << QSize() << "a.svg: query -1 does not exist; the session has queries 0 to 5";
    QTest::newRow("size") << "a.pdf" << 0 << 0 << QSize(20000, 100)
                          << "a.pdf: size 20000x100 out of range; each side must be 16 to 16384 pixels";
    QTest::newRow("numbers ignore size") << "a.json" << 0 << 0 << QSize(1, 1) << "";
}

void TestExport::checkRejects()
{
    QFETCH(QString, path);
    QFETCH(int, head);
    QFETCH(int, query);
    QFETCH(QSize, size);
    QFETCH(QString, message);
    ExportOptions options;
    options.head = head;
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
}

void TestExport::actionsFollowWindowState()
{
    QWidget window;
    Document document;
    document.setQuery(2);
    ExportActions actions(&document, &window);
    actions.setStateProvider([] { return ExportViewState{-1, true, ColorMap::Cividis}; });
    const ExportOptions options = actions.optionsFor(ExportView::Heads);
    QCOMPARE(options.view, ExportView::Heads);
    QCOMPARE(options.head, -1);
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
                                 "Dashboard…", "Numbers as CSV…", "Result as JSON…", "Copy View as Image"}));

    QWidget view(&window);
    actions.attachContextMenu(&view, ExportView::Bars);
    QCOMPARE(view.contextMenuPolicy(), Qt::CustomContextMenu);
}

QTEST_MAIN(TestExport)
#include "tst_export.moc"
