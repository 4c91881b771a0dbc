// GGUF files (llama.cpp's format) against numbers made outside this
// program (tests/data/gguf/make_gguf.py, checked against ggml's own C code):
// every block type dequantised bit for bit, the GGUF F32 conversion of each
// family's tiny checkpoint giving the folder's numbers (llama's q and k rows
// un-interleaved, Gemma's stored 1 + w, the tied output, rope_freqs), the
// conversions llama.cpp reads differently and the quantised files giving
// their own, and hostile files refused with one line naming what is wrong.
// The tokenizer in the metadata and the command line: tst_gguftokenizer,
// tst_ggufopen.

#include "io/gguffile.h"
#include "io/ggufsource.h"
#include "model/forward.h"
#include "model/modelloader.h"
#include "modelfixtures.h"

#include <QTest>

using namespace attn;

namespace {

QString ggufDir() { return QStringLiteral(ATTN_TEST_DATA "/gguf/"); }

const QJsonObject &expectedFiles()
{
    static const QJsonObject files = fixtures::readJson(ggufDir() + QStringLiteral("expected.json")).value(QLatin1String("files")).toObject();
    return files;
}

const QJsonObject &folderCases()
{
    static const QJsonObject cases =
        fixtures::readJson(QStringLiteral(ATTN_TEST_DATA "/families/expected.json")).value(QLatin1String("cases")).toObject();
    return cases;
}

// The folder's case holding `folder` ("llama-bf16" is in case "llama").
QJsonObject caseOfFolder(const QString &folder)
{
    for (auto it = folderCases().begin(); it != folderCases().end(); ++it)
        if (it.value().toObject().value(QLatin1String("folders")).toObject().contains(folder))
            return it.value().toObject();
    return {};
}

// Float32 maths against a float64 reference on values of order 1.
constexpr double kTol = 2e-5;

void compareToReference(const ModelParameters &model, const QJsonObject &e)
{
    const std::vector<int> ids = fixtures::ids(e.value(QLatin1String("token_ids")));
    const ModelTrace trace = forward(model, ids);
    const QJsonArray layers = e.value(QLatin1String("layers")).toArray();
    QCOMPARE(int(trace.layers.size()), layers.size());
    for (int l = 0; l < layers.size(); ++l) {
        const QJsonArray heads = layers[l].toObject().value(QLatin1String("heads")).toArray();
        for (int h = 0; h < heads.size(); ++h) {
            COMPARE_NEAR(trace.layers[std::size_t(l)].weights[std::size_t(h)],
                         fixtures::matrix(heads[h].toObject().value(QLatin1String("weights"))), kTol);
            COMPARE_NEAR(trace.layers[std::size_t(l)].scores[std::size_t(h)],
                         fixtures::matrix(heads[h].toObject().value(QLatin1String("scores"))), 1e-4);
        }
    }
    const QJsonObject next = e.value(QLatin1String("next_token")).toObject();
    COMPARE_NEAR(trace.nextToken->probabilities, fixtures::matrix(next.value(QLatin1String("probabilities"))), kTol);
    const QJsonObject ablated = e.value(QLatin1String("ablated")).toObject();
    ForwardOptions off;
    off.ablatedHeads = {{ablated.value(QLatin1String("layer")).toInt(), ablated.value(QLatin1String("head")).toInt()}};
    COMPARE_NEAR(forward(model, ids, off).nextToken->probabilities,
                 fixtures::matrix(ablated.value(QLatin1String("next_token")).toObject().value(QLatin1String("probabilities"))),
                 kTol);
}

} // namespace

class TestGguf : public QObject
{
    Q_OBJECT

private slots:
    void blocksBitForBit_data()
    {
        QTest::addColumn<QJsonObject>("block");
        const QJsonObject types =
            fixtures::readJson(ggufDir() + QStringLiteral("blocks/blocks.json")).value(QLatin1String("types")).toObject();
        for (auto it = types.begin(); it != types.end(); ++it)
            QTest::newRow(qPrintable(it.key())) << it.value().toObject();
    }
    void blocksBitForBit()
    {
        QFETCH(QJsonObject, block);
        QString error;
        const std::optional<GgufFile> file =
            GgufFile::open(ggufDir() + QStringLiteral("blocks/") + block.value(QLatin1String("file")).toString(), &error);
        QVERIFY2(file, qPrintable(error));
        const GgufTensor *t = file->findTensor(block.value(QLatin1String("tensor")).toString());
        QVERIFY(t);
        QCOMPARE(int(t->type), block.value(QLatin1String("type")).toInt());
        const QJsonArray rows = block.value(QLatin1String("values")).toArray();
        QCOMPARE(t->rows(), qint64(rows.size()));
        const int blockValues = block.value(QLatin1String("block_elements")).toInt();
        std::vector<float> values(std::size_t(t->dims[0]));
        for (qint64 r = 0; r < t->rows(); ++r) {
            qint64 bad = -1;
            QVERIFY(dequantizeBlocks(t->type, file->data(*t) + r * t->rowBytes, t->dims[0] / blockValues, values.data(), &bad));
            const QJsonArray expected = rows[int(r)].toArray();
            for (qint64 i = 0; i < t->dims[0]; ++i)
                QVERIFY2(values[std::size_t(i)] == float(expected[int(i)].toDouble()),
                         qPrintable(QStringLiteral("row %1 value %2: %3, expected %4").arg(r).arg(i)
                                        .arg(double(values[std::size_t(i)]), 0, 'g', 9).arg(expected[int(i)].toDouble(), 0, 'g', 9)));
        }
    }

    void familiesAsTheReference_data()
    {
        QTest::addColumn<QString>("path");
        for (auto it = expectedFiles().begin(); it != expectedFiles().end(); ++it)
            QTest::newRow(qPrintable(it.key())) << it.key();
    }
    void familiesAsTheReference()
    {
        QFETCH(QString, path);
        const QJsonObject e = expectedFiles().value(path).toObject();
        QString error;
        const SharedModelParameters model = loadModel(ggufDir() + path, &error);
        QVERIFY2(model, qPrintable(error));
        QCOMPARE(model->container, QStringLiteral("gguf"));
        const bool same = e.value(QLatin1String("same_as_folder")).toBool();
        const QJsonObject reference = same ? caseOfFolder(e.value(QLatin1String("folder")).toString()) : e;
        QVERIFY(!reference.isEmpty());
        const QJsonObject shape = reference.value(QLatin1String("model")).toObject();
        QCOMPARE(model->config.layers, shape.value(QLatin1String("layers")).toInt());
        QCOMPARE(model->config.kvHeads(), shape.value(QLatin1String("kv_heads")).toInt());
        QCOMPARE(model->config.headDim(), shape.value(QLatin1String("head_dim")).toInt());
        const QJsonArray windows = shape.value(QLatin1String("windows")).toArray();
        for (int l = 0; l < model->config.layers; ++l)
            QCOMPARE(model->config.windowOf(l), windows[l].isNull() ? 0 : windows[l].toInt());
        QVERIFY(std::abs(model->config.scoreScale(0) - shape.value(QLatin1String("scaling")).toDouble()) < 1e-9);
        compareToReference(*model, reference);
        if (e.contains(QLatin1String("file_type")))
            QCOMPARE(model->storedType, path.contains(QLatin1String("q4_k")) ? QStringLiteral("Q4_K") : QStringLiteral("Q8_0"));
    }

    // Quantised weights are never turned into a float copy of the model:
    // each is dequantised a band at a time when used.
    void quantisedWeightsStayQuantised()
    {
        QString error;
        const SharedModelParameters model = loadModel(ggufDir() + QStringLiteral("quantised/llama-q4_k_m.gguf"), &error);
        QVERIFY2(model, qPrintable(error));
        QVERIFY(model->blocks[0].query.weight.isStored());
        QCOMPARE(model->blocks[0].query.weight.storedRows()->typeName(), QStringLiteral("Q4_K"));
        QCOMPARE(model->blocks[1].mlpOut.weight.storedRows()->typeName(), QStringLiteral("Q6_K"));
        QCOMPARE(model->format(), QStringLiteral("gguf-Q4_K"));
    }

    // A quantised tensor is not dequantised when the model is opened (an 8B
    // file would be converted whole once): GgufSource hands it over as
    // stored, and a block that is not finite is found when the pass converts
    // it, with one line naming the tensor. (A file this small is also checked
    // whole before its tensors are read: hostileFilesRefused.)
    void quantisedTensorsAreCheckedWhenUsed()
    {
        QString error;
        const std::optional<GgufFile> file = GgufFile::open(ggufDir() + QStringLiteral("hostile/scale-inf.gguf"), &error);
        QVERIFY2(file, qPrintable(error));
        const QString name = QStringLiteral("blk.0.ffn_up.weight");
        const GgufTensor *t = file->findTensor(name);
        QVERIFY(t);
        QCOMPARE(t->dims.size(), std::size_t(2));
        const GgufSource source(*file, false, 1, 1, 2);
        WeightMatrix w;
        try {
            w = source.matrix(name, t->dims[1], t->dims[0]);
        } catch (const ModelLoadError &e) {
            QFAIL(qPrintable(QStringLiteral("dequantised at open: ") + e.message));
        }
        QVERIFY(w.isStored());
        std::vector<float> rows(std::size_t(w.rowCount() * w.colCount()));
        QString thrown;
        try {
            w.toFloat(0, w.rowCount(), rows.data());
        } catch (const ModelInputError &e) {
            thrown = QString::fromStdString(e.what());
        }
        QVERIFY2(thrown.contains(name) && thrown.contains(QStringLiteral("not finite")), qPrintable(thrown));
        QVERIFY(!thrown.contains(QLatin1Char('\n')));
    }

    // Each hostile file is refused with one line that starts with its name
    // and holds the words hostile.json gives (a tensor, a key, "truncated").
    // Those about the tokenizer in the metadata are tst_gguftokenizer's.
    void hostileFilesRefused_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QStringList>("words");
        const QJsonArray files =
            fixtures::readJson(ggufDir() + QStringLiteral("hostile/hostile.json")).value(QLatin1String("files")).toArray();
        const QStringList tokenizer{QStringLiteral("vocab-size-mismatch.gguf"), QStringLiteral("merge-unknown-token.gguf"),
                                    QStringLiteral("merge-malformed.gguf"), QStringLiteral("pre-unknown.gguf"),
                                    QStringLiteral("tokenizer-unknown.gguf"), QStringLiteral("token-count-zero.gguf")};
        for (const QJsonValue &v : files) {
            const QJsonObject f = v.toObject();
            const QString name = f.value(QLatin1String("file")).toString();
            if (tokenizer.contains(name))
                continue;
            QStringList words;
            for (const QJsonValue &w : f.value(QLatin1String("words")).toArray())
                words << w.toString();
            QTest::newRow(qPrintable(name)) << name << words;
        }
    }
    void hostileFilesRefused()
    {
        QFETCH(QString, file);
        QFETCH(QStringList, words);
        QString error;
        QVERIFY(!loadModel(ggufDir() + QStringLiteral("hostile/") + file, &error));
        QVERIFY2(error.startsWith(file + QStringLiteral(": ")), qPrintable(error));
        QVERIFY2(!error.contains(QLatin1Char('\n')), qPrintable(error));
        for (const QString &w : words)
            QVERIFY2(error.contains(w), qPrintable(error + QStringLiteral(" (lacks \"") + w + QStringLiteral("\")")));
    }

    // The valid file the hostile ones were made from opens.
    void theBaseOpens()
    {
        QString error;
        QVERIFY2(loadModel(ggufDir() + QStringLiteral("hostile/base.gguf"), &error), qPrintable(error));
    }
};

QTEST_APPLESS_MAIN(TestGguf)
#include "tst_gguf.moc"
