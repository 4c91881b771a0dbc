#include "lessons/examples.h"
#include "runtime/prng.h"
#include "session/sessiondelta.h"

#include <QTest>

// An undo step keeps what changed: one number for a slider step, the words
// and vectors for a new sentence; undo and redo give back each session exactly.
class TestSessionDelta : public QObject
{
    Q_OBJECT

    static attn::Session large(int tokens, int dModel)
    {
        attn::Session s = attn::exampleSession();
        s.tokens.clear();
        for (int i = 0; i < tokens; ++i)
            s.tokens << QStringLiteral("w%1").arg(i);
        s.embeddings = Eigen::MatrixXd::Constant(tokens, dModel, 0.25);
        s.sentence = s.tokens.join(' ');
        return s;
    }

private slots:
    void oneNumberKeepsOneNumber()
    {
        const attn::Session before = large(2000, 64); // 1 MB of embeddings
        attn::Session after = before;
        after.embeddings(1234, 17) = -0.5;
        const attn::SessionDelta d = attn::SessionDelta::between(before, after);
        QVERIFY(!d.isEmpty());
        QVERIFY2(d.bytes() < 1024, qPrintable(QString::number(d.bytes())));
        attn::Session s = after;
        d.undo(s);
        QVERIFY(s == before);
        d.redo(s);
        QVERIFY(s == after);
    }

    void rotaryPositionsAndSharedHeadsUndo()
    {
        // Each of the new options alone is a step, and undo gives back the old one.
        attn::Session before = attn::exampleSession();
        before.embeddings = Eigen::MatrixXd::Constant(6, 4, 0.5);
        before.attention.heads = 4;
        before.attention.headDim = 2;
        const auto check = [&](const attn::Session &after) {
            const attn::SessionDelta d = attn::SessionDelta::between(before, after);
            QVERIFY(!d.isEmpty());
            QVERIFY(d.bytes() < 1024); // options, not the session
            attn::Session s = after;
            d.undo(s);
            QVERIFY(s == before);
            d.redo(s);
            QVERIFY(s == after);
        };
        attn::Session rotary = before;
        rotary.attention.positionalEncoding = attn::PositionalEncoding::Rotary;
        check(rotary);
        attn::Session theta = rotary;
        theta.attention.ropeTheta = 100.0;
        check(theta);
        attn::Session shared = before;
        shared.attention.kvHeads = 2;
        shared.weights.key = {Eigen::MatrixXd::Ones(4, 2), Eigen::MatrixXd::Zero(4, 2)};
        check(shared);
        QVERIFY(shared != before); // the fields take part in equality
        QVERIFY(theta != rotary);
    }

    void sameSessionIsEmpty()
    {
        const attn::Session s = attn::exampleSession();
        QVERIFY(attn::SessionDelta::between(s, s).isEmpty());
    }

    void aNewSentenceKeepsWordsAndVectors()
    {
        const attn::Session before = attn::exampleSession();
        attn::Session after = before;
        after.sentence = QStringLiteral("a b");
        after.tokens = {QStringLiteral("a"), QStringLiteral("b")};
        after.embeddings = Eigen::MatrixXd::Ones(2, before.dModel());
        after.query = 1;
        const attn::SessionDelta d = attn::SessionDelta::between(before, after);
        attn::Session s = after;
        d.undo(s);
        QVERIFY(s == before);
        d.redo(s);
        QVERIFY(s == after);
        // The unchanged attention options and weights are not kept.
        const std::size_t vectors = std::size_t(before.embeddings.size() + after.embeddings.size()) * sizeof(double);
        QVERIFY2(d.bytes() < vectors + 2048, qPrintable(QStringLiteral("%1 for %2").arg(d.bytes()).arg(vectors)));
    }

    void randomEditsRoundTrip()
    {
        attn::SplitMix64 rng(7);
        attn::Session s = attn::exampleSession();
        std::vector<attn::Session> history{s};
        std::vector<attn::SessionDelta> steps;
        for (int i = 0; i < 200; ++i) {
            attn::Session next = history.back();
            switch (rng.next() % 5) {
            case 0: next.query = int(rng.next() % std::uint64_t(next.tokenCount())); break;
            case 1: next.embeddings(int(rng.next() % std::uint64_t(next.tokenCount())), int(rng.next() % std::uint64_t(next.dModel())))
                        = double(rng.next() % 1000) / 100.0; break;
            case 2: next.embeddings.setRandom(); break;
            case 3: next.attention.causal = !next.attention.causal; break;
            default:
                next.tokens.append(QStringLiteral("x%1").arg(i));
                next.embeddings.conservativeResize(next.embeddings.rows() + 1, Eigen::NoChange);
                next.embeddings.row(next.embeddings.rows() - 1).setConstant(0.5);
                break;
            }
            steps.push_back(attn::SessionDelta::between(history.back(), next));
            history.push_back(next);
        }
        attn::Session walk = history.back();
        for (int i = int(steps.size()) - 1; i >= 0; --i) {
            steps[std::size_t(i)].undo(walk);
            QVERIFY2(walk == history[std::size_t(i)], qPrintable(QString::number(i)));
        }
        for (std::size_t i = 0; i < steps.size(); ++i) {
            steps[i].redo(walk);
            QVERIFY(walk == history[i + 1]);
        }
    }

    void aDragAbsorbsItsSteps()
    {
        const attn::Session start = large(10, 4);
        attn::Session a = start, b = start, c = start;
        a.embeddings(3, 1) = 1.0;
        b = a;
        b.embeddings(3, 1) = 2.0;
        c = b;
        c.embeddings(3, 1) = 0.25; // back where it began
        attn::SessionDelta d = attn::SessionDelta::between(start, a);
        QVERIFY(d.absorb(attn::SessionDelta::between(a, b)));
        attn::Session s = b;
        d.undo(s);
        QVERIFY(s == start);
        QVERIFY(d.absorb(attn::SessionDelta::between(b, c)));
        QVERIFY(d.isEmpty()); // the drag ended where it started: nothing to undo
    }
};

QTEST_GUILESS_MAIN(TestSessionDelta)
#include "tst_sessiondelta.moc"
