// Practice exercises and the demo variants behind "mistakes made visible" and
// cross-attention: answers checked right, numbers from the core.
#include "document.h"
#include "lessons/exercises.h"
#include "lessons/lessons.h"
#include "lessons/notation.h"

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
    // 0.5×10 + 0.3×4 + 0.2×7 = 7.6 by hand; the slips a learner makes get a
    // hint that names the slip, and no wrong answer is told the number.
    void weightedOutput_data()
    {
        QTest::addColumn<QString>("typed");
        QTest::addColumn<bool>("understood");
        QTest::addColumn<bool>("correct");
        QTest::addColumn<QString>("hint");
        const QString method = QStringLiteral("Multiply each value by its weight, then add the products");
        QTest::newRow("exact") << "7.6" << true << true << QString();
        QTest::newRow("padded comma") << " 7,6 " << true << true << QString();
        QTest::newRow("trailing zero") << "7.60" << true << true << QString();
        QTest::newRow("equals") << "= 7.6" << true << true << QString();
        QTest::newRow("within tolerance") << "7.61" << true << true << QString();
        QTest::newRow("outside tolerance") << "7.62" << true << false << method;
        QTest::newRow("unweighted mean") << "7" << true << false << "plain average"; // (10+4+7)/3
        QTest::newRow("largest weight only") << "10" << true << false << "only the value with the largest weight";
        QTest::newRow("sum of values") << "21" << true << false << "without their weights";
        QTest::newRow("negative") << "−7.6" << true << false << method;
        QTest::newRow("words") << "seven" << false << false << "for example 0.42";
        QTest::newRow("empty") << "" << false << false << "for example 0.42";
    }
    void weightedOutput()
    {
        QFETCH(QString, typed);
        QFETCH(bool, understood);
        QFETCH(bool, correct);
        QFETCH(QString, hint);
        const attn::Exercise e = attn::weightedOutputExercise({0.5, 0.3, 0.2}, {10, 4, 7});
        QCOMPARE(e.answer, 0.5 * 10 + 0.3 * 4 + 0.2 * 7);
        QVERIFY(e.working.contains(QStringLiteral("0.5×10 + 0.3×4 + 0.2×7 = 5 + 1.2 + 1.4 = 7.6")));
        QVERIFY(!e.wholeNumber);
        QCOMPARE(attn::answerDecimals(e), 2); // tolerance 0.01
        QCOMPARE(attn::answerExample(e), QStringLiteral("0.42"));
        const attn::AnswerCheck check = attn::checkAnswer(e, typed);
        QCOMPARE(check.understood, understood);
        QCOMPARE(check.correct, correct);
        if (correct) // a right answer gets the worked solution
            QVERIFY(check.message.contains(e.working));
        if (!correct) { // a wrong one the hint, never the number or the working
            QVERIFY2(check.message.contains(hint), qPrintable(check.message));
            QVERIFY2(!check.message.contains(QStringLiteral("7.6")), qPrintable(check.message));
            QVERIFY(!check.message.contains(e.working));
        }
        if (understood && !correct)
            QVERIFY(check.message.startsWith(QStringLiteral("Not quite.")));
        const QString solution = attn::solutionText(e);
        QVERIFY(solution.startsWith(QStringLiteral("Solution: 7.6.")) && solution.contains(e.working));
    }

    void answerFormat_data()
    {
        QTest::addColumn<double>("tolerance");
        QTest::addColumn<int>("decimals");
        QTest::addColumn<QString>("example");
        QTest::newRow("tenths") << 0.1 << 1 << "0.4";
        QTest::newRow("hundredths") << 0.01 << 2 << "0.42";
        QTest::newRow("half a hundredth") << 0.005 << 3 << "0.428";
        QTest::newRow("thousandths") << 0.001 << 3 << "0.428";
    }
    void answerFormat()
    {
        QFETCH(double, tolerance);
        QFETCH(int, decimals);
        QFETCH(QString, example);
        attn::Exercise e = attn::weightedOutputExercise({0.5, 0.5}, {1, 2});
        e.tolerance = tolerance;
        QCOMPARE(attn::answerDecimals(e), decimals);
        QCOMPARE(attn::answerExample(e), example);
        const attn::Exercise count = attn::comparisonsExercise(4, false);
        QVERIFY(count.wholeNumber);
        QCOMPARE(attn::answerDecimals(count), 0);
        QVERIFY(attn::answerExample(count).isEmpty()); // an example could be the answer
    }

    // Counts by hand: n² = 36 without a mask, 1 + 2 + … + 6 = 21 with one.
    void comparisons_data()
    {
        QTest::addColumn<bool>("causal");
        QTest::addColumn<QString>("typed");
        QTest::addColumn<bool>("understood");
        QTest::addColumn<bool>("correct");
        QTest::addColumn<QString>("hint");
        QTest::newRow("all pairs") << false << "36" << true << true << QString();
        QTest::newRow("all pairs, causal count") << false << "21" << true << false << "there is no mask here";
        QTest::newRow("all pairs, no self") << false << "30" << true << false << "itself too";
        QTest::newRow("all pairs, unordered") << false << "15" << true << false << "Both orders count";
        QTest::newRow("one query") << false << "6" << true << false << "every token is a query";
        QTest::newRow("all pairs, other") << false << "35" << true << false << "multiply the number of queries";
        QTest::newRow("near miss") << false << "35.99" << false << false << "whole number"; // a count is exact
        QTest::newRow("causal") << true << "21" << true << true << QString();
        QTest::newRow("causal, every pair") << true << "36" << true << false << "never compared with later";
        QTest::newRow("causal, no self") << true << "15" << true << false << "itself too";
        QTest::newRow("causal, other") << true << "20" << true << false << "Count per query and add";
        QTest::newRow("causal, decimals") << true << "21.5" << false << false << "whole number";
    }
    void comparisons()
    {
        QFETCH(bool, causal);
        QFETCH(QString, typed);
        QFETCH(bool, understood);
        QFETCH(bool, correct);
        QFETCH(QString, hint);
        QCOMPARE(attn::comparisonCount(6, false), 36LL);
        QCOMPARE(attn::comparisonCount(6, true), 21LL);
        QCOMPARE(attn::comparisonCount(1, true), 1LL);
        const attn::Exercise e = attn::comparisonsExercise(6, causal);
        const attn::AnswerCheck check = attn::checkAnswer(e, typed);
        QCOMPARE(check.understood, understood);
        QCOMPARE(check.correct, correct);
        if (!correct) {
            QVERIFY2(check.message.contains(hint), qPrintable(check.message));
            QVERIFY(!check.message.contains(causal ? QStringLiteral("21") : QStringLiteral("36")));
        }
        // Positions count from 0, as in every view: query 0 sees 1 key, query 5 sees 6.
        if (causal)
            QVERIFY2(attn::solutionText(e).contains(QStringLiteral("Query 0 sees 1 key, query 1 sees 2, … query 5 sees "
                                                                  "6: 1 + 2 + … + 6 = 6×7÷2 = 21.")),
                     qPrintable(attn::solutionText(e)));
        else
            QVERIFY(attn::solutionText(e).contains(QStringLiteral("6 queries, each compared with 6 keys: 6×6 = 36.")));
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
            QCOMPARE(e.query, q);
            QCOMPARE(e.choices, doc.session().tokens);
            QVERIFY(e.question.contains(QStringLiteral("(token %1)").arg(q)));
            QVERIFY(attn::checkChoice(e, int(best)).correct);
            const attn::AnswerCheck wrong = attn::checkChoice(e, int(best + 1) % 6);
            QVERIFY(!wrong.correct && wrong.understood);
            QVERIFY(wrong.message.startsWith(QStringLiteral("Not quite")));
            // The hint names the wrong pick, not the right one, and no weight.
            QVERIFY(!wrong.message.contains(doc.session().tokens[int(best)]));
            QVERIFY(!wrong.message.contains(attn::formatNumber(doc.result().heads[0].weights(q, best), 4)));
            QVERIFY(attn::checkAnswer(e, doc.session().tokens[int(best)]).correct); // by name
            QVERIFY(attn::checkAnswer(e, QString::number(best)).correct);           // by 0-based position
            QVERIFY(!attn::checkAnswer(e, QString::number(6)).understood);          // there is no token 6
            QVERIFY(attn::solutionText(e).contains(QStringLiteral("(token %1)").arg(best)));
        }
    }

    // A repeated word is named with its position, as every view names it, and
    // a bare "the" cannot be told apart.
    void predictionNamesRepeatedTokens()
    {
        const QStringList tokens{"the", "cat", "saw", "the", "dog"};
        Eigen::MatrixXd x(5, 2);
        x << 0.1, 0.2, 0.9, -0.3, 0.4, 0.4, 0.1, 0.2, -0.5, 0.8;
        attn::AttentionConfig config;
        config.mode = attn::Mode::Simplified;
        config.headDim = 2;
        config.scale = false;
        const attn::AttentionResult result = attn::computeAttention(x, config);
        const attn::Exercise e = attn::predictionExercise(tokens, tokens, result, 3, 0);
        QCOMPARE(e.choiceLabels, (QStringList{"the₀", "cat", "saw", "the₃", "dog"}));
        QVERIFY2(e.question.contains(QStringLiteral("“the₃” (token 3)")), qPrintable(e.question));
        // the₃ = [0.1, 0.2]: scores 0.05, 0.03, 0.12, 0.05, 0.11 by hand, so "saw" wins.
        QCOMPARE(int(e.answer), 2);
        QVERIFY(e.working.contains(QStringLiteral("“the₀” ")) && e.working.contains(QStringLiteral("“the₃” ")));
        const attn::AnswerCheck bare = attn::checkAnswer(e, QStringLiteral("the"));
        QVERIFY(!bare.understood);
        QVERIFY2(bare.message.contains(QStringLiteral("occurs more than once")), qPrintable(bare.message));
        QVERIFY(attn::checkAnswer(e, QStringLiteral("the₃")).understood);
        QVERIFY(!attn::checkAnswer(e, QStringLiteral("the₃")).correct);
        QVERIFY(attn::checkAnswer(e, QStringLiteral("saw")).correct);
        const attn::AnswerCheck wrong = attn::checkChoice(e, 0);
        QVERIFY(wrong.message.contains(QStringLiteral("“the₀” does not get the largest weight")));
    }

    // The same word with the same vector gets the same weight: both are right.
    void predictionAcceptsATie()
    {
        const QStringList tokens{"a", "b", "a"};
        Eigen::MatrixXd x(3, 2);
        x << 1, 0, 0, 1, 1, 0;
        attn::AttentionConfig config;
        config.mode = attn::Mode::Simplified;
        config.headDim = 2;
        config.scale = false;
        const attn::Exercise e = attn::predictionExercise(tokens, tokens, attn::computeAttention(x, config), 0, 0);
        // Scores of a₀: 1, 0, 1 by hand, so a₀ and a₂ share the largest weight.
        QVERIFY(attn::checkChoice(e, 0).correct);
        QVERIFY(attn::checkChoice(e, 2).correct);
        QVERIFY(!attn::checkChoice(e, 1).correct);
        QVERIFY2(e.working.contains(QStringLiteral("“a₀” (token 0) and “a₂” (token 2) tie")), qPrintable(e.working));
        QVERIFY(attn::solutionText(e).startsWith(QStringLiteral("Solution: “a₀” (token 0) and “a₂” (token 2). ")));
    }

    void predictionNamesTheHeadFromZero()
    {
        Document doc;
        attn::AttentionConfig config = doc.session().attention;
        config.heads = 2;
        doc.setAttention(config);
        QVERIFY(doc.hasResult());
        QCOMPARE(int(doc.result().heads.size()), 2);
        const attn::Exercise e = attn::predictionExercise(doc.snapshot()->rowTokens, doc.snapshot()->columnTokens,
                                                          doc.result(), 1, 1);
        QVERIFY2(e.question.endsWith(QStringLiteral("(In head 1.)")), qPrintable(e.question));
        Eigen::Index best = 0;
        doc.result().heads[1].weights.row(1).maxCoeff(&best);
        QCOMPARE(int(e.answer), int(best));
    }

    // An exercise counts once: right at the first try, right after a retry,
    // shown, or (tried and left) not solved.
    void practiceScore()
    {
        attn::PracticeScore score;
        QCOMPARE(score.text(), QStringLiteral("none yet"));
        using Outcome = attn::PracticeScore::Outcome;
        QCOMPARE(score.answered(true), Outcome::Right);
        QCOMPARE(score.answered(false), Outcome::Right); // settled: a later answer changes nothing
        QCOMPARE(score.solutionShown(), Outcome::Right);
        score.nextExercise();
        QCOMPARE(score.answered(false), Outcome::Open);
        QCOMPARE(score.answered(false), Outcome::Open);
        QCOMPARE(score.attempts(), 2);
        QCOMPARE(score.answered(true), Outcome::RightAfterRetry);
        score.nextExercise();
        QCOMPARE(score.attempts(), 0);
        QCOMPARE(score.answered(true), Outcome::Right);
        score.nextExercise();
        QCOMPARE(score.answered(false), Outcome::Open);
        QCOMPARE(score.solutionShown(), Outcome::Shown);
        QCOMPARE(score.answered(true), Outcome::Shown); // typing it after seeing it is not "right"
        score.nextExercise();
        QCOMPARE(score.text(), QStringLiteral("2 right, 1 after a retry, 1 shown"));
        score.nextExercise(); // skipped without a try: not counted
        QCOMPARE(score.text(), QStringLiteral("2 right, 1 after a retry, 1 shown"));
        score.answered(false);
        score.nextExercise(); // tried and left
        QCOMPARE(score.text(), QStringLiteral("2 right, 1 after a retry, 1 shown, 1 not solved"));
        QCOMPARE(score.right(), 2);
        QCOMPARE(score.rightAfterRetry(), 1);
        QCOMPARE(score.shown(), 1);
        QCOMPARE(score.unsolved(), 1);
        attn::PracticeScore onlyShown;
        onlyShown.solutionShown();
        QCOMPARE(onlyShown.text(), QStringLiteral("0 right, 1 shown"));
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

    // q = [0.6, −0.2] at position 3 turns by 3 radians (head_dim 2: one pair, θ⁰ = 1):
    // (0.6 cos 3 + 0.2 sin 3, −0.2 cos 3 + 0.6 sin 3)
    //   = (0.6 × −0.9899924966 + 0.2 × 0.1411200081, 0.1979984993 + 0.0846720049)
    //   = (−0.5657714963, 0.2826705042).
    void rotatePair_data()
    {
        QTest::addColumn<QString>("typed");
        QTest::addColumn<bool>("understood");
        QTest::addColumn<bool>("correct");
        QTest::addColumn<QString>("hint");
        const QString method = QStringLiteral("becomes (a·cos − b·sin, b·cos + a·sin)");
        QTest::newRow("exact") << "-0.5658, 0.2827" << true << true << QString();
        QTest::newRow("brackets, real minus") << "(−0.57, 0.28)" << true << true << QString();
        QTest::newRow("square brackets, spaces") << "[-0.566 0.283]" << true << true << QString();
        QTest::newRow("decimal commas, semicolon") << "-0,566; 0,283" << true << true << QString();
        QTest::newRow("no space after the comma") << "-0.566,0.283" << true << true << QString();
        QTest::newRow("first right only") << "-0.566, 0.35" << true << false << "One of the two numbers is right";
        QTest::newRow("not turned") << "0.6, -0.2" << true << false << "before its turn";
        QTest::newRow("turned backwards") << "-0.6222, 0.1133" << true << false << "the other way round";
        QTest::newRow("swapped") << "0.2827, -0.5658" << true << false << "wrong order";
        QTest::newRow("one number") << "-0.5658" << false << false << "Type the 2 numbers";
        QTest::newRow("three numbers") << "-0.5658, 0.2827, 1" << false << false << "Type the 2 numbers";
        QTest::newRow("words") << "turned" << false << false << "for example 0.42, −0.17";
        QTest::newRow("second just outside 0.01") << "-0.5658, 0.2717" << true << false << "One of the two numbers is right";
        QTest::newRow("both off") << "-0.4, 0.4" << true << false << method;
    }
    void rotatePair()
    {
        QFETCH(QString, typed);
        QFETCH(bool, understood);
        QFETCH(bool, correct);
        QFETCH(QString, hint);
        const attn::Exercise e = attn::rotatePairExercise({0.6, -0.2}, 3);
        QCOMPARE(e.answerCount(), 2);
        QVERIFY(std::abs(e.answers[0] - -0.5657714963) < 1e-9);
        QVERIFY(std::abs(e.answers[1] - 0.2826705042) < 1e-9);
        QVERIFY2(e.question.contains(QStringLiteral("cos 3 = −0.9900, sin 3 = 0.1411")), qPrintable(e.question));
        QVERIFY2(e.working.contains(QStringLiteral("= (−0.5658, 0.2827)")), qPrintable(e.working));
        const attn::AnswerCheck check = attn::checkAnswer(e, typed);
        QCOMPARE(check.understood, understood);
        QCOMPARE(check.correct, correct);
        if (!hint.isEmpty())
            QVERIFY2(check.message.contains(hint), qPrintable(check.message));
        if (!correct) // a wrong answer is never told the numbers
            QVERIFY2(!check.message.contains(QStringLiteral("0.5658")) && !check.message.contains(QStringLiteral("0.2827")),
                     qPrintable(check.message));
        QVERIFY(attn::solutionText(e).startsWith(QStringLiteral("Solution: (−0.5658, 0.2827).")));
    }

    // 32 query heads sharing 8 key/value heads keep 8 keys + 8 values = 16 vectors per token.
    void keyValueCount_data()
    {
        QTest::addColumn<QString>("typed");
        QTest::addColumn<bool>("correct");
        QTest::addColumn<QString>("hint");
        QTest::newRow("right") << "16" << true << QString();
        QTest::newRow("one per query head") << "64" << false << "a key and a value for every query head";
        QTest::newRow("keys only") << "8" << false << "counts the keys only";
        QTest::newRow("query heads") << "32" << false << "counts the query heads";
        QTest::newRow("numbers, not vectors") << "2048" << false << "counts numbers, not vectors";
        QTest::newRow("group size") << "4" << false << "how many query heads share";
        QTest::newRow("something else") << "17" << false << "Count the key/value heads";
    }
    void keyValueCount()
    {
        QFETCH(QString, typed);
        QFETCH(bool, correct);
        QFETCH(QString, hint);
        const attn::Exercise e = attn::keyValueCountExercise(32, 8, 128);
        QCOMPARE(e.answer, 16.0);
        QVERIFY(e.wholeNumber);
        QVERIFY(e.working.contains(QStringLiteral("8 keys + 8 values = 16 vectors per token (16 × 128 = 2048 numbers)")));
        const attn::AnswerCheck check = attn::checkAnswer(e, typed);
        QVERIFY(check.understood);
        QCOMPARE(check.correct, correct);
        if (!hint.isEmpty())
            QVERIFY2(check.message.contains(hint), qPrintable(check.message));
        QCOMPARE(attn::checkAnswer(e, QStringLiteral("16.5")).understood, false); // a count is whole
    }

    void modernBlockExercisesFromSeeds()
    {
        std::set<QString> questions;
        std::set<attn::ExerciseKind> kinds;
        for (std::uint64_t seed = 1; seed <= 40; ++seed) {
            const attn::Exercise r = attn::rotatePairExercise(seed);
            QCOMPARE(r.question, attn::rotatePairExercise(seed).question);
            QVERIFY(r.position >= 1 && r.position <= 5);
            // The answer is the pair turned, computed again here.
            const double c = std::cos(double(r.position)), s = std::sin(double(r.position));
            QVERIFY(std::abs(r.answers[0] - (r.pair[0] * c - r.pair[1] * s)) < 1e-15);
            QVERIFY(std::abs(r.answers[1] - (r.pair[1] * c + r.pair[0] * s)) < 1e-15);
            // Its own worked solution, typed back, is right.
            QVERIFY(attn::checkAnswer(r, QStringLiteral("%1, %2").arg(r.answers[0], 0, 'f', 4).arg(r.answers[1], 0, 'f', 4))
                        .correct);
            questions.insert(r.question);
            const attn::Exercise k = attn::keyValueCountExercise(seed);
            QVERIFY(k.heads % k.kvHeads == 0 && k.kvHeads < k.heads);
            QCOMPARE(k.answer, 2.0 * k.kvHeads);
            QVERIFY(attn::checkAnswer(k, QString::number(2 * k.kvHeads)).correct);
            kinds.insert(attn::randomExercise(seed).kind);
        }
        QVERIFY(questions.size() >= 30);
        QCOMPARE(kinds.size(), std::size_t(5)); // every kind comes up in practice's "any kind"
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
        // Practice on it asks for a source token, numbered from 0 among the source's.
        const attn::Exercise e = attn::predictionExercise(doc.snapshot()->rowTokens, doc.snapshot()->columnTokens,
                                                          doc.result(), 1, 0);
        QVERIFY2(e.question.startsWith(QStringLiteral("Cross-attention: which source token will the query “purr” "
                                                      "(token 1 of the sentence)")), qPrintable(e.question));
        QCOMPARE(e.choiceLabels, (QStringList{"les", "chats", "ronronnent"}));
        QCOMPARE(int(e.answer), 1); // weights row 1 above: 0.329, 0.414, 0.256
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
