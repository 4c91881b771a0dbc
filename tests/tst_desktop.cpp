#include "barchartview.h"
#include "document.h"
#include "headsgridview.h"
#include "heatmapview.h"
#include "helpdialogs.h"
#include "mainwindow.h"
#include "pipelineview.h"
#include "tokenchips.h"
#include "walkthroughpanel.h"

#include <QApplication>
#include <QLineEdit>
#include <QMenuBar>
#include <QStandardPaths>
#include <QTest>

// A desktop citizen: dark themes stay readable, the keyboard reaches
// everything, and the views tell a screen reader what they show.
class TestDesktop : public QObject
{
    Q_OBJECT

    static QPalette darkPalette()
    {
        QPalette p;
        p.setColor(QPalette::Window, QColor(0x2b, 0x2b, 0x2b));
        p.setColor(QPalette::WindowText, QColor(0xee, 0xee, 0xee));
        p.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
        p.setColor(QPalette::AlternateBase, QColor(0x33, 0x33, 0x33));
        p.setColor(QPalette::Text, QColor(0xee, 0xee, 0xee));
        p.setColor(QPalette::Button, QColor(0x3a, 0x3a, 0x3a));
        p.setColor(QPalette::ButtonText, QColor(0xee, 0xee, 0xee));
        p.setColor(QPalette::Mid, QColor(0x60, 0x60, 0x60));
        p.setColor(QPalette::Highlight, QColor(0x3d, 0xae, 0xe9));
        p.setColor(QPalette::HighlightedText, QColor(0x10, 0x10, 0x10));
        return p;
    }

    static double luminance(const QColor &c)
    {
        const auto channel = [](double v) { return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
        return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
    }

    static double contrast(const QColor &a, const QColor &b)
    {
        const double la = luminance(a), lb = luminance(b);
        return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
    }

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void darkPaletteKeepsEveryViewLegible_data()
    {
        QTest::addColumn<QString>("view");
        for (const char *name : {"heatmap", "heads", "pipeline", "bars", "chips", "walkthrough"})
            QTest::newRow(name) << QString::fromLatin1(name);
    }

    void darkPaletteKeepsEveryViewLegible()
    {
        QFETCH(QString, view);
        const QPalette old = QApplication::palette();
        QApplication::setPalette(darkPalette());
        Document doc(attn::exampleSession());
        MainWindow window(&doc);
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QWidget *widget = view == "heatmap" ? static_cast<QWidget *>(window.heatmap())
            : view == "heads"               ? static_cast<QWidget *>(window.headsGrid())
            : view == "pipeline"            ? static_cast<QWidget *>(window.pipeline())
            : view == "bars"                ? static_cast<QWidget *>(window.barChart())
            : view == "chips"               ? static_cast<QWidget *>(window.chips())
                                            : static_cast<QWidget *>(window.walkthrough());
        widget->show();
        widget->parentWidget()->show();
        const QImage image = widget->grab().toImage();
        QApplication::setPalette(old);

        // The background is dark, and text-coloured pixels stand out from it.
        QHash<QRgb, int> counts;
        for (int y = 0; y < image.height(); y += 2)
            for (int x = 0; x < image.width(); x += 2)
                ++counts[image.pixel(x, y)];
        QRgb background = 0;
        int most = 0;
        for (auto it = counts.cbegin(); it != counts.cend(); ++it)
            if (it.value() > most) {
                most = it.value();
                background = it.key();
            }
        QVERIFY2(luminance(QColor(background)) < 0.05, qPrintable(QColor(background).name()));
        int legible = 0;
        for (auto it = counts.cbegin(); it != counts.cend(); ++it)
            if (contrast(QColor(it.key()), QColor(background)) >= 7.0)
                legible += it.value();
        QVERIFY2(legible > 40, qPrintable(QStringLiteral("%1 high-contrast pixels").arg(legible)));
    }

    void keyboardAloneReachesAHeatmapCell()
    {
        Document doc(attn::exampleSession());
        MainWindow window(&doc);
        window.resize(1280, 800);
        window.show();
        QApplication::setActiveWindow(&window);
        QVERIFY(QTest::qWaitForWindowActive(&window));
        window.sentenceEdit()->setFocus();
        QTRY_VERIFY(window.sentenceEdit()->hasFocus());

        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
        QCOMPARE(QApplication::focusWidget(), window.chips());
        QTest::keyClick(window.chips(), Qt::Key_Right);
        QCOMPARE(doc.query(), 2);
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
        QCOMPARE(QApplication::focusWidget(), window.heatmap());

        // Right, Right: the cursor is on key 2 ("journey") of query "starts".
        QTest::keyClick(window.heatmap(), Qt::Key_Right);
        QTest::keyClick(window.heatmap(), Qt::Key_Right);
        QCOMPARE(window.heatmap()->focusedColumn(), 1);
        const double weight = doc.result().heads[0].weights(2, 1);
        QCOMPARE(window.heatmap()->accessibleDescription(),
                 QStringLiteral("Query “starts”, key “journey”: weight %1").arg(weight, 0, 'f', 4));
        QTest::keyClick(window.heatmap(), Qt::Key_Down);
        QCOMPARE(doc.query(), 3);
        QVERIFY(window.heatmap()->accessibleDescription().startsWith(QStringLiteral("Query “with”, key “journey”")));
        QVERIFY(window.chips()->accessibleDescription().contains(QStringLiteral("“with”")));
    }

    void everyControlHasAnAccessibleName()
    {
        Document doc(attn::exampleSession());
        MainWindow window(&doc);
        QStringList unnamed;
        for (QWidget *w : window.findChildren<QWidget *>()) {
            // Interactive controls a screen reader lands on must say what they are.
            // Buttons and check boxes are named by their text; a spin box's line edit by the spin box.
            const bool interactive = w->focusPolicy() & Qt::TabFocus;
            const bool namedByText = w->inherits("QAbstractButton") || w->inherits("QTabBar") || w->inherits("QMenu");
            const bool inner = w->inherits("QLineEdit") && w->parent() && w->parent()->inherits("QAbstractSpinBox");
            if (!interactive || namedByText || inner || w->inherits("QScrollBar"))
                continue;
            if (w->accessibleName().isEmpty())
                unnamed << QStringLiteral("%1 %2").arg(w->metaObject()->className(), w->objectName());
        }
        QVERIFY2(unnamed.isEmpty(), qPrintable(unnamed.join(", ")));
    }

    void shortcutsAreListed()
    {
        Document doc(attn::exampleSession());
        MainWindow window(&doc);
        const QString text = shortcutsText(&window);
        QVERIFY(text.contains(QKeySequence(QKeySequence::Save).toString(QKeySequence::NativeText) + "\tFile › Save"));
        QVERIFY(text.contains(QKeySequence(QKeySequence::Undo).toString(QKeySequence::NativeText) + "\tEdit › "));
        QVERIFY(text.contains(QStringLiteral("Heatmap: move the query")));
    }
};

QTEST_MAIN(TestDesktop)
#include "tst_desktop.moc"
