// Opening a checkpoint without copying it: F32 weights are read where the
// file is mapped (the data pointer of every GPT-2 weight lies inside the
// mapping), the mapping outlives the file object, copies of the parameters
// share it, and what cannot be used in place (F16, BF16, data an odd header
// length left misaligned, BERT's transposed nn.Linear weights) is copied with
// the same numbers as before.

#include "modelfixtures.h"

#include "learn/trainingpass.h"
#include "model/forward.h"
#include "model/modelloader.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <functional>

using namespace attn;
using fixtures::matrix;

namespace {

// Every weight of a model, by the name the loader read it from (c_attn's
// three column blocks named .q/.k/.v).
void forEachWeight(const ModelParameters &m,
                   const std::function<void(const QString &, const float *, bool mapped)> &visit)
{
    const auto dense = [&](const QString &name, const DenseParameters &d) {
        visit(name + QLatin1String(".weight"), d.weight.data(), d.weight.isMapped());
        visit(name + QLatin1String(".bias"), d.bias.data(), d.bias.isMapped());
    };
    const auto norm = [&](const QString &name, const LayerNormParameters &n) {
        visit(name + QLatin1String(".weight"), n.weight.data(), n.weight.isMapped());
        visit(name + QLatin1String(".bias"), n.bias.data(), n.bias.isMapped());
    };
    visit(QStringLiteral("wte.weight"), m.tokenEmbedding.data(), m.tokenEmbedding.isMapped());
    visit(QStringLiteral("wpe.weight"), m.positionEmbedding.data(), m.positionEmbedding.isMapped());
    for (std::size_t l = 0; l < m.blocks.size(); ++l) {
        const BlockParameters &b = m.blocks[l];
        const QString p = QStringLiteral("h.%1.").arg(l);
        norm(p + QLatin1String("ln_1"), b.norm1);
        dense(p + QLatin1String("attn.q"), b.query);
        dense(p + QLatin1String("attn.k"), b.key);
        dense(p + QLatin1String("attn.v"), b.value);
        dense(p + QLatin1String("attn.c_proj"), b.attentionOutput);
        norm(p + QLatin1String("ln_2"), b.norm2);
        dense(p + QLatin1String("mlp.c_fc"), b.mlpIn);
        dense(p + QLatin1String("mlp.c_proj"), b.mlpOut);
    }
    norm(QStringLiteral("ln_f"), m.finalNorm);
}

// The file a weight's values came from: c_attn for q, k and v.
QString tensorName(const QString &weight)
{
    QString name = weight;
    for (const char *part : {".attn.q.", ".attn.k.", ".attn.v."})
        name.replace(QLatin1String(part), QLatin1String(".attn.c_attn."));
    return QStringLiteral("transformer.") + name;
}

// The fixture's tensors again, with the header padded by spaces so that the
// data starts `misalignment` bytes past a multiple of 4 (0: aligned).
QByteArray withDataMisaligned(const std::vector<fixtures::Tensor> &tensors, int misalignment)
{
    const QByteArray bytes = fixtures::safetensorsBytes(tensors);
    const quint64 n = qFromLittleEndian<quint64>(bytes.constData());
    QByteArray header = bytes.mid(8, qsizetype(n));
    while ((8 + header.size()) % 4 != misalignment)
        header += ' ';
    QByteArray out(8, '\0');
    qToLittleEndian<quint64>(quint64(header.size()), out.data());
    return out + header + bytes.mid(8 + qsizetype(n));
}

std::optional<ModelConfig> fixtureConfig(const char *name)
{
    QFile f(fixtures::modelDir(name) + QStringLiteral("/config.json"));
    if (!f.open(QIODevice::ReadOnly))
        return std::nullopt;
    QString error;
    return parseModelConfig(f.readAll(), QStringLiteral("config.json"), &error);
}

} // namespace

class TestModelMemory : public QObject
{
    Q_OBJECT

    QJsonObject m_expected;
    std::vector<int> m_ids;

private slots:
    void initTestCase()
    {
        m_expected = fixtures::expected("gpt2");
        m_ids = fixtures::ids(m_expected.value(QLatin1String("token_ids")));
    }

    // Every F32 weight of GPT-2, matrices and vectors, points into the
    // mapping at its own tensor's bytes (c_attn's k and v d columns on).
    void f32WeightsAreReadInPlace()
    {
        QString error;
        const auto file = SafetensorsFile::open(fixtures::modelDir("gpt2-f32") + QStringLiteral("/model.safetensors"), &error);
        QVERIFY2(file, qPrintable(error));
        const std::optional<ModelConfig> config = fixtureConfig("gpt2-f32");
        QVERIFY(config);
        const std::optional<ModelParameters> model = loadParameters(*config, *file, &error);
        QVERIFY2(model, qPrintable(error));
        int weights = 0;
        forEachWeight(*model, [&](const QString &name, const float *data, bool mapped) {
            const TensorInfo *info = file->find(tensorName(name));
            QVERIFY2(info, qPrintable(tensorName(name)));
            const QByteArrayView bytes = file->rawBytes(*info);
            const auto at = reinterpret_cast<const char *>(data);
            QVERIFY2(mapped, qPrintable(name + QStringLiteral(" was copied")));
            QVERIFY2(at >= bytes.data() && at < bytes.data() + bytes.size(),
                     qPrintable(name + QStringLiteral(" does not point into its tensor's mapped bytes")));
            ++weights;
        });
        QCOMPARE(weights, 2 + 2 * 16 + 2);
        const int d = config->dModel;
        const auto qkv = reinterpret_cast<const float *>(file->rawBytes(*file->find(QStringLiteral("transformer.h.0.attn.c_attn.weight"))).data());
        QCOMPARE(model->blocks[0].query.weight.data(), qkv);
        QCOMPARE(model->blocks[0].key.weight.data(), qkv + d);
        QCOMPARE(model->blocks[0].value.weight.data(), qkv + 2 * d);
        QCOMPARE(model->blocks[0].value.weight.outerStride(), Eigen::Index(3 * d));
    }

    // The parameters hold the mapping: with the file object gone the weights
    // still read the file's numbers, and the forward pass the reference's.
    void mappingOutlivesTheFile()
    {
        QString error;
        auto file = SafetensorsFile::open(fixtures::modelDir("gpt2-f32") + QStringLiteral("/model.safetensors"), &error);
        QVERIFY2(file, qPrintable(error));
        std::optional<ModelParameters> model = loadParameters(*fixtureConfig("gpt2-f32"), *file, &error);
        QVERIFY2(model, qPrintable(error));
        file.reset();
        const QJsonObject tensors = m_expected.value(QLatin1String("tensors")).toObject();
        const RowMatrix<double> qkvBias = matrix(tensors[QLatin1String("h.0.attn.c_attn.bias")]);
        QCOMPARE(fixtures::largestDifference(model->blocks[0].key.bias, RowMatrix<double>(qkvBias.middleCols(12, 12))), 0.0);
        QCOMPARE(fixtures::largestDifference(model->blocks[1].mlpIn.weight, matrix(tensors[QLatin1String("h.1.mlp.c_fc.weight")])), 0.0);
        const ModelTrace trace = forward(*model, m_ids);
        QVERIFY(fixtures::largestDifference(trace.nextToken->probabilities, matrix(m_expected.value(QLatin1String("next_token")))) < 1e-6);
    }

    // A copy (a document, an undo step, a worker) shares the mapped values;
    // changing one (training) makes that one an owned copy and leaves the other as it was.
    void copiesShareTheMapping()
    {
        QString error;
        const SharedModelParameters model = loadModel(fixtures::modelDir("gpt2-f32"), &error);
        QVERIFY2(model, qPrintable(error));
        ModelParameters copy = *model;
        QCOMPARE(copy.tokenEmbedding.data(), model->tokenEmbedding.data());
        QCOMPARE(copy.blocks[1].key.weight.data(), model->blocks[1].key.weight.data());
        const float before = model->blocks[1].key.weight(2, 3);
        copy.blocks[1].key.weight.writable()(2, 3) += 1.0f;
        QVERIFY(!copy.blocks[1].key.weight.isMapped());
        QVERIFY(model->blocks[1].key.weight.isMapped());
        QCOMPARE(model->blocks[1].key.weight(2, 3), before);
        QCOMPARE(copy.blocks[1].key.weight(2, 3), before + 1.0f);
        QCOMPARE(copy.blocks[1].key.weight(2, 4), model->blocks[1].key.weight(2, 4));
        QCOMPARE(copy.blocks[1].key.weight.cols(), Eigen::Index(12)); // its own storage, no longer strided
        QCOMPARE(copy.blocks[1].key.weight.outerStride(), Eigen::Index(12));
    }

    // Owned weights (training) copy their values: the trainer's "last good
    // step" must not change with the model.
    void ownedCopiesAreDeep()
    {
        const ModelParameters a = zeroModel(*fixtureConfig("gpt2-f32"));
        ModelParameters b = a;
        QVERIFY(b.blocks[0].mlpIn.weight.data() != a.blocks[0].mlpIn.weight.data());
        b.blocks[0].mlpIn.weight.writable()(0, 0) = 5.0f;
        QCOMPARE(a.blocks[0].mlpIn.weight(0, 0), 0.0f);
        b = a;
        QCOMPARE(b.blocks[0].mlpIn.weight(0, 0), 0.0f);
        QVERIFY(b.blocks[0].mlpIn.weight.data() != a.blocks[0].mlpIn.weight.data());
    }

    // What cannot be read in place as float: F32 at an address that is not a
    // multiple of 4 is copied into owned storage; F16 and BF16 matrices stay
    // as stored and are converted a band at a time when used (no float copy
    // of the model), their vectors converted at load. Either way the numbers
    // are the reference's.
    void convertedWeightsAreOwned_data()
    {
        QTest::addColumn<QString>("fixture");
        QTest::addColumn<int>("misalignment");
        QTest::newRow("F32 aligned (in place)") << QStringLiteral("gpt2-f32") << 0;
        QTest::newRow("F32 data at 4k + 1") << QStringLiteral("gpt2-f32") << 1;
        QTest::newRow("F32 data at 4k + 2") << QStringLiteral("gpt2-f32") << 2;
        QTest::newRow("F32 data at 4k + 3") << QStringLiteral("gpt2-f32") << 3;
        QTest::newRow("F16") << QStringLiteral("gpt2-f16") << 0;
        QTest::newRow("BF16") << QStringLiteral("gpt2-bf16") << 0;
    }
    void convertedWeightsAreOwned()
    {
        QFETCH(QString, fixture);
        QFETCH(int, misalignment);
        const QByteArray name = fixture.toLatin1();
        QString error;
        const auto original = SafetensorsFile::open(fixtures::modelDir(name.constData()) + QStringLiteral("/model.safetensors"), &error);
        QVERIFY2(original, qPrintable(error));
        QTemporaryDir dir;
        QFile out(dir.filePath(QStringLiteral("model.safetensors")));
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(withDataMisaligned(fixtures::tensorsOf(*original), misalignment));
        out.close();
        const auto file = SafetensorsFile::open(out.fileName(), &error);
        QVERIFY2(file, qPrintable(error));
        const auto data = reinterpret_cast<quintptr>(file->rawBytes(file->tensors().front()).data());
        QCOMPARE(int(data % 4), misalignment);

        const std::optional<ModelParameters> model = loadParameters(*fixtureConfig(name.constData()), *file, &error);
        QVERIFY2(model, qPrintable(error));
        const bool inPlace = fixture == QLatin1String("gpt2-f32") && misalignment == 0;
        const bool half = fixture != QLatin1String("gpt2-f32");
        forEachWeight(*model, [&](const QString &weight, const float *, bool mapped) {
            QVERIFY2(mapped == inPlace, qPrintable(weight));
        });
        QCOMPARE(model->blocks[1].mlpOut.weight.isStored(), half);
        QCOMPARE(model->tokenEmbedding.isStored(), half);
        // The reference's weights are exact in F16 and BF16 (make_fixtures.py
        // rounds them), so every file gives the same numbers.
        const QJsonObject tensors = m_expected.value(QLatin1String("tensors")).toObject();
        const RowMatrix<double> qkvBias = matrix(tensors[QLatin1String("h.0.attn.c_attn.bias")]);
        QCOMPARE(fixtures::largestDifference(model->blocks[0].value.bias, RowMatrix<double>(qkvBias.rightCols(12))), 0.0);
        QCOMPARE(fixtures::largestDifference(fixtures::floatsOf(model->blocks[1].mlpOut.weight),
                                             matrix(tensors[QLatin1String("h.1.mlp.c_proj.weight")])), 0.0);
        const ModelTrace trace = forward(*model, m_ids);
        const RowMatrix<double> expected = matrix(m_expected.value(QLatin1String("next_token")));
        QVERIFY(fixtures::largestDifference(trace.nextToken->probabilities, expected) < 1e-6);
    }

    // BERT: every weight is read in place, nn.Linear's [out, in] ones too
    // (used as x * Wᵀ, never transposed into a copy).
    void bertReadsEveryWeightInPlace()
    {
        QString error;
        const SharedModelParameters model = loadModel(fixtures::modelDir("bert-f32"), &error);
        QVERIFY2(model, qPrintable(error));
        QVERIFY(model->tokenEmbedding.isMapped());
        QVERIFY(model->positionEmbedding.isMapped());
        QVERIFY(model->tokenTypeEmbedding.isMapped());
        QVERIFY(model->embeddingNorm.weight.isMapped());
        for (const BlockParameters &b : model->blocks) {
            for (const DenseParameters *d : {&b.query, &b.key, &b.value, &b.attentionOutput, &b.mlpIn, &b.mlpOut}) {
                QVERIFY(d->weight.isMapped());
                QVERIFY(d->transposed);
                QVERIFY(d->bias.isMapped());
            }
            QVERIFY(b.norm1.bias.isMapped());
        }
    }

    // A NaN read in place is refused exactly as one that is converted.
    void nonFiniteInPlaceIsRefused()
    {
        QString error;
        const auto original = SafetensorsFile::open(fixtures::modelDir("gpt2-f32") + QStringLiteral("/model.safetensors"), &error);
        QVERIFY2(original, qPrintable(error));
        std::vector<fixtures::Tensor> tensors = fixtures::tensorsOf(*original);
        for (fixtures::Tensor &t : tensors)
            if (t.name == QLatin1String("transformer.h.1.mlp.c_proj.weight"))
                t.bytes.replace(4 * 13, 4, fixtures::floatBytes({INFINITY}));
        for (int misalignment : {0, 1}) {
            const auto file = SafetensorsFile::fromBytes(withDataMisaligned(tensors, misalignment),
                                                         QStringLiteral("model.safetensors"), &error);
            QVERIFY2(file, qPrintable(error));
            QVERIFY(!loadParameters(*fixtureConfig("gpt2-f32"), *file, &error));
            QCOMPARE(error, QStringLiteral("model.safetensors: tensor \"transformer.h.1.mlp.c_proj.weight\": "
                                           "element 13 [1, 1] is infinite (weights must be finite)"));
        }
    }
};

QTEST_GUILESS_MAIN(TestModelMemory)
#include "tst_modelmemory.moc"
