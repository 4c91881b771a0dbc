// Sharded checkpoints (model.safetensors.index.json + model-0000K-of-0000N
// files), written here from the tiny GPT-2 fixture: they open to the same
// numbers as the single file, each weight read in place from its own shard,
// and every malformed index is refused with one line.

#include "modelfixtures.h"

#include "io/shardedcheckpoint.h"
#include "model/forward.h"
#include "model/modelloader.h"

#include <QDir>
#include <QFile>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>

using namespace attn;

namespace {

using Tensors = std::vector<fixtures::Tensor>;
using WeightMap = QList<QPair<QString, QString>>; // tensor -> shard, in the order written

bool writeFile(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

// The index as Hugging Face writes it; pairs are written in order so that a
// tensor may be listed twice.
QByteArray indexJson(const WeightMap &map)
{
    QByteArray entries;
    for (const auto &[tensor, shard] : map)
        entries += (entries.isEmpty() ? "" : ",") + QJsonDocument(QJsonObject{{tensor, shard}}).toJson(QJsonDocument::Compact).mid(1).chopped(1);
    return "{\"metadata\": {\"total_size\": 1}, \"weight_map\": {" + entries + "}}";
}

// A shard as Hugging Face writes one: the header padded with spaces to a
// multiple of 8, so the weights can be read in place.
QByteArray shardBytes(const Tensors &tensors)
{
    const QByteArray bytes = fixtures::safetensorsBytes(tensors);
    const qsizetype n = qsizetype(qFromLittleEndian<quint64>(bytes.constData()));
    const QByteArray header = bytes.mid(8, n) + QByteArray(-n & 7, ' ');
    QByteArray out(8, '\0');
    qToLittleEndian<quint64>(quint64(header.size()), out.data());
    return out + header + bytes.mid(8 + n);
}

} // namespace

class TestShardedModel : public QObject
{
    Q_OBJECT

    Tensors m_tensors; // the F32 fixture's, in file order
    QByteArray m_config;

    // The fixture split into two shards: the embeddings and layer 0, then the rest.
    static QString shardOf(const QString &tensor)
    {
        const bool early = !tensor.contains(QLatin1String(".h.")) || tensor.contains(QLatin1String(".h.0."));
        return early ? QStringLiteral("model-00001-of-00002.safetensors") : QStringLiteral("model-00002-of-00002.safetensors");
    }
    WeightMap splitMap() const
    {
        WeightMap map;
        for (const fixtures::Tensor &t : m_tensors)
            map.append({t.name, shardOf(t.name)});
        return map;
    }
    const fixtures::Tensor &tensor(const QString &name) const
    {
        return *std::find_if(m_tensors.begin(), m_tensors.end(), [&](const auto &t) { return t.name == name; });
    }
    // The two shards and an index listing `map`.
    QString writeSharded(const QTemporaryDir &dir, const WeightMap &map) const
    {
        Tensors first, second;
        for (const fixtures::Tensor &t : m_tensors)
            (shardOf(t.name).startsWith(QLatin1String("model-00001")) ? first : second).push_back(t);
        writeFile(dir.filePath(QStringLiteral("config.json")), m_config);
        writeFile(dir.filePath(QStringLiteral("model-00001-of-00002.safetensors")), shardBytes(first));
        writeFile(dir.filePath(QStringLiteral("model-00002-of-00002.safetensors")), shardBytes(second));
        writeFile(dir.filePath(shardIndexName()), indexJson(map));
        return dir.path();
    }

private slots:
    void initTestCase()
    {
        QString error;
        const auto file = SafetensorsFile::open(fixtures::modelDir("gpt2-f32") + QStringLiteral("/model.safetensors"), &error);
        QVERIFY2(file, qPrintable(error));
        m_tensors = fixtures::tensorsOf(*file);
        QFile config(fixtures::modelDir("gpt2-f32") + QStringLiteral("/config.json"));
        QVERIFY(config.open(QIODevice::ReadOnly));
        m_config = config.readAll();
    }

    void opensLikeTheSingleFile()
    {
        QTemporaryDir dir;
        QString error;
        const SharedModelParameters sharded = loadModel(writeSharded(dir, splitMap()), &error);
        QVERIFY2(sharded, qPrintable(error));
        const SharedModelParameters single = loadModel(fixtures::modelDir("gpt2-f32"), &error);
        QVERIFY2(single, qPrintable(error));
        const std::vector<int> ids{1, 5, 9, 2};
        const ModelTrace a = forward(*sharded, ids), b = forward(*single, ids);
        QCOMPARE(a.hidden.back(), b.hidden.back());
        QCOMPARE(a.nextToken->probabilities, b.nextToken->probabilities);
        // Read in place from both shards.
        QVERIFY(sharded->tokenEmbedding.isMapped());
        QVERIFY(sharded->blocks[1].mlpOut.weight.isMapped());
        QVERIFY(sharded->blocks[1].key.bias.isMapped());
    }

    void malformed_data()
    {
        QTest::addColumn<QString>("change"); // what to do to the written folder
        QTest::addColumn<QString>("message"); // DIR: the folder
        const QString i = QStringLiteral("model.safetensors.index.json: ");
        QTest::newRow("missing shard") << "remove 2" << i + "shard \"model-00002-of-00002.safetensors\" is not in DIR";
        QTest::newRow("path traversal") << "map ../x" << i + "weight_map \"transformer.h.1.ln_1.weight\": shard \"../x\" is not a file name in the folder";
        QTest::newRow("path separator") << "map sub/x" << i + "weight_map \"transformer.h.1.ln_1.weight\": shard \"sub/x\" is not a file name in the folder";
        QTest::newRow("listed twice") << "twice" << i + "weight_map lists tensor \"transformer.wte.weight\" twice";
        QTest::newRow("in the wrong shard") << "wrong" << i + "weight_map puts tensor \"transformer.h.1.ln_1.weight\" in model-00001-of-00002.safetensors, which does not hold it";
        QTest::newRow("in two shards") << "both" << i + "tensor \"transformer.wte.weight\" is in both model-00001-of-00002.safetensors and model-00003-of-00003.safetensors";
        QTest::newRow("not listed") << "unlisted" << i + "tensor \"transformer.h.1.ln_1.weight\" of model-00002-of-00002.safetensors is not in weight_map";
        QTest::newRow("not an object") << "list" << i + "not a JSON object";
        QTest::newRow("no weight_map") << "nomap" << i + "no \"weight_map\" object";
        QTest::newRow("shard not a string") << "number" << i + "weight_map \"transformer.wte.weight\" is not a file name";
        QTest::newRow("broken shard") << "truncate 2" << "model-00002-of-00002.safetensors: PREFIX";
    }
    void malformed()
    {
        QFETCH(QString, change);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const QString second = QStringLiteral("model-00002-of-00002.safetensors");
        WeightMap map = splitMap();
        const auto setShard = [&](const QString &name, const QString &shard) {
            for (auto &entry : map)
                if (entry.first == name)
                    entry.second = shard;
        };
        if (change.startsWith(QLatin1String("map "))) {
            setShard(QStringLiteral("transformer.h.1.ln_1.weight"), change.mid(4));
        } else if (change == QLatin1String("twice")) {
            map.append({QStringLiteral("transformer.wte.weight"), second});
        } else if (change == QLatin1String("wrong")) {
            setShard(QStringLiteral("transformer.h.1.ln_1.weight"), QStringLiteral("model-00001-of-00002.safetensors"));
        } else if (change == QLatin1String("unlisted")) {
            map.removeIf([](const auto &e) { return e.first == QLatin1String("transformer.h.1.ln_1.weight"); });
        }
        writeSharded(dir, map);
        if (change == QLatin1String("remove 2"))
            QVERIFY(QFile::remove(dir.filePath(second)));
        if (change == QLatin1String("truncate 2"))
            QVERIFY(QFile(dir.filePath(second)).resize(100));
        if (change == QLatin1String("both")) {
            // A third shard repeating wte, listed for another tensor.
            const QString third = QStringLiteral("model-00003-of-00003.safetensors");
            QVERIFY(writeFile(dir.filePath(third), fixtures::safetensorsBytes({tensor(QStringLiteral("transformer.wte.weight"))})));
            setShard(QStringLiteral("transformer.h.1.ln_1.bias"), third);
            QVERIFY(writeFile(dir.filePath(shardIndexName()), indexJson(map)));
        }
        if (change == QLatin1String("list"))
            QVERIFY(writeFile(dir.filePath(shardIndexName()), "[]"));
        if (change == QLatin1String("nomap"))
            QVERIFY(writeFile(dir.filePath(shardIndexName()), "{\"metadata\": {}}"));
        if (change == QLatin1String("number"))
            QVERIFY(writeFile(dir.filePath(shardIndexName()), "{\"weight_map\": {\"transformer.wte.weight\": 1}}"));
        QString error;
        QVERIFY(!loadModel(dir.path(), &error));
        QVERIFY2(!error.contains(QLatin1Char('\n')), qPrintable(error));
        if (message.endsWith(QLatin1String("PREFIX")))
            QVERIFY2(error.startsWith(message.chopped(6)), qPrintable(error));
        else
            QCOMPARE(error, QString(message).replace(QLatin1String("DIR"), QDir::toNativeSeparators(dir.path())));
    }
};

QTEST_GUILESS_MAIN(TestShardedModel)
#include "tst_shardedmodel.moc"
