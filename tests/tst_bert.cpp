// BERT end to end on the tiny checkpoints of tests/data/models: F32 with the
// "bert." prefix, the MLM head, the pooler and buffers; BF16; F16 with the
// old gamma/beta names and no MLM head. Expected numbers from the independent
// numpy reference (make_fixtures.py).

#include "modelfixtures.h"

#include "model/denseops.h"
#include "model/forward.h"
#include "model/modelloader.h"
#include "model/ops.h"

#include <QTemporaryDir>
#include <QTest>

using namespace attn;
using fixtures::difference;
using fixtures::matrix;


namespace {

constexpr double kTol = 2e-5;

SharedModelParameters load(const char *name)
{
    QString error;
    SharedModelParameters p = loadModel(fixtures::modelDir(name), &error);
    if (!p)
        qWarning("%s", qPrintable(error));
    return p;
}

QByteArray fixtureConfig()
{
    QFile f(fixtures::modelDir("bert-f32") + QStringLiteral("/config.json"));
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

using Change = std::function<void(std::vector<fixtures::Tensor> &)>;
Q_DECLARE_METATYPE(Change)

class TestBert : public QObject
{
    Q_OBJECT

    QJsonObject m_expected;
    std::vector<int> m_ids;
    ForwardOptions m_options;

private slots:
    void initTestCase()
    {
        m_expected = fixtures::expected("bert");
        m_ids = fixtures::ids(m_expected.value(QLatin1String("token_ids")));
        m_options.maskTokenId = m_expected.value(QLatin1String("mask_token_id")).toInt();
        QCOMPARE(m_options.maskTokenId, 4);
    }

    void forwardMatchesReference_data()
    {
        QTest::addColumn<QString>("folder");
        QTest::addColumn<bool>("mlmHead");
        QTest::newRow("F32, bert. prefix, MLM head, pooler, position_ids") << "bert-f32" << true;
        QTest::newRow("BF16, bert. prefix, MLM head") << "bert-bf16" << true;
        QTest::newRow("F16, gamma/beta names, no MLM head") << "bert-f16-gamma-beta" << false;
    }
    void forwardMatchesReference()
    {
        QFETCH(QString, folder);
        QFETCH(bool, mlmHead);
        const SharedModelParameters model = load(qPrintable(folder));
        QVERIFY(model);
        QCOMPARE(model->config.modelType, QStringLiteral("bert"));
        QCOMPARE(model->mlm.has_value(), mlmHead);
        const ModelTrace trace = forward(*model, m_ids, m_options);
        const QJsonArray layers = m_expected.value(QLatin1String("layers")).toArray();
        QCOMPARE(int(trace.layers.size()), layers.size());
        for (int l = 0; l < layers.size(); ++l) {
            const QJsonObject el = layers[l].toObject();
            const LayerTrace &t = trace.layers[std::size_t(l)];
            COMPARE_NEAR(t.queries, matrix(el[QLatin1String("q")]), kTol);
            COMPARE_NEAR(t.keys, matrix(el[QLatin1String("k")]), kTol);
            COMPARE_NEAR(t.values, matrix(el[QLatin1String("v")]), kTol);
            COMPARE_NEAR(t.context, matrix(el[QLatin1String("context")]), kTol);
            const QJsonArray heads = el[QLatin1String("heads")].toArray();
            QCOMPARE(int(t.weights.size()), 4);
            for (int h = 0; h < heads.size(); ++h) {
                COMPARE_NEAR(t.weights[std::size_t(h)], matrix(heads[h].toObject()[QLatin1String("weights")]), kTol);
                COMPARE_NEAR(t.scores[std::size_t(h)], matrix(heads[h].toObject()[QLatin1String("scores")]), kTol);
            }
        }
        const QJsonArray hidden = m_expected.value(QLatin1String("hidden")).toArray();
        for (int i = 0; i < hidden.size(); ++i)
            COMPARE_NEAR(trace.hidden[std::size_t(i)], matrix(hidden[i]), kTol);
        QVERIFY(!trace.nextToken); // not a causal language model

        const QJsonArray masks = m_expected.value(QLatin1String("mask")).toArray();
        QCOMPARE(int(trace.maskPredictions.size()), mlmHead ? masks.size() : 0);
        for (std::size_t i = 0; i < trace.maskPredictions.size(); ++i) {
            const QJsonObject em = masks[int(i)].toObject();
            const TokenPrediction &p = trace.maskPredictions[i];
            QCOMPARE(p.position, em[QLatin1String("position")].toInt());
            COMPARE_NEAR(p.probabilities, matrix(em[QLatin1String("probabilities")]), 1e-6);
            const auto top = topPredictions(p.probabilities, 5);
            const std::vector<int> expectedTop = fixtures::ids(em[QLatin1String("top")]);
            for (std::size_t k = 0; k < top.size(); ++k)
                QCOMPARE(top[k].first, expectedTop[k]);
        }
    }

    // No mask: every query sees every key, later ones included.
    void noCausalMask()
    {
        const SharedModelParameters model = load("bert-f32");
        QVERIFY(model);
        const ModelTrace trace = forward(*model, m_ids);
        for (const LayerTrace &t : trace.layers)
            for (const RowMatrix<float> &w : t.weights) {
                QVERIFY(w.minCoeff() > 0.0f);
                QVERIFY((w.rowwise().sum().array() - 1.0f).abs().maxCoeff() < 1e-6f);
            }
    }

    // nn.Linear [out, in], kept as the file holds it and used as y = x Wᵀ:
    // the 20 x 12 intermediate.dense stays 20 x 12 (BF16, converted when
    // used), and the square key weight is not transposed (its shape alone
    // could not tell: the numbers below do).
    void linearWeightsKeptAsStored()
    {
        const SharedModelParameters model = load("bert-bf16");
        QVERIFY(model);
        const QJsonObject tensors = m_expected.value(QLatin1String("tensors")).toObject();
        const RowMatrix<double> inter = matrix(tensors[QLatin1String("encoder.layer.1.intermediate.dense.weight")]);
        const RowMatrix<double> key = matrix(tensors[QLatin1String("encoder.layer.0.attention.self.key.weight")]);
        QCOMPARE(inter.rows(), 20);
        const auto asFloats = [](const DenseParameters &p) {
            RowMatrix<float> w(p.weight.rowCount(), p.weight.colCount());
            p.weight.toFloat(0, w.rows(), w.data());
            return w;
        };
        QVERIFY(model->blocks[1].mlpIn.transposed);
        QVERIFY(model->blocks[1].mlpIn.weight.isStored());
        COMPARE_NEAR(asFloats(model->blocks[1].mlpIn), inter, 0.0);
        COMPARE_NEAR(asFloats(model->blocks[0].key), key, 0.0);
        QVERIFY(fixtures::largestDifference(asFloats(model->blocks[0].key), RowMatrix<double>(key.transpose())) > 0.1);
    }

    void wrongConventionsMissTheReference_data()
    {
        QTest::addColumn<int>("which");
        QTest::newRow("gelu_new instead of erf GELU") << 0;
        QTest::newRow("epsilon 1e-12 instead of the config's 0.02") << 1;
        QTest::newRow("causal mask") << 2;
    }
    void wrongConventionsMissTheReference()
    {
        QFETCH(int, which);
        const SharedModelParameters model = load("bert-f32");
        QVERIFY(model);
        ModelParameters wrong = *model;
        if (which == 0)
            wrong.config.activation = Activation::GeluTanh;
        else if (which == 1)
            wrong.config.normEpsilon = 1e-12;
        else
            wrong.config.causal = true;
        const ModelTrace trace = forward(wrong, m_ids);
        const RowMatrix<double> last = matrix(m_expected.value(QLatin1String("hidden")).toArray().last());
        QVERIFY2(fixtures::largestDifference(trace.hidden.back(), last) > 10 * kTol,
                 qPrintable(QString::number(fixtures::largestDifference(trace.hidden.back(), last))));
    }

    // Post-LayerNorm: h = LN(h + attention(h)), h = LN(h + MLP(h)). The
    // same ops in GPT-2's pre-LN order miss the reference.
    void postLayerNorm()
    {
        const SharedModelParameters model = load("bert-f32");
        QVERIFY(model);
        const ModelTrace trace = forward(*model, m_ids);
        const BlockParameters &b = model->blocks[0];
        const double eps = model->config.normEpsilon;
        const RowMatrix<float> &x = trace.hidden[0];
        const RowMatrix<float> attnOut = dense(trace.layers[0].context, b.attentionOutput);
        const auto mlpOf = [&](const RowMatrix<float> &in) {
            RowMatrix<float> inner = dense(in, b.mlpIn);
            activate(inner, Activation::GeluErf);
            return RowMatrix<float>(dense(inner, b.mlpOut));
        };
        RowMatrix<float> post = layerNorm<float>(RowMatrix<float>(x + attnOut), b.norm1.weight, b.norm1.bias, eps);
        post = layerNorm<float>(RowMatrix<float>(post + mlpOf(post)), b.norm2.weight, b.norm2.bias, eps);
        RowMatrix<float> pre = x + attnOut;
        pre += mlpOf(layerNorm<float>(pre, b.norm2.weight, b.norm2.bias, eps));
        const RowMatrix<double> expected = matrix(m_expected.value(QLatin1String("hidden")).toArray()[1]);
        COMPARE_NEAR(post, expected, kTol);
        QVERIFY(fixtures::largestDifference(pre, expected) > 0.1);
    }

    void ablation()
    {
        const SharedModelParameters model = load("bert-f32");
        QVERIFY(model);
        ForwardOptions options = m_options;
        options.ablatedHeads.insert(LayerHead{1, 3});
        const ModelTrace base = forward(*model, m_ids, m_options), off = forward(*model, m_ids, options);
        QCOMPARE(off.hidden[1], base.hidden[1]);
        QCOMPARE(off.layers[1].weights[3], base.layers[1].weights[3]);
        QCOMPARE(off.layers[1].headContext(3).cwiseAbs().maxCoeff(), 0.0f);
        QVERIFY(off.hidden[2] != base.hidden[2]);
        QVERIFY(off.maskPredictions[0].probabilities != base.maskPredictions[0].probabilities);
    }

    void noMaskTokenNoPredictions()
    {
        const SharedModelParameters model = load("bert-f32");
        QVERIFY(model);
        QVERIFY(forward(*model, m_ids).maskPredictions.empty()); // maskTokenId not given
        ForwardOptions options = m_options;
        options.maskTokenId = 29; // not in the input
        QVERIFY(forward(*model, m_ids, options).maskPredictions.empty());
    }

    void brokenTensors_data()
    {
        QTest::addColumn<Change>("change");
        QTest::addColumn<QString>("message");
        using T = std::vector<fixtures::Tensor>;
        const QString p = QStringLiteral("model.safetensors: ");
        auto remove = [](const char *name) {
            return Change([name](T &ts) {
                ts.erase(std::remove_if(ts.begin(), ts.end(), [&](const auto &t) { return t.name == QLatin1String(name); }),
                         ts.end());
            });
        };
        auto edit = [](const char *name, std::function<void(fixtures::Tensor &)> f) {
            return Change([name, f](T &ts) {
                for (auto &t : ts)
                    if (t.name == QLatin1String(name))
                        f(t);
            });
        };
        QTest::newRow("missing output LayerNorm")
            << remove("bert.encoder.layer.1.output.LayerNorm.weight")
            << p + "no tensor \"bert.encoder.layer.1.output.LayerNorm.weight\"";
        QTest::newRow("missing token types") << remove("bert.embeddings.token_type_embeddings.weight")
                                             << p + "no tensor \"bert.embeddings.token_type_embeddings.weight\"";
        QTest::newRow("intermediate stored [in, out]")
            << edit("bert.encoder.layer.0.intermediate.dense.weight", [](auto &t) { t = fixtures::transposed(t); })
            << p + "tensor \"bert.encoder.layer.0.intermediate.dense.weight\": shape [12, 20], expected [20, 12]";
        QTest::newRow("output.dense stored [in, out]")
            << edit("bert.encoder.layer.1.output.dense.weight", [](auto &t) { t = fixtures::transposed(t); })
            << p + "tensor \"bert.encoder.layer.1.output.dense.weight\": shape [20, 12], expected [12, 20]";
        QTest::newRow("MLM bias too short")
            << edit("cls.predictions.bias", [](auto &t) { t.shape = {30}; t.bytes.chop(4); })
            << p + "tensor \"cls.predictions.bias\": shape [30], expected [31]";
        QTest::newRow("MLM head without its LayerNorm") << remove("cls.predictions.transform.LayerNorm.bias")
                                                        << p + "no tensor \"cls.predictions.transform.LayerNorm.bias\"";
        QTest::newRow("integer query bias")
            << edit("bert.encoder.layer.0.attention.self.query.bias", [](auto &t) { t.dtype = QStringLiteral("I32"); })
            << p + "tensor \"bert.encoder.layer.0.attention.self.query.bias\": dtype I32 cannot be read as floating-point numbers";
        QTest::newRow("GPT-2 names")
            << Change([](T &ts) {
                   for (auto &t : ts)
                       t.name.replace(QLatin1String("bert.embeddings.word_embeddings"), QLatin1String("wte"));
               })
            << p + "no tensor \"embeddings.word_embeddings.weight\" (nor \"bert.embeddings.word_embeddings.weight\"): "
                   "not a checkpoint of this family";
    }
    void brokenTensors()
    {
        QFETCH(Change, change);
        QFETCH(QString, message);
        QString error;
        auto file = SafetensorsFile::open(fixtures::modelDir("bert-f32") + QStringLiteral("/model.safetensors"), &error);
        QVERIFY2(file, qPrintable(error));
        std::vector<fixtures::Tensor> tensors = fixtures::tensorsOf(*file);
        change(tensors);
        QTemporaryDir dir;
        QFile c(dir.filePath(QStringLiteral("config.json"))), w(dir.filePath(QStringLiteral("model.safetensors")));
        QVERIFY(c.open(QIODevice::WriteOnly) && c.write(fixtureConfig()) > 0);
        QVERIFY(w.open(QIODevice::WriteOnly) && w.write(fixtures::safetensorsBytes(tensors)) > 0);
        c.close();
        w.close();
        QVERIFY(!loadModel(dir.path(), &error));
        QCOMPARE(error, message);
    }
};

QTEST_GUILESS_MAIN(TestBert)
#include "tst_bert.moc"
