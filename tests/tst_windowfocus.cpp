// The keyboard in the main window goes only where the user can see: a dock
// behind another tab (the right dock's Walkthrough, All heads and
// Cross-attention share one place) never keeps or receives the focus, not
// after a tab switch, not through Tab or an Alt+letter shortcut, not when a
// dialog such as Learn › Practice closes and the window takes the keyboard
// back. And when cross-attention is on, the heatmap says so whichever tab is
// raised.
//
// Found in a real window under Xvfb: with the Cross-attention tab's Source
// box clicked, then the Walkthrough tab raised, Learn › Practice opened and
// closed, two typed letters landed in the hidden Source box, switched
// cross-attention on and the heatmap became one column of 1.0000.

#include "barcolumnsview.h"
#include "crossattentionpanel.h"
#include "document.h"
#include "lessons/examples.h"
#include "fileactions.h"
#include "heatmapview.h"
#include "mainwindow.h"
#include "practicedialog.h"
#include "walkthroughpanel.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QLineEdit>
#include <QMenuBar>
#include <QStandardPaths>
#include <QTest>
#include <algorithm>

namespace {

struct Fixture
{
    Document doc{attn::exampleSession()};
    MainWindow window{&doc};

    Fixture()
    {
        window.fileActions()->setInteractive(false);
        window.resize(1280, 800);
        window.show();
        window.activateWindow();
    }
    QDockWidget *dock(const char *name) { return window.findChild<QDockWidget *>(QLatin1String(name)); }
    // Raises a dock's tab as a click on it does.
    void raise(const char *name)
    {
        dock(name)->raise();
        QCoreApplication::processEvents();
    }
    QAction *learnAction(const QString &text)
    {
        for (QAction *menu : window.menuBar()->actions())
            if (menu->menu() && menu->text() == QStringLiteral("&Learn"))
                for (QAction *a : menu->menu()->actions())
                    if (a->text() == text)
                        return a;
        return nullptr;
    }
};

// Whether the user can see `w`: shown, and not inside a dock moved off screen behind another tab.
bool onScreen(QWidget *w)
{
    if (!w || !w->isVisible())
        return false;
    for (QWidget *p = w; p; p = p->parentWidget())
        if (qobject_cast<QDockWidget *>(p) && p->visibleRegion().isEmpty())
            return false;
    return true;
}

} // namespace

class TestWindowFocus : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void keysAfterADialogStayWhereTheUserLooks()
    {
        Fixture f;
        QVERIFY(QTest::qWaitForWindowActive(&f.window));
        // The user types in the Source box, then reads the walkthrough.
        f.raise("cross");
        QLineEdit *source = f.window.crossAttention()->sourceEdit();
        QTest::mouseClick(source, Qt::LeftButton);
        QCOMPARE(QApplication::focusWidget(), source);
        f.raise("walkthrough");
        QVERIFY(onScreen(f.window.walkthrough()));
        QVERIFY(!onScreen(source));

        // Learn › Practice, opened and closed.
        QAction *practice = f.learnAction(QStringLiteral("&Practice…"));
        QVERIFY(practice);
        practice->trigger();
        auto *dialog = f.window.findChild<PracticeDialog *>();
        QVERIFY(dialog);
        QVERIFY(QTest::qWaitForWindowActive(dialog));
        QTest::keyClick(dialog, Qt::Key_Escape);
        QVERIFY(QTest::qWaitForWindowActive(&f.window));
        QVERIFY(!dialog->isVisible());

        // Two letters: they go to the sentence field, where they show.
        QWidget *focus = QApplication::focusWidget();
        QCOMPARE(focus, static_cast<QWidget *>(f.window.sentenceEdit()));
        QTest::keyClicks(focus, QStringLiteral("xy"));
        QVERIFY(!f.doc.session().source.has_value());
        QVERIFY(source->text().isEmpty());
        QVERIFY(f.window.sentenceEdit()->text().startsWith(QStringLiteral("xy")));
    }

    void aDialogGivesTheFocusBackWhereItWas()
    {
        Fixture f;
        QVERIFY(QTest::qWaitForWindowActive(&f.window));
        f.window.heatmap()->setFocus();
        QCOMPARE(QApplication::focusWidget(), static_cast<QWidget *>(f.window.heatmap()));
        f.learnAction(QStringLiteral("&Practice…"))->trigger();
        auto *dialog = f.window.findChild<PracticeDialog *>();
        QVERIFY(QTest::qWaitForWindowActive(dialog));
        dialog->reject();
        QVERIFY(QTest::qWaitForWindowActive(&f.window));
        QCOMPARE(QApplication::focusWidget(), static_cast<QWidget *>(f.window.heatmap()));
    }

    void tabAndShortcutsSkipDocksBehindAnotherTab()
    {
        Fixture f;
        QVERIFY(QTest::qWaitForWindowActive(&f.window));
        f.raise("walkthrough");
        // Alt+O is the Source box's shortcut ("S&ource:"): not while its tab is hidden.
        f.window.sentenceEdit()->setFocus();
        QTest::keyClick(&f.window, Qt::Key_O, Qt::AltModifier);
        QCOMPARE(QApplication::focusWidget(), static_cast<QWidget *>(f.window.sentenceEdit()));
        // Tab round the whole window: every stop is on screen.
        QWidget *start = QApplication::focusWidget();
        int stops = 0;
        do {
            QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
            QWidget *now = QApplication::focusWidget();
            QVERIFY2(onScreen(now), qPrintable(now ? now->metaObject()->className() + QStringLiteral(" ")
                                                         + now->accessibleName()
                                                   : QStringLiteral("nothing")));
        } while (QApplication::focusWidget() != start && ++stops < 200);
        QVERIFY(stops < 200);
        // Raised again, the Source box takes the focus and the keys as before.
        f.raise("cross");
        QTest::keyClick(&f.window, Qt::Key_O, Qt::AltModifier);
        QCOMPARE(QApplication::focusWidget(), static_cast<QWidget *>(f.window.crossAttention()->sourceEdit()));
    }

    // Hidden, a tab's contents kept the keyboard out but told the layout they
    // could be no wider than 0 pixels, and a tab group is as narrow as its
    // narrowest tab allows: the right dock stayed at its least width, whatever
    // was dragged or asked (the window's own widening for cut tab titles too).
    void docksBehindAnotherTabLetTheGroupWiden()
    {
        Fixture f;
        QVERIFY(QTest::qWaitForWindowExposed(&f.window));
        f.raise("walkthrough");
        QDockWidget *walk = f.dock("walkthrough");
        QVERIFY(!onScreen(f.window.crossAttention()));
        QTest::qWait(20);
        const int before = walk->width();
        f.window.resizeDocks({walk}, {before + 80}, Qt::Horizontal);
        QVERIFY2(QTest::qWaitFor([&] { return walk->width() >= before + 80; }, 1000),
                 qPrintable(QStringLiteral("%1 -> %2").arg(before).arg(walk->width())));
        QVERIFY(!onScreen(f.window.crossAttention())); // still out of the keyboard's reach
        QVERIFY(!f.window.crossAttention()->isVisible());
    }

    void crossAttentionNumbersAreWhole_data()
    {
        QTest::addColumn<int>("width");
        for (int w = 240; w <= 480; w += 20)
            QTest::newRow(qPrintable(QString::number(w))) << w;
    }

    void crossAttentionNumbersAreWhole()
    {
        // The dock's two columns (self vs cross-attention) at any dock width:
        // every number fits inside its column, bold included (the column cut
        // "0.5980" to "0.598" in a narrow dock), and nothing spills past the edge.
        QFETCH(int, width);
        BarColumn self{QStringLiteral("Self-attention: \u201cjourney\u201d over its own sentence"),
                       {QStringLiteral("Your"), QStringLiteral("journey"), QStringLiteral("starts")},
                       {0.2470, 0.5980, 0.1550}, {}, 1, {}};
        BarColumn cross{QStringLiteral("Cross-attention: \u201cjourney\u201d over the source"),
                        {QStringLiteral("Ton"), QStringLiteral("voyage"), QStringLiteral("commence")},
                        {0.5980, 0.1520, 0.2500}, {}, 0, {}};
        BarColumnsView view;
        view.setColumns({self, cross}, {QStringLiteral("vs")});
        view.resize(width, 240);
        QFont bold = view.font();
        bold.setBold(true);
        const QFontMetricsF normal(view.font()), boldMetrics(bold);
        for (const BarColumn &column : {self, cross}) {
            const double arrow = std::clamp(width * 0.12, 28.0, 64.0); // barcolumnsview.cpp's arrow between the columns
            const QRectF rect(0, 0, (width - 16 - arrow) / 2.0, 200);
            const BarColumnLayout l = BarColumnsView::columnLayout(column, rect, normal, boldMetrics);
            QVERIFY(l.numberWidth >= boldMetrics.horizontalAdvance(QStringLiteral("0.5980")));
            // A short name whole, beside a bar, down to the narrowest dock.
            QVERIFY2(l.labelWidth >= boldMetrics.horizontalAdvance(QStringLiteral("Ton")) && l.barWidth >= 8,
                     qPrintable(QStringLiteral("label %1, bar %2").arg(l.labelWidth).arg(l.barWidth)));
            QVERIFY2(l.numberLeft + l.numberWidth <= rect.right() + 0.01,
                     qPrintable(QStringLiteral("%1 > %2").arg(l.numberLeft + l.numberWidth).arg(rect.right())));
            QVERIFY(l.barWidth >= 0 && l.labelWidth >= 0 && l.barLeft >= l.labelWidth);
        }
        const QImage image = view.grab().toImage();
        const QColor base = view.palette().color(QPalette::Base);
        for (int y = 0; y < image.height(); ++y)
            for (int x = image.width() - 6; x < image.width(); ++x)
                QVERIFY2(image.pixelColor(x, y) == base, qPrintable(QStringLiteral("ink at (%1, %2)").arg(x).arg(y)));
    }

    void crossAttentionSaysSoWhicheverTabIsRaised()
    {
        Fixture f;
        f.raise("walkthrough");
        QVERIFY(!f.window.heatmap()->painter().title().contains(QStringLiteral("ross-attention")));
        f.doc.setSourceSentence(QStringLiteral("xy"));
        QVERIFY(f.doc.session().source.has_value());
        QCOMPARE(f.window.heatmap()->painter().title(),
                 QStringLiteral("Cross-attention weights α: keys and values from the source"));
        f.window.setShowScores(true);
        QCOMPARE(f.window.heatmap()->painter().title(),
                 QStringLiteral("Cross-attention scores ω: keys and values from the source"));
    }
};

QTEST_MAIN(TestWindowFocus)
#include "tst_windowfocus.moc"
