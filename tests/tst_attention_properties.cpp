// Properties of the attention engine on random inputs from fixed seeds:
// rows sum to 1, masked weights are exactly 0, permutation equivariance,
// scaling, scores = Q K^T, and output shapes.

#include "attention/attention.h"
#include "runtime/prng.h"
#include "testdata.h"

#include <QTest>
#include <cmath>
#include <numeric>

using attn::AttentionConfig;
using attn::AttentionResult;
using attn::Mode;
using Eigen::MatrixXd;

namespace {

// The permutation matrix that moves row order[i] to row i.
MatrixXd permutation(const std::vector<int> &order)
{
    const int n = int(order.size());
    MatrixXd p = MatrixXd::Zero(n, n);
    for (int i = 0; i < n; ++i)
        p(i, order[std::size_t(i)]) = 1.0;
    return p;
}

} // namespace

class TestAttentionProperties : public QObject
{
    Q_OBJECT
private slots:
    void invariants_data();
    void invariants();
    void permutationEquivariance_data();
    void permutationEquivariance();
    void positionalEncodingBreaksEquivariance();
    void extremeScoresStayNormalised();
    void averageOverHeads();
};

void TestAttentionProperties::invariants_data()
{
    QTest::addColumn<int>("tokens");
    QTest::addColumn<int>("dModel");
    QTest::addColumn<int>("heads");
    QTest::addColumn<int>("headDim");
    QTest::addColumn<bool>("simplified");
    QTest::addColumn<bool>("causal");
    QTest::addColumn<bool>("scale");
    QTest::addColumn<bool>("projection");
    QTest::addColumn<bool>("sinusoidal");
    QTest::addColumn<int>("sourceTokens"); // 0: self-attention

    int row = 0;
    for (int heads = 1; heads <= 8; ++heads)
        for (bool simplified : {false, true})
            for (bool causal : {false, true}) {
                const int tokens = 1 + (heads * 5 + (simplified ? 3 : 0)) % 12;
                const int dModel = 1 + (heads * 3 + (causal ? 2 : 0)) % 9;
                const int headDim = 1 + (heads + dModel) % 5;
                const bool scale = (row % 3) != 0;
                const bool projection = (row % 2) == 0;
                const bool sinusoidal = (row % 4) == 1;
                const int source = (row % 5 == 4) ? 1 + row % 7 : 0;
                QTest::addRow("n%d d%d h%d k%d %s%s%s%s%s src%d", tokens, dModel, heads, headDim,
                              simplified ? "simplified" : "sdp", causal ? " causal" : "", scale ? " scale" : "",
                              projection ? " proj" : "", sinusoidal ? " pe" : "", source)
                    << tokens << dModel << heads << headDim << simplified << causal << scale << projection
                    << sinusoidal << source;
                ++row;
            }
}

void TestAttentionProperties::invariants()
{
    QFETCH(int, tokens);
    QFETCH(int, dModel);
    QFETCH(int, heads);
    QFETCH(int, headDim);
    QFETCH(bool, simplified);
    QFETCH(bool, causal);
    QFETCH(bool, scale);
    QFETCH(bool, projection);
    QFETCH(bool, sinusoidal);
    QFETCH(int, sourceTokens);

    AttentionConfig c;
    c.mode = simplified ? Mode::Simplified : Mode::ScaledDotProduct;
    c.heads = heads;
    c.headDim = headDim;
    c.causal = causal;
    c.scale = scale;
    c.outputProjection = projection;
    c.positionalEncoding = sinusoidal ? attn::PositionalEncoding::Sinusoidal : attn::PositionalEncoding::None;
    c.seed = tokens * 1000 + dModel;
    const MatrixXd x = randomMatrix(std::uint64_t(c.seed), tokens, dModel);
    const MatrixXd source = randomMatrix(std::uint64_t(c.seed) + 1, sourceTokens, dModel);
    const AttentionResult r = attn::computeAttention(x, c, {}, sourceTokens ? &source : nullptr);

    const int dk = simplified ? dModel : headDim;
    const int keys = sourceTokens ? sourceTokens : tokens;
    QCOMPARE(int(r.heads.size()), heads);
    QCOMPARE(r.headDim(), dk);
    QCOMPARE(r.inputs.rows(), Eigen::Index(tokens));
    QCOMPARE(r.output.rows(), Eigen::Index(tokens));
    QCOMPARE(r.output.cols(), Eigen::Index(projection ? dModel : heads * dk));
    QCOMPARE(r.scoreScale, scale ? 1.0 / std::sqrt(double(dk)) : 1.0);

    MatrixXd concat(tokens, heads * dk);
    for (int h = 0; h < heads; ++h) {
        const attn::HeadResult &head = r.heads[std::size_t(h)];
        QCOMPARE(head.scores.rows(), Eigen::Index(tokens));
        QCOMPARE(head.scores.cols(), Eigen::Index(keys));
        QCOMPARE(head.context.cols(), Eigen::Index(dk));
        // Q, K, V come from the inputs and the weights actually used.
        const MatrixXd &keysFrom = sourceTokens ? r.sourceInputs : r.inputs;
        const MatrixXd q = simplified ? r.inputs : MatrixXd(r.inputs * r.weights->query[std::size_t(h)]);
        const MatrixXd k = simplified ? keysFrom : MatrixXd(keysFrom * r.weights->key[std::size_t(h)]);
        QVERIFY(maxAbsDiff(head.queries, q) <= 1e-12);
        QVERIFY(maxAbsDiff(head.keys, k) <= 1e-12);
        // Scores are the raw Q K^T.
        QVERIFY(maxAbsDiff(head.scores.toDouble(), MatrixXd(head.queries * head.keys.transpose())) <= 1e-12);
        for (int i = 0; i < tokens; ++i) {
            // Weights by hand: softmax of scores * scale over the visible keys.
            // In cross-attention the causal mask does not apply: every source token is visible.
            const bool masked = causal && !sourceTokens;
            QCOMPARE(r.causal, masked);
            const int visible = masked ? std::min(i + 1, keys) : keys;
            double maxScore = -std::numeric_limits<double>::infinity();
            for (int j = 0; j < visible; ++j)
                maxScore = std::max(maxScore, head.scores(i, j) * r.scoreScale);
            double sum = 0.0;
            for (int j = 0; j < visible; ++j)
                sum += std::exp(head.scores(i, j) * r.scoreScale - maxScore);
            for (int j = 0; j < keys; ++j) {
                const double expected = j < visible ? std::exp(head.scores(i, j) * r.scoreScale - maxScore) / sum : 0.0;
                QVERIFY(std::fabs(head.weights(i, j) - expected) <= 1e-12);
                if (j >= visible)
                    QCOMPARE(head.weights(i, j), 0.0); // exactly, not merely small
                QVERIFY(head.weights(i, j) >= 0.0);
            }
            QVERIFY(std::fabs(head.weights.row(i).sum() - 1.0) <= 1e-12);
        }
        QVERIFY(maxAbsDiff(head.context, MatrixXd(head.weights.toDouble() * head.values)) <= 1e-12);
        concat.middleCols(h * dk, dk) = head.context;
    }
    const MatrixXd expectedOutput = projection ? MatrixXd(concat * r.weights->output) : concat;
    QVERIFY(maxAbsDiff(r.output, expectedOutput) <= 1e-12);
}

void TestAttentionProperties::permutationEquivariance_data()
{
    QTest::addColumn<int>("tokens");
    QTest::addColumn<int>("heads");
    QTest::addColumn<bool>("simplified");
    QTest::newRow("2 tokens, sdp") << 2 << 1 << false;
    QTest::newRow("5 tokens, sdp, 3 heads") << 5 << 3 << false;
    QTest::newRow("8 tokens, simplified") << 8 << 1 << true;
    QTest::newRow("7 tokens, simplified, 2 heads") << 7 << 2 << true;
}

void TestAttentionProperties::permutationEquivariance()
{
    // Without positions, attention treats the tokens as a set: permuting the
    // inputs permutes outputs (rows) and weights (rows and columns) alike.
    QFETCH(int, tokens);
    QFETCH(int, heads);
    QFETCH(bool, simplified);
    AttentionConfig c;
    c.mode = simplified ? Mode::Simplified : Mode::ScaledDotProduct;
    c.heads = heads;
    c.headDim = 3;
    c.outputProjection = heads > 1;
    c.seed = 77;
    const MatrixXd x = randomMatrix(4242, tokens, 4);
    std::vector<int> order(std::size_t(tokens), 0);
    std::iota(order.begin(), order.end(), 0);
    std::reverse(order.begin(), order.end());
    if (tokens > 2)
        std::swap(order[0], order[1]);
    const MatrixXd p = permutation(order);

    const AttentionResult a = attn::computeAttention(x, c);
    const AttentionResult b = attn::computeAttention(MatrixXd(p * x), c);
    QVERIFY(maxAbsDiff(b.output, MatrixXd(p * a.output)) <= 1e-12);
    for (int h = 0; h < heads; ++h) {
        const std::size_t hh = std::size_t(h);
        QVERIFY(maxAbsDiff(b.heads[hh].weights.toDouble(), MatrixXd(p * a.heads[hh].weights.toDouble() * p.transpose())) <= 1e-12);
        QVERIFY(maxAbsDiff(b.heads[hh].scores.toDouble(), MatrixXd(p * a.heads[hh].scores.toDouble() * p.transpose())) <= 1e-12);
    }
}

void TestAttentionProperties::positionalEncodingBreaksEquivariance()
{
    AttentionConfig c;
    c.headDim = 4;
    c.seed = 3;
    c.positionalEncoding = attn::PositionalEncoding::Sinusoidal;
    const MatrixXd x = randomMatrix(99, 5, 4, 0.5);
    const MatrixXd p = permutation({4, 3, 2, 1, 0});
    const AttentionResult a = attn::computeAttention(x, c);
    const AttentionResult b = attn::computeAttention(MatrixXd(p * x), c);
    // The inputs are X + PE: positions stay where they are while tokens move.
    QVERIFY(maxAbsDiff(b.inputs, MatrixXd(p * x + attn::sinusoidalEncoding(5, 4))) <= 1e-15);
    QVERIFY(maxAbsDiff(b.output, MatrixXd(p * a.output)) > 1e-3);
    QVERIFY(maxAbsDiff(b.heads[0].weights.toDouble(), MatrixXd(p * a.heads[0].weights.toDouble() * p.transpose())) > 1e-3);
}

void TestAttentionProperties::extremeScoresStayNormalised()
{
    // Huge but finite scores: the stable softmax must not produce NaN.
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
        const MatrixXd s = randomMatrix(seed, 6, 9, 1e6);
        for (bool causal : {false, true}) {
            const MatrixXd w = attn::softmaxRows(s, 1.0, causal);
            QVERIFY(w.allFinite());
            for (Eigen::Index i = 0; i < w.rows(); ++i)
                QVERIFY(std::fabs(w.row(i).sum() - 1.0) <= 1e-12);
        }
    }
}

void TestAttentionProperties::averageOverHeads()
{
    AttentionConfig c;
    c.heads = 3;
    c.headDim = 2;
    c.seed = 9;
    const AttentionResult r = attn::computeAttention(randomMatrix(8, 5, 4), c);
    const MatrixXd expected =
        (r.heads[0].weights.toDouble() + r.heads[1].weights.toDouble() + r.heads[2].weights.toDouble()) / 3.0;
    QVERIFY(maxAbsDiff(attn::averageWeights(r).toDouble(), expected) <= 1e-15);
    QCOMPARE(attn::averageWeights(attn::AttentionResult()).size(), Eigen::Index(0));
}

QTEST_APPLESS_MAIN(TestAttentionProperties)
#include "tst_attention_properties.moc"
