// Training the Llama-style block: one whole step against a case worked by
// hand, the beginning token before every sequence, the same seed giving the
// same weights, a short run that learns, the folder it saves (config.json as
// LlamaConfig writes it, the tokenizer the program's llama path reads, the
// same weights and numbers back), and bad settings refused with one line.

#include "learn/modelwriter.h"
#include "learn/tasks.h"
#include "learn/trainer.h"
#include "model/forward.h"
#include "model/modelloader.h"
#include "tokenizers/tokenizerloader.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>
#include <cstring>

using namespace attn;

namespace {

bool sameBits(const ModelParameters &a, const ModelParameters &b)
{
    ModelParameters x = a, y = b;
    const std::vector<ParameterTensor> ta = parameterTensors(x), tb = parameterTensors(y);
    if (ta.size() != tb.size())
        return false;
    for (std::size_t i = 0; i < ta.size(); ++i)
        if (ta[i].name != tb[i].name || ta[i].rows != tb[i].rows || ta[i].cols != tb[i].cols
            || std::memcmp(ta[i].data, tb[i].data, sizeof(float) * std::size_t(ta[i].rows * ta[i].cols)) != 0)
            return false;
    return true;
}

TrainingTask task(TaskKind kind, int symbols)
{
    QString error;
    std::optional<TrainingTask> t = TrainingTask::synthetic(kind, symbols, &error);
    if (!t)
        qFatal("%s", qPrintable(error));
    return *t;
}

TrainerSettings llamaSettings()
{
    TrainerSettings s;
    s.family = ModelFamily::Llama;
    s.layers = 2;
    s.heads = 4;
    s.kvHeads = 2;
    s.dModel = 32;
    s.context = 12;
    s.batch = 16;
    s.steps = 20;
    s.warmupSteps = 10;
    return s;
}

QJsonObject jsonFile(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QJsonDocument::fromJson(f.readAll()).object() : QJsonObject();
}

} // namespace

class TestLlamaTraining : public QObject
{
    Q_OBJECT
private slots:
    void wholeStepByHand();

    void recipe()
    {
        const ModelConfig c = Trainer::configFor(llamaSettings(), 9);
        QCOMPARE(c.modelType, QStringLiteral("llama"));
        QCOMPARE(c.kvHeads(), 2);
        QCOMPARE(c.headDim(), 8);
        QCOMPARE(c.dFF, 96); // 8 * 32 / 3 = 85.3, up to a multiple of 16
        QVERIFY(c.norm == NormKind::RmsNorm && c.positionKind == PositionKind::Rotary && c.mlp == MlpKind::Gated);
        QCOMPARE(c.rotary.dimensions, 8);
        QVERIFY(!c.queryKeyValueBias && !c.outputBias && !c.mlpBias && !c.tiedUnembedding);
        ModelParameters m = Trainer::initialModel(c, 1);
        QCOMPARE(m.blocks[0].key.weight.rowCount(), Eigen::Index(16)); // [kv_heads * head_dim, d_model]
        QCOMPARE(m.blocks[0].key.weight.colCount(), Eigen::Index(32));
        QVERIFY(m.blocks[0].key.transposed && m.blocks[0].key.bias.size() == 0);
        QCOMPARE(m.positionEmbedding.rowCount(), Eigen::Index(0));
        QCOMPARE(m.untiedUnembedding.rowCount(), Eigen::Index(9));
    }

    // Every sequence starts with the beginning token, then the task as it
    // would be without it: copy's "x1..x5 = y1..y5" fits 11 tokens after it.
    void beginningBeforeEverySequence()
    {
        const TrainingTask plain = task(TaskKind::Copy, 4), begun = plain.startingWith(kBeginningOfText);
        QCOMPARE(begun.vocab(), 6);
        QCOMPARE(begun.beginning(), 5);
        QCOMPARE(begun.symbols().back(), QByteArray(kBeginningOfText));
        QCOMPARE(begun.chance(), plain.chance());
        SplitMix64 rng(3);
        const TrainingBatch b = begun.batch(rng, 3, 12);
        for (int s = 0; s < 3; ++s) {
            const int *in = b.inputs.data() + s * 12, *out = b.targets.data() + s * 12;
            QCOMPARE(in[0], 5);
            QCOMPARE(b.weights[std::size_t(s * 12)], 0.0f); // the task's first token: nothing predicts it
            QCOMPARE(in[6], 4);                              // the separator after five symbols
            for (int i = 1; i < 6; ++i) {
                QVERIFY(in[i] >= 0 && in[i] < 4);
                QCOMPARE(out[i + 5], in[i]); // copied after the separator
                QCOMPARE(b.weights[std::size_t(s * 12 + i + 5)], 1.0f);
            }
            for (int i = 0; i + 1 < 12; ++i)
                QCOMPARE(out[i], in[i + 1]);
        }
        // The trainer of the llama family trains on it; GPT-2's does not.
        QCOMPARE(Trainer(plain, llamaSettings()).task().beginning(), 5);
        TrainerSettings gpt2 = llamaSettings();
        gpt2.family = ModelFamily::Gpt2;
        gpt2.kvHeads = 0;
        QCOMPARE(Trainer(plain, gpt2).task().beginning(), -1);
    }

    void sameSeedSameWeights()
    {
        const TrainerSettings s = llamaSettings();
        Trainer a(task(TaskKind::Induction, 8), s), b(task(TaskKind::Induction, 8), s);
        a.run(nullptr, {});
        b.run(nullptr, {});
        QCOMPARE(a.stepsDone(), 20);
        QVERIFY(sameBits(a.model(), b.model()));
        QVERIFY(!sameBits(a.model(), Trainer::initialModel(a.model().config, s.seed)));
        TrainerSettings other = s;
        other.seed = 2;
        Trainer c(task(TaskKind::Induction, 8), other);
        c.run(nullptr, {});
        QVERIFY(!sameBits(a.model(), c.model()));
    }

    // 300 steps of reversing 6 symbols of 8, as tst_training's GPT-2 does: the
    // loss on the reversed half starts near ln 8 = 2.08 and must fall below a
    // third of its first report's value.
    void reverseLossFalls()
    {
        TrainerSettings s = llamaSettings();
        s.steps = 300;
        s.learningRate = 3e-3;
        s.warmupSteps = 30;
        s.reportEvery = 25;
        s.context = 14; // the beginning token and 13 of the task's
        Trainer t(task(TaskKind::Reverse, 8), s);
        std::vector<TrainingReport> reports;
        const TrainingOutcome o = t.run(nullptr, [&](const TrainingReport &r) { reports.push_back(r); });
        QCOMPARE(o.steps, 300);
        qInfo("llama reverse: loss %.3f -> %.3f, accuracy %.3f -> %.3f, %.0f steps/s", reports.front().loss,
              reports.back().loss, reports.front().accuracy, reports.back().accuracy, o.stepsPerSecond);
        QVERIFY(reports.front().loss > 1.8);
        QVERIFY(reports.back().loss < reports.front().loss / 3);
        QVERIFY(reports.back().accuracy > 0.8);
    }

    void savedFolder_data()
    {
        QTest::addColumn<bool>("tied");
        QTest::newRow("separate lm_head") << false;
        QTest::newRow("tied") << true;
    }
    void savedFolder()
    {
        QFETCH(bool, tied);
        TrainerSettings s = llamaSettings();
        s.tiedEmbeddings = tied;
        Trainer t(task(TaskKind::Copy, 6), s);
        t.run(nullptr, {});
        QTemporaryDir tmp;
        const QString dir = tmp.filePath(QStringLiteral("model"));
        QString error;
        QVERIFY2(saveModelFolder(t.model(), t.task().symbols(), {}, dir, &error), qPrintable(error));
        QCOMPARE(QDir(dir).entryList(QDir::Files),
                 (QStringList{"config.json", "model.safetensors", "tokenizer.json", "tokenizer_config.json"}));

        const QJsonObject config = jsonFile(dir + QStringLiteral("/config.json"));
        QCOMPARE(config.value("model_type").toString(), QStringLiteral("llama"));
        QCOMPARE(config.value("architectures").toArray().first().toString(), QStringLiteral("LlamaForCausalLM"));
        QCOMPARE(config.value("num_attention_heads").toInt(), 4);
        QCOMPARE(config.value("num_key_value_heads").toInt(), 2);
        QCOMPARE(config.value("hidden_size").toInt(), 32);
        QCOMPARE(config.value("head_dim").toInt(), 8);
        QCOMPARE(config.value("intermediate_size").toInt(), 96);
        QCOMPARE(config.value("vocab_size").toInt(), 8);
        QCOMPARE(config.value("max_position_embeddings").toInt(), 12);
        QCOMPARE(config.value("hidden_act").toString(), QStringLiteral("silu"));
        QCOMPARE(config.value("rms_norm_eps").toDouble(), 1e-5);
        QCOMPARE(config.value("rope_theta").toDouble(), 10000.0);
        QCOMPARE(config.value("tie_word_embeddings").toBool(), tied);
        QCOMPARE(config.value("bos_token_id").toInt(), 7);
        QVERIFY(config.value("eos_token_id").isNull());
        for (const char *key : {"attention_bias", "mlp_bias"})
            QCOMPARE(config.value(key).toBool(true), false);

        const SharedModelParameters loaded = loadModel(dir, &error);
        QVERIFY2(loaded, qPrintable(error));
        QVERIFY(sameBits(*loaded, t.model()));
        QCOMPARE(loaded->config.tiedUnembedding, tied);

        // The tokenizer: the beginning token first, then one token per symbol, "=" the separator.
        const TokenizerPtr tokenizer = loadTokenizerFromFolder(dir, QStringLiteral("llama"), &error);
        QVERIFY2(tokenizer, qPrintable(error));
        QCOMPARE(tokenizer->encodeIds(QStringLiteral("fab=fab")), (std::vector<int>{7, 5, 0, 1, 6, 5, 0, 1}));
        QCOMPARE(tokenizer->idToText(7), QString::fromLatin1(kBeginningOfText));
        const std::vector<int> ids = {7, 5, 0, 1, 6, 5};
        const ModelTrace before = forward(t.model(), ids), after = forward(*loaded, ids);
        QCOMPARE(before.nextToken->probabilities, after.nextToken->probabilities);
    }

    void badSettings_data()
    {
        QTest::addColumn<int>("family");
        QTest::addColumn<int>("heads");
        QTest::addColumn<int>("kvHeads");
        QTest::addColumn<int>("dModel");
        QTest::addColumn<QString>("message");
        QTest::newRow("kv heads not dividing") << int(ModelFamily::Llama) << 4 << 3 << 32
                                               << QStringLiteral("--kv-heads 3: must divide --heads 4");
        QTest::newRow("odd head width") << int(ModelFamily::Llama) << 4 << 4 << 36
                                        << QStringLiteral("--heads 4: rotary positions turn q and k in pairs, so "
                                                          "d_model / heads must be even (36 / 4 = 9)");
        QTest::newRow("shared heads in GPT-2")
            << int(ModelFamily::Gpt2) << 4 << 2 << 32
            << QStringLiteral("--kv-heads 2: GPT-2 has one key/value head per query head; shared key/value heads "
                              "need --family llama");
    }
    void badSettings()
    {
        QFETCH(int, family);
        QFETCH(int, heads);
        QFETCH(int, kvHeads);
        QFETCH(int, dModel);
        QFETCH(QString, message);
        TrainerSettings s = llamaSettings();
        s.family = ModelFamily(family);
        s.heads = heads;
        s.kvHeads = kvHeads;
        s.dModel = dModel;
        QCOMPARE(Trainer::checkSettings(s, task(TaskKind::Copy, 4)), message);
    }
};

// One step of a one-layer model with d_model 2, one head of width 2 and a
// vocabulary of three words A, B, C, on the sequence A B with targets B C.
// Its weights are chosen so that the step can be followed by hand:
//   embeddings A = (1, 1), B = (1, -1), C = (-1, 1); every norm's gain 1;
//   q_proj = 0 (every score 0), k_proj = v_proj = I; o_proj = 0 and the
//   SwiGLU's gate, up and down = 0, so the block adds nothing to the stream;
//   lm_head rows A = (1, 0), B = (0, 1), C = (0, 0).
// Forward: both rows have root mean square 1, so the final norm gives
// n = s h with s = 1 / sqrt(1 + 1e-5); logits s (1, 1, 0) and s (1, -1, 0).
//   loss = ((log(2 e^s + 1) - s) + log(e^s + e^-s + 1)) / 2 = 1.1348 (s = 1:
//   0.8620 and 1.4076).
// Backward (each row's dLogits = (softmax - one-hot) / 2):
//   lm_head: A (+0.544, -0.121), B (-0.244, -0.334), C (-0.300, +0.455);
//   the final norm's gain (+0.544, -0.334); at the stream, through the
//   norm, (0.25, -0.25) at A and (0.189, 0.189) at B, which are the
//   embedding rows' gradients (C unused: 0); o_proj = dhᵀ context with
//   context rows v_A = s (1, 1) and, weights (1/2, 1/2) at B, s (1, 0):
//   [[+0.439, +0.25], [-0.061, -0.25]]. Nothing reaches q, k, v, the MLP or
//   the block's norms: o_proj and down_proj are 0.
// AdamW's first step moves each weight by lr g / (|g| + 1e-8) = lr sign(g),
// whatever the clipping, after weight decay lr 0.01 p on matrices only.
void TestLlamaTraining::wholeStepByHand()
{
    TrainerSettings settings;
    settings.family = ModelFamily::Llama;
    settings.layers = 1;
    settings.heads = 1;
    settings.dModel = 2;
    settings.context = 2;
    const ModelConfig c = Trainer::configFor(settings, 3);
    ModelParameters m = zeroModel(c);
    m.tokenEmbedding.writable() << 1, 1, 1, -1, -1, 1;
    m.untiedUnembedding.writable() << 1, 0, 0, 1, 0, 0;
    m.finalNorm.weight.writable().setOnes();
    BlockParameters &b = m.blocks[0];
    b.norm1.weight.writable().setOnes();
    b.norm2.weight.writable().setOnes();
    b.key.weight.writable().setIdentity();
    b.value.weight.writable().setIdentity();
    const ModelParameters start = m;

    TrainingBatch batch;
    batch.sequences = 1;
    batch.length = 2;
    batch.inputs = {0, 1};
    batch.targets = {1, 2};
    batch.weights = {1.0f, 1.0f};
    TrainingActivations<float> keep;
    const double loss = trainingForward<float>(m, batch, keep);
    const double s = 1.0 / std::sqrt(1.0 + 1e-5);
    const double byHand = ((std::log(2 * std::exp(s) + 1) - s) + std::log(std::exp(s) + std::exp(-s) + 1)) / 2;
    QVERIFY2(std::fabs(loss - byHand) < 1e-6, qPrintable(QString::number(loss, 'g', 10)));
    QVERIFY(std::fabs(loss - 1.1348) < 1e-4);

    AdamW optimiser(c, {});
    ModelParameters gradients;
    const double lr = 0.1, decayed = 1 - lr * 0.01;
    const double norm = Trainer::descend(m, batch, keep, gradients, optimiser, lr, 1.0);
    QVERIFY(norm > 1.0); // clipped, which AdamW's first step does not see

    auto near = [](const auto &actual, std::initializer_list<double> expected) {
        std::vector<double> values(expected);
        if (actual.size() != Eigen::Index(values.size()))
            return false;
        for (Eigen::Index i = 0; i < actual.size(); ++i)
            if (std::fabs(double(actual.data()[i]) - values[std::size_t(i)]) > 1e-6)
                return false;
        return true;
    };
    const double d = decayed;
    QVERIFY(near(m.untiedUnembedding, {d - lr, lr, lr, d + lr, lr, -lr}));
    QVERIFY(near(m.finalNorm.weight, {1 - lr, 1 + lr}));
    QVERIFY(near(m.tokenEmbedding, {d - lr, d + lr, d - lr, -d - lr, -d, d}));
    QVERIFY(near(b.attentionOutput.weight, {-lr, -lr, lr, lr}));
    // No gradient: matrices only decay, vectors stay.
    QVERIFY(near(b.key.weight, {d, 0, 0, d}));
    QVERIFY(near(b.value.weight, {d, 0, 0, d}));
    QVERIFY(b.query.weight.isZero() && b.mlpGate.weight.isZero() && b.mlpIn.weight.isZero()
            && b.mlpOut.weight.isZero());
    QVERIFY(near(b.norm1.weight, {1, 1}) && near(b.norm2.weight, {1, 1}));
    QVERIFY(!sameBits(m, start));
}

QTEST_GUILESS_MAIN(TestLlamaTraining)
#include "tst_llamatraining.moc"
