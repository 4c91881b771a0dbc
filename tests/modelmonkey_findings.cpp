// What tst_modelmonkey found, each pinned by a regression test of its own
// that does not depend on the random run.

#include "modelmonkey.h"
#include "modelwindowfixture.h"

#include "heatmapview.h"

#include <QAction>
#include <QLineEdit>
#include <QLabel>
#include <QStatusBar>
#include <QTest>

// Found by the monkey: File › Open Model ran the open model again on its own
// text, and that run's notice (the text cut to 16 positions) replaced the
// broken folder's message in the status bar.
void TestModelMonkey::badFolderKeepsItsMessage()
{
    ModelWindowFixture f;
    f.window.sentenceEdit()->setText(QStringLiteral("the cat sat on the mat the cat sat on the mat"));
    QVERIFY(f.open(m_models[1].folder));
    QVERIFY2(f.model()->isOpen(), qPrintable(f.actions()->lastError()));
    QCOMPARE(int(f.model()->tokens().size()), 16);
    const auto trace = f.model()->trace();
    for (const BadFolder &bad : m_bad) {
        f.actions()->openFolder(bad.path);
        QVERIFY2(!f.model()->isComputing(), qPrintable(bad.name)); // the text did not change: nothing to run
        QVERIFY(f.idle());
        QTest::qWait(1); // whatever else was posted
        const QString error = f.actions()->lastError();
        QCOMPARE(error, QStringLiteral("Cannot open the model: ") + bad.message);
        QCOMPARE(f.window.statusBar()->currentMessage(), error);
        QCOMPARE(f.model()->trace(), trace);
    }
}

// A text with a symbol the trained model cannot read ("G" is outside its 32)
// gives a message and keeps the result shown before it, and the message
// stays what is wrong after another layer is picked (found by the monkey:
// the result used to be dropped and the message reworded).
void TestModelMonkey::unreadableTextKeepsTheResult()
{
    ModelWindowFixture f;
    f.window.findChild<QAction *>(QStringLiteral("example-trained-induction"))->trigger();
    QVERIFY(f.idle());
    QVERIFY2(f.model()->isOpen(), qPrintable(f.actions()->lastError()));
    f.type(QStringLiteral("qmEjxBqmEjxB"));
    QVERIFY(f.idle());
    const auto trace = f.model()->trace();
    QVERIFY(trace);
    QCOMPARE(f.window.heatmap()->painter().rows(), 12);

    f.type(QStringLiteral("qmEjxGqmEjxG"));
    QVERIFY(f.idle());
    const QString error = f.doc.snapshot()->error;
    QCOMPARE(error, QStringLiteral("\"G\" (token 5) is not one of the model's 32 tokens"));
    bool shown = false;
    for (const QLabel *label : f.window.statusBar()->findChildren<QLabel *>())
        shown = shown || label->text() == QStringLiteral("Cannot compute: ") + error;
    QVERIFY(shown);
    QCOMPARE(f.model()->trace(), trace);
    QCOMPARE(f.window.heatmap()->painter().rows(), 12);

    f.doc.selection()->setLayer(1);
    QCOMPARE(f.doc.snapshot()->error, error);
}

// Found by the monkey (under ASan, where opening is slower): text typed for a
// model that was closed before the typing pause ended went into the
// hand-made session as an edit of its own.
void TestModelMonkey::typingPauseAfterCloseLeavesTheSession()
{
    ModelWindowFixture f;
    const attn::Session before = f.doc.session();
    QVERIFY(f.open(m_models[1].folder));
    QVERIFY2(f.model()->isOpen(), qPrintable(f.actions()->lastError()));
    QLineEdit *edit = f.window.sentenceEdit();
    edit->setFocus();
    edit->end(false);
    QTest::keyClicks(edit, QStringLiteral(" the cat"));
    QVERIFY(f.window.sentencePending());
    f.actions()->closeModel();
    QTest::qWait(MainWindow::kSentenceDelayMs + 100);
    QVERIFY(f.doc.session() == before);
    QCOMPARE(f.doc.undoStack()->count(), 0);
    QCOMPARE(edit->text(), before.sentence.isEmpty() ? before.tokens.join(QLatin1Char(' ')) : before.sentence);
}
