// Head pattern scores (core/model/headscores.h): constructed heads whose
// answer is known, hand-worked uniform attention, random heads against
// tests/data/headscores/make_expected.py, and the time all heads of a
// GPT-2-small-sized trace take.

#include "model/headscores.h"

#include "runtime/prng.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>
#include <cmath>

using namespace attn;

namespace {

RowMatrix<float> previousTokenPattern(int n)
{
    RowMatrix<float> w = RowMatrix<float>::Zero(n, n);
    w(0, 0) = 1;
    for (int i = 1; i < n; ++i)
        w(i, i - 1) = 1;
    return w;
}

RowMatrix<float> uniformCausal(int n)
{
    RowMatrix<float> w = RowMatrix<float>::Zero(n, n);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j <= i; ++j)
            w(i, j) = 1.0f / float(i + 1);
    return w;
}

// Random causal softmax rows.
RowMatrix<float> randomCausal(SplitMix64 &rng, int n)
{
    RowMatrix<float> w = RowMatrix<float>::Zero(n, n);
    for (int i = 0; i < n; ++i) {
        float sum = 0;
        for (int j = 0; j <= i; ++j)
            sum += (w(i, j) = std::exp(float(rng.nextSymmetric(3.0))));
        w.row(i).head(i + 1) /= sum;
    }
    return w;
}

const std::vector<int> kEightTokens{3, 1, 4, 1, 5, 9, 2, 6};

// Layer 0: uniform causal and previous-token heads; layer 1: one uniform head.
ModelTrace twoLayerTrace()
{
    ModelTrace trace;
    trace.layers.resize(2);
    trace.layers[0].weights = {uniformCausal(8), previousTokenPattern(8)};
    trace.layers[1].weights = {uniformCausal(8)};
    return trace;
}

bool same(double actual, const QJsonValue &expected)
{
    if (expected.isNull())
        return std::isnan(actual);
    return std::fabs(actual - expected.toDouble()) < 1e-6;
}

} // namespace

class TestHeadScores : public QObject
{
    Q_OBJECT
private slots:
    void previousTokenHead()
    {
        const std::vector<int> tokens{3, 1, 4, 1, 5, 9, 2, 6};
        const HeadScores s = headScores(previousTokenPattern(8), tokens);
        QCOMPARE(s.previousToken, 1.0);
        QCOMPARE(s.self, 0.0);
        QCOMPARE(s.firstToken, 1.0 / 7); // only query 1's previous token is token 0
        QCOMPARE(s.duplicate, 0.0);      // query 3 ("1" again) looks at 2, not at 1
        QCOMPARE(s.induction, 1.0);      // ... and 2 is what followed the earlier "1"
        QVERIFY(std::isnan(s.chosenKey));
    }

    void inductionHeadOnARepeat()
    {
        // Ten distinct tokens, then the same ten again; each query of the
        // repeat attends to what followed its token the first time.
        const int half = 10, n = 2 * half;
        std::vector<int> tokens(static_cast<std::size_t>(n));
        for (int i = 0; i < n; ++i)
            tokens[std::size_t(i)] = (7 * (i % half) + 3) % 17;
        RowMatrix<float> w = RowMatrix<float>::Identity(n, n);
        for (int i = half; i < n; ++i) {
            w(i, i) = 0;
            w(i, i - half + 1) = 1;
        }
        const HeadScores s = headScores(w, tokens, QueryKey{12, 3});
        QCOMPARE(s.induction, 1.0);
        QCOMPARE(s.duplicate, 0.0);
        QCOMPARE(s.previousToken, 0.0);
        QCOMPARE(s.self, double(half - 1) / (n - 1)); // queries 1 ... 9 attend to themselves
        QCOMPARE(s.chosenKey, 1.0);
    }

    void uniformCausalHandWorked()
    {
        // Tokens a b a a. Query i spreads 1/(i+1) over keys 0 ... i.
        const std::vector<int> tokens{0, 1, 0, 0};
        const HeadScores s = headScores(uniformCausal(4), tokens, QueryKey{3, 1});
        const double fromSecond = (1.0 / 2 + 1.0 / 3 + 1.0 / 4) / 3; // 13/36
        QVERIFY(std::fabs(s.previousToken - fromSecond) < 1e-7);
        QVERIFY(std::fabs(s.firstToken - fromSecond) < 1e-7);
        QVERIFY(std::fabs(s.self - fromSecond) < 1e-7);
        // Query 2: earlier "a" at 0. Query 3: at 0 and 2.
        QVERIFY(std::fabs(s.duplicate - (1.0 / 3 + 2.0 / 4) / 2) < 1e-7);
        // Query 2: key 1 (after the "a" at 0). Query 3: key 1 only (after
        // the "a" at 2 comes query 3 itself).
        QVERIFY(std::fabs(s.induction - (1.0 / 3 + 1.0 / 4) / 2) < 1e-7);
        QVERIFY(std::fabs(s.chosenKey - 0.25) < 1e-7);
    }

    void noQualifyingQueryIsNaN()
    {
        const HeadScores one = headScores(RowMatrix<float>::Ones(1, 1), {5}, QueryKey{0, 0});
        QVERIFY(std::isnan(one.previousToken) && std::isnan(one.firstToken) && std::isnan(one.self));
        QVERIFY(std::isnan(one.duplicate) && std::isnan(one.induction));
        QCOMPARE(one.chosenKey, 1.0);

        const HeadScores distinct = headScores(uniformCausal(4), {0, 1, 2, 3}, QueryKey{1, 2});
        QVERIFY(std::isnan(distinct.duplicate) && std::isnan(distinct.induction));
        QCOMPARE(distinct.chosenKey, 0.0); // a masked weight is a number: only positions outside give NaN
    }

    void chosenKeyOutside()
    {
        const HeadScores s = headScores(uniformCausal(3), {0, 1, 0}, QueryKey{3, 0});
        QVERIFY(std::isnan(s.chosenKey));
        QVERIFY(std::isnan(headScores(uniformCausal(3), {0, 1, 0}, QueryKey{1, -1}).chosenKey));
        QCOMPARE(headScores(uniformCausal(3), {0, 1, 0}, QueryKey{0, 2}).chosenKey, 0.0);
    }

    void twoEqualTokensInARow()
    {
        // "a a": query 1 duplicates query 0, but what followed that "a" is query 1 itself.
        const HeadScores s = headScores(uniformCausal(2), {4, 4});
        QCOMPARE(s.duplicate, 0.5);
        QVERIFY(std::isnan(s.induction));
    }

    void wrongShapeThrows()
    {
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, headScores(uniformCausal(3), {0, 1}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, headScores(RowMatrix<float>::Zero(2, 3), {0, 1}));
    }

    void againstNumpy()
    {
        QFile f(QStringLiteral(ATTN_TEST_DATA "/headscores/expected.json"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonArray cases = QJsonDocument::fromJson(f.readAll()).object().value("cases").toArray();
        QCOMPARE(cases.size(), 3);
        for (const QJsonValue &c : cases) {
            std::vector<int> tokens;
            for (const QJsonValue &t : c["tokens"].toArray())
                tokens.push_back(t.toInt());
            const int n = int(tokens.size());
            for (const QJsonValue &h : c["heads"].toArray()) {
                RowMatrix<float> w(n, n);
                const QJsonArray rows = h["weights"].toArray();
                for (int i = 0; i < n; ++i)
                    for (int j = 0; j < n; ++j)
                        w(i, j) = float(rows[i].toArray()[j].toDouble());
                const QueryKey chosen{h["chosen"][0].toInt(), h["chosen"][1].toInt()};
                const HeadScores s = headScores(w, tokens, chosen);
                const QJsonObject e = h["expected"].toObject();
                QVERIFY(same(s.previousToken, e["previous_token"]));
                QVERIFY(same(s.duplicate, e["duplicate"]));
                QVERIFY(same(s.induction, e["induction"]));
                QVERIFY(same(s.firstToken, e["first_token"]));
                QVERIFY(same(s.self, e["self"]));
                QVERIFY(same(s.chosenKey, e["chosen_key"]));
            }
        }
    }

    // Heads of layers with a sliding window: keys outside a query's window
    // are no candidates, and queries with none left do not count.
    void windowsAgainstNumpy()
    {
        QFile f(QStringLiteral(ATTN_TEST_DATA "/headscores/expected.json"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonArray cases = QJsonDocument::fromJson(f.readAll()).object().value("window_cases").toArray();
        QCOMPARE(cases.size(), 4);
        for (const QJsonValue &c : cases) {
            std::vector<int> tokens;
            for (const QJsonValue &t : c["tokens"].toArray())
                tokens.push_back(t.toInt());
            const int n = int(tokens.size()), window = c["window"].toInt();
            ModelTrace trace;
            trace.layers.resize(2); // layer 0 without a window, layer 1 with it
            for (const QJsonValue &h : c["heads"].toArray()) {
                RowMatrix<float> w(n, n);
                const QJsonArray rows = h["weights"].toArray();
                for (int i = 0; i < n; ++i)
                    for (int j = 0; j < n; ++j)
                        w(i, j) = float(rows[i].toArray()[j].toDouble());
                trace.layers[0].weights.push_back(w);
                trace.layers[1].weights.push_back(w);
                const QueryKey chosen{h["chosen"][0].toInt(), h["chosen"][1].toInt()};
                const HeadScores s = headScores(w, tokens, chosen, window);
                const QJsonObject e = h["expected"].toObject();
                QVERIFY(same(s.previousToken, e["previous_token"]));
                QVERIFY(same(s.duplicate, e["duplicate"]));
                QVERIFY(same(s.induction, e["induction"]));
                QVERIFY(same(s.firstToken, e["first_token"]));
                QVERIFY(same(s.self, e["self"]));
                QVERIFY(same(s.chosenKey, e["chosen_key"]));
            }
            const auto table = traceHeadScores(trace, tokens, std::nullopt, {0, window});
            for (int h = 0; h < int(table[1].size()); ++h) {
                const QJsonObject e = c["heads"][h]["expected"].toObject();
                QVERIFY(same(table[1][std::size_t(h)].firstToken, e["first_token"]));
                QVERIFY(same(table[1][std::size_t(h)].induction, e["induction"]));
                // Without the window every query after the first counts (0s on the hidden keys).
                if (window > 1 && window < n)
                    QVERIFY(table[0][std::size_t(h)].firstToken < table[1][std::size_t(h)].firstToken);
            }
        }
    }

    // Hand-worked: a window of 2 over 4 tokens, every query splitting its
    // weight evenly over what it sees (itself and the token before). Only
    // query 1 sees key 0, with 1/2; without the window queries 1, 2 and 3
    // put 1/2, 0 and 0 on it: a mean of 1/6.
    void firstTokenShareInAWindow()
    {
        RowMatrix<float> w = RowMatrix<float>::Zero(4, 4);
        w(0, 0) = 1;
        for (int i = 1; i < 4; ++i)
            w(i, i - 1) = w(i, i) = 0.5f;
        QCOMPARE(headScores(w, {1, 2, 3, 4}, std::nullopt, 2).firstToken, 0.5);
        QCOMPARE(headScores(w, {1, 2, 3, 4}).firstToken, 1.0 / 6);
        QCOMPARE(headScores(w, {1, 2, 3, 4}, std::nullopt, 2).previousToken, 0.5);
        QVERIFY(std::isnan(headScores(w, {1, 2, 3, 4}, std::nullopt, 1).firstToken));
    }

    void wholeTraceAndBestHead()
    {
        const std::vector<int> tokens = kEightTokens;
        const ModelTrace trace = twoLayerTrace();
        const auto scores = traceHeadScores(trace, tokens);
        QCOMPARE(scores.size(), std::size_t(2));
        QCOMPARE(scores[0].size(), std::size_t(2));
        QCOMPARE(scores[1].size(), std::size_t(1));
        QCOMPARE(scores[0][1].previousToken, 1.0);
        QCOMPARE(scores[0][0].previousToken, headScores(uniformCausal(8), tokens).previousToken);
        QCOMPARE(bestHead(scores[0], &HeadScores::previousToken), std::optional<int>(1));
        QCOMPARE(bestHead(scores[1], &HeadScores::self), std::optional<int>(0));
        const std::vector<HeadScores> unknown{headScores(RowMatrix<float>::Ones(1, 1), {0})};
        QVERIFY(!bestHead(unknown, &HeadScores::previousToken));
    }

    // Picking a word afterwards sets only chosenKey: 1 / (query + 1) under
    // uniform causal attention, 1 or 0 in the previous-token head.
    void chosenKeyPickedAfterwards()
    {
        const std::vector<int> tokens = kEightTokens;
        const ModelTrace trace = twoLayerTrace();
        const auto plain = traceHeadScores(trace, tokens);
        const auto picked = withChosenKey(plain, trace, QueryKey{7, 6});
        QCOMPARE(picked[0][0].chosenKey, double(1.0f / 8.0f));
        QCOMPARE(picked[0][1].chosenKey, 1.0);
        QCOMPARE(withChosenKey(plain, trace, QueryKey{7, 2})[0][1].chosenKey, 0.0);
        QCOMPARE(picked[0][1].previousToken, plain[0][1].previousToken);
        QCOMPARE(picked[1][0].induction, plain[1][0].induction);
        QVERIFY(std::isnan(withChosenKey(plain, trace, QueryKey{8, 0})[1][0].chosenKey));
        QVERIFY(std::isnan(withChosenKey(plain, trace, std::nullopt)[0][0].chosenKey));
        auto short_ = plain;
        short_.pop_back();
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, withChosenKey(short_, trace, QueryKey{1, 0}));
    }

    // A typed word goes on from the sums over the rows it keeps: its scores
    // are the ones computed whole, to the bit, with and without a window,
    // for a word added at the end and a word changed in the middle; sums of
    // other heads or too few rows are not used.
    void typedWordGoesOnFromTheSums()
    {
        SplitMix64 rng(5);
        const int n = 60;
        std::vector<int> tokens(static_cast<std::size_t>(n));
        for (int &t : tokens)
            t = int(rng.nextUnit() * 6); // many repeats: duplicate and induction keys
        LayerTrace layer;
        for (int h = 0; h < 3; ++h)
            layer.weights.push_back(randomCausal(rng, n));
        for (const int window : {0, 9}) {
            std::vector<HeadScoreRows> whole;
            const std::vector<HeadScores> expected = layerHeadScores(layer, tokens, window, whole);
            for (int h = 0; h < 3; ++h) {
                const HeadScores one = headScores(layer.weights[std::size_t(h)], tokens, std::nullopt, window);
                QCOMPARE(expected[std::size_t(h)].previousToken, one.previousToken);
                QCOMPARE(expected[std::size_t(h)].induction, one.induction);
                QVERIFY(std::isnan(expected[std::size_t(h)].chosenKey));
            }
            // The earlier text: the first 50 tokens and rows (their keys are
            // all before them, so the rows are the same), or a text that
            // differs from token 40 on (its sums after row 39 are wrong here).
            LayerTrace shorter;
            for (const RowMatrix<float> &w : layer.weights)
                shorter.weights.push_back(w.topLeftCorner(50, 50));
            std::vector<HeadScoreRows> earlier;
            layerHeadScores(shorter, std::vector<int>(tokens.begin(), tokens.begin() + 50), window, earlier);
            std::vector<int> edited(tokens.begin(), tokens.begin() + 50);
            for (int i = 40; i < 50; ++i)
                edited[std::size_t(i)] = 99;
            std::vector<HeadScoreRows> earlierEdited;
            layerHeadScores(shorter, edited, window, earlierEdited);
            for (const auto &[from, reused] : {std::pair{&earlier, 50}, std::pair{&earlierEdited, 40}}) {
                std::vector<HeadScoreRows> rows;
                const std::vector<HeadScores> typed = layerHeadScores(layer, tokens, window, rows, from, reused);
                for (std::size_t h = 0; h < 3; ++h) {
                    QCOMPARE(typed[h].previousToken, expected[h].previousToken);
                    QCOMPARE(typed[h].firstToken, expected[h].firstToken);
                    QCOMPARE(typed[h].self, expected[h].self);
                    QCOMPARE(typed[h].duplicate, expected[h].duplicate);
                    QCOMPARE(typed[h].induction, expected[h].induction);
                    QCOMPARE(rows[h].rows.back().total[4], whole[h].rows.back().total[4]); // induction
                }
            }
            // Taken as they are: sums of the edited text over all its 50 rows
            // give other scores (the test fails if the rows were summed again).
            std::vector<HeadScoreRows> rows;
            const std::vector<HeadScores> wrong = layerHeadScores(layer, tokens, window, rows, &earlierEdited, 50);
            QVERIFY(wrong[0].duplicate != expected[0].duplicate);
            // Not usable: two heads' sums, or sums over fewer rows than reused.
            std::vector<HeadScoreRows> twoHeads(earlierEdited.begin(), earlierEdited.begin() + 2);
            QCOMPARE(layerHeadScores(layer, tokens, window, rows, &twoHeads, 50)[0].duplicate, expected[0].duplicate);
            QCOMPARE(layerHeadScores(layer, tokens, window, rows, &earlierEdited, 51)[0].duplicate, expected[0].duplicate);
        }
    }

    void gpt2SmallSizeIsFast()
    {
        // 12 layers x 12 heads at 256 tokens from 50 symbols (many repeats).
        const int n = 256;
        SplitMix64 rng(11);
        std::vector<int> tokens(static_cast<std::size_t>(n));
        for (int &t : tokens)
            t = int(rng.nextUnit() * 50);
        ModelTrace trace;
        trace.layers.resize(12);
        const RowMatrix<float> w = randomCausal(rng, n);
        for (LayerTrace &l : trace.layers)
            l.weights.assign(12, w);
        QElapsedTimer timer;
        timer.start();
        const auto scores = traceHeadScores(trace, tokens, QueryKey{255, 3});
        const qint64 ms = timer.elapsed();
        QCOMPARE(scores.size(), std::size_t(12));
        QVERIFY(!std::isnan(scores[11][11].induction));
        QVERIFY2(ms < 50, qPrintable(QStringLiteral("%1 ms for 144 heads").arg(ms)));
    }
};

QTEST_GUILESS_MAIN(TestHeadScores)
#include "tst_headscores.moc"
