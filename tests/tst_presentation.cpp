// The classroom on a 1280 × 720 projector (the offscreen screen of
// tests/data/screen-1280x720.json): every window and dialog the menus open
// fits the screen, the main heatmap's labels are whole, and View's zoom, full
// screen, presentation layout and theme do what they say and come back after
// a restart. ATTN_PRESENTATION_PNG_DIR keeps the pictures for a person to look at.

#include "colormap.h"
#include "document.h"
#include "lessons/examples.h"
#include "fileactions.h"
#include "heatmappainter.h"
#include "heatmapview.h"
#include "mainwindow.h"
#include "modelactions.h"
#include "modeldocument.h"
#include "modelfixtures.h"
#include "presentationactions.h"
#include "theme.h"
#include "tokenchips.h"
#include "walkthroughpanel.h"

#include <QAction>
#include <QApplication>
#include <QDialog>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QScreen>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTabBar>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

namespace {

void keep(QWidget *widget, const QString &name)
{
    const QString dir = qEnvironmentVariable("ATTN_PRESENTATION_PNG_DIR");
    if (!dir.isEmpty())
        widget->grab().save(dir + QLatin1Char('/') + name + QStringLiteral(".png"));
}

QRect screenArea() { return QGuiApplication::primaryScreen()->availableGeometry(); }

// Empty when `w`, frame included, lies on the screen; else what sticks out.
QString offScreen(const QWidget *w)
{
    const QRect frame = w->frameGeometry();
    if (screenArea().contains(frame))
        return {};
    return QStringLiteral("%1 (%2): %3,%4 %5 x %6 on a %7 x %8 screen")
        .arg(QString::fromLatin1(w->metaObject()->className()), w->windowTitle())
        .arg(frame.x()).arg(frame.y()).arg(frame.width()).arg(frame.height())
        .arg(screenArea().width()).arg(screenArea().height());
}

// Empty when the heatmap draws its title, axis labels and colour bar title whole.
QString labelsCut(const HeatmapView *view)
{
    const HeatmapPainter &painter = view->painter();
    const HeatmapLayout &l = painter.layout(QRectF(view->rect()), view->font(), view);
    const QFontMetricsF metrics(view->font(), view);
    QFont bold = view->font();
    bold.setBold(true);
    if (QFontMetricsF(bold, view).horizontalAdvance(painter.title()) > l.titleRect().width())
        return QStringLiteral("title \"%1\" in %2 px").arg(painter.title()).arg(l.titleRect().width());
    // Whole, or its name alone ("weights α") when the scale's words do not fit: never cut.
    const QString barTitle = painter.colorBarTitleFitting(metrics, l.colorBarTitleRect().height());
    if (barTitle.contains(QChar(0x2026)) || metrics.horizontalAdvance(barTitle) > l.colorBarTitleRect().height()
        || !painter.colorBarTitle().startsWith(barTitle))
        return QStringLiteral("colour bar title \"%1\" along %2 px").arg(barTitle).arg(l.colorBarTitleRect().height());
    for (int r = 0; r < painter.rows(); ++r)
        if (!l.isRowLabelShown(r) || metrics.horizontalAdvance(painter.rowLabels()[r]) > l.rowLabelLength())
            return QStringLiteral("row label %1").arg(painter.rowLabels()[r]);
    for (int c = 0; c < painter.columns(); ++c)
        if (!l.isColumnLabelShown(c) || metrics.horizontalAdvance(painter.columnLabels()[c]) > l.columnLabelLength())
            return QStringLiteral("column label %1").arg(painter.columnLabels()[c]);
    return {};
}

// Empty when every dock tab shows its whole title, none scrolled out of sight.
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

QAction *findAction(MainWindow &window, const QString &name)
{
    return window.findChild<QAction *>(name);
}

// WCAG relative luminance, for "is this background dark".
double luminance(const QColor &c)
{
    auto channel = [](double v) { return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
}

} // namespace

class TestPresentation : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_model;

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().clear();
        QCOMPARE(QGuiApplication::primaryScreen()->geometry(), QRect(0, 0, 1280, 720));
        // The tiny GPT-2 of tests/data/models with a tokenizer: Compare Runs needs a model.
        QVERIFY(m_dir.isValid());
        m_model = m_dir.filePath(QStringLiteral("tiny-gpt2"));
        QVERIFY(QDir().mkpath(m_model));
        QVERIFY(fixtures::copyInto(fixtures::modelDir("gpt2-f32"), m_model));
        QVERIFY(fixtures::copyInto(QStringLiteral(ATTN_TEST_DATA "/models/cli/gpt2-tokenizer"), m_model));
    }

    void cleanup() { QSettings().clear(); }

    // A first start on the projector: the window fits, and the heatmap's labels are whole.
    void firstStartFitsAndLabelsAreWhole()
    {
        Document doc(attn::exampleSession());
        MainWindow window(&doc);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTest::qWait(20);
        keep(&window, QStringLiteral("first-start-720"));
        QVERIFY2(offScreen(&window).isEmpty(), qPrintable(offScreen(&window)));
        QVERIFY2(labelsCut(window.heatmap()).isEmpty(), qPrintable(labelsCut(window.heatmap())));
        QVERIFY2(tabTitlesCut(window).isEmpty(), qPrintable(tabTitlesCut(window)));
    }

    // Every dock of the View menu, Compare Runs, every dialog of the Learn and
    // Help menus, with a model open: nothing grows past the screen.
    void nothingOpensLargerThanTheScreen()
    {
        Document doc(attn::exampleSession());
        MainWindow window(&doc);
        window.fileActions()->setInteractive(false);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        // A text the tiny model's 29 tokens can spell (tests/data/models/cli).
        window.sentenceEdit()->setText(fixtures::cliExpected().value(QLatin1String("gpt2")).toObject().value(QLatin1String("text")).toString());
        window.modelActions()->openFolder(m_model);
        QVERIFY(QTest::qWaitFor([&] { return doc.model()->isOpen() && !doc.model()->isComputing(); }, 10000));
        QVERIFY(doc.model()->trace());

        QAction *compare = findAction(window, QStringLiteral("compareRuns"));
        QVERIFY(compare && compare->isEnabled());
        compare->trigger();
        QTest::qWait(20);
        QVERIFY2(offScreen(&window).isEmpty(), qPrintable(QStringLiteral("Compare Runs: ") + offScreen(&window)));
        for (QDockWidget *dock : window.findChildren<QDockWidget *>()) {
            if (!dock->toggleViewAction()->isEnabled())
                continue;
            if (!dock->isVisible())
                dock->toggleViewAction()->trigger();
            QTest::qWait(10);
            QVERIFY2(offScreen(&window).isEmpty(), qPrintable(dock->windowTitle() + QStringLiteral(": ") + offScreen(&window)));
        }
        keep(&window, QStringLiteral("every-dock-720"));

        // Learn's and Help's entries that open a window; a modal one is checked while it is open.
        QMenu *learn = nullptr, *help = nullptr;
        for (QAction *top : window.menuBar()->actions()) {
            if (top->text() == QStringLiteral("&Learn"))
                learn = top->menu();
            if (top->text() == QStringLiteral("&Help"))
                help = top->menu();
        }
        QVERIFY(learn && help);
        QStringList problems;
        int opened = 0;
        for (QMenu *menu : {learn, help})
            for (QAction *action : menu->actions()) {
                if (action->menu() || action->isSeparator() || !action->isEnabled())
                    continue;
                QTimer::singleShot(50, this, [&] {
                    for (QWidget *top : QApplication::topLevelWidgets())
                        if (top != &window && top->isVisible()) {
                            ++opened;
                            if (!offScreen(top).isEmpty())
                                problems << action->text() + QStringLiteral(": ") + offScreen(top);
                            if (auto *modal = qobject_cast<QDialog *>(QApplication::activeModalWidget()))
                                modal->reject();
                            else if (auto *box = QApplication::activeModalWidget())
                                box->close();
                        }
                });
                action->trigger();
                QTest::qWait(80);
                for (QWidget *top : QApplication::topLevelWidgets())
                    if (top != &window && top->isWindow() && top->isVisible() && !qobject_cast<QMenu *>(top))
                        top->close();
            }
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
        QVERIFY2(opened >= 4, qPrintable(QString::number(opened))); // Mistakes, Practice, Train, the two Help dialogs
        QVERIFY2(offScreen(&window).isEmpty(), qPrintable(offScreen(&window)));
    }

    void zoomScalesTheInterfaceAndIsRemembered()
    {
        const double basePoints = QApplication::font().pointSizeF();
        int chipsBefore = 0;
        {
            Document doc(attn::exampleSession());
            MainWindow window(&doc);
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            PresentationActions *p = window.presentation();
            QCOMPARE(p->zoom(), 1.0);
            QVERIFY(!p->zoomResetAction()->isEnabled());
            QVERIFY(p->zoomInAction()->shortcuts().contains(QKeySequence(QKeySequence::ZoomIn)));
            QVERIFY(p->zoomOutAction()->shortcuts().contains(QKeySequence(QKeySequence::ZoomOut)));
            QCOMPARE(p->zoomResetAction()->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_0));
            chipsBefore = window.chips()->minimumSizeHint().height();
            QLabel *title = nullptr; // the walkthrough's step title, which has a font of its own
            for (QLabel *label : window.walkthrough()->findChildren<QLabel *>())
                if (label->text() == window.walkthrough()->titleText())
                    title = label;
            QVERIFY(title && title->font().bold());
            const double walkTitle = title->font().pointSizeF();
            p->zoomInAction()->trigger();
            p->zoomInAction()->trigger();
            p->zoomInAction()->trigger(); // 1.0 -> 1.1 -> 1.25 -> 1.5
            QCOMPARE(p->zoom(), 1.5);
            QApplication::processEvents();
            QCOMPARE(QApplication::font().pointSizeF(), basePoints * 1.5);
            QCOMPARE(window.heatmap()->font().pointSizeF(), basePoints * 1.5); // cells' numbers and labels
            QVERIFY2(window.chips()->minimumSizeHint().height() >= chipsBefore * 1.2,
                     qPrintable(QStringLiteral("%1 -> %2").arg(chipsBefore).arg(window.chips()->minimumSizeHint().height())));
            // The walkthrough's title, which sets a font of its own, grows too.
            QVERIFY2(title->font().pointSizeF() >= walkTitle * 1.45,
                     qPrintable(QStringLiteral("%1 -> %2").arg(walkTitle).arg(title->font().pointSizeF())));
            // So do the docks' title bars (Qt keeps the title font a dock was made with).
            QDockWidget *walk = window.findChild<QDockWidget *>(QStringLiteral("walkthrough"));
            QCOMPARE(walk->font().pointSizeF(), QApplication::font().pointSizeF());
            QVERIFY(walk->font() != QApplication::font("QDockWidget"));
            keep(&window, QStringLiteral("zoom-150"));
            // The panels no longer fit a 720-pixel screen at 1.5: they are put away, and the window fits.
            QVERIFY(QTest::qWaitFor([&] { return p->isPresentationLayout(); }, 1000));
            QVERIFY(window.statusBar()->currentMessage().contains(QStringLiteral("Presentation Layout")));
            (void)QTest::qWaitFor([&] { return offScreen(&window).isEmpty(); }, 1000);
            QTest::qWait(50);
            QVERIFY2(offScreen(&window).isEmpty(), qPrintable(offScreen(&window)));
            QVERIFY2(labelsCut(window.heatmap()).isEmpty(), qPrintable(labelsCut(window.heatmap())));
            keep(&window, QStringLiteral("zoom-150-fitted"));
            p->setPresentationLayout(false);
            QCOMPARE(QSettings().value(QStringLiteral("view/zoom")).toDouble(), 1.5);
        }
        {
            // The next start opens at the zoom the last one left.
            Document doc(attn::exampleSession());
            MainWindow window(&doc);
            QCOMPARE(window.presentation()->zoom(), 1.5);
            QCOMPARE(QApplication::font().pointSizeF(), basePoints * 1.5);
            window.presentation()->zoomResetAction()->trigger();
            QApplication::processEvents();
            QCOMPARE(QApplication::font().pointSizeF(), basePoints);
            QCOMPARE(window.chips()->minimumSizeHint().height(), chipsBefore);
        }
    }

    void fullScreenIsRemembered()
    {
        {
            Document doc(attn::exampleSession());
            MainWindow window(&doc);
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            QAction *full = window.presentation()->fullScreenAction();
            QVERIFY(full->shortcuts().contains(QKeySequence(Qt::Key_F11)));
            full->trigger();
            QVERIFY(QTest::qWaitFor([&] { return window.isFullScreen(); }));
            QVERIFY(full->isChecked());
            QVERIFY(QTest::qWaitFor([&] { return window.geometry() == QGuiApplication::primaryScreen()->geometry(); }));
            window.close(); // saves the window's state, as quitting does
        }
        {
            Document doc(attn::exampleSession());
            MainWindow window(&doc);
            window.show();
            QVERIFY(QTest::qWaitFor([&] { return window.isFullScreen(); }));
            QVERIFY(window.presentation()->fullScreenAction()->isChecked());
            window.presentation()->fullScreenAction()->trigger();
            QVERIFY(QTest::qWaitFor([&] { return !window.isFullScreen(); }));
            QVERIFY(!window.presentation()->fullScreenAction()->isChecked());
        }
    }

    // The heatmap takes most of the window, with its labels whole; the layout
    // is there again after a restart; switched off, the panels come back.
    void presentationLayout()
    {
        const QStringList putAway{"options", "embedding", "pipeline", "bars"};
        {
            Document doc(attn::exampleSession());
            MainWindow window(&doc);
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            const double before = double(window.heatmap()->width()) * window.heatmap()->height();
            window.presentation()->presentationAction()->trigger();
            QVERIFY(window.presentation()->isPresentationLayout());
            QTest::qWait(20);
            for (const QString &name : putAway)
                QVERIFY2(window.findChild<QDockWidget *>(name)->isHidden(), qPrintable(name));
            const double area = double(window.heatmap()->width()) * window.heatmap()->height();
            const double client = double(window.width()) * window.height();
            QVERIFY2(area >= 0.45 * client && area >= 2 * before,
                     qPrintable(QStringLiteral("%1 of %2 (before %3)").arg(area).arg(client).arg(before)));
            QVERIFY2(labelsCut(window.heatmap()).isEmpty(), qPrintable(labelsCut(window.heatmap())));
            keep(&window, QStringLiteral("presentation-720"));
            // Zoomed for the back row: still on the screen, labels still whole.
            window.presentation()->setZoomStep(5); // 1.5
            QCOMPARE(window.presentation()->zoom(), 1.5);
            QTest::qWait(20);
            QVERIFY2(offScreen(&window).isEmpty(), qPrintable(offScreen(&window)));
            QVERIFY2(labelsCut(window.heatmap()).isEmpty(), qPrintable(labelsCut(window.heatmap())));
            // The tab group widens for the larger titles a layout pass later.
            QVERIFY2(QTest::qWaitFor([&] { return tabTitlesCut(window).isEmpty(); }, 2000), qPrintable(tabTitlesCut(window)));
            keep(&window, QStringLiteral("presentation-720-zoomed"));
            // The docks' title bars grow too (Qt keeps the title font a dock was made with).
            QDockWidget *walk = window.findChild<QDockWidget *>(QStringLiteral("walkthrough"));
            QCOMPARE(walk->font().pointSizeF(), QApplication::font().pointSizeF());
            QVERIFY(walk->font() != QApplication::font("QDockWidget"));
            window.presentation()->zoomResetAction()->trigger();
            window.close();
        }
        {
            Document doc(attn::exampleSession());
            MainWindow window(&doc);
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            QVERIFY(window.presentation()->presentationAction()->isChecked());
            for (const QString &name : putAway)
                QVERIFY2(window.findChild<QDockWidget *>(name)->isHidden(), qPrintable(name));
            window.presentation()->presentationAction()->trigger();
            QTest::qWait(20);
            for (const QString &name : putAway)
                QVERIFY2(window.findChild<QDockWidget *>(name)->isVisible(), qPrintable(name));
            QVERIFY(!QSettings().value(QStringLiteral("view/presentationLayout")).toBool());
        }
    }

    void darkThemeFromTheMenu()
    {
        const QPalette system = QApplication::palette();
        {
            Document doc(attn::exampleSession());
            MainWindow window(&doc);
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            QAction *dark = window.presentation()->themeAction(Theme::Dark);
            QVERIFY(dark && !dark->isChecked());
            QVERIFY(window.presentation()->themeAction(Theme::System)->isChecked());
            dark->trigger();
            QApplication::processEvents();
            QVERIFY(dark->isChecked());
            // The heatmap's background, the walkthrough's formulas and the window itself are dark.
            const QImage shot = window.grab().toImage();
            const QImage heat = window.heatmap()->grab().toImage();
            QVERIFY(luminance(heat.pixelColor(2, heat.height() - 3)) < 0.05);
            QVERIFY(luminance(shot.pixelColor(shot.width() / 2, shot.height() - 4)) < 0.05); // the status bar
            QVERIFY(luminance(window.walkthrough()->palette().color(QPalette::Base)) < 0.05);
            keep(&window, QStringLiteral("dark-720"));
        }
        {
            Document doc(attn::exampleSession());
            MainWindow window(&doc);
            QCOMPARE(window.presentation()->theme(), Theme::Dark);
            QVERIFY(luminance(QApplication::palette().color(QPalette::Window)) < 0.05);
            window.presentation()->themeAction(Theme::Light)->trigger();
            QVERIFY(luminance(QApplication::palette().color(QPalette::Window)) > 0.5);
            window.presentation()->themeAction(Theme::System)->trigger();
            QCOMPARE(QApplication::palette().color(QPalette::Window), system.color(QPalette::Window));
            QCOMPARE(QApplication::palette().color(QPalette::Base), system.color(QPalette::Base));
        }
    }
};

QTEST_MAIN(TestPresentation)
#include "tst_presentation.moc"
