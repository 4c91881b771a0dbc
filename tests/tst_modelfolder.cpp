// Model folders: plain folders, a fake Hugging Face cache made of real
// symbolic links (refs/main, snapshots/HASH/* -> ../../blobs/*), the cache
// listing through the environment, broken variants with their exact
// messages, and the identity of a model file.

#include "io/fileidentity.h"
#include "io/huggingfacecache.h"
#include "io/modelfolder.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace attn;

namespace {

const QString kHash = QStringLiteral("607a30d783dfa663caf39e06633721c8d4cfcd7e");

bool writeFile(const QString &path, const QByteArray &bytes)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

// A cache entry hub/models--NAME with snapshot kHash holding `files`, each a
// relative symbolic link into blobs/ as huggingface_hub lays them out.
// `refsMain` is written to refs/main unless null.
QString makeEntry(const QString &hub, const QString &entry, const QStringList &files,
                  const QByteArray &refsMain = kHash.toLatin1())
{
    const QString root = hub + QLatin1Char('/') + entry;
    QDir().mkpath(root + QStringLiteral("/snapshots/") + kHash);
    if (!refsMain.isNull())
        writeFile(root + QStringLiteral("/refs/main"), refsMain);
    int blob = 0;
    for (const QString &file : files) {
        const QString blobName = QStringLiteral("%1").arg(++blob, 40, 10, QLatin1Char('0'));
        writeFile(root + QStringLiteral("/blobs/") + blobName, "contents of " + file.toUtf8());
        QFile::link(QStringLiteral("../../blobs/") + blobName, root + QStringLiteral("/snapshots/") + kHash + QLatin1Char('/') + file);
    }
    return root;
}

const QStringList kGpt2Files{"config.json", "model.safetensors", "vocab.json", "merges.txt", "tokenizer.json"};

} // namespace

class TestModelFolder : public QObject
{
    Q_OBJECT
private slots:
    void plainFolder();
    void cacheEntry();
    void broken_data();
    void broken();
    void hubLocation();
    void listing();
    void identity();
};

void TestModelFolder::plainFolder()
{
    QTemporaryDir dir;
    for (const char *name : {"config.json", "model.safetensors", "vocab.txt", "tokenizer_config.json"})
        QVERIFY(writeFile(dir.filePath(QLatin1String(name)), "{}"));
    QString error;
    const std::optional<ModelFiles> files = resolveModelFolder(dir.path(), &error);
    QVERIFY2(files, qPrintable(error));
    QCOMPARE(files->folder, QDir(dir.path()).absolutePath());
    QCOMPARE(files->config, dir.filePath("config.json"));
    QCOMPARE(files->weights, dir.filePath("model.safetensors"));
    QCOMPARE(files->vocabTxt, dir.filePath("vocab.txt"));
    QCOMPARE(files->tokenizerConfig, dir.filePath("tokenizer_config.json"));
    QVERIFY(files->vocabJson.isEmpty());
    QVERIFY(files->merges.isEmpty());
    QVERIFY(files->tokenizerJson.isEmpty());
}

void TestModelFolder::cacheEntry()
{
    QTemporaryDir dir;
    const QString entry = makeEntry(dir.filePath("hub"), "models--openai-community--gpt2", kGpt2Files);
    const QString snapshot = entry + "/snapshots/" + kHash;
    // From the entry, from the snapshot, and from snapshots/: the same files.
    for (const QString &from : {entry, snapshot, entry + "/snapshots", entry + "/"}) {
        QString error;
        const std::optional<ModelFiles> files = resolveModelFolder(from, &error);
        QVERIFY2(files, qPrintable(from + ": " + error));
        QCOMPARE(files->folder, snapshot);
        QCOMPARE(files->config, snapshot + "/config.json");
        QCOMPARE(files->weights, snapshot + "/model.safetensors");
        QCOMPARE(files->vocabJson, snapshot + "/vocab.json");
        QCOMPARE(files->merges, snapshot + "/merges.txt");
        QCOMPARE(files->tokenizerJson, snapshot + "/tokenizer.json");
        QVERIFY(files->vocabTxt.isEmpty());
        // The links open as the blobs they point to.
        QFile config(files->config);
        QVERIFY(config.open(QIODevice::ReadOnly));
        QCOMPARE(config.readAll(), QByteArray("contents of config.json"));
    }
    // A sharded checkpoint: the index stands for the weights (the loader checks its shards).
    const QString sharded = makeEntry(dir.filePath("hub"), "models--org--sharded",
                                      {"config.json", "model.safetensors.index.json", "model-00001-of-00002.safetensors"});
    QString shardedError;
    const std::optional<ModelFiles> shardedFiles = resolveModelFolder(sharded, &shardedError);
    QVERIFY2(shardedFiles, qPrintable(shardedError));
    QCOMPARE(shardedFiles->weights, sharded + "/snapshots/" + kHash + "/model.safetensors.index.json");
    // refs/main as git writes it elsewhere, with a final newline.
    QVERIFY(writeFile(entry + "/refs/main", kHash.toLatin1() + '\n'));
    QString error;
    QVERIFY2(resolveModelFolder(entry, &error), qPrintable(error));
}

void TestModelFolder::broken_data()
{
    QTest::addColumn<QStringList>("files");      // in the snapshot (or the plain folder)
    QTest::addColumn<QByteArray>("refsMain");    // null: none; only with cache
    QTest::addColumn<bool>("cache");             // a cache entry (else a plain folder)
    QTest::addColumn<QString>("message");        // "DIR" is the entry, "SNAP" its snapshot
    const QByteArray hash = kHash.toLatin1();
    QTest::newRow("no config.json") << QStringList{"model.safetensors"} << hash << true << "SNAP: no config.json";
    QTest::newRow("plain, no config.json") << QStringList{"model.safetensors"} << hash << false << "DIR: no config.json";
    QTest::newRow("no weights") << QStringList{"config.json"} << hash << true << "SNAP: no model.safetensors";
    QTest::newRow("pytorch only") << QStringList{"config.json", "pytorch_model.bin"} << hash << true
                                  << "SNAP: no model.safetensors (pytorch_model.bin is not supported; convert it to safetensors)";
    QTest::newRow("plain, pytorch only") << QStringList{"config.json", "pytorch_model.bin", "vocab.txt"} << hash << false
                                         << "DIR: no model.safetensors (pytorch_model.bin is not supported; convert it to safetensors)";
    QTest::newRow("TensorFlow only") << QStringList{"config.json", "tf_model.h5"} << hash << true
                                     << "SNAP: no model.safetensors (TensorFlow and Flax weights are not supported; convert them to safetensors)";
    QTest::newRow("dangling shard index") << QStringList{"config.json", "model.safetensors.index.json!"} << hash << true
                                          << "SNAP: model.safetensors.index.json is a symbolic link to BLOB, which is missing (an unfinished download?)";
    QTest::newRow("refs/main names a missing snapshot") << kGpt2Files << QByteArray("0123abcd") << true
                                                        << "DIR: refs/main names snapshot 0123abcd, which is missing";
    QTest::newRow("refs/main climbs out") << kGpt2Files << QByteArray("../../../etc") << true
                                          << "DIR: refs/main does not hold a snapshot name";
    QTest::newRow("refs/main empty") << kGpt2Files << QByteArray("") << true << "DIR: refs/main does not hold a snapshot name";
    QTest::newRow("config.json is a folder") << QStringList{"config.json/", "model.safetensors"} << hash << false
                                             << "DIR: config.json is a folder, not a file";
    QTest::newRow("dangling model.safetensors") << QStringList{"config.json", "model.safetensors!"} << hash << true
                                                << "SNAP: model.safetensors is a symbolic link to BLOB, which is missing (an unfinished download?)";
    QTest::newRow("dangling vocab.json") << QStringList{"config.json", "model.safetensors", "vocab.json!"} << hash << true
                                         << "SNAP: vocab.json is a symbolic link to BLOB, which is missing (an unfinished download?)";
}

void TestModelFolder::broken()
{
    QFETCH(QStringList, files);
    QFETCH(QByteArray, refsMain);
    QFETCH(bool, cache);
    QFETCH(QString, message);
    QTemporaryDir dir;
    QStringList plainFiles; // "name/" is made a folder, "name!" a link to a missing blob
    for (const QString &f : files)
        if (!f.endsWith('/') && !f.endsWith('!'))
            plainFiles << f;
    QString root;
    QString folder;
    if (cache) {
        root = makeEntry(dir.filePath("hub"), "models--org--name", plainFiles, refsMain);
        folder = root + "/snapshots/" + kHash;
    } else {
        root = folder = dir.filePath("model");
        for (const QString &f : plainFiles)
            QVERIFY(writeFile(folder + '/' + f, "x"));
    }
    QString blob;
    for (const QString &f : files) {
        if (f.endsWith('/'))
            QVERIFY(QDir().mkpath(folder + '/' + f));
        if (f.endsWith('!')) {
            blob = root + "/blobs/deadbeef";
            QVERIFY(QFile::link(cache ? QStringLiteral("../../blobs/deadbeef") : blob, folder + '/' + f.chopped(1)));
        }
    }
    QString error;
    QVERIFY(!resolveModelFolder(root, &error));
    QCOMPARE(error, QString(message).replace("SNAP", folder).replace("DIR", root).replace("BLOB", blob));
}

void TestModelFolder::hubLocation()
{
    QTemporaryDir dir;
    qunsetenv("HF_HUB_CACHE");
    qunsetenv("HUGGINGFACE_HUB_CACHE");
    qunsetenv("HF_HOME");
    qunsetenv("XDG_CACHE_HOME");
    QCOMPARE(huggingFaceHubCache(), QDir::homePath() + "/.cache/huggingface/hub");
    qputenv("XDG_CACHE_HOME", dir.filePath("xdg").toUtf8());
    QCOMPARE(huggingFaceHubCache(), dir.filePath("xdg") + "/huggingface/hub");
    qputenv("HF_HOME", dir.filePath("hf").toUtf8());
    QCOMPARE(huggingFaceHubCache(), dir.filePath("hf") + "/hub");
    qputenv("HF_HUB_CACHE", dir.filePath("elsewhere").toUtf8());
    QCOMPARE(huggingFaceHubCache(), dir.filePath("elsewhere"));
    qunsetenv("HF_HUB_CACHE");
    qunsetenv("HF_HOME");
    qunsetenv("XDG_CACHE_HOME");
}

void TestModelFolder::listing()
{
    QTemporaryDir dir;
    qputenv("HF_HOME", dir.path().toUtf8());
    const QString hub = dir.filePath("hub");
    QVERIFY(listCachedModels().isEmpty()); // no hub folder yet
    makeEntry(hub, "models--gpt2", kGpt2Files);
    makeEntry(hub, "models--google-bert--bert-base-uncased", {"config.json", "model.safetensors", "vocab.txt"});
    makeEntry(hub, "models--openai-community--gpt2-medium", {"config.json", "pytorch_model.bin"});
    makeEntry(hub, "datasets--wikitext--wikitext", {"README.md"});
    QVERIFY(writeFile(hub + "/version.txt", "1"));
    const QList<CachedModel> models = listCachedModels();
    qunsetenv("HF_HOME");
    QCOMPARE(models.size(), 3);
    QCOMPARE(models[0].name, QStringLiteral("google-bert/bert-base-uncased"));
    QCOMPARE(models[0].path, hub + "/models--google-bert--bert-base-uncased");
    QVERIFY(models[0].usable);
    QVERIFY(models[0].problem.isEmpty());
    QCOMPARE(models[1].name, QStringLiteral("gpt2"));
    QVERIFY(models[1].usable);
    QCOMPARE(models[2].name, QStringLiteral("openai-community/gpt2-medium"));
    QVERIFY(!models[2].usable);
    QCOMPARE(models[2].problem, hub + "/models--openai-community--gpt2-medium/snapshots/" + kHash
                                    + ": no model.safetensors (pytorch_model.bin is not supported; convert it to safetensors)");
    QVERIFY(listCachedModels(dir.filePath("no/such/hub")).isEmpty());
}

void TestModelFolder::identity()
{
    QTemporaryDir dir;
    QString error;
    // A large file: 5 MiB of a pattern.
    QByteArray big(5 << 20, '\0');
    for (qsizetype i = 0; i < big.size(); ++i)
        big[i] = char((i * 7919) >> 8);
    const QString a = dir.filePath("a.safetensors");
    QVERIFY(writeFile(a, big));
    const QString id = fileIdentity(a, &error);
    QVERIFY2(id.startsWith("size:5242880 sha256:"), qPrintable(id + error));
    QCOMPARE(id.size(), QStringLiteral("size:5242880 sha256:").size() + 64);

    // A copy (new modification time, same contents) keeps the identity.
    const QString copy = dir.filePath("copy.safetensors");
    QVERIFY(QFile::copy(a, copy));
    QCOMPARE(fileIdentity(copy, &error), id);

    // Changes in the header, in retrained weights, at the end, or in the size are noticed.
    const auto changed = [&](qsizetype at, qsizetype length) {
        QByteArray other = big;
        for (qsizetype i = at; i < at + length; ++i)
            other[i] = char(other[i] ^ 0x5a);
        writeFile(copy, other);
        return fileIdentity(copy, &error);
    };
    QVERIFY(changed(100, 1) != id);              // header
    QVERIFY(changed(2 << 20, 256 << 10) != id);  // a 256 KiB tensor in the data
    QVERIFY(changed(big.size() - 1, 1) != id);   // the last byte
    QVERIFY(writeFile(copy, big + "x"));
    QVERIFY(fileIdentity(copy, &error) != id);

    // A small file is hashed whole: any byte counts.
    QVERIFY(writeFile(a, "{\"n_layer\": 2}"));
    const QString small = fileIdentity(a, &error);
    QVERIFY(writeFile(a, "{\"n_layer\": 3}"));
    QVERIFY(fileIdentity(a, &error) != small);

    QCOMPARE(fileIdentity(dir.filePath("missing.safetensors"), &error), QString());
    QVERIFY2(error.startsWith("missing.safetensors: cannot open: "), qPrintable(error));
}

QTEST_APPLESS_MAIN(TestModelFolder)
#include "tst_modelfolder.moc"
