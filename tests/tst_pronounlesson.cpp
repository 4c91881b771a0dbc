// The pronoun lesson in the window, as a learner meets it: Examples › Trained
// Model: Pronouns opens the shipped pronoun model on "The girl passed the red
// box and it" with "it" as the query and the grid showing each head's weight
// from "it" to "box"; picking another token or query changes the numbers;
// switching off the heads that point at "box" takes the guess "fell" away,
// and undo brings it back.
//
// The numbers under the tiles are compared with the trace's own weights (the
// model's behaviour itself is checked by tst_shippedpronoun).

#include "modelgridpanel.h"
#include "modelgridview.h"
#include "modelwindowfixture.h"

#include <QAction>
#include <QComboBox>
#include <QLabel>
#include <QTest>
#include <QUndoStack>

namespace {

// The grid's number under each head of `layer`.
std::vector<double> shownScores(ModelGridPanel *panel, int layer)
{
    const ModelGridScores &s = panel->grid()->scores();
    return layer < int(s.values.size()) ? s.values[std::size_t(layer)] : std::vector<double>();
}

double weight(ModelDocument *model, int layer, int head, int query, int key)
{
    return double(model->trace()->layers[std::size_t(layer)].weights[std::size_t(head)](query, key));
}

double probabilityOf(ModelDocument *model, const QString &token)
{
    for (const auto &[id, p] : model->predictions(model->tokenizer()->vocabSize()))
        if (model->tokenizer()->idToText(id) == token)
            return p;
    return -1;
}

} // namespace

class TestPronounLesson : public QObject
{
    Q_OBJECT
private slots:
    void lessonFromTheExamplesMenu()
    {
        ModelWindowFixture f;
        auto *action = f.window.findChild<QAction *>(QStringLiteral("example-trained-pronoun"));
        QVERIFY(action);
        action->trigger();
        QVERIFY(QTest::qWaitFor([&] { return f.model()->isOpen() && f.model()->trace() && f.idle(); }, 20000));
        QVERIFY2(f.actions()->lastError().isEmpty(), qPrintable(f.actions()->lastError()));
        QCOMPARE(f.window.sentenceEdit()->text(), QStringLiteral("The girl passed the red box and it"));
        QCOMPARE(int(f.model()->tokens().size()), 8);
        QCOMPARE(f.model()->tokens()[5].text, QStringLiteral(" box"));

        // "it" is the query, the grid shows the weight from it to "box".
        ModelGridPanel *panel = f.actions()->gridPanel();
        QCOMPARE(f.model()->query(), 7);
        QCOMPARE(panel->chosenKey(), 5);
        QVERIFY(panel->keyBox()->isVisible());
        QCOMPARE(panel->keyBox()->currentText(), QStringLiteral("5 \u201cbox\u201d"));
        const int heads = f.model()->config()->heads;
        for (int l = 0; l < 2; ++l)
            for (int h = 0; h < heads; ++h)
                QCOMPARE(shownScores(panel, l)[std::size_t(h)], weight(f.model(), l, h, 7, 5));
        for (int h = 0; h < heads; ++h)
            QVERIFY(shownScores(panel, 0)[std::size_t(h)] > 0.7); // layer 0 links "it" to "box"
        QVERIFY(probabilityOf(f.model(), QStringLiteral(" fell")) > 0.9);

        // Another token, then another query: the numbers follow.
        panel->keyBox()->setCurrentIndex(1); // "girl"
        QCOMPARE(panel->chosenKey(), 1);
        for (int h = 0; h < heads; ++h)
            QCOMPARE(shownScores(panel, 0)[std::size_t(h)], weight(f.model(), 0, h, 7, 1));
        f.model()->setQuery(3);
        for (int h = 0; h < heads; ++h)
            QCOMPARE(shownScores(panel, 0)[std::size_t(h)], weight(f.model(), 0, h, 3, 1));
        f.model()->setQuery(7);
        panel->keyBox()->setCurrentIndex(5);

        // Switch off the heads that point at "box": the model no longer knows what "it" is.
        std::set<attn::LayerHead> off;
        for (int h = 0; h < heads; ++h)
            off.insert({0, h});
        f.doc.setAblatedHeads(off, QStringLiteral("Switch off layer 0"));
        QVERIFY(f.idle());
        const double after = probabilityOf(f.model(), QStringLiteral(" fell"));
        QVERIFY2(after >= 0 && after < 0.5, qPrintable(QString::number(after)));
        bool foundFell = false;
        for (const ModelDocument::PredictionChange &c : f.model()->biggestMovers(5))
            if (f.model()->tokenizer()->idToText(c.id) == QStringLiteral(" fell")) {
                foundFell = true;
                QVERIFY(c.before > 0.9 && c.after < 0.5);
            }
        QVERIFY(foundFell); // the next-token view lists it among the biggest movers
        f.doc.undoStack()->undo();
        QVERIFY(f.idle());
        QVERIFY(f.model()->ablatedHeads().empty());
        QVERIFY(probabilityOf(f.model(), QStringLiteral(" fell")) > 0.9);

        // Other scores hide the token box, and the lesson does not pick one for other models.
        panel->scoreBox()->setCurrentIndex(0);
        QCOMPARE(panel->chosenKey(), -1);
        QVERIFY(!panel->keyBox()->isVisible());
        QVERIFY(panel->grid()->scores().values.empty());
    }

    void typingAnotherSentenceKeepsThePick()
    {
        ModelWindowFixture f;
        f.window.findChild<QAction *>(QStringLiteral("example-trained-pronoun"))->trigger();
        QVERIFY(QTest::qWaitFor([&] { return f.model()->isOpen() && f.model()->trace() && f.idle(); }, 20000));
        ModelGridPanel *panel = f.actions()->gridPanel();
        QCOMPARE(panel->chosenKey(), 5);
        // The thing comes first now: "robot" (token 4), and "it" is token 11.
        f.type(QStringLiteral("Today, the old robot followed the small queen twice and it"));
        QVERIFY(f.idle());
        f.model()->setQuery(11);
        panel->keyBox()->setCurrentIndex(4);
        QCOMPARE(f.model()->tokens()[4].text, QStringLiteral(" robot"));
        double best = 0;
        for (int h = 0; h < f.model()->config()->heads; ++h) {
            QCOMPARE(shownScores(panel, 0)[std::size_t(h)], weight(f.model(), 0, h, 11, 4));
            best = std::max(best, shownScores(panel, 0)[std::size_t(h)]);
        }
        QVERIFY(best > 0.8);
    }
};

QTEST_MAIN(TestPronounLesson)
#include "tst_pronounlesson.moc"
