// Every Llama-family decoder (llama, mistral, qwen2, qwen3, gemma, gemma2,
// gemma3_text, phi3) against the numbers tests/data/families/make_fixtures.py
// computed in float64 from transformers' published architectures (not from
// this code): the folder's tokens (BOS included), every layer's q, k and v
// (after q/k norms and rotation), scores, weights, hidden states, the
// next-token probabilities, a switched-off head, and typing one more token.
// Each trap of those families (rotate-half pairs, the key/value head of a
// query head, partial rotary, llama3 scaling, Gemma's 1 + w and embedding
// scale, soft-caps, query_pre_attn_scalar, the window's boundary and layers,
// q/k norms before rotation, Qwen's biases, Phi-3's split orders, tied or
// separate unembedding) moves these numbers by more than 1e-3 (the fixture
// script checks that, trap by trap): a wrong implementation fails here.

#include "model/forward.h"
#include "model/incremental.h"
#include "model/modelloader.h"
#include "modelfixtures.h"
#include "tokenizers/tokenizerloader.h"

#include <QTemporaryDir>
#include <QTest>

using namespace attn;

namespace {

QString familyDir(const QString &name) { return QStringLiteral(ATTN_TEST_DATA "/families/") + name; }

// A copy of a fixture folder with config.json's fields changed and tensors edited.
QString variant(const QTemporaryDir &dir, const QString &from, const QJsonObject &configChanges,
                const std::function<void(std::vector<fixtures::Tensor> &)> &editTensors = {})
{
    const QString path = dir.filePath(QStringLiteral("variant"));
    QDir().mkpath(path);
    if (!fixtures::copyInto(familyDir(from), path))
        qFatal("cannot copy %s", qPrintable(from));
    QJsonObject config = fixtures::readJson(path + QStringLiteral("/config.json"));
    for (auto it = configChanges.begin(); it != configChanges.end(); ++it)
        config.insert(it.key(), it.value());
    QFile out(path + QStringLiteral("/config.json"));
    out.open(QIODevice::WriteOnly | QIODevice::Truncate);
    out.write(QJsonDocument(config).toJson());
    out.close();
    if (editTensors) {
        QString error;
        std::vector<fixtures::Tensor> tensors;
        {
            const std::optional<SafetensorsFile> file = SafetensorsFile::open(path + QStringLiteral("/model.safetensors"), &error);
            if (!file)
                qFatal("%s", qPrintable(error));
            tensors = fixtures::tensorsOf(*file);
        }
        editTensors(tensors);
        QFile weights(path + QStringLiteral("/model.safetensors"));
        weights.open(QIODevice::WriteOnly | QIODevice::Truncate);
        weights.write(fixtures::safetensorsBytes(tensors));
    }
    return path;
}

const QJsonObject &expectedAll()
{
    static const QJsonObject all = fixtures::readJson(QStringLiteral(ATTN_TEST_DATA "/families/expected.json"));
    return all;
}

// Float32 maths against a float64 reference on values of order 1.
constexpr double kTol = 2e-5;
// Raw scores reach 50 in these models (phi3's largest): float32 carries
// about 7 significant digits of numbers that large, and each score is a
// product of q and k that already carry the rounding of every layer before.
constexpr double kScoreTol = 5e-5;

} // namespace

class TestFamilies : public QObject
{
    Q_OBJECT

private slots:
    void matchTheReference_data()
    {
        QTest::addColumn<QString>("caseName");
        QTest::addColumn<QString>("folder");
        const QJsonObject cases = expectedAll().value(QLatin1String("cases")).toObject();
        for (auto c = cases.begin(); c != cases.end(); ++c) {
            const QJsonObject folders = c.value().toObject().value(QLatin1String("folders")).toObject();
            for (auto f = folders.begin(); f != folders.end(); ++f)
                QTest::newRow(qPrintable(f.key() + QStringLiteral(" (") + f.value().toString() + QLatin1Char(')')))
                    << c.key() << f.key();
        }
    }

    void matchTheReference()
    {
        QFETCH(QString, caseName);
        QFETCH(QString, folder);
        const QJsonObject e = expectedAll().value(QLatin1String("cases")).toObject().value(caseName).toObject();
        const QJsonObject shape = e.value(QLatin1String("model")).toObject();
        QString error;
        const SharedModelParameters model = loadModel(familyDir(folder), &error);
        QVERIFY2(model, qPrintable(error));
        const ModelConfig &c = model->config;
        QCOMPARE(c.modelType, shape.value(QLatin1String("type")).toString());
        QCOMPARE(c.layers, shape.value(QLatin1String("layers")).toInt());
        QCOMPARE(c.heads, shape.value(QLatin1String("heads")).toInt());
        QCOMPARE(c.kvHeads(), shape.value(QLatin1String("kv_heads")).toInt());
        QCOMPARE(c.headDim(), shape.value(QLatin1String("head_dim")).toInt());
        QCOMPARE(c.rotary.dimensions, shape.value(QLatin1String("rotary_dims")).toInt());
        const QJsonArray windows = shape.value(QLatin1String("windows")).toArray();
        for (int l = 0; l < c.layers; ++l)
            QCOMPARE(c.windowOf(l), windows[l].isNull() ? 0 : windows[l].toInt());

        // The folder's own tokenizer gives the reference's ids, BOS exactly as configured.
        const TokenizerPtr tokenizer = loadTokenizerFromFolder(familyDir(folder), c.modelType, &error);
        QVERIFY2(tokenizer, qPrintable(error));
        const std::vector<int> ids = fixtures::ids(e.value(QLatin1String("token_ids")));
        QCOMPARE(tokenizer->encodeIds(expectedAll().value(QLatin1String("text")).toString()), ids);

        const ModelTrace trace = forward(*model, ids);
        const QJsonArray layers = e.value(QLatin1String("layers")).toArray();
        const QJsonArray hidden = e.value(QLatin1String("hidden")).toArray();
        QCOMPARE(int(trace.layers.size()), layers.size());
        COMPARE_NEAR(trace.hidden[0], fixtures::matrix(hidden[0]), kTol);
        for (int l = 0; l < c.layers; ++l) {
            const QJsonObject layer = layers[l].toObject();
            const LayerTrace &t = trace.layers[std::size_t(l)];
            COMPARE_NEAR(t.queries, fixtures::matrix(layer.value(QLatin1String("queries"))), kTol);
            COMPARE_NEAR(t.keys, fixtures::matrix(layer.value(QLatin1String("keys"))), kTol);
            COMPARE_NEAR(t.values, fixtures::matrix(layer.value(QLatin1String("values"))), kTol);
            const QJsonArray heads = layer.value(QLatin1String("heads")).toArray();
            for (int h = 0; h < c.heads; ++h) {
                const RowMatrix<double> weights = fixtures::matrix(heads[h].toObject().value(QLatin1String("weights")));
                COMPARE_NEAR(t.weights[std::size_t(h)], weights, kTol);
                COMPARE_NEAR(t.scores[std::size_t(h)], fixtures::matrix(heads[h].toObject().value(QLatin1String("scores"))),
                             kScoreTol);
                // Masked (causal, or outside the window) is exactly 0.
                for (Eigen::Index i = 0; i < weights.rows(); ++i)
                    for (Eigen::Index j = 0; j < weights.cols(); ++j)
                        if (weights(i, j) == 0.0)
                            QCOMPARE(t.weights[std::size_t(h)](i, j), 0.0f);
            }
            COMPARE_NEAR(trace.hidden[std::size_t(l) + 1], fixtures::matrix(hidden[l + 1]), 1e-4);
        }
        QVERIFY(trace.nextToken);
        const QJsonObject next = e.value(QLatin1String("next_token")).toObject();
        QCOMPARE(trace.nextToken->position, next.value(QLatin1String("position")).toInt());
        COMPARE_NEAR(trace.nextToken->probabilities, fixtures::matrix(next.value(QLatin1String("probabilities"))), kTol);

        // One query head switched off: its group partner keeps the shared key/value head.
        const QJsonObject ablated = e.value(QLatin1String("ablated")).toObject();
        ForwardOptions off;
        off.ablatedHeads = {{ablated.value(QLatin1String("layer")).toInt(), ablated.value(QLatin1String("head")).toInt()}};
        const ModelTrace without = forward(*model, ids, off);
        COMPARE_NEAR(without.hidden.back(), fixtures::matrix(ablated.value(QLatin1String("hidden"))), 1e-4);
        COMPARE_NEAR(without.nextToken->probabilities,
                     fixtures::matrix(ablated.value(QLatin1String("next_token")).toObject().value(QLatin1String("probabilities"))),
                     kTol);

        // Typing: the text less its last three tokens, extended, gives the same
        // numbers (the new rows' rotation starts at their own positions), up
        // to float's rounding of products over 3 rows instead of all of them.
        const std::vector<int> start(ids.begin(), ids.end() - 3);
        const ModelTrace before = forward(*model, start);
        QCOMPARE(reusablePrefix(*model, before, ids, {}), int(start.size()));
        const ModelTrace typed = extendTrace(*model, before, ids);
        for (int l = 0; l < c.layers; ++l)
            for (int h = 0; h < c.heads; ++h)
                COMPARE_NEAR(typed.layers[std::size_t(l)].weights[std::size_t(h)],
                             RowMatrix<double>(trace.layers[std::size_t(l)].weights[std::size_t(h)].cast<double>()), 1e-5);
        COMPARE_NEAR(typed.nextToken->probabilities, RowMatrix<double>(trace.nextToken->probabilities.cast<double>()),
                     1e-5);
    }

    // Folders that cannot be used are refused with one line naming the file
    // and the tensor (the config's own faults: tst_familyconfig).
    void badFolders_data()
    {
        QTest::addColumn<QString>("from");
        QTest::addColumn<QJsonObject>("config");
        QTest::addColumn<QString>("message");
        QTest::newRow("q/k norms asked for, not in the file")
            << "llama" << QJsonObject{{QStringLiteral("model_type"), QStringLiteral("qwen3")}}
            << "model.safetensors: no tensor \"model.layers.0.self_attn.q_norm.weight\"";
        QTest::newRow("head_dim times heads against the tensors")
            << "llama" << QJsonObject{{QStringLiteral("head_dim"), 8}}
            << "model.safetensors: tensor \"model.layers.0.self_attn.q_proj.weight\": shape [24, 20], expected [32, 20]";
        QTest::newRow("key/value heads against the tensors")
            << "llama" << QJsonObject{{QStringLiteral("num_key_value_heads"), 4}}
            << "model.safetensors: tensor \"model.layers.0.self_attn.k_proj.weight\": shape [12, 20], expected [24, 20]";
        QTest::newRow("untied, no lm_head")
            << "qwen2" << QJsonObject{{QStringLiteral("tie_word_embeddings"), false}}
            << "model.safetensors: no tensor \"lm_head.weight\"";
        QTest::newRow("not this family's tensors")
            << "llama" << QJsonObject{{QStringLiteral("model_type"), QStringLiteral("gpt2")}, {QStringLiteral("n_layer"), 2},
                                      {QStringLiteral("n_head"), 4}, {QStringLiteral("n_embd"), 20},
                                      {QStringLiteral("n_positions"), 64}}
            << "model.safetensors: no tensor \"wte.weight\" (nor \"transformer.wte.weight\"): not a checkpoint of this family";
    }
    void badFolders()
    {
        QFETCH(QString, from);
        QFETCH(QJsonObject, config);
        QFETCH(QString, message);
        QTemporaryDir dir;
        QString error;
        QVERIFY(!loadModel(variant(dir, from, config), &error));
        QCOMPARE(error, message);
    }

    // An embedding larger than the tokenizer is normal (Qwen's has room to
    // spare, and the qwen2 folder too); one smaller is not: a text that needs
    // an id past it is refused, naming the token.
    void tokensPastTheEmbedding()
    {
        QTemporaryDir dir;
        const int rows = 280;
        const QString path = variant(dir, QStringLiteral("qwen2"), {{QStringLiteral("vocab_size"), rows}},
                                     [&](std::vector<fixtures::Tensor> &tensors) {
                                         for (fixtures::Tensor &t : tensors)
                                             if (t.name == QLatin1String("model.embed_tokens.weight")) {
                                                 t.bytes.truncate(int(t.bytes.size() / t.shape[0] * rows));
                                                 t.shape[0] = rows;
                                             }
                                     });
        QString error;
        const SharedModelParameters model = loadModel(path, &error);
        QVERIFY2(model, qPrintable(error));
        const TokenizerPtr tokenizer = loadTokenizerFromFolder(path, model->config.modelType, &error);
        QVERIFY2(tokenizer, qPrintable(error));
        QVERIFY(tokenizer->vocabSize() > rows);
        const std::vector<ModelToken> tokens = tokenizer->encode(expectedAll().value(QLatin1String("text")).toString());
        const QString problem = unknownTokenProblem(tokens, rows);
        QVERIFY2(problem.contains(QStringLiteral("is not one of the model's 280 tokens")), qPrintable(problem));
        // A text within the embedding works.
        QVERIFY(unknownTokenProblem(tokenizer->encode(QStringLiteral("T")), rows).isEmpty());
    }

    // F16 and BF16 weights stay as stored (converted a band at a time when
    // used): no float copy of the model is resident.
    void halfWeightsStayStored()
    {
        QString error;
        for (const auto &[folder, type] : {std::pair{"llama-bf16", "BF16"}, std::pair{"llama-f16", "F16"}}) {
            const SharedModelParameters model = loadModel(familyDir(QLatin1String(folder)), &error);
            QVERIFY2(model, qPrintable(error));
            QVERIFY(model->tokenEmbedding.isStored());
            QVERIFY(model->blocks[0].query.weight.isStored());
            QVERIFY(model->blocks[1].mlpOut.weight.isStored());
            QCOMPARE(model->storedType, QLatin1String(type));
        }
        const SharedModelParameters f32 = loadModel(familyDir(QStringLiteral("llama")), &error);
        QVERIFY(f32 && f32->blocks[0].query.weight.isMapped());
        QCOMPARE(f32->storedType, QStringLiteral("F32"));
    }
};

QTEST_APPLESS_MAIN(TestFamilies)
#include "tst_families.moc"
