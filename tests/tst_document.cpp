#include "document.h"
#include "session/embedding.h"
#include "runtime/passthread.h"
#include "session/session.h"

#include <QSignalSpy>
#include <QTest>

// The document object: edits, recomputes, undo steps and signals.
class TestDocument : public QObject
{
    Q_OBJECT
private slots:
    void startsOnTheExample()
    {
        Document doc(attn::exampleSession());
        QCOMPARE(doc.session(), attn::exampleSession());
        QVERIFY(doc.hasResult());
        QCOMPARE(doc.result().output, attn::computeSession(attn::exampleSession()).output);
    }

    void queryChangeEmitsOnlyQuery()
    {
        Document doc(attn::exampleSession());
        QSignalSpy query(&doc, &Document::queryChanged);
        QSignalSpy result(&doc, &Document::resultChanged);
        const SnapshotPtr before = doc.snapshot();
        doc.setQuery(4);
        QCOMPARE(doc.query(), 4);
        QCOMPARE(query.count(), 1);
        QCOMPARE(query.at(0).at(0).toInt(), 4);
        QCOMPARE(result.count(), 0);
        QCOMPARE(doc.snapshot(), before); // no recompute for a query move
        doc.setQuery(99); // out of range: ignored
        QCOMPARE(doc.query(), 4);
    }

    void embeddingEditRecomputes()
    {
        Document doc(attn::exampleSession());
        doc.setEmbeddingValue(1, 0, -1.25);
        QCOMPARE(doc.session().embeddings(1, 0), -1.25);
        attn::Session expected = attn::exampleSession();
        expected.embeddings(1, 0) = -1.25;
        QCOMPARE(doc.result().output, attn::computeSession(expected).output);
    }

    void sliderDragIsOneUndoStep()
    {
        Document doc(attn::exampleSession());
        const double original = doc.session().embeddings(2, 1);
        for (double v : {0.1, 0.2, 0.3, 0.4})
            doc.setEmbeddingValue(2, 1, v, /*dragId=*/7);
        QCOMPARE(doc.undoStack()->count(), 1);
        doc.setEmbeddingValue(2, 1, 0.9, /*dragId=*/8); // a new drag: a new step
        QCOMPARE(doc.undoStack()->count(), 2);
        doc.undoStack()->undo();
        QCOMPARE(doc.session().embeddings(2, 1), 0.4);
        doc.undoStack()->undo();
        QCOMPARE(doc.session().embeddings(2, 1), original);
        QCOMPARE(doc.result().output, attn::computeSession(attn::exampleSession()).output);
        doc.undoStack()->redo();
        QCOMPARE(doc.session().embeddings(2, 1), 0.4);
    }

    void undoStepsKeepOnlyWhatChanged()
    {
        attn::Session big = attn::exampleSession();
        big.tokens.clear();
        for (int i = 0; i < 2000; ++i)
            big.tokens << QStringLiteral("t%1").arg(i);
        big.sentence = big.tokens.join(' ');
        big.embeddings = Eigen::MatrixXd::Constant(2000, 64, 0.125); // 1 MB
        big.attention.headDim = 8;
        Document doc(big);
        for (int step = 0; step < 20; ++step)
            doc.setEmbeddingValue(1500, 3, 0.01 * step, 7);
        attn::AttentionConfig causal = big.attention;
        causal.causal = true;
        doc.setAttention(causal);
        doc.setQuery(12); // navigation: no step
        QCOMPARE(doc.undoStack()->count(), 2);
        // A whole-session step would keep 2 MB; these keep a number and the options.
        QVERIFY2(doc.undoStepBytes(0) < 4096, qPrintable(QString::number(doc.undoStepBytes(0))));
        QVERIFY2(doc.undoStepBytes(1) < 4096, qPrintable(QString::number(doc.undoStepBytes(1))));
        QCOMPARE(doc.session().embeddings(1500, 3), 0.19);
        doc.undoStack()->undo();
        doc.undoStack()->undo();
        attn::Session expected = big;
        expected.query = 12; // where the user looks stays
        QVERIFY(doc.session() == expected);
        doc.undoStack()->redo();
        QCOMPARE(doc.session().embeddings(1500, 3), 0.19);
        QCOMPARE(doc.session().query, 12);
    }

    void nonFiniteValueIsRefused()
    {
        Document doc(attn::exampleSession());
        doc.setEmbeddingValue(0, 0, std::numeric_limits<double>::quiet_NaN());
        doc.setEmbeddingValue(0, 0, std::numeric_limits<double>::infinity());
        QCOMPARE(doc.session(), attn::exampleSession());
        QCOMPARE(doc.undoStack()->count(), 0);
    }

    void newSentenceKeepsEditedWords()
    {
        Document doc(attn::exampleSession());
        doc.setEmbeddingValue(1, 2, 1.75); // "journey"
        doc.setSentence(QStringLiteral("Every journey matters"));
        const attn::Session &s = doc.session();
        QCOMPARE(s.tokens, (QStringList{"Every", "journey", "matters"}));
        QCOMPARE(s.embeddings.row(1), (Eigen::RowVector3d(0.55, 0.87, 1.75)));
        QCOMPARE(Eigen::VectorXd(s.embeddings.row(0).transpose()), attn::defaultEmbedding("Every", 3));
        QVERIFY(doc.hasResult());
        QCOMPARE(doc.result().heads[0].weights.rows(), 3);
        doc.undoStack()->undo();
        QCOMPARE(doc.session().tokens.size(), 6);
    }

    void emptySentenceKeepsTokens()
    {
        Document doc(attn::exampleSession());
        QSignalSpy notices(&doc, &Document::notice);
        doc.setSentence(QStringLiteral("   "));
        QCOMPARE(notices.count(), 1);
        QCOMPARE(notices.at(0).at(0).toString(),
                 QStringLiteral("The sentence has no words or marks to attend over: the tokens stay as they were"));
        QCOMPARE(doc.session().tokens, attn::exampleSession().tokens);
        QVERIFY(doc.hasResult());
    }

    void tooManyTokensAreCutWithANotice()
    {
        Document doc(attn::exampleSession());
        QSignalSpy notices(&doc, &Document::notice);
        QString text;
        for (int i = 0; i < 4100; ++i)
            text += QStringLiteral("w%1 ").arg(i);
        doc.setSentence(text);
        QCOMPARE(doc.tokenCount(), 4096);
        QCOMPARE(notices.count(), 1);
        QCOMPARE(notices.at(0).at(0).toString(), QStringLiteral("The sentence has 4100 tokens; only the first 4096 are used"));
    }

    void undoKeepsTheQueryInRange()
    {
        // The query moves without undo steps: undoing an edit that added
        // tokens puts a query past the end on the last token (found by tst_monkey).
        Document doc(attn::exampleSession()); // 6 tokens
        doc.setSentence(QStringLiteral("a b c d e f g h"));
        doc.setQuery(7);
        doc.undoStack()->undo();
        QCOMPARE(doc.session().tokenCount(), 6);
        QCOMPARE(doc.query(), 5);
        doc.undoStack()->redo();
        QCOMPARE(doc.query(), 5);
    }

    void queryStaysInRangeWhenTokensShrink()
    {
        Document doc(attn::exampleSession());
        doc.setQuery(5);
        doc.setSentence(QStringLiteral("two words"));
        QCOMPARE(doc.query(), 1);
    }

    void dModelGrowsAndShrinks()
    {
        Document doc(attn::exampleSession());
        doc.setDModel(5);
        QCOMPARE(doc.dModel(), 5);
        QCOMPARE(doc.session().embeddings(1, 2), 0.66);
        QCOMPARE(doc.session().embeddings(1, 4), attn::defaultEmbeddingValue("journey", 4));
        doc.setDModel(2);
        QCOMPARE(doc.session().embeddings.cols(), 2);
        QCOMPARE(doc.session().embeddings(1, 1), 0.87);
        QVERIFY(doc.hasResult());
    }

    void rotaryAndSharedHeadsStayComputable()
    {
        // Another number of key/value heads: the file's W_k and W_v no longer fit, so they are generated.
        attn::Session s = attn::exampleSession();
        s.embeddings = attn::resizeEmbeddings(s.tokens, s.embeddings, 4);
        s.attention.heads = 4;
        s.attention.headDim = 2;
        s.attention.kvHeads = 2;
        s.weights.key = {Eigen::MatrixXd::Ones(4, 2), Eigen::MatrixXd::Ones(4, 2)};
        s.weights.query = std::vector<Eigen::MatrixXd>(4, Eigen::MatrixXd::Ones(4, 2));
        Document doc(s);
        QVERIFY2(doc.hasResult(), qPrintable(doc.computeError()));
        attn::AttentionConfig c = doc.session().attention;
        c.kvHeads = 1;
        doc.setAttention(c);
        QVERIFY2(doc.hasResult(), qPrintable(doc.computeError()));
        QVERIFY(doc.session().weights.key.empty() && doc.session().weights.value.empty());
        QCOMPARE(int(doc.session().weights.query.size()), 4); // the query matrices still fit
        QCOMPARE(doc.result().keyValueHeadCount(), 1);
        doc.undoStack()->undo();
        QCOMPARE(int(doc.session().weights.key.size()), 2);
        QCOMPARE(doc.result().keyValueHeadCount(), 2);

        // Simplified rotary attention on an odd d_model cannot turn pairs: positions go off, with a word why.
        Document simple(attn::exampleSession());
        attn::AttentionConfig r = attn::withMode(simple.session().attention, attn::Mode::Simplified, 3);
        simple.setDModel(4);
        r.headDim = 4;
        r.positionalEncoding = attn::PositionalEncoding::Rotary;
        simple.setAttention(r);
        QVERIFY(simple.result().rotary);
        QSignalSpy notices(&simple, &Document::notice);
        simple.setDModel(5);
        QCOMPARE(simple.session().attention.positionalEncoding, attn::PositionalEncoding::None);
        QVERIFY2(simple.hasResult(), qPrintable(simple.computeError()));
        QCOMPARE(notices.count(), 1);
    }

    void bigSessionsComputeOnAWorkerAndTheLatestEditWins()
    {
        Document doc(attn::exampleSession());
        doc.setSyncFlopLimit(0); // treat every session as big
        QSignalSpy results(&doc, &Document::resultChanged);
        QSignalSpy computing(&doc, &Document::computingChanged);
        const SnapshotPtr before = doc.snapshot();
        const long passesOnGui = attn::passesOnMainThread();
        doc.setEmbeddingValue(1, 0, 0.1);
        QVERIFY(doc.isComputing());
        QCOMPARE(doc.snapshot(), before); // the last result stays until the new one is ready
        doc.setEmbeddingValue(1, 0, 0.2);
        doc.setEmbeddingValue(1, 0, 0.3);
        QTRY_VERIFY(!doc.isComputing());
        QCOMPARE(attn::passesOnMainThread(), passesOnGui); // every pass ran on a worker
        attn::Session expected = attn::exampleSession();
        expected.embeddings(1, 0) = 0.3;
        QCOMPARE(doc.result().output, attn::computeSession(expected).output);
        QVERIFY(results.count() >= 1 && results.count() <= 2); // 0.2 was never computed
        QCOMPARE(computing.first().at(0).toBool(), true);
        QCOMPARE(computing.last().at(0).toBool(), false);

        // A small edit while a big one runs answers at once; the old run is dropped.
        doc.setEmbeddingValue(1, 0, 0.4);
        QVERIFY(doc.isComputing());
        doc.setSyncFlopLimit(Document::kSyncFlops);
        const long smallBefore = attn::passesOnMainThread();
        doc.setEmbeddingValue(1, 0, 0.5);
        QCOMPARE(attn::passesOnMainThread(), smallBefore + 1); // on the GUI thread, within a frame
        QCOMPARE(attn::largestPassOnMainThread() >= attn::sessionFlops(doc.session()), true);
        expected.embeddings(1, 0) = 0.5;
        QCOMPARE(doc.result().output, attn::computeSession(expected).output);
        QTRY_VERIFY(!doc.isComputing());
        QCOMPARE(doc.result().output, attn::computeSession(expected).output);
    }

    void flopEstimate()
    {
        attn::Session s = attn::exampleSession(); // n = 6, d = 3, 1 head of 2, no projection
        // Scores and context, Q K V, and the softmax's 6 x 6 entries of the one head.
        QCOMPARE(Document::estimatedFlops(s),
                 2.0 * 2 * 6 * 6 * 2 + 2.0 * (6 + 12) * 3 * 2 + attn::kSoftmaxFlopsPerEntry * 6 * 6);
        // A long sentence at d_model 3 (simplified, one head computed) is mostly softmax: a worker's, in float.
        s.attention = attn::withMode(s.attention, attn::Mode::Simplified, 3);
        const double n = 2000;
        QCOMPARE(attn::forwardWork(n, n, 3, s.attention), 4 * n * n * 3 + attn::kSoftmaxFlopsPerEntry * n * n);
        QVERIFY(attn::forwardFlops(n, n, 3, s.attention) < Document::kSyncFlops);
        QVERIFY(attn::forwardWork(n, n, 3, s.attention) > Document::kSyncFlops);
    }

    void optionsChangeAndFailuresAreReported()
    {
        Document doc(attn::exampleSession());
        attn::AttentionConfig c = doc.session().attention;
        c.heads = 4;
        c.headDim = 2;
        c.causal = true;
        doc.setAttention(c);
        QCOMPARE(int(doc.result().heads.size()), 4);
        QCOMPARE(doc.result().heads[2].weights(0, 5), 0.0);

        doc.setEmbeddingValue(0, 0, 1e200); // overflows in the dot products
        QVERIFY(!doc.hasResult());
        QVERIFY(doc.computeError().contains(QStringLiteral("too large")));
        QVERIFY(doc.snapshot() != nullptr);
        doc.undoStack()->undo();
        QVERIFY(doc.hasResult());
        QVERIFY(doc.computeError().isEmpty());
    }
};

QTEST_MAIN(TestDocument)
#include "tst_document.moc"
