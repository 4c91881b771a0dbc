// The first token set aside in the window (attention sinks): one click in the
// heatmap's tools or View › Set the First Token Aside, remembered in the
// settings. The heatmap, the heads' tiles, the layers × heads grid and
// Compare then draw each row's weights without the first token, renormalised,
// and say so (title, colour bar, caption, exports); the pipeline keeps the
// weights as computed, and nothing of it is an edit. Expected numbers are
// worked out here from the real weights: w(r, c) / (sum of row r's weights
// on keys 1 ...).

#include "comparison.h"
#include "compareview.h"
#include "exportactions.h"
#include "headsgridview.h"
#include "heatmapview.h"
#include "io/appfolders.h"
#include "modelgridview.h"
#include "modelwindowfixture.h"
#include "pipelineview.h"

#include <QAction>
#include <QDockWidget>
#include <QFile>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QToolButton>

namespace {

const QString kModel = QStringLiteral(ATTN_TEST_DATA "/../../resources/examples/models/induction");
const QString kText = QStringLiteral("qmEjxBtrkwaDcsqmEjxBtrkwaDcs");

int distance(QColor a, QColor b)
{
    return std::max({std::abs(a.red() - b.red()), std::abs(a.green() - b.green()), std::abs(a.blue() - b.blue())});
}

// The hand-made example with two causal heads.
attn::Session twoCausalHeads()
{
    attn::Session s = attn::exampleSession();
    s.attention.heads = 2;
    s.attention.headDim = 2;
    s.attention.causal = true;
    s.attention.outputProjection = true;
    return s;
}

// Row r of `w` with its first key set aside, as the views should show it.
double asideWeight(const attn::AttentionMatrix &w, int r, int c)
{
    double others = 0;
    for (int j = 1; j < w.cols(); ++j)
        others += w(r, j);
    return c == 0 || others == 0 ? 0.0 : w(r, c) / others;
}

QString readText(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

} // namespace

class TestSinkView : public QObject
{
    Q_OBJECT
    QTemporaryDir m_home;

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        qputenv("XDG_CONFIG_HOME", QFile::encodeName(m_home.filePath(QStringLiteral("config"))));
        attn::setApplicationNames();
    }

    void init() { QSettings().remove(QStringLiteral("view/firstTokenAside")); }

    void heatmapAndTilesOfASession()
    {
        Document doc(twoCausalHeads());
        MainWindow window(&doc);
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.selectHead(0);
        HeatmapView *heat = window.heatmap();
        const attn::AttentionResult real = doc.result();
        const QColor before = heat->grab().toImage().pixelColor(heat->cellRect(5, 0).center().toPoint());
        const int undoSteps = doc.undoStack()->count();

        // The heatmap's own button, as a user clicks it.
        auto *button = window.findChild<QToolButton *>(QStringLiteral("firstTokenAsideButton"));
        QVERIFY(button && button->isVisible());
        QTest::mouseClick(button, Qt::LeftButton);
        QVERIFY(doc.selection()->firstTokenAside());
        QVERIFY(window.firstTokenAsideAction()->isChecked());
        QCOMPARE(doc.undoStack()->count(), undoSteps); // a way of looking, not an edit
        QVERIFY(!doc.isModified());

        // What the heatmap draws: the aside snapshot; the real one stays with the document.
        QVERIFY(heat->snapshot()->firstTokenAside);
        QCOMPARE(heat->snapshot()->realResult, doc.snapshot()->result);
        QVERIFY(!doc.snapshot()->firstTokenAside);
        QCOMPARE(heat->painter().title(), QStringLiteral("Attention weights α, first token set aside, rows renormalised"
                                                          " · head 0 (heads 0–1)"));
        QVERIFY(heat->painter().colorBarTitle().startsWith(QStringLiteral("renormalised weights α (first token aside)")));
        for (int r = 1; r < 6; ++r)
            for (int c = 0; c <= r; ++c)
                QVERIFY(std::abs(heat->painter().valueAt(r, c) - asideWeight(real.heads[0].weights, r, c)) < 1e-12);

        // Column 0 is covered (the window colour and its crossed hatch, no colour-map colour); a kept cell
        // has the colour of its renormalised weight.
        const QImage image = heat->grab().toImage();
        if (qEnvironmentVariableIsSet("ATTN_SINK_SHOT"))
            image.save(qEnvironmentVariable("ATTN_SINK_SHOT"));
        const QRect firstColumn = heat->cellRect(5, 0).toAlignedRect().adjusted(2, 2, -2, -2);
        const QColor background = HeatmapPainter::maskedBackground(heat->palette());
        const QColor hatch = HeatmapPainter::maskedHatch(heat->palette());
        int covered = 0, all = 0;
        for (int y = firstColumn.top(); y <= firstColumn.bottom(); ++y)
            for (int x = firstColumn.left(); x <= firstColumn.right(); ++x, ++all)
                covered += distance(image.pixelColor(x, y), background) <= 2 || distance(image.pixelColor(x, y), hatch) <= 2;
        QVERIFY2(covered == all, qPrintable(QStringLiteral("%1 of %2").arg(covered).arg(all)));
        QVERIFY(distance(before, background) > 10); // before, it was a weight's colour
        const QPointF kept = heat->cellRect(3, 1).topLeft() + QPointF(3, 3);
        QVERIFY(distance(image.pixelColor(kept.toPoint()), heat->painter().colorFor(asideWeight(real.heads[0].weights, 3, 1)))
                <= 2);

        // The tiles of every head, and their caption.
        const HeadsGridPainter &tiles = window.headsGrid()->gridPainter();
        QVERIFY(tiles.showsFirstTokenAside());
        QCOMPARE(tiles.tile(1).valueAt(4, 0), 0.0);
        QVERIFY(std::abs(tiles.tile(1).valueAt(4, 2) - asideWeight(real.heads[1].weights, 4, 2)) < 1e-12);
        // The average tile: the mean of the heads' renormalised weights.
        const double mean = (asideWeight(real.heads[0].weights, 4, 2) + asideWeight(real.heads[1].weights, 4, 2)) / 2;
        QVERIFY(std::abs(tiles.tile(2).valueAt(4, 2) - mean) < 1e-12);

        // The pipeline keeps the weights the model computed.
        const PipelineModel pipeline = window.pipeline()->currentModel();
        for (const PipelineKeyRow &row : pipeline.rows)
            if (!row.masked)
                QCOMPARE(row.weight, real.heads[0].weights(pipeline.query, row.key));

        // Scores are shown as computed, and say nothing of it.
        window.setShowScores(true);
        QCOMPARE(heat->painter().title(), QStringLiteral("Raw scores ω · head 0 (heads 0–1)"));
        QVERIFY(!tiles.showsFirstTokenAside());
        window.setShowScores(false);

        // The menu's entry turns it off again.
        window.firstTokenAsideAction()->trigger();
        QVERIFY(!doc.selection()->firstTokenAside());
        QVERIFY(!button->isChecked());
        QVERIFY(!heat->snapshot()->firstTokenAside);
        QCOMPARE(heat->painter().title(), QStringLiteral("Attention weights α · head 0 (heads 0–1)"));
        QCOMPARE(heat->painter().valueAt(3, 0), real.heads[0].weights(3, 0));
    }

    void rememberedInTheSettings()
    {
        {
            Document doc(twoCausalHeads());
            MainWindow window(&doc);
            QVERIFY(!window.firstTokenAsideAction()->isChecked());
            window.firstTokenAsideAction()->trigger();
            window.show();
            QVERIFY(window.close()); // saves the settings
        }
        QCOMPARE(QSettings().value(QStringLiteral("view/firstTokenAside")).toBool(), true);
        Document doc(twoCausalHeads());
        MainWindow window(&doc);
        QVERIFY(doc.selection()->firstTokenAside());
        QVERIFY(window.firstTokenAsideAction()->isChecked());
        QVERIFY(window.heatmap()->snapshot()->firstTokenAside);
    }

    // Exports draw and name what the window shows: the title and the colour
    // bar's words are text in an SVG.
    void exportsSayIt()
    {
        Document doc(twoCausalHeads());
        MainWindow window(&doc);
        window.exportActions()->setInteractive(false);
        QTemporaryDir dir;
        const QString plain = dir.filePath(QStringLiteral("plain.svg")), aside = dir.filePath(QStringLiteral("aside.svg"));
        const QString heads = dir.filePath(QStringLiteral("heads.svg"));
        QVERIFY(window.exportActions()->exportTo(ExportView::Heatmap, plain));
        window.firstTokenAsideAction()->trigger();
        QVERIFY(window.exportActions()->exportTo(ExportView::Heatmap, aside));
        QVERIFY(window.exportActions()->exportTo(ExportView::Heads, heads));
        QVERIFY(!readText(plain).contains(QStringLiteral("first token set aside")));
        QVERIFY(readText(aside).contains(QStringLiteral("first token set aside, rows renormalised")));
        QVERIFY(readText(aside).contains(QStringLiteral("set aside<")));
        // (The SVG writes a Greek letter in a text run of its own.)
        QVERIFY(readText(heads).contains(QStringLiteral(">renormalised weight <")));
        QVERIFY(readText(heads).contains(QStringLiteral(">first token set aside)<")));
    }

    // A model: the layers × heads grid (built on a worker) and Compare.
    void modelGridAndCompare()
    {
        ModelWindowFixture f;
        f.window.sentenceEdit()->setText(kText);
        QVERIFY(f.open(kModel));
        ModelGridView *grid = f.actions()->grid();
        const std::shared_ptr<const ModelGridLevels> real = grid->levels();
        QVERIFY(real && !f.model()->gridFirstTokenAside());
        QVERIFY(grid->marks().firstTokenAside == false);

        f.window.firstTokenAsideAction()->trigger();
        QTRY_VERIFY(f.model()->gridFirstTokenAside());
        QVERIFY(f.idle());
        QVERIFY(grid->levels() != real);
        QVERIFY(grid->marks().firstTokenAside);
        QVERIFY(modelGridCaption(grid->marks()).startsWith(QStringLiteral("First token set aside")));
        // Each pixel of a tile is one weight (28 tokens): the renormalised
        // weight as a level of 0 ... 254, the first column masked.
        const attn::ModelTrace &trace = *f.model()->trace();
        for (int l = 0; l < 2; ++l)
            for (int h = 0; h < int(trace.layers[std::size_t(l)].weights.size()); ++h) {
                const attn::RowMatrix<float> &w = trace.layers[std::size_t(l)].weights[std::size_t(h)];
                const QImage &tile = (*grid->levels())[std::size_t(l)][std::size_t(h)];
                for (int r = 1; r < w.rows(); r += 5) {
                    QCOMPARE(int(tile.constScanLine(r)[0]), kGridMasked);
                    const double others = w.row(r).tail(w.cols() - 1).cast<double>().sum();
                    for (int c = 1; c <= r; c += 3)
                        QVERIFY(std::abs(tile.constScanLine(r)[c] - w(r, c) / others * kGridLevelTop) <= 0.51);
                }
            }
        // The heatmap of the model's layer says it too.
        QVERIFY(f.window.heatmap()->painter().title().contains(QStringLiteral("first token set aside")));

        // Compare: A and B set aside, named so.
        auto *comparison = f.actions()->compareDock()->findChild<Comparison *>();
        QVERIFY(comparison);
        // As File › Compare Runs does: the dock is a tab beside the pipeline, and only a tab on top computes.
        f.window.findChild<QAction *>(QStringLiteral("compareRuns"))->trigger();
        ComparisonVariant other;
        other.kind = ComparisonVariant::Kind::OtherHead;
        other.layer = 1;
        other.head = 0;
        QVERIFY(comparison->setVariant(other));
        QTRY_VERIFY(comparison->data() && !comparison->isComputing());
        const std::shared_ptr<const ComparisonData> data = comparison->data();
        QVERIFY(data->firstTokenAside);
        QVERIFY(data->a.title.endsWith(QStringLiteral("first token set aside")));
        QVERIFY(data->b.title.endsWith(QStringLiteral("first token set aside")));
        QVERIFY(data->note.startsWith(QStringLiteral("First token set aside")));
        const attn::RowMatrix<float> &b = trace.layers[1].weights[0];
        const double others = b.row(9).tail(b.cols() - 1).cast<double>().sum();
        QCOMPARE(data->b.weights(9, 0), 0.0f);
        QVERIFY(std::abs(data->b.weights(9, 4) - b(9, 4) / others) < 1e-6);

        // Off: the real thumbnails at once (kept), Compare again as computed.
        f.window.firstTokenAsideAction()->trigger();
        QCOMPARE(grid->levels(), real);
        QVERIFY(!grid->marks().firstTokenAside);
        QTRY_VERIFY(comparison->data() != data && !comparison->isComputing());
        QVERIFY(!comparison->data()->firstTokenAside);
        QCOMPARE(comparison->data()->b.weights(9, 4), b(9, 4));
    }
};

QTEST_MAIN(TestSinkView)
#include "tst_sinkview.moc"
