// Practice exercises and the demo variants behind "mistakes made visible" and
// cross-attention: answers checked right, numbers from the core.
#include "document.h"
#include "exercises.h"
#include "lessons.h"

#include <QTest>
#include <set>

namespace {

// Softmax sums in a different order after a shuffle, so "exactly" means to
// the last bits of a double, not bit for bit.
bool nearlyEqual(const Eigen::MatrixXd &a, const Eigen::MatrixXd &b, double tolerance = 1e-12)
{
    return a.rows() == b.rows() && a.cols() == b.cols() && (a - b).cwiseAbs().maxCoeff() <= tolerance;
}

} // namespace

class TestExercises : public QObject
{
    Q_OBJECT
private slots:
    void weightedOutput_data()
    {
        QTest::addColumn<QString>("typed");
        QTest::addColumn<bool>("understood");
        QTest::addColumn<bool>("correct");
        QTest::newRow("exact") << "7.6" << true << true;
        QTest::newRow("padded comma") << " 7,6 " << true << true;
        QTest::newRow("trailing zero") << "7.60" << true << true;
        QTest::newRow("equals") << "= 7.6" << true << true;
        QTest::newRow("within tolerance") << "7.61" << true << true;
        QTest::newRow("outside tolerance") << "7.62" << true << false;
        QTest::newRow("unweighted mean") << "7" << true << false;
        QTest::newRow("largest weight only") << "10" << true << false;
        QTest::newRow("negative") << "−7.6" << true << false;
        QTest::newRow("words") << "seven" << false << false;
        QTest::newRow("empty") << "" << false << false;
    }
    void weightedOutput()
    {
        QFETCH(QString, typed);
        QFETCH(bool, understood);
        QFETCH(bool, correct);
        const attn::Exercise e = attn::weightedOutputExercise({0.5, 0.3, 0.2}, {10, 4, 7});
        QCOMPARE(e.answer, 0.5 * 10 + 0.3 * 4 + 0.2 * 7);
        QVERIFY(e.working.contains(QStringLiteral("0.5×10 + 0.3×4 + 0.2×7 = 5 + 1.2 + 1.4 = 7.6")));
        const attn::AnswerCheck check = attn::checkAnswer(e, typed);
        QCOMPARE(check.understood, understood);
        QCOMPARE(check.correct, correct);
        if (understood && !correct) // a wrong answer says so and shows the working
            QVERIFY(check.message.contains(e.working) && check.message.contains(QStringLiteral("7.6")));
    }

    void comparisons()
    {
        QCOMPARE(attn::comparisonCount(6, false), 36LL);
        QCOMPARE(attn::comparisonCount(6, true), 21LL);
        QCOMPARE(attn::comparisonCount(1, true), 1LL);
        const attn::Exercise e = attn::comparisonsExercise(6, false);
        QVERIFY(attn::checkAnswer(e, QStringLiteral("36")).correct);
        QVERIFY(!attn::checkAnswer(e, QStringLiteral("30")).correct);
        QVERIFY(!attn::checkAnswer(e, QStringLiteral("35.99")).correct); // a count is exact
        const attn::Exercise c = attn::comparisonsExercise(6, true);
        QVERIFY(attn::checkAnswer(c, QStringLiteral("21")).correct);
        const attn::AnswerCheck wrong = attn::checkAnswer(c, QStringLiteral("36"));
        QVERIFY(!wrong.correct);
        QVERIFY(wrong.message.contains(QStringLiteral("6×7÷2 = 21")));
    }

    void predictionIsTheArgmax()
    {
        Document doc(attn::exampleSession());
        for (int q = 0; q < doc.tokenCount(); ++q) {
            const attn::Exercise e = attn::predictionExercise(doc.snapshot()->rowTokens, doc.snapshot()->columnTokens,
                                                              doc.result(), q, 0);
            Eigen::Index best = 0;
            doc.result().heads[0].weights.row(q).maxCoeff(&best);
            QCOMPARE(int(e.answer), int(best));
            QCOMPARE(e.choices, doc.session().tokens);
            QVERIFY(attn::checkChoice(e, int(best)).correct);
            QVERIFY(!attn::checkChoice(e, int(best + 1) % 6).correct);
            QVERIFY(attn::checkAnswer(e, doc.session().tokens[int(best)]).correct); // by name
            QVERIFY(attn::checkAnswer(e, QString::number(best + 1)).correct);       // by number
        }
    }

    void generatedExercisesAreDeterministic()
    {
        std::set<QString> questions;
        for (std::uint64_t seed = 1; seed <= 20; ++seed) {
            const attn::Exercise a = attn::weightedOutputExercise(seed);
            QCOMPARE(a.question, attn::weightedOutputExercise(seed).question);
            QCOMPARE(a.answer, attn::weightedOutputExercise(seed).answer);
            double sum = 0.0;
            for (double w : a.weights)
                sum += w;
            QVERIFY(qAbs(sum - 1.0) < 1e-12);
            QVERIFY(attn::checkAnswer(a, QString::number(a.answer, 'f', 2)).correct);
            questions.insert(a.question);

            const attn::Exercise p = attn::predictionExercise(seed);
            QCOMPARE(p.question, attn::predictionExercise(seed).question);
            QCOMPARE(int(p.answer), int(std::max_element(p.choiceWeights.begin(), p.choiceWeights.end())
                                        - p.choiceWeights.begin()));
            QVERIFY(p.choices.size() >= 3);
            questions.insert(p.question);
            const attn::Exercise r = attn::randomExercise(seed);
            QCOMPARE(r.question, attn::randomExercise(seed).question);
        }
        QVERIFY(questions.size() >= 38); // fresh numbers for (nearly) every seed
        QVERIFY(attn::comparisonsExercise(std::uint64_t(1)).question != attn::comparisonsExercise(std::uint64_t(2)).question
                || attn::comparisonsExercise(std::uint64_t(3)).question
                    != attn::comparisonsExercise(std::uint64_t(4)).question);
    }

    void lenientNumbers()
    {
        QCOMPARE(attn::parseLenientNumber(QStringLiteral(" 7,6 ")).value_or(-1), 7.6);
        QCOMPARE(attn::parseLenientNumber(QStringLiteral("−0.25")).value_or(-1), -0.25);
        QVERIFY(!attn::parseLenientNumber(QStringLiteral("1,000.5")));
        QVERIFY(!attn::parseLenientNumber(QStringLiteral("nan")));
    }

    // Cross-attention by hand: queries "cats purr" (2 tokens), keys and values
    // from a 3-token source, simplified mode without scaling. Expected numbers
    // from numpy (softmax(X Yᵀ) and A Y).
    void crossAttentionByHand()
    {
        attn::Session s;
        s.tokens = QStringList{"cats", "purr"};
        s.sentence = s.tokens.join(' ');
        s.embeddings.resize(2, 2);
        s.embeddings << 0.2, 0.9, 0.7, 0.1;
        s.attention.mode = attn::Mode::Simplified;
        s.attention.headDim = 2;
        s.attention.scale = false;
        Document doc(attn::exampleSession());
        doc.resetSession(s);
        Eigen::MatrixXd y(3, 2);
        y << 0.5, 0.5, 0.9, 0.0, 0.1, 0.8;
        doc.setSource(attn::SourceSequence{QStringList{"les", "chats", "ronronnent"}, y});
        QVERIFY(doc.hasResult());
        QCOMPARE(doc.snapshot()->columnTokens, (QStringList{"les", "chats", "ronronnent"}));
        Eigen::MatrixXd scores(2, 3), weights(2, 3), context(2, 2);
        scores << 0.55, 0.18, 0.74, 0.40, 0.63, 0.15;
        weights << 0.344829497240721, 0.2381855719605849, 0.41698493079869414,
                   0.3292288598542251, 0.4143674462815985, 0.2564036938641764;
        context << 0.4284802564647563, 0.5060026932593158, 0.563185500966969, 0.36973738501845366;
        const attn::HeadResult &h = doc.result().heads[0];
        QVERIFY(nearlyEqual(h.scores.toDouble(), scores));
        QVERIFY(nearlyEqual(h.weights.toDouble(), weights));
        QVERIFY(nearlyEqual(h.context, context));
        // The self-attention variant of the same session is n × n again.
        const SnapshotPtr self = Document::computeSnapshot(attn::withoutSource(doc.session()));
        QCOMPARE(self->result->heads[0].weights.cols(), Eigen::Index(2));
        // Removing the source is one undo step away.
        doc.setSourceSentence(QString());
        QVERIFY(!doc.session().source);
        doc.undoStack()->undo();
        QVERIFY(doc.session().source);
    }

    void sourceSentenceKeepsVectors()
    {
        Document doc(attn::exampleSession());
        doc.setEmbeddingValue(5, 0, 1.5); // "step"
        doc.setSourceSentence(QStringLiteral("one small step"));
        const attn::SourceSequence &src = *doc.session().source;
        QCOMPARE(src.tokens, (QStringList{"one", "small", "step"}));
        QCOMPARE(src.embeddings.row(0), doc.session().embeddings.row(4));
        QCOMPARE(src.embeddings(2, 0), 1.5);
        doc.setDModel(5); // the source follows d_model
        QCOMPARE(doc.session().source->embeddings.cols(), Eigen::Index(5));
        QVERIFY(doc.hasResult());
    }

    void shuffleWithoutPositionPermutesWeights()
    {
        for (const bool simplified : {false, true}) {
            attn::Session s = attn::exampleSession();
            if (simplified) {
                s.attention.mode = attn::Mode::Simplified;
                s.attention.headDim = 3;
            }
            const std::vector<int> order = attn::shuffleOrder(s.tokenCount(), 42);
            QCOMPARE(order, attn::shuffleOrder(s.tokenCount(), 42));
            QVERIFY(!std::is_sorted(order.begin(), order.end()));
            const attn::Session mixed = attn::shuffled(s, order);
            QCOMPARE(mixed.tokens[mixed.query], s.tokens[s.query]); // the query follows its word
            const Eigen::MatrixXd w = attn::computeSession(s).heads[0].weights.toDouble();
            const Eigen::MatrixXd w2 = attn::computeSession(mixed).heads[0].weights.toDouble();
            // W' = P W Pᵀ with P(p, order[p]) = 1.
            Eigen::MatrixXd p = Eigen::MatrixXd::Zero(6, 6);
            for (int i = 0; i < 6; ++i)
                p(i, order[std::size_t(i)]) = 1.0;
            QVERIFY(nearlyEqual(w2, p * w * p.transpose()));
            QVERIFY(nearlyEqual(attn::unshuffle(w2, order), w));

            const attn::Session withPe = attn::withPositionalEncoding(s, attn::PositionalEncoding::Sinusoidal);
            const Eigen::MatrixXd pe = attn::computeSession(withPe).heads[0].weights.toDouble();
            const Eigen::MatrixXd pe2 = attn::computeSession(attn::shuffled(withPe, order)).heads[0].weights.toDouble();
            QVERIFY((attn::unshuffle(pe2, order) - pe).cwiseAbs().maxCoeff() > 1e-3);
        }
        // The document's shuffle is the same shuffle, as one undo step.
        Document doc(attn::exampleSession());
        doc.shuffleTokens(42);
        QCOMPARE(doc.session(), attn::shuffled(attn::exampleSession(), attn::shuffleOrder(6, 42)));
        doc.undoStack()->undo();
        QCOMPARE(doc.session(), attn::exampleSession());
    }

    void demoVariants()
    {
        const attn::Session s = attn::exampleSession();
        const attn::AttentionResult scaled = attn::computeSession(attn::withScaling(s, true));
        const attn::AttentionResult raw = attn::computeSession(attn::withScaling(s, false));
        QCOMPARE(scaled.headDim(), 64);
        QCOMPARE(scaled.scoreScale, 1.0 / 8.0);
        QCOMPARE(raw.heads[0].scores.toDouble(), scaled.heads[0].scores.toDouble()); // same dot products, only the softmax input differs
        QVERIFY(raw.heads[0].weights.row(1).maxCoeff() > scaled.heads[0].weights.row(1).maxCoeff());
        const attn::AttentionResult causal = attn::computeSession(attn::withCausal(s, true));
        QCOMPARE(causal.heads[0].weights(1, 2), 0.0);
        const Eigen::MatrixXd parts = attn::contributions(scaled.heads[0], 1);
        QVERIFY(nearlyEqual(parts.colwise().sum(), scaled.heads[0].context.row(1)));
    }
};

QTEST_GUILESS_MAIN(TestExercises)
#include "tst_exercises.moc"
