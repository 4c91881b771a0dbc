// Every backward pass of GPT-2's block against central finite differences of
// its forward op (model/ops.h, model/attentionop.h) in double precision, then
// the whole GPT-2's gradient on a random subset of its parameters. The finite
// differences are the independent computation: they use only the forward ops.
// The Llama block's own operations: tst_llamagradients.

#include "gradientcheck.h"
#include "learn/backward.h"
#include "learn/trainingpass.h"
#include "model/attentionop.h"
#include "model/forward.h"
#include "model/ops.h"

#include <QTest>
#include <cmath>

using namespace attn;
using MatD = RowMatrix<double>;
using VecD = RowVector<double>;

using namespace gradientcheck;

class TestGradients : public QObject
{
    Q_OBJECT
private slots:
    void linear_data()
    {
        QTest::addColumn<int>("rows");
        QTest::addColumn<int>("in");
        QTest::addColumn<int>("out");
        QTest::newRow("one row") << 1 << 3 << 2;
        QTest::newRow("4 x 5 -> 3") << 4 << 5 << 3;
    }
    void linear()
    {
        QFETCH(int, rows);
        QFETCH(int, in);
        QFETCH(int, out);
        MatD x = randomMatrix(rows, in, 1), w = randomMatrix(in, out, 2), b = randomMatrix(1, out, 3);
        const MatD dy = randomMatrix(rows, out, 4);
        auto f = [&] { return project(attn::linear<double>(x, w, b), dy); };
        const LinearGradients<double> g = linearBackward<double>(x, w, dy);
        COMPARE_GRADIENT(g.input, numericGradient(x, f));
        COMPARE_GRADIENT(g.weight, numericGradient(w, f));
        COMPARE_GRADIENT(g.bias, numericGradient(b, f));
    }

    void layerNorm_data()
    {
        QTest::addColumn<double>("offset");
        QTest::newRow("centred") << 0.0;
        QTest::newRow("large mean") << 20.0;
    }
    void layerNorm()
    {
        QFETCH(double, offset);
        MatD x = randomMatrix(3, 6, 5).array() + offset, gamma = randomMatrix(1, 6, 6).array() + 1.0,
             beta = randomMatrix(1, 6, 7);
        const MatD dy = randomMatrix(3, 6, 8);
        auto f = [&] { return project(attn::layerNorm<double>(x, gamma, beta, 1e-5), dy); };
        const LayerNormGradients<double> g = layerNormBackward<double>(x, gamma, 1e-5, dy);
        COMPARE_GRADIENT(g.input, numericGradient(x, f));
        COMPARE_GRADIENT(g.weight, numericGradient(gamma, f));
        COMPARE_GRADIENT(g.bias, numericGradient(beta, f));
    }

    void gelu()
    {
        MatD x = randomMatrix(4, 5, 9, 4.0); // both tails and the bend
        const MatD dy = randomMatrix(4, 5, 10);
        auto f = [&] {
            MatD y = x;
            activate(y, Activation::GeluTanh);
            return project(y, dy);
        };
        COMPARE_GRADIENT(geluNewBackward<double>(x, dy), numericGradient(x, f));
    }

    void attention_data()
    {
        QTest::addColumn<int>("heads");
        QTest::addColumn<bool>("causal");
        QTest::newRow("1 head, causal") << 1 << true;
        QTest::newRow("2 heads, causal") << 2 << true;
        QTest::newRow("2 heads, no mask") << 2 << false;
    }
    void attention()
    {
        QFETCH(int, heads);
        QFETCH(bool, causal);
        const int n = 5, d = 4 * heads;
        MatD q = randomMatrix(n, d, 11), k = randomMatrix(n, d, 12), v = randomMatrix(n, d, 13);
        const MatD dz = randomMatrix(n, d, 14);
        AttentionSettings s;
        s.heads = heads;
        s.causal = causal;
        s.scale = 0.5;
        auto f = [&] { return project(attn::attention<double>(q, k, v, s).context, dz); };
        const AttentionOutput<double> out = attn::attention<double>(q, k, v, s);
        const AttentionGradients<double> g = attentionBackward<double>(q, k, v, out.weights, s.scale, dz);
        COMPARE_GRADIENT(g.queries, numericGradient(q, f));
        COMPARE_GRADIENT(g.keys, numericGradient(k, f));
        COMPARE_GRADIENT(g.values, numericGradient(v, f));
        if (causal) // the first query sees one key: its weight is 1 whatever the score
            QCOMPARE(g.queries.row(0).norm(), 0.0);
    }

    // The MLP as the training pass runs it: c_fc, GELU, c_proj, each op's backward in turn.
    void mlp()
    {
        MatD x = randomMatrix(3, 4, 15), w1 = randomMatrix(4, 8, 16), b1 = randomMatrix(1, 8, 17),
             w2 = randomMatrix(8, 4, 18), b2 = randomMatrix(1, 4, 19);
        const MatD dy = randomMatrix(3, 4, 20);
        auto f = [&] { return project(attn::mlp<double>(x, w1, b1, w2, b2, Activation::GeluTanh), dy); };
        const MatD inner = attn::linear<double>(x, w1, b1);
        MatD activated = inner;
        activate(activated, Activation::GeluTanh);
        const LinearGradients<double> out = linearBackward<double>(activated, w2, dy);
        const LinearGradients<double> in = linearBackward<double>(x, w1, geluNewBackward<double>(inner, out.input));
        COMPARE_GRADIENT(in.input, numericGradient(x, f));
        COMPARE_GRADIENT(in.weight, numericGradient(w1, f));
        COMPARE_GRADIENT(in.bias, numericGradient(b1, f));
        COMPARE_GRADIENT(out.weight, numericGradient(w2, f));
        COMPARE_GRADIENT(out.bias, numericGradient(b2, f));
    }

    void residual()
    {
        // y = x + linear(x): the stream's gradient plus the branch's.
        MatD x = randomMatrix(3, 4, 21), w = randomMatrix(4, 4, 22), b = randomMatrix(1, 4, 23);
        const MatD dy = randomMatrix(3, 4, 24);
        auto f = [&] {
            MatD h = x;
            addResidual<double>(h, attn::linear<double>(x, w, b));
            return project(h, dy);
        };
        MatD dx = dy;
        residualBackward<double>(dx, linearBackward<double>(x, w, dy).input);
        COMPARE_GRADIENT(dx, numericGradient(x, f));
    }

    void embedding()
    {
        // Two sequences of 3 tokens, token 2 used three times.
        const std::vector<int> ids = {2, 0, 2, 1, 2, 3};
        MatD tokens = randomMatrix(5, 4, 25), positions = randomMatrix(4, 4, 26);
        const MatD dh = randomMatrix(6, 4, 27);
        auto f = [&] {
            MatD h(6, 4);
            for (int i = 0; i < 6; ++i)
                h.row(i) = tokens.row(ids[std::size_t(i)]) + positions.row(i % 3);
            return project(h, dh);
        };
        MatD dTokens = MatD::Zero(5, 4), dPositions = MatD::Zero(4, 4);
        embeddingBackward<double>(ids, 3, dh, dTokens, dPositions);
        COMPARE_GRADIENT(dTokens, numericGradient(tokens, f));
        COMPARE_GRADIENT(dPositions, numericGradient(positions, f));
        QCOMPARE(dPositions.row(3).norm(), 0.0); // position 3 was never used
    }

    void unembedding()
    {
        MatD h = randomMatrix(3, 4, 28), e = randomMatrix(6, 4, 29);
        const MatD dLogits = randomMatrix(3, 6, 30);
        auto f = [&] { return project(h * e.transpose(), dLogits); };
        MatD dE = MatD::Zero(6, 4);
        const MatD dh = unembeddingBackward<double>(h, e, dLogits, dE);
        COMPARE_GRADIENT(dh, numericGradient(h, f));
        COMPARE_GRADIENT(dE, numericGradient(e, f));
    }

    void crossEntropyLoss()
    {
        MatD logits = randomMatrix(4, 5, 31, 3.0);
        const std::vector<int> targets = {1, 4, 0, 2};
        const std::vector<float> weights = {1.0f, 0.0f, 1.0f, 2.0f};
        auto f = [&] { return attn::crossEntropy<double>(logits, targets, weights).loss; };
        const CrossEntropy<double> ce = attn::crossEntropy<double>(logits, targets, weights);
        COMPARE_GRADIENT(ce.dLogits, numericGradient(logits, f));
        // The loss itself, from log-softmax written out: rows 0, 2 and 3 (twice).
        double expected = 0;
        for (int r : {0, 2, 3, 3})
            expected -= logits(r, targets[std::size_t(r)]) - std::log(logits.row(r).array().exp().sum());
        QVERIFY(std::fabs(ce.loss - expected / 4) < 1e-12);
        QCOMPARE(ce.counted, 3);
        QCOMPARE(ce.dLogits.row(1).norm(), 0.0);
    }

    void wholeModel();
    void matchesModelForward();
};

namespace {

ModelConfig tinyConfig()
{
    ModelConfig c;
    c.layers = 2;
    c.heads = 2;
    c.dModel = 8;
    c.dFF = 32;
    c.positions = 6;
    c.vocab = 7;
    return c;
}

} // namespace

void TestGradients::wholeModel()
{
    const ModelConfig c = tinyConfig();
    ModelParameters model = randomModel(c, 40);
    const QString problem = wholeModelProblem(model, randomBatch(c, 2, 5, 41), 120, 42);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
}

void TestGradients::matchesModelForward()
{
    // The training pass is model/forward.cpp's GPT-2: the last position's
    // next-token probabilities are the same numbers.
    const ModelConfig c = tinyConfig();
    const ModelParameters model = randomModel(c, 43);
    const TrainingBatch batch = randomBatch(c, 1, 6, 44);
    TrainingActivations<float> keep;
    trainingForward<float>(model, batch, keep);
    const RowVector<float> training = softmax<float>(keep.logits.row(5));
    const ModelTrace trace = forward(model, batch.inputs);
    QVERIFY(trace.nextToken);
    QVERIFY((training - trace.nextToken->probabilities).cwiseAbs().maxCoeff() < 1e-6f);
    QVERIFY((keep.layers[1].weights[0][1] - trace.layers[1].weights[1]).cwiseAbs().maxCoeff() < 1e-6f);
}

QTEST_APPLESS_MAIN(TestGradients)
#include "tst_gradients.moc"
