// The Llama block's own operations, each backward pass against central finite
// differences of its forward op in double precision: nn.Linear's [out, in]
// layers, RMSNorm, the rotation of q and k by position, the SiLU-gated MLP and
// key/value heads shared by groups of query heads in attention. Then the whole
// Llama-style model's gradient on a random subset of its parameters, and its
// training pass against model/forward.cpp, on the model and on the folder it
// is saved as. The finite differences are the independent computation: they
// use only the forward ops.

#include "gradientcheck.h"
#include "learn/backward.h"
#include "learn/modelwriter.h"
#include "learn/rotaryturn.h"
#include "learn/trainer.h"
#include "learn/trainingpass.h"
#include "model/attentionop.h"
#include "model/forward.h"
#include "model/modelloader.h"
#include "model/ops.h"
#include "model/rotary.h"

#include <QTemporaryDir>
#include <QTest>
#include <cmath>

using namespace attn;
using namespace gradientcheck;

namespace {

// A Llama-style recipe as the trainer makes it: head_dim 4, two query heads per key/value head.
ModelConfig tinyLlama(bool tied, int kvHeads = 2)
{
    TrainerSettings s;
    s.family = ModelFamily::Llama;
    s.layers = 2;
    s.heads = 4;
    s.kvHeads = kvHeads;
    s.dModel = 16;
    s.context = 6;
    s.tiedEmbeddings = tied;
    return Trainer::configFor(s, 7);
}

} // namespace

class TestLlamaGradients : public QObject
{
    Q_OBJECT
private slots:
    void linearTransposed()
    {
        // y = x Wᵀ + b with W [out, in] = [3, 5].
        MatD x = randomMatrix(4, 5, 1), w = randomMatrix(3, 5, 2), b = randomMatrix(1, 3, 3);
        const MatD dy = randomMatrix(4, 3, 4);
        auto f = [&] {
            const MatD y = (x * w.transpose()).rowwise() + b.row(0);
            return project(y, dy);
        };
        const LinearGradients<double> g = linearTransposedBackward<double>(x, w, dy);
        COMPARE_GRADIENT(g.input, numericGradient(x, f));
        COMPARE_GRADIENT(g.weight, numericGradient(w, f));
        COMPARE_GRADIENT(g.bias, numericGradient(b, f));
    }

    void rmsNorm_data()
    {
        QTest::addColumn<double>("offset");
        QTest::newRow("centred") << 0.0;
        QTest::newRow("large mean") << 20.0;
    }
    void rmsNorm()
    {
        QFETCH(double, offset);
        MatD x = randomMatrix(3, 6, 5).array() + offset, gain = randomMatrix(1, 6, 6).array() + 1.0;
        const MatD dy = randomMatrix(3, 6, 8);
        auto f = [&] { return project(attn::rmsNorm<double>(x, gain, 1e-5), dy); };
        const LayerNormGradients<double> g = rmsNormBackward<double>(x, gain, 1e-5, dy);
        COMPARE_GRADIENT(g.input, numericGradient(x, f));
        COMPARE_GRADIENT(g.weight, numericGradient(gain, f));
        QCOMPARE(g.bias.size(), Eigen::Index(0));
    }

    // By hand, a head of two values (one pair, frequency theta^0 = 1, so the
    // angle is the position in radians): at position 1, (1, 0) turns to
    // (cos 1, sin 1) = (0.5403023, 0.8414710); at position 2, (0, 1) turns to
    // (-sin 2, cos 2) = (-0.9092974, -0.4161468). Turning back gives the rows again.
    void rotaryByHand()
    {
        RotaryConfig config;
        config.dimensions = 2;
        const RotaryTable<double> table = rotaryTable<double>(config, 3);
        MatD x(3, 2);
        x << 0.5, 0.25, 1, 0, 0, 1;
        MatD turned = x;
        turnHeads(turned, 1, 2, 3, table);
        QCOMPARE(turned.row(0), x.row(0)); // position 0: no turn
        QVERIFY(std::fabs(turned(1, 0) - 0.5403023) < 1e-7 && std::fabs(turned(1, 1) - 0.8414710) < 1e-7);
        QVERIFY(std::fabs(turned(2, 0) + 0.9092974) < 1e-7 && std::fabs(turned(2, 1) + 0.4161468) < 1e-7);
        turnHeads(turned, 1, 2, 3, table, true);
        QVERIFY((turned - x).cwiseAbs().maxCoeff() < 1e-15);
    }

    // The training pass turns q and k exactly as the model code does (model/rotary.cpp), to the bit.
    void rotaryMatchesTheModel()
    {
        RotaryConfig config;
        config.dimensions = 4;
        config.theta = 500000.0;
        const int length = 7, heads = 3;
        const RowMatrix<float> x = randomMatrix(2 * length, heads * 4, 9, 2.0).cast<float>();
        RowMatrix<float> training = x;
        turnHeads(training, heads, 4, length, rotaryTable<float>(config, length));
        for (int s = 0; s < 2; ++s) {
            RowMatrix<float> model = x.middleRows(s * length, length);
            applyRotary(model, heads, 4, 4, rotaryFrequencies(config), 0);
            QVERIFY(model == training.middleRows(s * length, length));
        }
    }

    void rotaryBackward()
    {
        // Two sequences of 5 tokens, 3 heads of 4 values; a small theta so every pair turns visibly.
        RotaryConfig config;
        config.dimensions = 4;
        config.theta = 3.0;
        const RotaryTable<double> table = rotaryTable<double>(config, 5);
        MatD x = randomMatrix(10, 12, 10);
        const MatD dy = randomMatrix(10, 12, 11);
        auto f = [&] {
            MatD y = x;
            turnHeads(y, 3, 4, 5, table);
            return project(y, dy);
        };
        MatD dx = dy;
        turnHeads(dx, 3, 4, 5, table, true);
        COMPARE_GRADIENT(dx, numericGradient(x, f));
    }

    void swiglu()
    {
        MatD gate = randomMatrix(4, 5, 12, 4.0), up = randomMatrix(4, 5, 13); // both tails of SiLU and its bend
        const MatD dy = randomMatrix(4, 5, 14);
        auto f = [&] {
            MatD y = gate;
            activate(y, Activation::Silu);
            return project((y.array() * up.array()).matrix(), dy);
        };
        const GatedGradients<double> g = swigluBackward<double>(gate, up, dy);
        COMPARE_GRADIENT(g.gate, numericGradient(gate, f));
        COMPARE_GRADIENT(g.up, numericGradient(up, f));
    }

    // down(silu(gate(x)) * up(x)), the three layers [out, in], as the training pass chains the backward ops.
    void gatedMlp()
    {
        MatD x = randomMatrix(3, 4, 15), gate = randomMatrix(6, 4, 16), up = randomMatrix(6, 4, 17),
             down = randomMatrix(4, 6, 18);
        const MatD dy = randomMatrix(3, 4, 19);
        auto forward = [&] {
            MatD g = x * gate.transpose();
            activate(g, Activation::Silu);
            return MatD((g.array() * (x * up.transpose()).array()).matrix() * down.transpose());
        };
        auto f = [&] { return project(forward(), dy); };
        const MatD g = x * gate.transpose(), u = x * up.transpose();
        MatD activated = g;
        activate(activated, Activation::Silu);
        activated.array() *= u.array();
        const LinearGradients<double> out = linearTransposedBackward<double>(activated, down, dy);
        const GatedGradients<double> inner = swigluBackward<double>(g, u, out.input);
        const LinearGradients<double> gg = linearTransposedBackward<double>(x, gate, inner.gate);
        const LinearGradients<double> ug = linearTransposedBackward<double>(x, up, inner.up);
        COMPARE_GRADIENT(gg.input + ug.input, numericGradient(x, f));
        COMPARE_GRADIENT(gg.weight, numericGradient(gate, f));
        COMPARE_GRADIENT(ug.weight, numericGradient(up, f));
        COMPARE_GRADIENT(out.weight, numericGradient(down, f));
    }

    void sharedKeyValueHeads_data()
    {
        QTest::addColumn<int>("heads");
        QTest::addColumn<int>("kvHeads");
        QTest::addColumn<bool>("causal");
        QTest::newRow("4 heads, 2 key/value heads, causal") << 4 << 2 << true;
        QTest::newRow("3 heads, 1 key/value head, causal") << 3 << 1 << true;
        QTest::newRow("4 heads, 2 key/value heads, no mask") << 4 << 2 << false;
        QTest::newRow("2 heads, 2 key/value heads, causal") << 2 << 2 << true;
    }
    void sharedKeyValueHeads()
    {
        QFETCH(int, heads);
        QFETCH(int, kvHeads);
        QFETCH(bool, causal);
        const int n = 5, d = 3;
        MatD q = randomMatrix(n, heads * d, 20), k = randomMatrix(n, kvHeads * d, 21),
             v = randomMatrix(n, kvHeads * d, 22);
        const MatD dz = randomMatrix(n, heads * d, 23);
        AttentionSettings s;
        s.heads = heads;
        s.kvHeads = kvHeads;
        s.causal = causal;
        s.scale = 0.5;
        auto f = [&] { return project(attn::attention<double>(q, k, v, s).context, dz); };
        const AttentionOutput<double> out = attn::attention<double>(q, k, v, s);
        const AttentionGradients<double> g = attentionBackward<double>(q, k, v, out.weights, s.scale, dz, kvHeads);
        COMPARE_GRADIENT(g.queries, numericGradient(q, f));
        COMPARE_GRADIENT(g.keys, numericGradient(k, f));
        COMPARE_GRADIENT(g.values, numericGradient(v, f));
    }

    void tokenEmbedding()
    {
        const std::vector<int> ids = {2, 0, 2, 1, 2, 3};
        MatD tokens = randomMatrix(5, 4, 24);
        const MatD dh = randomMatrix(6, 4, 25);
        auto f = [&] {
            MatD h(6, 4);
            for (int i = 0; i < 6; ++i)
                h.row(i) = tokens.row(ids[std::size_t(i)]);
            return project(h, dh);
        };
        MatD dTokens = MatD::Zero(5, 4);
        tokenEmbeddingBackward<double>(ids, dh, dTokens);
        COMPARE_GRADIENT(dTokens, numericGradient(tokens, f));
        QCOMPARE(dTokens.row(4).norm(), 0.0); // token 4 was never used
    }

    void wholeModel_data()
    {
        QTest::addColumn<bool>("tied");
        QTest::addColumn<int>("kvHeads");
        QTest::newRow("separate lm_head, 2 key/value heads") << false << 2;
        QTest::newRow("tied, 1 key/value head") << true << 1;
        QTest::newRow("separate lm_head, 4 key/value heads") << false << 4;
    }
    void wholeModel()
    {
        QFETCH(bool, tied);
        QFETCH(int, kvHeads);
        const ModelConfig c = tinyLlama(tied, kvHeads);
        ModelParameters model = randomModel(c, 40);
        QCOMPARE(model.blocks[0].key.weight.rowCount(), Eigen::Index(4 * kvHeads));
        QCOMPARE(model.untiedUnembedding.rowCount(), Eigen::Index(tied ? 0 : 7));
        const QString problem = wholeModelProblem(model, randomBatch(c, 2, 6, 41), 160, 42);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }

    void matchesModelForward();
};

void TestLlamaGradients::matchesModelForward()
{
    // The training pass is model/forward.cpp's Llama: every head's weights and
    // the last position's next-token probabilities are the same numbers, on
    // the model in memory and on the folder saved from it.
    const ModelConfig c = tinyLlama(false);
    const ModelParameters model = randomModel(c, 43);
    const TrainingBatch batch = randomBatch(c, 1, 6, 44);
    TrainingActivations<float> keep;
    trainingForward<float>(model, batch, keep);
    const RowVector<float> training = softmax<float>(keep.logits.row(5));

    QTemporaryDir tmp;
    const QString folder = tmp.filePath(QStringLiteral("llama"));
    QString error;
    const std::vector<QByteArray> symbols = {"a", "b", "c", "d", "e", "f", kBeginningOfText};
    QVERIFY2(saveModelFolder(model, symbols, {}, folder, &error), qPrintable(error));
    const SharedModelParameters loaded = loadModel(folder, &error);
    QVERIFY2(loaded, qPrintable(error));
    QCOMPARE(loaded->config.modelType, QStringLiteral("llama"));
    QCOMPARE(loaded->config.kvHeads(), 2);
    QVERIFY(!loaded->config.tiedUnembedding);
    QVERIFY(loaded->blocks[0].query.transposed);

    for (const ModelParameters *m : {&model, loaded.get()}) {
        const ModelTrace trace = forward(*m, batch.inputs);
        QVERIFY(trace.nextToken);
        QVERIFY((training - trace.nextToken->probabilities).cwiseAbs().maxCoeff() < 1e-6f);
        for (int l = 0; l < c.layers; ++l)
            for (int h = 0; h < c.heads; ++h)
                QVERIFY2((keep.layers[std::size_t(l)].weights[0][std::size_t(h)] - trace.layers[std::size_t(l)].weights[std::size_t(h)])
                                 .cwiseAbs().maxCoeff() < 1e-6f,
                         qPrintable(QStringLiteral("layer %1 head %2").arg(l).arg(h)));
    }
}

QTEST_APPLESS_MAIN(TestLlamaGradients)
#include "tst_llamagradients.moc"
