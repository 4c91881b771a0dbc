// Every backward pass of core/learn against central finite differences of its
// forward op (model/ops.h, model/attentionop.h) in double precision, then the
// whole GPT-2's gradient on a random subset of its parameters. The finite
// differences are the independent computation: they use only the forward ops.

#include "learn/backward.h"
#include "learn/gpt2training.h"
#include "model/attentionop.h"
#include "model/forward.h"
#include "model/ops.h"

#include <QTest>
#include <cmath>
#include <functional>

using namespace attn;
using MatD = RowMatrix<double>;
using VecD = RowVector<double>;

namespace {

MatD randomMatrix(Eigen::Index rows, Eigen::Index cols, std::uint64_t seed, double scale = 1.0)
{
    SplitMix64 rng(seed);
    MatD m(rows, cols);
    for (Eigen::Index i = 0; i < m.size(); ++i)
        m.data()[i] = rng.nextSymmetric(scale);
    return m;
}

// d/dX of f by central differences, entry by entry (X is changed and restored).
MatD numericGradient(MatD &x, const std::function<double()> &f, double h = 1e-5)
{
    MatD g(x.rows(), x.cols());
    for (Eigen::Index i = 0; i < x.size(); ++i) {
        const double keep = x.data()[i];
        x.data()[i] = keep + h;
        const double up = f();
        x.data()[i] = keep - h;
        const double down = f();
        x.data()[i] = keep;
        g.data()[i] = (up - down) / (2 * h);
    }
    return g;
}

// The scalar whose gradient a backward pass computes when given dy: sum(dy o y).
double project(const MatD &y, const MatD &dy) { return (y.array() * dy.array()).sum(); }

#define COMPARE_GRADIENT(analytic, numeric)                                                                          \
    do {                                                                                                             \
        const MatD a_ = (analytic), n_ = (numeric);                                                                  \
        QCOMPARE(a_.rows(), n_.rows());                                                                              \
        QCOMPARE(a_.cols(), n_.cols());                                                                              \
        const double err_ = (a_ - n_).cwiseAbs().maxCoeff(), size_ = std::max(1.0, n_.cwiseAbs().maxCoeff());     \
        if (!(err_ <= 1e-7 * size_))                                                                                 \
            QFAIL(qPrintable(QStringLiteral(#analytic ": off by %1 (largest entry %2)").arg(err_).arg(size_)));      \
    } while (false)

} // namespace

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

    void mlp()
    {
        MatD x = randomMatrix(3, 4, 15), w1 = randomMatrix(4, 8, 16), b1 = randomMatrix(1, 8, 17),
             w2 = randomMatrix(8, 4, 18), b2 = randomMatrix(1, 4, 19);
        const MatD dy = randomMatrix(3, 4, 20);
        auto f = [&] { return project(attn::mlp<double>(x, w1, b1, w2, b2, Activation::GeluTanh), dy); };
        const MatD inner = attn::linear<double>(x, w1, b1);
        const MlpGradients<double> g = mlpBackward<double>(x, inner, w1, w2, dy);
        COMPARE_GRADIENT(g.input, numericGradient(x, f));
        COMPARE_GRADIENT(g.in.weight, numericGradient(w1, f));
        COMPARE_GRADIENT(g.in.bias, numericGradient(b1, f));
        COMPARE_GRADIENT(g.out.weight, numericGradient(w2, f));
        COMPARE_GRADIENT(g.out.bias, numericGradient(b2, f));
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

// Every weight random (biases and norms too, so no term hides behind a zero).
ModelParameters randomModel(const ModelConfig &c, std::uint64_t seed)
{
    ModelParameters m = zeroGpt2(c);
    SplitMix64 rng(seed);
    for (const ParameterTensor &t : parameterTensors(m)) {
        const bool gain = t.name.endsWith(QLatin1String("ln_1.weight")) || t.name.endsWith(QLatin1String("ln_2.weight"))
                          || t.name == QLatin1String("ln_f.weight");
        for (Eigen::Index i = 0; i < t.rows * t.cols; ++i)
            t.data[i] = float((gain ? 1.0 : 0.0) + rng.nextSymmetric(0.5));
    }
    return m;
}

TrainingBatch randomBatch(const ModelConfig &c, int sequences, int length, std::uint64_t seed)
{
    SplitMix64 rng(seed);
    TrainingBatch b;
    b.sequences = sequences;
    b.length = length;
    for (int i = 0; i < sequences * length; ++i) {
        b.inputs.push_back(uniformInt(rng, c.vocab));
        b.targets.push_back(uniformInt(rng, c.vocab));
        b.weights.push_back(i % 3 == 1 ? 0.0f : 1.0f);
    }
    return b;
}

} // namespace

void TestGradients::wholeModel()
{
    const ModelConfig c = tinyConfig();
    ModelParameters model = randomModel(c, 40);
    const TrainingBatch batch = randomBatch(c, 2, 5, 41);
    TrainingActivations<double> keep;
    trainingForward<double>(model, batch, keep);
    ModelParameters gradients;
    trainingBackward<double>(model, batch, keep, gradients);

    // 120 random entries over all tensors; finite differences on the float
    // weights by their actual (rounded) displacement, the loss in double.
    std::vector<ParameterTensor> params = parameterTensors(model), grads = parameterTensors(gradients);
    SplitMix64 pick(42);
    int checked = 0;
    for (int trial = 0; trial < 120; ++trial) {
        const std::size_t t = std::size_t(uniformInt(pick, int(params.size())));
        const Eigen::Index i = uniformInt(pick, int(params[t].rows * params[t].cols));
        float &p = params[t].data[i];
        const float keepValue = p, up = keepValue + 1e-3f, down = keepValue - 1e-3f;
        TrainingActivations<double> scratch;
        p = up;
        const double lossUp = trainingForward<double>(model, batch, scratch);
        p = down;
        const double lossDown = trainingForward<double>(model, batch, scratch);
        p = keepValue;
        const double numeric = (lossUp - lossDown) / (double(up) - double(down)), analytic = grads[t].data[i];
        if (!(std::fabs(numeric - analytic) <= 2e-5 * std::max(1.0, std::fabs(numeric))))
            QFAIL(qPrintable(QStringLiteral("%1[%2]: backward %3, finite differences %4")
                                 .arg(params[t].name).arg(i).arg(analytic, 0, 'g', 10).arg(numeric, 0, 'g', 10)));
        ++checked;
    }
    QCOMPARE(checked, 120);

    // The float pass (what training runs) agrees with the double one.
    TrainingActivations<float> keepFloat;
    trainingForward<float>(model, batch, keepFloat);
    ModelParameters floatGradients;
    trainingBackward<float>(model, batch, keepFloat, floatGradients);
    const std::vector<ParameterTensor> fg = parameterTensors(floatGradients);
    for (std::size_t t = 0; t < fg.size(); ++t)
        QVERIFY2((fg[t].values() - grads[t].values()).cwiseAbs().maxCoeff()
                     <= 1e-4 * std::max(1.0f, grads[t].values().cwiseAbs().maxCoeff()),
                 qPrintable(fg[t].name));
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
