#include "document.h"
#include "lessons/examples.h"
#include "fileactions.h"
#include "headsgridview.h"
#include "heatmapview.h"
#include "mainwindow.h"
#include "viewselection.h"

#include <QComboBox>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

// One object owns what the views show; every view follows it and no view
// keeps a head, a matrix or a colour map of its own.
class TestViewSelection : public QObject
{
    Q_OBJECT

    static attn::Session fourHeads()
    {
        for (const attn::Example &e : attn::builtInExamples())
            if (e.session.attention.heads == 4)
                return e.session;
        return {};
    }

private slots:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void shapeClampsTheHead()
    {
        ViewSelection s;
        s.setShape(3, 4);
        QSignalSpy spy(&s, &ViewSelection::headChanged);
        s.setHead(HeadRef::one(2, 3));
        QCOMPARE(spy.count(), 1);
        QCOMPARE(s.head(), HeadRef::one(2, 3));
        s.setHead(HeadRef::one(3, 0)); // no layer 3
        s.setHead(HeadRef::one(0, 4)); // no head 4
        s.setHead(HeadRef::one(-1, 0));
        QCOMPARE(s.head(), HeadRef::one(2, 3));
        QCOMPARE(spy.count(), 1);
        s.setLayer(1); // keeps the head
        QCOMPARE(s.head(), HeadRef::one(1, 3));
        s.setHead(HeadRef::average(1));
        QVERIFY(s.head().isAverage());
        QCOMPARE(s.head().fileIndex(), -1);
        // Fewer heads: a head that is gone goes back to head 0 of its layer,
        // the average stays while there are several heads.
        s.setShape(3, 2);
        QVERIFY(s.head().isAverage());
        s.setHead(HeadRef::one(1, 1));
        s.setShape(1, 1);
        QCOMPARE(s.head(), HeadRef::one(0, 0));
    }

    void averageOfOneHeadIsRefused()
    {
        ViewSelection s;
        s.setShape(1, 1);
        s.setHead(HeadRef::average(0));
        QCOMPARE(s.head(), HeadRef::one(0, 0));
    }

    void documentKeepsTheShapeOfItsSession()
    {
        Document doc(fourHeads());
        QCOMPARE(doc.session().attention.heads, 4);
        QCOMPARE(doc.selection()->heads(), 4);
        QCOMPARE(doc.selection()->layers(), 1);
        doc.selection()->setHead(HeadRef::one(0, 3));
        doc.setQuery(2);
        QCOMPARE(doc.selection()->query(), 2);
        attn::AttentionConfig two = doc.session().attention;
        two.heads = 2;
        two.headDim = doc.session().dModel() / 2;
        doc.setAttention(two);
        QCOMPARE(doc.selection()->heads(), 2);
        QCOMPARE(doc.selection()->head(), HeadRef::one(0, 0)); // head 3 is gone
        doc.undoStack()->undo();
        QCOMPARE(doc.selection()->heads(), 4);
    }

    void everyViewFollowsTheSelection()
    {
        Document doc(fourHeads());
        MainWindow window(&doc);
        window.fileActions()->setInteractive(false);
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));

        doc.selection()->setHead(HeadRef::one(0, 2));
        QCOMPARE(window.heatmap()->head(), std::optional<int>(2));
        QCOMPARE(window.headsGrid()->selectedHead(), std::optional<int>(2));
        QCOMPARE(window.headBox()->currentData().toInt(), 2);
        QCOMPARE(window.selectedHead(), std::optional<int>(2));

        doc.selection()->setHead(HeadRef::average(0));
        QVERIFY(!window.heatmap()->head().has_value());
        QVERIFY(!window.headsGrid()->selectedHead().has_value());
        QVERIFY(!window.headBox()->currentData().isValid()); // the average's item carries no head
        QCOMPARE(window.headBox()->currentText(), QStringLiteral("average of 4"));

        // A request from a view goes through the selection.
        emit window.headsGrid()->headSelected(1);
        QCOMPARE(doc.selection()->head(), HeadRef::one(0, 1));
        QCOMPARE(window.heatmap()->head(), std::optional<int>(1));
        // The head list's last item is the average; picking it selects the average.
        const int averageItem = window.headBox()->count() - 1;
        window.headBox()->setCurrentIndex(averageItem);
        emit window.headBox()->activated(averageItem);
        QCOMPARE(doc.selection()->head(), HeadRef::average(0));
        QVERIFY(!window.heatmap()->head().has_value());
        emit window.headBox()->activated(3);
        QCOMPARE(doc.selection()->head(), HeadRef::one(0, 3));
        QCOMPARE(window.headsGrid()->selectedHead(), std::optional<int>(3));

        doc.selection()->setShowScores(true);
        QVERIFY(window.heatmap()->showScores());
        doc.selection()->setColorMap(ColorMap::Magma);
        QCOMPARE(window.heatmap()->colorMap(), ColorMap::Magma);
        window.setColorMap(ColorMap::Viridis); // the window's slot asks the selection
        QCOMPARE(doc.selection()->colorMap(), ColorMap::Viridis);
        QCOMPARE(window.heatmap()->colorMap(), ColorMap::Viridis);
    }
};

QTEST_MAIN(TestViewSelection)
#include "tst_viewselection.moc"
