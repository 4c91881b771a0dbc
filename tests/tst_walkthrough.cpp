// The guided walkthrough's steps: which steps appear, and that every number
// they carry is the core's own result, in both modes.
#include "document.h"
#include "lessons/notation.h"
#include "session/sessionio.h"
#include "lessons/walkthrough.h"

#include <QRegularExpression>
#include <QTest>
#include <algorithm>

using attn::WalkthroughStepKind;
using Kind = WalkthroughStepKind;

namespace {

attn::AttentionConfig simplifiedConfig(const Document &doc)
{
    attn::AttentionConfig c = doc.session().attention;
    c.mode = attn::Mode::Simplified;
    c.headDim = doc.dModel();
    c.scale = false;
    return c;
}

std::vector<attn::WalkthroughStep> stepsOf(const Document &doc, int head = 0)
{
    return attn::buildWalkthrough(doc.snapshot()->rowTokens, doc.snapshot()->columnTokens, doc.result(), doc.query(),
                                  head);
}

std::vector<Kind> kindsOf(const std::vector<attn::WalkthroughStep> &steps)
{
    std::vector<Kind> kinds;
    for (const auto &s : steps)
        kinds.push_back(s.kind);
    return kinds;
}

std::vector<double> rowOf(const Eigen::MatrixXd &m, int row)
{
    std::vector<double> v;
    for (Eigen::Index c = 0; c < m.cols(); ++c)
        v.push_back(m(row, c));
    return v;
}

// Every line that carries numbers carries exactly what the result holds.
void checkNumbers(const std::vector<attn::WalkthroughStep> &steps, const attn::AttentionResult &r, int q, int h)
{
    const attn::HeadResult &head = r.heads[std::size_t(h)];
    int checked = 0;
    for (const attn::WalkthroughStep &step : steps) {
        QCOMPARE(step.query, q);
        for (const attn::FormulaLine &line : step.lines) {
            const int j = line.key;
            switch (step.kind) {
            case Kind::AddPositions:
                if (&line == &step.lines.back())
                    QCOMPARE(line.numbers, rowOf(r.inputs, q)); // x + PE is the input the rest uses
                break;
            case Kind::PickQuery:
                // With rotary positions q is named before its turn (q̃, checked in the rotary tests).
                QVERIFY(line.numbers == rowOf(r.inputs, q) || line.numbers == rowOf(head.queries, q)
                        || (r.rotary && line.text.startsWith(QStringLiteral("q̃"))));
                break;
            case Kind::Scores:
                if (j >= 0)
                    QCOMPARE(line.numbers, std::vector<double>{head.scores(q, j)});
                break;
            case Kind::Scale:
                if (j >= 0)
                    QCOMPARE(line.numbers, std::vector<double>{head.scores(q, j) * r.scoreScale});
                break;
            case Kind::Mask:
                if (j >= 0) {
                    QVERIFY(r.isMasked(q, j));
                    QCOMPARE(line.numbers, std::vector<double>{0.0});
                }
                break;
            case Kind::Softmax:
                if (j >= 0)
                    QCOMPARE(line.numbers, std::vector<double>{head.weights(q, j)});
                else if (&line == &step.lines.back())
                    QCOMPARE(line.numbers, std::vector<double>{head.weights.row(q).sum()});
                break;
            case Kind::WeightValues: {
                if (j < 0)
                    break;
                std::vector<double> expected = rowOf(head.values, j);
                for (double &v : expected)
                    v *= head.weights(q, j);
                QCOMPARE(line.numbers, expected);
                break;
            }
            case Kind::SumContext:
                if (&line == &step.lines.back())
                    QCOMPARE(line.numbers, rowOf(head.context, q));
                else
                    QCOMPARE(line.numbers, std::vector<double>{head.context(q, int(&line - &step.lines.front()))});
                break;
            case Kind::Project:
                if (&line == &step.lines.back())
                    QCOMPARE(line.numbers, rowOf(r.output, q));
                break;
            case Kind::SharedKeyValues:
            case Kind::RotatePositions:
            case Kind::RelativePositions:
                break; // their own tests below
            }
            // The text shows the line's result as the notation writes it.
            if (line.numbers.size() == 1)
                QVERIFY2(line.text.contains(attn::formatFixed(line.numbers[0])), qPrintable(line.text));
            checked += int(line.numbers.size());
        }
    }
    QVERIFY(checked > 10);
}

attn::Session rotarySession(const char *name)
{
    QString error;
    const std::optional<attn::Session> s =
        attn::readSession(QStringLiteral(ATTN_TEST_DATA "/rotary/%1.attn.json").arg(QLatin1String(name)), &error);
    if (!s)
        qFatal("%s", qPrintable(error));
    return *s;
}

const attn::WalkthroughStep &stepOf(const std::vector<attn::WalkthroughStep> &steps, Kind kind)
{
    const auto it = std::find_if(steps.begin(), steps.end(), [kind](const auto &s) { return s.kind == kind; });
    if (it == steps.end())
        qFatal("no such step");
    return *it;
}

// The lines of a step whose text starts with `prefix`.
std::vector<attn::FormulaLine> linesStarting(const attn::WalkthroughStep &step, const QString &prefix)
{
    std::vector<attn::FormulaLine> lines;
    for (const attn::FormulaLine &line : step.lines)
        if (line.text.startsWith(prefix))
            lines.push_back(line);
    return lines;
}

} // namespace

class TestWalkthrough : public QObject
{
    Q_OBJECT
private slots:
    void simplifiedJourneyScoreLine()
    {
        Document doc(attn::exampleSession());
        doc.setAttention(simplifiedConfig(doc));
        const auto steps = stepsOf(doc);
        QCOMPARE(steps.at(1).kind, Kind::Scores);
        QCOMPARE(steps.at(1).lines.at(0).text, QStringLiteral("ω₁₀ = x⁽¹⁾·x⁽⁰⁾ = 0.5500×0.4300 + 0.8700×0.1500 + 0.6600×0.8900 = 0.9544"));
        QCOMPARE(steps.at(1).lines.at(0).numbers.at(0), doc.result().heads[0].scores(1, 0));
        QCOMPARE(steps.at(1).keys, (std::vector<int>{0, 1, 2, 3, 4, 5}));
        // Simplified mode keeps scaling off: no scale step, no mask, no projection.
        QCOMPARE(kindsOf(steps), (std::vector<Kind>{Kind::PickQuery, Kind::Scores, Kind::Softmax, Kind::WeightValues,
                                                    Kind::SumContext}));
        checkNumbers(steps, doc.result(), 1, 0);
    }

    void scaledModeUsesQueriesAndKeys()
    {
        Document doc(attn::exampleSession()); // the example: scaled dot-product, one head of width 2
        const auto steps = stepsOf(doc);
        QCOMPARE(kindsOf(steps), (std::vector<Kind>{Kind::PickQuery, Kind::Scores, Kind::Scale, Kind::Softmax,
                                                    Kind::WeightValues, Kind::SumContext}));
        const attn::HeadResult &h = doc.result().heads[0];
        const QString expected = QStringLiteral("ω₁₂ = q⁽¹⁾·k⁽²⁾ = %1×%2 + %3×%4 = %5")
                                     .arg(attn::formatFixed(h.queries(1, 0)), attn::formatFixed(h.keys(2, 0)))
                                     .arg(attn::formatFixed(h.queries(1, 1)), attn::formatFixed(h.keys(2, 1)))
                                     .arg(attn::formatFixed(h.scores(1, 2)));
        QCOMPARE(QString(steps[1].lines[2].text).replace(QStringLiteral("(−"), QStringLiteral("−")).remove(QLatin1Char(')')),
                 expected);
        QVERIFY(steps[2].lines[0].text.contains(QStringLiteral("÷ √2")));
        checkNumbers(steps, doc.result(), 1, 0);
    }

    void causalAddsTheMaskStep()
    {
        Document doc(attn::exampleSession());
        attn::AttentionConfig c = doc.session().attention;
        c.causal = true;
        doc.setAttention(c);
        const auto steps = stepsOf(doc);
        QCOMPARE(kindsOf(steps), (std::vector<Kind>{Kind::PickQuery, Kind::Scores, Kind::Scale, Kind::Mask,
                                                    Kind::Softmax, Kind::WeightValues, Kind::SumContext}));
        QCOMPARE(steps[3].keys, (std::vector<int>{2, 3, 4, 5})); // after "journey"
        checkNumbers(steps, doc.result(), 1, 0);
        // Masked keys add nothing: the weighted values list only keys 1 and 2.
        QCOMPARE(steps[5].lines.size(), std::size_t(2));
    }

    void projectionAddsTheLastStep()
    {
        Document doc(attn::exampleSession());
        attn::AttentionConfig c = doc.session().attention;
        c.heads = 3;
        c.headDim = 2;
        c.outputProjection = true;
        doc.setAttention(c);
        doc.setQuery(4);
        for (int head = 0; head < 3; ++head) {
            const auto steps = stepsOf(doc, head);
            QCOMPARE(steps.back().kind, Kind::Project);
            QCOMPARE(steps.size(), std::size_t(7));
            checkNumbers(steps, doc.result(), 4, head);
            QCOMPARE(steps.back().lines.front().numbers.size(), std::size_t(6)); // 3 heads × 2
        }
    }

    void crossAttentionNamesTheSource()
    {
        Document doc(attn::exampleSession());
        doc.setAttention(simplifiedConfig(doc));
        doc.setSourceSentence(QStringLiteral("one step"));
        const auto steps = stepsOf(doc);
        QVERIFY(steps[1].lines[0].text.startsWith(QStringLiteral("ω₁₀ = x⁽¹⁾·y⁽⁰⁾ = ")));
        QCOMPARE(steps[1].keys, (std::vector<int>{0, 1}));
        checkNumbers(steps, doc.result(), 1, 0);
    }

    void longSentencesAreCut()
    {
        Document doc(attn::exampleSession());
        doc.setSentence(QStringLiteral("a b c d e f g h i j k l m n o p q r s t"));
        doc.setDModel(10);
        doc.setAttention(simplifiedConfig(doc));
        doc.setQuery(14);
        const auto steps = stepsOf(doc);
        const attn::WalkthroughStep &scores = steps[1];
        QCOMPARE(scores.keys.size(), std::size_t(12));
        QCOMPARE(scores.lines.size(), std::size_t(13));
        QCOMPARE(scores.lines.back().text, QStringLiteral("… (+8 more keys)"));
        QVERIFY(scores.lines[0].text.contains(QStringLiteral("… (+2 more)")));
        QCOMPARE(scores.lines[0].text.count(QChar(0x00D7)), 8);
        // Two-digit indices are separated: ω₁₄,₁ rather than ω₁₄₁.
        QVERIFY2(scores.lines[0].text.startsWith(QStringLiteral("ω₁₄,₁")), qPrintable(scores.lines[0].text));
        checkNumbers(steps, doc.result(), 14, 0);
    }

    void positionalEncodingStepShowsXPeAndTheirSum()
    {
        // Simplified journey with sinusoidal positions, query "journey" at position 1, d_model 3.
        // By hand: PE[1] = (sin(1), cos(1), sin(1 / 10000^(2/3))) = (0.841471, 0.540302, 0.0021544).
        Document doc(attn::exampleSession());
        attn::AttentionConfig c = simplifiedConfig(doc);
        c.positionalEncoding = attn::PositionalEncoding::Sinusoidal;
        doc.setAttention(c);
        const auto steps = stepsOf(doc);
        QCOMPARE(steps.front().kind, Kind::AddPositions);
        QCOMPARE(steps.at(1).kind, Kind::PickQuery);
        const attn::WalkthroughStep &pe = steps.front();
        QCOMPARE(pe.lines.front().text, QStringLiteral("x⁽¹⁾ = [0.5500, 0.8700, 0.6600]"));
        QCOMPARE(pe.lines.at(1).text, QStringLiteral("PE⁽¹⁾₀ = sin(1) = 0.8415"));
        QCOMPARE(pe.lines.at(2).text, QStringLiteral("PE⁽¹⁾₁ = cos(1) = 0.5403"));
        QCOMPARE(pe.lines.at(3).text, QStringLiteral("PE⁽¹⁾₂ = sin(1 ÷ 10000^(2/3)) = 0.0022"));
        QVERIFY(std::abs(pe.lines.at(3).numbers.at(0) - 0.0021544) < 1e-7);
        QCOMPARE(pe.lines.back().text, QStringLiteral("x⁽¹⁾ + PE⁽¹⁾ = [1.3915, 1.4103, 0.6622]"));
        // The next step names its input as the sum, not as the bare embedding.
        QVERIFY2(steps.at(1).lines.front().text.startsWith(QStringLiteral("x⁽¹⁾ + PE⁽¹⁾ = [1.3915")),
                 qPrintable(steps.at(1).lines.front().text));
        checkNumbers(steps, doc.result(), 1, 0);
        // Without positions there is no such step.
        c.positionalEncoding = attn::PositionalEncoding::None;
        doc.setAttention(c);
        QCOMPARE(stepsOf(doc).front().kind, Kind::PickQuery);
    }

    void rotaryStepTurnsQAndKPairByPair()
    {
        // rotary-one-head (tests/data/rotary): head_dim 4, θ = 10000, query
        // "journey" at position 1. Pair i is (d_i, d_{i+2}) and turns by
        // position × 10000^(−2i/4): pair 0 by 1 rad at position 1, pair 1 by
        // 1 × 10000^(−1/2) = 0.01 rad.
        const attn::Session s = rotarySession("rotary-one-head");
        Document doc(s);
        const auto steps = stepsOf(doc);
        QCOMPARE(kindsOf(steps), (std::vector<Kind>{Kind::PickQuery, Kind::RotatePositions, Kind::RelativePositions,
                                                    Kind::Scores, Kind::Scale, Kind::Softmax, Kind::WeightValues,
                                                    Kind::SumContext}));
        checkNumbers(steps, doc.result(), 1, 0);
        const attn::HeadResult &head = doc.result().heads[0];
        const attn::WalkthroughStep &turn = stepOf(steps, Kind::RotatePositions);
        // The key singled out: the one "journey" weights most among the others.
        int best = 0;
        for (int j = 0; j < 6; ++j)
            if (j != 1 && (best == 1 || head.weights(1, j) > head.weights(1, best)))
                best = j;
        QCOMPARE(turn.keys, std::vector<int>{best});
        // q before: x·W_q of the file's numbers; after: the result's q.
        const Eigen::RowVectorXd before = s.embeddings.row(1) * s.weights.query[0];
        const auto beforeLines = linesStarting(turn, QStringLiteral("q̃⁽¹⁾ = x⁽¹⁾·W_q = ["));
        QCOMPARE(beforeLines.size(), std::size_t(1));
        for (int d = 0; d < 4; ++d)
            QVERIFY(std::abs(beforeLines[0].numbers[std::size_t(d)] - before[d]) < 1e-15);
        QCOMPARE(linesStarting(turn, QStringLiteral("q⁽¹⁾ = [")).at(0).numbers, rowOf(head.queries, 1));
        QCOMPARE(linesStarting(turn, QStringLiteral("k%1 = [").arg(attn::superscriptIndex(best))).at(0).numbers, rowOf(head.keys, best));
        // Each pair: its angle (four decimals) and the turned numbers.
        const auto pairs = linesStarting(turn, QStringLiteral("pair "));
        QCOMPARE(pairs.size(), std::size_t(4)); // two of q, two of k
        QVERIFY2(pairs[0].text.startsWith(QStringLiteral("pair 0 (d₀, d₂): angle 1 × 10000^(−0/4) = 1.0000 rad")),
                 qPrintable(pairs[0].text));
        QVERIFY2(pairs[1].text.startsWith(QStringLiteral("pair 1 (d₁, d₃): angle 1 × 10000^(−2/4) = 0.0100 rad")),
                 qPrintable(pairs[1].text));
        QVERIFY(std::abs(pairs[1].numbers[0] - 0.01) < 1e-15);
        QVERIFY(std::abs(pairs[0].numbers[1] - head.queries(1, 0)) < 1e-12);
        QVERIFY(std::abs(pairs[0].numbers[2] - head.queries(1, 2)) < 1e-12);
        QVERIFY(std::abs(pairs[1].numbers[2] - head.queries(1, 3)) < 1e-12);
        QVERIFY(std::abs(pairs[2].numbers[0] - double(best)) < 1e-15); // the key's pair 0 turns by its position
        QVERIFY(pairs[1].text.endsWith(QStringLiteral("(%1, %2)").arg(attn::formatFixed(head.queries(1, 1)),
                                                                       attn::formatFixed(head.queries(1, 3)))));
        // Pick the query names q before its turn.
        QVERIFY(steps[0].lines.back().text.startsWith(QStringLiteral("q̃⁽¹⁾ = x⁽¹⁾·W_q")));
    }

    void distanceStepShowsTheLessonInNumbers()
    {
        const attn::Session s = rotarySession("rotary-one-head");
        Document doc(s);
        const auto steps = stepsOf(doc);
        const attn::HeadResult &head = doc.result().heads[0];
        const int key = stepOf(steps, Kind::RotatePositions).keys.front();
        const attn::WalkthroughStep &lesson = stepOf(steps, Kind::RelativePositions);
        // Moved together (rotary): the first group of "at positions" lines, every one the score where they stand.
        std::vector<double> together, sinusoidal;
        int group = 0;
        for (const attn::FormulaLine &line : lesson.lines) {
            if (line.numbers.empty())
                ++group;
            else if (group == 1)
                together.push_back(line.numbers[0]);
            else if (group == 3 && line.text.startsWith(QStringLiteral("at positions")))
                sinusoidal.push_back(line.numbers[0]);
        }
        const int distance = 1 - key;
        QCOMPARE(int(together.size()), 6 - std::abs(distance));
        for (double score : together)
            QVERIFY(std::abs(score - head.scores(1, key)) < 1e-12);
        // Another distance, another score: the query moved, the key kept.
        for (const attn::FormulaLine &line : linesStarting(lesson, QStringLiteral("at position ")))
            QVERIFY2(std::abs(line.numbers[0] - head.scores(1, key)) > 1e-4, qPrintable(line.text));
        // Sinusoidal instead: the same placements score differently ((x + PE)·W, computed here).
        QCOMPARE(sinusoidal.size(), together.size());
        QVERIFY(*std::max_element(sinusoidal.begin(), sinusoidal.end())
                    - *std::min_element(sinusoidal.begin(), sinusoidal.end()) > 1e-3);
        const int p = std::max(0, distance); // the first placement: query at p, key at p - distance
        const Eigen::RowVectorXd qs = (s.embeddings.row(1) + attn::sinusoidalEncoding(p + 1, 4).row(p)) * s.weights.query[0];
        const Eigen::RowVectorXd ks = (s.embeddings.row(key) + attn::sinusoidalEncoding(p - distance + 1, 4).row(p - distance))
            * s.weights.key[0];
        QVERIFY(std::abs(sinusoidal.front() - qs.dot(ks)) < 1e-12);
        // v: rotary leaves it; sinusoidal would change it.
        const auto rotaryV = linesStarting(lesson, QStringLiteral("rotary: v"));
        QCOMPARE(rotaryV.at(0).numbers, rowOf(head.values, key));
        const Eigen::RowVectorXd vs = (s.embeddings.row(key) + attn::sinusoidalEncoding(key + 1, 4).row(key)) * s.weights.value[0];
        const auto sinusoidalV = linesStarting(lesson, QStringLiteral("sinusoidal: v"));
        for (int d = 0; d < 4; ++d)
            QVERIFY(std::abs(sinusoidalV.at(0).numbers[std::size_t(d)] - vs[d]) < 1e-12);
    }

    void sharedHeadsStepSaysWhatTheySaveAndCost()
    {
        // 4 query heads, 2 key/value heads of width 2, 6 tokens: 2 × 2 × 2 = 8
        // numbers per token instead of 2 × 4 × 2 = 16; 48 instead of 96.
        Document doc(rotarySession("rotary-shared-heads"));
        QVERIFY2(doc.hasResult(), qPrintable(doc.computeError()));
        const auto steps = attn::buildWalkthrough(doc.snapshot()->rowTokens, doc.snapshot()->columnTokens, doc.result(),
                                                  doc.query(), 3);
        QCOMPARE(steps.at(1).kind, Kind::SharedKeyValues);
        const attn::WalkthroughStep &shared = steps.at(1);
        QVERIFY(shared.explanation.contains(QStringLiteral("Head 3 reads key/value head 1")));
        QCOMPARE(shared.lines.at(0).text, QStringLiteral("key/value head 0 ← query heads 0, 1"));
        QCOMPARE(shared.lines.at(1).text, QStringLiteral("key/value head 1 ← query heads 2, 3"));
        QCOMPARE(shared.lines.at(2).numbers, (std::vector<double>{8, 16}));
        QVERIFY(shared.lines.at(2).text.contains(QStringLiteral("(50 % less)")));
        QCOMPARE(shared.lines.at(3).numbers, (std::vector<double>{48, 96}));
        const attn::AttentionResult &r = doc.result();
        const int key = shared.keys.front();
        QCOMPARE(shared.lines.at(4).numbers, rowOf(r.heads[2].values, key)); // head 2 is head 3's partner
        QCOMPARE(shared.lines.at(5).numbers, (std::vector<double>{r.heads[3].scores(4, key), r.heads[2].scores(4, key)}));
        checkNumbers(steps, r, 4, 3);
        // One key/value head per head: no such step.
        attn::AttentionConfig c = doc.session().attention;
        c.kvHeads = 0;
        doc.setAttention(c);
        QCOMPARE(kindsOf(stepsOf(doc)).at(1), Kind::RotatePositions);
    }

    void softmaxWritesPowersAsFunctions()
    {
        Document doc(attn::exampleSession());
        doc.setAttention(simplifiedConfig(doc));
        const auto steps = stepsOf(doc);
        const auto it = std::find_if(steps.begin(), steps.end(), [](const auto &s) { return s.kind == Kind::Softmax; });
        QVERIFY(it != steps.end());
        for (const attn::FormulaLine &line : it->lines) {
            QVERIFY2(!line.text.contains(QStringLiteral("e^")), qPrintable(line.text));
        }
        QVERIFY(it->lines.front().text.startsWith(QStringLiteral("Σ = exp(0.9544) + exp(1.4950)")));
    }

    void notation()
    {
        QCOMPARE(attn::formatNumber(0.95440001), QStringLiteral("0.9544"));
        QCOMPARE(attn::formatNumber(0.10), QStringLiteral("0.1"));
        QCOMPARE(attn::formatNumber(-0.5), QStringLiteral("−0.5"));
        QCOMPARE(attn::formatNumber(-0.00001), QStringLiteral("0"));
        QCOMPARE(attn::formatNumber(3.0), QStringLiteral("3"));
        QCOMPARE(attn::superscriptIndex(12), QStringLiteral("⁽¹²⁾"));
        QCOMPARE(attn::subscriptDigits(QStringLiteral("21")), QStringLiteral("₂₁"));
        QCOMPARE(attn::formatVector({1, 2, 3}, 2), QStringLiteral("[1.0000, 2.0000, … (+1 more)]"));
    }

    // Every number the walkthrough writes has four decimals, as the heatmap,
    // its tooltips and the pipeline write them ("1.4950", never "1.495"):
    // formulas and explanations, in every mode a step can appear in.
    void everyNumberHasFourDecimals_data()
    {
        QTest::addColumn<int>("variant");
        QTest::newRow("scaled, one head") << 0;
        QTest::newRow("simplified") << 1;
        QTest::newRow("causal, positions") << 2;
        QTest::newRow("three heads, projected") << 3;
        QTest::newRow("cross-attention") << 4;
    }
    void everyNumberHasFourDecimals()
    {
        QFETCH(int, variant);
        Document doc(attn::exampleSession());
        attn::AttentionConfig c = variant == 1 || variant == 4 ? simplifiedConfig(doc) : doc.session().attention;
        if (variant == 2) {
            c.causal = true;
            c.positionalEncoding = attn::PositionalEncoding::Sinusoidal;
        }
        if (variant == 3) {
            c.heads = 3;
            c.headDim = 2;
            c.outputProjection = true;
        }
        doc.setAttention(c);
        if (variant == 4)
            doc.setSourceSentence(QStringLiteral("one small step"));
        doc.setQuery(2);
        // A decimal number not part of a longer token (index digits are sub- and superscripts).
        static const QRegularExpression number(QStringLiteral("\\d+\\.(\\d+)"));
        int seen = 0;
        for (const attn::WalkthroughStep &step : stepsOf(doc)) {
            QStringList texts{step.explanation};
            for (const attn::FormulaLine &line : step.lines)
                texts << line.text;
            for (const QString &text : texts)
                for (auto it = number.globalMatch(text); it.hasNext();) {
                    const QRegularExpressionMatch m = it.next();
                    QVERIFY2(m.captured(1).size() == attn::kShownDecimals,
                             qPrintable(QStringLiteral("%1 in: %2").arg(m.captured(0), text)));
                    ++seen;
                }
        }
        QVERIFY(seen > 20);
        // 1.495 as a score of the example (simplified, "journey" to itself) reads 1.4950.
        QCOMPARE(attn::formatFixed(1.495), QStringLiteral("1.4950"));
    }

    void repeatedTokensCarryTheirPosition()
    {
        const QStringList tokens{"the", "quick", "fox", "jumps", "over", "the", "lazy", "dog", "over", "the", "fence"};
        const QStringList labels = attn::tokenLabels(tokens);
        QCOMPARE(labels.at(0), QStringLiteral("the₀"));
        QCOMPARE(labels.at(1), QStringLiteral("quick"));
        QCOMPARE(labels.at(4), QStringLiteral("over₄"));
        QCOMPARE(labels.at(8), QStringLiteral("over₈"));
        QCOMPARE(labels.at(9), QStringLiteral("the₉"));
        for (int i = 0; i < tokens.size(); ++i)
            QCOMPARE(attn::tokenLabel(tokens, i), labels.at(i));
        QCOMPARE(attn::tokenLabel(tokens, 11), QString());
        QCOMPARE(attn::layerHeadName(0, 3), QStringLiteral("L0H3"));
        QCOMPARE(attn::headName(0), QStringLiteral("head 0"));
    }
};

QTEST_GUILESS_MAIN(TestWalkthrough)
#include "tst_walkthrough.moc"
