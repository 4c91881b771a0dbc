// The first screen and the lessons it must not get wrong: the running
// example, the Examples menu, the start hint, cross-attention without a
// causal mask, one head in simplified mode, heads that follow the file
// defaults, 0-based numbering, the walkthrough's outlines, and demos that
// compare like with like.

#include "barchartview.h"
#include "document.h"
#include "session/embedding.h"
#include "lessons/examples.h"
#include "fileactions.h"
#include "headsgridview.h"
#include "heatmapview.h"
#include "mainwindow.h"
#include "mistakesdialog.h"
#include "barcolumnsview.h"
#include "contributionpainter.h"
#include "crossattentionpanel.h"
#include "pipelinepainter.h"
#include "optionspanel.h"
#include "pipelineview.h"
#include "session/sessionio.h"
#include "starthint.h"
#include "tokenchips.h"
#include "walkthroughpanel.h"

#include <QBuffer>
#include <QCheckBox>
#include <QPainter>
#include <QRegularExpression>
#include <QSvgGenerator>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QScreen>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTabBar>
#include <QTest>
#include <QToolButton>

namespace {

struct Window
{
    Document doc;
    MainWindow window{&doc};
    Window()
    {
        window.fileActions()->setInteractive(false);
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
    }
};

QDockWidget *dockOf(MainWindow &window, QWidget *content)
{
    for (QDockWidget *dock : window.findChildren<QDockWidget *>())
        if (dock->widget() == content)
            return dock;
    return nullptr;
}

QAction *exampleAction(MainWindow &window, const QString &id)
{
    QMenu *menu = window.menuBar()->findChild<QMenu *>(QStringLiteral("examplesMenu"));
    if (!menu)
        return nullptr;
    for (QAction *a : menu->actions())
        if (a->objectName() == QStringLiteral("example-") + id)
            return a;
    return nullptr;
}

} // namespace

class TestFirstScreen : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
    }

    void opensOnTheTextbookExample()
    {
        Window w;
        const attn::Session &s = w.doc.session();
        QCOMPARE(s.attention.mode, attn::Mode::Simplified);
        QCOMPARE(s.attention.heads, 1);
        QVERIFY(!s.attention.scale);
        QCOMPARE(s.tokens.at(s.query), QStringLiteral("journey"));
        // The context vector of "journey" in the introductory material: (0.4419, 0.6515, 0.5683).
        const Eigen::RowVectorXd z = w.doc.result().output.row(1);
        QCOMPARE(z.size(), Eigen::Index(3));
        QVERIFY(std::abs(z(0) - 0.4419) < 5e-5);
        QVERIFY(std::abs(z(1) - 0.6515) < 5e-5);
        QVERIFY(std::abs(z(2) - 0.5683) < 5e-5);
        // The walkthrough explains it, on screen from the start.
        QVERIFY(w.window.walkthroughOnScreen());
        QVERIFY(w.window.walkthrough()->titleText().contains(QStringLiteral("Pick the query")));
    }

    void firstSizeFitsTheScreen()
    {
        Window w;
        const QRect area = w.window.screen()->availableGeometry();
        const QSize size = w.window.firstSize();
        QVERIFY(size.width() <= area.width() && size.height() <= area.height());
        QVERIFY(size.width() <= 1280 && size.height() <= 800);
    }

    void examplesMenuOpensEachExample()
    {
        Window w;
        const std::vector<attn::Example> examples = attn::builtInExamples();
        QCOMPARE(int(examples.size()), 7);
        QStringList ids;
        for (const attn::Example &e : examples) {
            ids << e.id;
            QAction *action = exampleAction(w.window, e.id);
            QVERIFY2(action, qPrintable(e.id));
            QVERIFY(!action->toolTip().isEmpty());
            action->trigger();
            QCOMPARE(w.doc.session(), e.session);
            QVERIFY(w.doc.hasResult());
            QVERIFY(w.doc.filePath().isEmpty()); // an example is a new, unsaved session
        }
        QCOMPARE(ids, (QStringList{"your-journey-simplified", "your-journey", "four-heads-causal", "cross-attention",
                                   "long-sentence", "rotary-positions", "shared-key-value-heads"}));
        QVERIFY(examples[5].session.attention.rotary());
        QCOMPARE(examples[6].session.attention.keyValueHeads(), 2);
        const attn::Session &four = examples[2].session;
        QCOMPARE(four.attention.heads, 4);
        QVERIFY(four.attention.causal && four.attention.outputProjection);
        QCOMPARE(four.dModel() / four.attention.heads, four.attention.headDim);
        QVERIFY(examples[3].session.source.has_value());
        QVERIFY(examples[4].session.tokenCount() > 30);
        // File › New from Example holds the same entries.
        QMenu *file = w.window.menuBar()->findChildren<QMenu *>().value(0);
        QVERIFY(file);
    }

    void shippedExampleFilesAreTheBuiltInOnes()
    {
        // resources/examples/*.attn.json are what the menu opens (installed for users and scripts).
        const QDir dir(QStringLiteral(ATTN_TEST_DATA "/../../resources/examples"));
        const QByteArray writeTo = qgetenv("ATTN_WRITE_EXAMPLES");
        for (const attn::Example &e : attn::builtInExamples()) {
            const QString path = dir.filePath(e.id + QStringLiteral(".attn.json"));
            QString error;
            if (!writeTo.isEmpty())
                QVERIFY(attn::writeSession(path, e.session, &error));
            const std::optional<attn::Session> read = attn::readSession(path, &error);
            QVERIFY2(read, qPrintable(error));
            QCOMPARE(*read, e.session);
        }
    }

    void startHintUntilClosed()
    {
        QSettings().clear();
        {
            Window w;
            QVERIFY(w.window.startHint());
            QVERIFY(w.window.startHint()->isVisible());
            // It names the query as it is, not always the example's "journey".
            QVERIFY(w.window.startHint()->text().contains(QStringLiteral("“journey” is the query")));
            w.doc.setQuery(3); // "with" in "Your journey starts with one step"
            QVERIFY(w.window.startHint()->text().contains(QStringLiteral("“with” is the query")));
            w.window.startHint()->closeButton()->click();
            QVERIFY(!w.window.startHint()->isVisible());
        }
        Window again;
        QVERIFY(!again.window.startHint()); // it does not come back
    }

    void crossAttentionHasNoCausalMask()
    {
        Window w;
        exampleAction(w.window, QStringLiteral("cross-attention"))->trigger();
        attn::AttentionConfig c = w.doc.session().attention;
        c.causal = true; // asked for, e.g. by a file
        w.doc.setAttention(c);
        QCheckBox *box = w.window.options()->causalBox();
        QVERIFY(!box->isEnabled());
        QVERIFY(!box->isChecked());
        QVERIFY(box->toolTip().contains(QStringLiteral("cross-attention")));
        const attn::AttentionResult &r = w.doc.result();
        QVERIFY(!r.causal);
        // "Your" (query 0) sees the last source token too.
        QVERIFY(r.heads[0].weights(0, int(r.heads[0].weights.cols()) - 1) > 0.0);
        // Back to self-attention, the session's choice applies again.
        w.doc.setSource(std::nullopt);
        QVERIFY(box->isEnabled());
        QVERIFY(box->isChecked());
        QVERIFY(w.doc.result().causal);
    }

    void simplifiedModeHasOneHead()
    {
        Window w; // simplified
        QSpinBox *heads = w.window.options()->headsBox();
        QVERIFY(!heads->isEnabled());
        QVERIFY(heads->toolTip().contains(QStringLiteral("same")));
        QComboBox *mode = w.window.options()->modeBox();
        mode->setCurrentIndex(mode->findData(int(attn::Mode::ScaledDotProduct)));
        QVERIFY(heads->isEnabled());
        QCOMPARE(w.doc.session().attention.headDim, 3); // d_model / heads
        QVERIFY(w.doc.session().attention.scale);
        mode->setCurrentIndex(mode->findData(int(attn::Mode::Simplified)));
        QCOMPARE(w.doc.session().attention.heads, 1);
    }

    void headsFollowTheFileDefaults()
    {
        Window w;
        exampleAction(w.window, QStringLiteral("your-journey"))->trigger();
        w.doc.setDModel(8);
        QSpinBox *heads = w.window.options()->headsBox();
        heads->setValue(4);
        QCOMPARE(w.doc.session().attention.heads, 4);
        QCOMPARE(w.doc.session().attention.headDim, 2);          // 8 / 4
        QVERIFY(w.doc.session().attention.outputProjection);      // on with more than one head
        QVERIFY(w.window.options()->projectionBox()->isChecked());
        heads->setValue(3); // 8 does not split into 3: head_dim stays, and the panel says why
        QCOMPARE(w.doc.session().attention.headDim, 2);
        QVERIFY(w.window.options()->headsNote()->isVisibleTo(&w.window));
        QVERIFY(w.window.options()->headsNote()->text().contains(QStringLiteral("head_dim stays 2")));
        heads->setValue(1);
        QCOMPARE(w.doc.session().attention.headDim, 8);
        QVERIFY(!w.doc.session().attention.outputProjection);
    }

    void headsNumberedFromZero()
    {
        Window w;
        exampleAction(w.window, QStringLiteral("your-journey"))->trigger();
        w.doc.setDModel(12);
        w.window.options()->headsBox()->setValue(12);
        QComboBox *box = w.window.findChild<QComboBox *>(QString(), Qt::FindChildrenRecursively);
        QComboBox *headBox = nullptr;
        for (QComboBox *c : w.window.findChildren<QComboBox *>())
            if (c->accessibleName() == QStringLiteral("Head shown in the heatmap"))
                headBox = c;
        QVERIFY(box && headBox);
        QCOMPARE(headBox->count(), 13);
        QCOMPARE(headBox->itemText(0), QStringLiteral("0 of 12"));
        QCOMPARE(headBox->itemText(11), QStringLiteral("11 of 12"));
        QCOMPARE(headBox->itemText(12), QStringLiteral("average of 12"));
        headBox->setCurrentIndex(11);
        QApplication::processEvents();
        // Wide enough for its longest entry, so "11 of 12" is never cut.
        QVERIFY(headBox->width() >= headBox->fontMetrics().horizontalAdvance(QStringLiteral("average of 12")));
    }

    void chipClicksAreNavigation()
    {
        // Reading each word's row is not an edit: no undo step, nothing unsaved.
        Window w;
        const int before = w.doc.undoStack()->count();
        for (int q : {3, 4, 5, 2}) {
            QTest::mouseClick(w.window.chips(), Qt::LeftButton, {}, w.window.chips()->chipRect(q).center());
            QCOMPARE(w.doc.query(), q);
        }
        QCOMPARE(w.doc.undoStack()->count(), before);
        QVERIFY(!w.doc.isModified());
        QVERIFY(!w.window.isWindowModified());
    }

    void walkthroughOutlinesOnlyWhileShown()
    {
        Window w;
        w.window.walkthrough()->setCurrentStep(1); // the scores: every key outlined
        QVERIFY(!w.window.heatmap()->painter().highlightedColumns().isEmpty());
        QVERIFY(!w.window.chips()->highlighted().isEmpty());
        dockOf(w.window, w.window.headsGrid())->raise();
        QApplication::processEvents();
        QVERIFY(!w.window.walkthroughOnScreen());
        QVERIFY(w.window.heatmap()->painter().highlightedColumns().isEmpty());
        QVERIFY(w.window.chips()->highlighted().isEmpty());
        dockOf(w.window, w.window.walkthrough())->raise();
        QApplication::processEvents();
        QVERIFY(!w.window.heatmap()->painter().highlightedColumns().isEmpty());
        dockOf(w.window, w.window.walkthrough())->close();
        QApplication::processEvents();
        QVERIFY(w.window.heatmap()->painter().highlightedColumns().isEmpty());
    }

    void oneHeadHasNoAverageAndSquareTiles()
    {
        Window w;
        HeadsGridView *grid = w.window.headsGrid();
        QCOMPARE(grid->tileCount(), 1);
        grid->resize(300, 500); // a tall dock
        const QRectF tile = grid->tileRect(0);
        QCOMPARE(tile.width(), tile.height());
        QVERIFY(tile.height() < 320);
        exampleAction(w.window, QStringLiteral("four-heads-causal"))->trigger();
        QCOMPARE(grid->tileCount(), 5);
        QVERIFY(!grid->gridPainter().headOfTile(4).has_value()); // the average
        for (int i = 0; i < 5; ++i) {
            const QRectF t = grid->tileRect(i);
            QCOMPARE(t.width(), t.height());
        }
    }

    void crossAttentionPipelineUsesItsWidth()
    {
        // At the first window size the cross-attention pipeline keeps every
        // column and whole titles (it squeezed to "conte…" with spare width).
        Window w;
        exampleAction(w.window, QStringLiteral("cross-attention"))->trigger();
        QApplication::processEvents();
        PipelineView *view = w.window.pipeline();
        const PipelineLayout l = view->pipelinePainter().layout(QRectF(view->rect()));
        QVERIFY(l.scaledShown);
        const QFontMetricsF fm(view->font());
        QFont bold = view->font();
        bold.setBold(true);
        const QFontMetricsF bfm(bold);
        QVERIFY(l.steps[PipelineLayout::WeightsStep].width() >= bfm.horizontalAdvance(QStringLiteral("weights α = softmax")));
        QVERIFY(l.steps[PipelineLayout::ContextStep].width() >= bfm.horizontalAdvance(QStringLiteral("context z = Σ α·v")));
        QCOMPARE(w.window.crossAttention()->findChild<QLineEdit *>()->placeholderText(), QStringLiteral("Source sentence"));

        // A wide query (d_model 64) with many keys: titles come back before any spare width is left.
        attn::Session wide = attn::builtInExamples()[4].session;
        wide.embeddings = attn::resizeEmbeddings(wide.tokens, wide.embeddings, 64);
        wide.attention.headDim = 32;
        Document doc(wide);
        PipelinePainter painter;
        painter.setSnapshot(doc.snapshot());
        painter.setQuery(9);
        const QRectF rect(0, 0, 560, 320);
        const PipelineLayout p = painter.layout(rect);
        const bool spare = p.steps[PipelineLayout::QueryStep].left() > 12; // centred: room to spare
        for (const QString &title : {QStringLiteral("weights α = softmax"), QStringLiteral("context z = Σ α·v")}) {
            const int step = title.startsWith(QLatin1Char('w')) ? PipelineLayout::WeightsStep : PipelineLayout::ContextStep;
            QVERIFY2(!spare || p.steps[step].width() >= bfm.horizontalAdvance(title) - 1, qPrintable(title));
        }
    }

    void repeatedWordsCarryTheirPositionOnChips()
    {
        Window w;
        exampleAction(w.window, QStringLiteral("long-sentence"))->trigger();
        const QStringList chips = w.window.chips()->tokens();
        QCOMPARE(chips.at(0), QStringLiteral("The"));  // "The" once, "the" several times: different words
        QCOMPARE(chips.at(3), QStringLiteral("the₃"));
        QCOMPARE(chips.at(1), QStringLiteral("robot₁"));
        QCOMPARE(chips.at(2), QStringLiteral("moved"));
        QCOMPARE(w.doc.session().tokens.at(3), QStringLiteral("the")); // the session keeps the word itself
    }

    void contributionChartNumbersDimensionsFromZero()
    {
        // The stacked "largest weight" chart says d0, d1, d2 like every other
        // view, and its axis ticks share one number of decimals.
        Document doc;
        ContributionPainter painter;
        painter.setSnapshot(doc.snapshot());
        painter.setQuery(1);
        painter.setHead(0);
        QBuffer buffer;
        QSvgGenerator svg;
        svg.setOutputDevice(&buffer);
        svg.setSize(QSize(600, 360));
        {
            QPainter p(&svg);
            painter.paint(p, QRectF(0, 0, 600, 360), QApplication::palette());
        }
        const QString text = QString::fromUtf8(buffer.data());
        QVERIFY(text.contains(QStringLiteral(">d0 0.4419<")));
        QVERIFY(text.contains(QStringLiteral(">d2 0.5683<")));
        QVERIFY(!text.contains(QStringLiteral(">d3 ")));
        const QRegularExpression tick(QStringLiteral(">(−?\\d+\\.\\d+)<"));
        QSet<int> decimals;
        for (auto it = tick.globalMatch(text); it.hasNext();) {
            const QString t = it.next().captured(1);
            if (t.size() <= 5) // the axis ticks, not the four-decimal totals
                decimals.insert(int(t.size() - t.indexOf(QLatin1Char('.')) - 1));
        }
        QCOMPARE(decimals, QSet<int>{2});
    }

    void dockTabTitlesAreNotCut()
    {
        Window w;
        const QList<QTabBar *> bars = w.window.findChildren<QTabBar *>(QString(), Qt::FindDirectChildrenOnly);
        QVERIFY(!bars.isEmpty());
        for (QTabBar *bar : bars)
            QCOMPARE(bar->elideMode(), Qt::ElideNone);
    }

    void positionalEncodingIsNamedInBarsAndPipeline()
    {
        Window w;
        attn::AttentionConfig c = w.doc.session().attention;
        c.positionalEncoding = attn::PositionalEncoding::Sinusoidal;
        w.doc.setAttention(c);
        const BarChartModel &bars = w.window.barChart()->model();
        QVERIFY(bars.withPositions);
        // "journey" at position 1: x + PE = (0.55 + sin 1, 0.87 + cos 1, 0.66 + sin(1/10000^(2/3))).
        QVERIFY(std::abs(bars.embedding[0] - (0.55 + 0.8414710)) < 1e-6);
        QVERIFY(std::abs(bars.embedding[1] - (0.87 + 0.5403023)) < 1e-6);
        QVERIFY(std::abs(bars.embedding[2] - (0.66 + 0.0021544)) < 1e-6);
        QCOMPARE(BarChartPainter::seriesName(BarChartModel::Embedding, true), QStringLiteral("input x + PE"));
        QCOMPARE(w.window.pipeline()->currentModel().queryTitle, QStringLiteral("q = x + PE"));
        // The reader stays on the step they were reading, now the second (tst_lessonstate).
        QCOMPARE(w.window.walkthrough()->titleText(), QStringLiteral("2. Pick the query"));
        w.window.walkthrough()->setCurrentStep(0);
        QCOMPARE(w.window.walkthrough()->titleText(), QStringLiteral("1. Add the position"));
    }

    void demosCompareLikeWithLike()
    {
        Window w;
        exampleAction(w.window, QStringLiteral("cross-attention"))->trigger();
        MistakesDialog dialog(&w.doc);
        dialog.resize(900, 600);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        const QStringList sentence = w.doc.session().tokens;

        dialog.showDemo(MistakesDialog::ScoresAreNotWeights);
        QVERIFY(dialog.explanationText().startsWith(QStringLiteral("Cross-attention")));
        QCOMPARE(dialog.columnsView(MistakesDialog::ScoresAreNotWeights)->columns().front().labels,
                 w.doc.session().source->tokens);

        dialog.showDemo(MistakesDialog::WordOrder);
        QVERIFY(dialog.explanationText().startsWith(QStringLiteral("Shown on the self-attention")));
        const auto cols = dialog.columnsView(MistakesDialog::WordOrder)->columns();
        QCOMPARE(cols.size(), std::size_t(4));
        for (const BarColumn &col : cols)
            QCOMPARE(col.labels, sentence); // every column is the sentence's own keys
        double change = 0.0;
        for (std::size_t i = 0; i < cols[2].values.size(); ++i)
            change = std::max(change, std::abs(cols[2].values[i] - cols[3].values[i]));
        QVERIFY(change > 1e-3); // with positions, order matters

        dialog.showDemo(MistakesDialog::CausalMask);
        QVERIFY(dialog.explanationText().startsWith(QStringLiteral("Shown on the self-attention")));
        QVERIFY(dialog.explanationText().contains(QStringLiteral("journey")));
        QCOMPARE(dialog.columnsView(MistakesDialog::CausalMask)->columns().back().labels, sentence);
    }
};

QTEST_MAIN(TestFirstScreen)
#include "tst_firstscreen.moc"
