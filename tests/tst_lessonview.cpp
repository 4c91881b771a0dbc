// Lessons that must be easy to see: pattern scores readable on a 12-layer,
// 12-head grid (a list with every head's number, tooltips, column labels never
// clipped), every view a menu asks for brought to the front with its tab's
// title whole, small changes of a next-token probability that still show,
// the causal mask demo on a query where the mask shows something, and the
// walkthrough's outlines visible on every colour of every colour map.

#include "colormap.h"
#include "document.h"
#include "lessons/examples.h"
#include "heatmappainter.h"
#include "heatmapview.h"
#include "learn/modelwriter.h"
#include "learn/trainer.h"
#include "lessons/lessons.h"
#include "mistakesdialog.h"
#include "barcolumnsview.h"
#include "model/headscores.h"
#include "modelfixtures.h"
#include "modelgridpanel.h"
#include "modelgridview.h"
#include "modelwindowfixture.h"
#include "nexttokenview.h"
#include "lessons/notation.h"
#include "walkthroughpanel.h"

#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QMenu>
#include <QMenuBar>
#include <QPainter>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabBar>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>
#include <cmath>

namespace {

// WCAG contrast ratio of two colours.
double contrast(const QColor &a, const QColor &b)
{
    auto lum = [](const QColor &c) {
        auto channel = [](double v) { return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
        return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
    };
    const double x = lum(a), y = lum(b);
    return (std::max(x, y) + 0.05) / (std::min(x, y) + 0.05);
}

// The pixels of `image` inside `ring` (a band around a rectangle's edge) that
// contrast with `cell` at least `ratio`.
int contrastingPixels(const QImage &image, const QRect &outer, const QRect &inner, const QColor &cell, double ratio)
{
    int count = 0;
    for (int y = outer.top(); y <= outer.bottom(); ++y)
        for (int x = outer.left(); x <= outer.right(); ++x)
            if (!inner.contains(x, y) && contrast(image.pixelColor(x, y), cell) >= ratio)
                ++count;
    return count;
}

// A dock on screen: the current tab of its group, or alone and visible.
bool onTop(const MainWindow &window, QDockWidget *dock)
{
    if (!dock->isVisible())
        return false;
    if (window.tabifiedDockWidgets(dock).isEmpty())
        return true;
    for (const QTabBar *bar : window.findChildren<QTabBar *>(QString(), Qt::FindDirectChildrenOnly))
        for (int i = 0; i < bar->count(); ++i)
            if (bar->tabText(i) == dock->windowTitle())
                return bar->currentIndex() == i;
    return false;
}

QString tabTitlesCut(const MainWindow &window)
{
    for (const QTabBar *bar : window.findChildren<QTabBar *>(QString(), Qt::FindDirectChildrenOnly)) {
        if (!bar->isVisible())
            continue;
        for (int i = 0; i < bar->count(); ++i)
            if (!bar->rect().contains(bar->tabRect(i)))
                return QStringLiteral("tab \"%1\" at %2..%3 of a %4-pixel bar")
                    .arg(bar->tabText(i)).arg(bar->tabRect(i).left()).arg(bar->tabRect(i).right()).arg(bar->width());
    }
    return {};
}

QMenu *topMenu(MainWindow &window, const QString &text)
{
    for (QAction *top : window.menuBar()->actions())
        if (top->text() == text)
            return top->menu();
    return nullptr;
}

} // namespace

class TestLessonView : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_large, m_tiny;

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
        // A random GPT-2 of GPT-2's shape in layers and heads (12 x 12), tiny elsewhere.
        attn::TrainerSettings settings;
        settings.layers = 12;
        settings.heads = 12;
        settings.dModel = 48;
        settings.context = 64;
        std::vector<QByteArray> symbols;
        for (int i = 0; i < 26; ++i)
            symbols.push_back(QByteArray(1, char('a' + i)));
        m_large = m_dir.filePath(QStringLiteral("gpt2-shaped"));
        QString error;
        QVERIFY2(attn::saveModelFolder(attn::Trainer::initialModel(attn::Trainer::configFor(settings, 26), 7), symbols,
                                       {}, m_large, &error),
                 qPrintable(error));
        m_tiny = m_dir.filePath(QStringLiteral("tiny-gpt2"));
        QVERIFY(QDir().mkpath(m_tiny));
        QVERIFY(fixtures::copyInto(fixtures::modelDir("gpt2-f32"), m_tiny));
        QVERIFY(fixtures::copyInto(QStringLiteral(ATTN_TEST_DATA "/models/cli/gpt2-tokenizer"), m_tiny));
    }

    // 144 tiles of about 11 pixels hold no numbers: the list under the grid
    // does, every head with its score, highest first; a tile's tooltip names
    // its score too, and the column labels fit whole.
    void scoresReadableOnATwelveByTwelveGrid()
    {
        ModelWindowFixture f;
        const QString text = QStringLiteral("abcdefghabcdefghxyzabc");
        f.window.sentenceEdit()->setText(text);
        QVERIFY(f.open(m_large));
        QVERIFY(f.model()->isOpen() && f.model()->trace());
        ModelGridPanel *panel = f.actions()->gridPanel();
        ModelGridView *grid = panel->grid();
        QCOMPARE(grid->layerCount(), 12);
        QCOMPARE(grid->headCount(), 12);
        QVERIFY2(grid->tileRect(0, 0).width() < 28, qPrintable(QString::number(grid->tileRect(0, 0).width())));
        QVERIFY(!panel->scoreList()->isVisible()); // attention only: nothing to list

        panel->scoreBox()->setCurrentIndex(panel->scoreBox()->findText(QStringLiteral("Previous token")));
        QApplication::processEvents();
        QTreeWidget *list = panel->scoreList();
        QVERIFY(list->isVisible());
        QCOMPARE(list->topLevelItemCount(), 144);
        QVERIFY(list->height() >= 4 * list->sizeHintForRow(0)); // several rows readable at once

        // The previous-token score computed here from the shown weights: the
        // mean over queries 1 ... n-1 of the weight on the token before.
        const attn::ModelTrace &trace = *f.model()->trace();
        const int n = int(f.model()->tokens().size());
        QCOMPARE(n, text.size());
        std::vector<std::vector<double>> expected(12, std::vector<double>(12));
        double best = -1;
        for (int l = 0; l < 12; ++l)
            for (int h = 0; h < 12; ++h) {
                double sum = 0;
                for (int q = 1; q < n; ++q)
                    sum += double(trace.layers[std::size_t(l)].weights[std::size_t(h)](q, q - 1));
                expected[std::size_t(l)][std::size_t(h)] = sum / (n - 1);
                best = std::max(best, sum / (n - 1));
            }
        // "L3H7" -> {3, 7}
        auto headOf = [](const QTreeWidgetItem *item) {
            const QStringList parts = item->text(0).mid(1).split(QLatin1Char('H'));
            return std::pair(parts.value(0).toInt(), parts.value(1).toInt());
        };
        double previous = 2;
        for (int row = 0; row < 144; ++row) {
            const QTreeWidgetItem *item = list->topLevelItem(row);
            const auto [l, h] = headOf(item);
            const double want = expected[std::size_t(l)][std::size_t(h)];
            QCOMPARE(item->text(1), attn::formatFixed(want));
            QVERIFY(std::fabs(item->text(1).toDouble() - want) <= 5e-5 + 1e-9);
            QVERIFY(want <= previous + 1e-12); // highest first
            previous = want;
        }
        QCOMPARE(list->topLevelItem(0)->text(1), attn::formatFixed(best));
        // A tile says its score when hovered.
        QVERIFY2(grid->tileToolTip(3, 7).contains(attn::formatFixed(expected[3][7])), qPrintable(grid->tileToolTip(3, 7)));
        QVERIFY(grid->tileToolTip(3, 7).startsWith(QStringLiteral("Layer 3, head 7")));

        // A row clicked shows that head.
        QTreeWidgetItem *third = list->topLevelItem(2);
        list->setCurrentItem(third);
        QCOMPARE(f.doc.selection()->head(), HeadRef::one(headOf(third).first, headOf(third).second));
        // Sorted by head, as a click on its column does: layer by layer, L2 before L10.
        list->sortByColumn(0, Qt::AscendingOrder);
        QCOMPARE(list->topLevelItem(0)->text(0), QStringLiteral("L0H0"));
        QCOMPARE(list->topLevelItem(12 * 2)->text(0), QStringLiteral("L2H0"));
        QCOMPARE(list->topLevelItem(143)->text(0), QStringLiteral("L11H11"));

        list->sortByColumn(1, Qt::DescendingOrder);
        // Column labels: whole, apart, above their columns.
        const ModelGridLayout layout = modelGridLayout(QRectF(grid->rect()).adjusted(4, 4, -4, -4), 12, 12,
                                                       QFontMetricsF(grid->font()));
        const QFontMetricsF metrics(grid->font());
        const std::vector<ModelGridColumnLabel> labels = modelGridColumnLabels(layout, metrics);
        QVERIFY(labels.size() >= 4);
        for (std::size_t i = 0; i < labels.size(); ++i) {
            QVERIFY2(metrics.horizontalAdvance(labels[i].text) <= labels[i].rect.width(),
                     qPrintable(QStringLiteral("%1 in %2 px").arg(labels[i].text).arg(labels[i].rect.width())));
            if (i > 0)
                QVERIFY(labels[i].rect.left() >= labels[i - 1].rect.right() - 1e-9);
        }
        // Columns 0, k, 2k, ... named by their number ("H" first when it fits), up to the last that fits.
        auto number = [](const QString &t) { return QString(t).remove(QLatin1Char('H')).toInt(); };
        const int every = number(labels[1].text) - number(labels[0].text);
        QVERIFY(every >= 1);
        for (std::size_t i = 0; i < labels.size(); ++i)
            QCOMPARE(number(labels[i].text), int(i) * every);
        QVERIFY(number(labels.back().text) + every > 11);
        panel->grab().save(QStringLiteral("/tmp/attn-grid-12x12.png"));
        // Both columns in sight, the numbers whole.
        QVERIFY(list->isVisible() && list->width() > 0);
        QVERIFY2(list->columnViewportPosition(1) + list->columnWidth(1) <= list->viewport()->width(),
                 qPrintable(QStringLiteral("%1 + %2 > %3").arg(list->columnViewportPosition(1)).arg(list->columnWidth(1))
                                .arg(list->viewport()->width())));
    }

    // Every View entry that shows a dock, the Learn entries and Compare Runs
    // bring their view to the front; every tab title shows whole.
    void viewsAskedForComeToTheFront()
    {
        ModelWindowFixture f;
        f.window.sentenceEdit()->setText(
            fixtures::cliExpected().value(QLatin1String("gpt2")).toObject().value(QLatin1String("text")).toString());
        QVERIFY(f.open(m_tiny));
        QVERIFY(f.model()->trace());
        // The dock widens for "All layers and heads" once the model's title is in.
        QVERIFY2(QTest::qWaitFor([&] { return tabTitlesCut(f.window).isEmpty(); }, 2000), qPrintable(tabTitlesCut(f.window)));
        QMenu *view = topMenu(f.window, QStringLiteral("&View"));
        QVERIFY(view);
        int checked = 0;
        for (QDockWidget *dock : f.window.findChildren<QDockWidget *>()) {
            QAction *toggle = dock->toggleViewAction();
            if (!toggle->isEnabled() || !view->actions().contains(toggle))
                continue;
            if (dock->isVisible())
                toggle->trigger(); // closed first, as the user had it
            QVERIFY(!dock->isVisible());
            toggle->trigger();
            QVERIFY2(onTop(f.window, dock), qPrintable(dock->windowTitle()));
            ++checked;
        }
        QVERIFY(checked >= 9); // the rollout among them
        QVERIFY2(QTest::qWaitFor([&] { return tabTitlesCut(f.window).isEmpty(); }, 2000), qPrintable(tabTitlesCut(f.window)));

        QDockWidget *heads = f.window.findChild<QDockWidget *>(QStringLiteral("heads"));
        heads->raise();
        QMenu *learn = topMenu(f.window, QStringLiteral("&Learn"));
        QVERIFY(learn);
        for (const char *name : {"walkthrough", "cross"}) {
            QDockWidget *dock = f.window.findChild<QDockWidget *>(QLatin1String(name));
            heads->raise();
            QVERIFY(!onTop(f.window, dock));
            QAction *entry = nullptr;
            for (QAction *a : learn->actions())
                if (QString(a->text()).remove(QLatin1Char('&')) == dock->windowTitle())
                    entry = a;
            QVERIFY2(entry, name);
            entry->trigger();
            QVERIFY2(onTop(f.window, dock), name);
        }
        QDockWidget *pipeline = f.window.findChild<QDockWidget *>(QStringLiteral("pipeline"));
        pipeline->raise();
        f.window.findChild<QAction *>(QStringLiteral("compareRuns"))->trigger();
        QVERIFY(onTop(f.window, f.actions()->compareDock()));
    }

    // At the size of a first start on a 1280 x 800 screen (tst_presentation checks 1280 x 720).
    void dockTabsFitOnAFirstStart()
    {
        Document doc(attn::exampleSession());
        MainWindow window(&doc);
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTest::qWait(20);
        QVERIFY2(tabTitlesCut(window).isEmpty(), qPrintable(tabTitlesCut(window)));
    }

    // Probabilities written with enough digits that a change shows (hand-worked).
    void nextTokenChangesShow()
    {
        auto guess = [](double before, double after) { return TokenGuess{11, QStringLiteral(" the"), after, before}; };
        QCOMPARE(NextTokenView::changeText(guess(0.000031, 0.000047)), QStringLiteral("0.0031 → 0.0047 %"));
        QCOMPARE(NextTokenView::changeText(guess(0.5, 0.25)), QStringLiteral("50.0 → 25.0 %"));
        QCOMPARE(NextTokenView::changeText(guess(0.12345, 0.12349)), QStringLiteral("12.345 → 12.349 %"));
        QCOMPARE(NextTokenView::changeText(guess(-1, 0.0000123)), QStringLiteral("0.0012 %"));
        QCOMPARE(NextTokenView::moverText(guess(0.000031, 0.000047)),
                 QStringLiteral("0.0031 → 0.0047 %  (+0.0016 points)"));
        NextTokenView view;
        view.resize(320, 300);
        view.setGuesses(QStringLiteral("after “Hello”"), {guess(0.000031, 0.000047)});
        QVERIFY(view.accessibleDescription().contains(QStringLiteral("0.0031 → 0.0047 %")));
    }

    // Query 0 sees only itself and the last query sees everything: the demo
    // shows a middle token then, says why, and takes the learner's own pick.
    void causalDemoShowsTheMask()
    {
        Document doc(attn::exampleSession()); // six tokens
        doc.setQuery(0);
        MistakesDialog dialog(&doc);
        dialog.show();
        dialog.showDemo(MistakesDialog::CausalMask);
        QCOMPARE(dialog.causalDemoQuery(), 3);
        QCOMPARE(dialog.causalQueryBox()->currentIndex(), 3);
        std::vector<BarColumn> cols = dialog.columnsView(MistakesDialog::CausalMask)->columns();
        QCOMPARE(cols[1].masked, (std::vector<bool>{false, false, false, false, true, true}));
        const attn::AttentionResult open = attn::computeSession(attn::withCausal(doc.session(), false));
        const attn::AttentionResult masked = attn::computeSession(attn::withCausal(doc.session(), true));
        for (int j = 0; j < 6; ++j) {
            QCOMPARE(cols[0].values[std::size_t(j)], open.heads[0].weights.toDouble()(3, j));
            QCOMPARE(cols[1].values[std::size_t(j)], masked.heads[0].weights.toDouble()(3, j));
        }
        QVERIFY(std::fabs(cols[0].values[0] - cols[1].values[0]) > 1e-3); // the mask moves the visible weights
        QVERIFY(dialog.explanationText().contains(QStringLiteral("first token")));
        QCOMPARE(dialog.causalHeatmap()->painter().query(), 3);

        doc.setQuery(5);
        QCOMPARE(dialog.causalDemoQuery(), 3);
        QVERIFY(dialog.explanationText().contains(QStringLiteral("last token")));
        doc.setQuery(2);
        QCOMPARE(dialog.causalDemoQuery(), 2);
        QVERIFY(!dialog.explanationText().contains(QStringLiteral("instead")));
        // The learner's own pick in the demo.
        QComboBox *box = dialog.causalQueryBox();
        box->setCurrentIndex(0);
        emit box->activated(0);
        QCOMPARE(dialog.causalDemoQuery(), 0);
        QCOMPARE(dialog.columnsView(MistakesDialog::CausalMask)->columns()[1].masked,
                 (std::vector<bool>{false, true, true, true, true, true}));
    }

    // The outline the walkthrough puts around a cell shows on every colour of
    // every colour map: some of its pixels contrast 4.5:1 with the cell.
    void walkthroughOutlinesShowOnEveryColour()
    {
        const QPalette palette = QApplication::palette();
        for (ColorMap map : allColorMaps())
            for (int i = 0; i <= 20; ++i) {
                const QColor cell = sequentialColor(map, i / 20.0);
                QImage image(48, 48, QImage::Format_RGB32);
                image.fill(cell);
                {
                    QPainter p(&image);
                    HeatmapPainter::paintStepOutline(p, QRectF(8, 8, 32, 32), cell, palette);
                }
                const int strong = contrastingPixels(image, QRect(5, 5, 38, 38), QRect(11, 11, 26, 26), cell, 4.5);
                QVERIFY2(strong >= 60, qPrintable(QStringLiteral("%1 at %2: %3 pixels")
                                                      .arg(colorMapName(map)).arg(i / 20.0).arg(strong)));
            }
    }

    // The same in the window: the scores step outlines the query's cells.
    void walkthroughOutlinesInTheHeatmap()
    {
        Document doc(attn::exampleSession());
        MainWindow window(&doc);
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.walkthrough()->setCurrentStep(1); // scores: every key of "journey"
        QApplication::processEvents();
        HeatmapView *heat = window.heatmap();
        const QImage shot = heat->grab().toImage();
        const qreal dpr = shot.devicePixelRatio();
        for (int key = 0; key < 6; ++key) {
            const QRect cell = heat->cellRect(1, key).toRect();
            const QColor colour = heat->painter().colorFor(heat->painter().valueAt(1, key));
            const QRect outer = QRect((cell.topLeft() + QPoint(1, 1)) * dpr, (cell.bottomRight() - QPoint(1, 1)) * dpr);
            const QRect inner = outer.adjusted(int(6 * dpr), int(6 * dpr), int(-6 * dpr), int(-6 * dpr));
            QVERIFY2(contrastingPixels(shot, outer, inner, colour, 4.5) >= 60, qPrintable(QString::number(key)));
        }
    }
};

QTEST_MAIN(TestLessonView)
#include "tst_lessonview.moc"
