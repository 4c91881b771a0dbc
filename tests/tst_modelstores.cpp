// The list of every model on this computer (core/io/modelstores,
// core/model/modellist): the fake stores of tests/data/stores/stores.json
// (make_stores.py computed what each entry shows: family, parameters as the
// elements of every tensor, the file's own quantisation label, the contract's
// format, bytes on disk) laid out where their programs keep them in a fake
// home folder, and again where the environment moves them; one file reached
// by two names, a symbolic link or a hard link listed once, copies not; a
// store that is missing, unreadable or a file skipped without a word;
// broken records listed with their reason; and every hostile GGUF file of
// tests/data/gguf/hostile listed without a crash, those gguf.cpp itself
// refuses with the words hostile.json gives.

#include "fakestores.h"
#include "scopedenv.h"

#include "io/modelfolder.h"
#include "io/modelstores.h"
#include "model/modellist.h"

#include <QJsonArray>
#include <QTemporaryDir>
#include <QtTest>
#include <filesystem>

using namespace attn;

namespace {

// A fake home folder with no store variable set.
struct FakeHome
{
    QTemporaryDir dir;
    ScopedEnv home{"HOME", dir.path().toUtf8()};
    ScopedEnv xdg{"XDG_CACHE_HOME", QByteArray()};
    ScopedEnv hf{"HF_HOME", QByteArray()};
    ScopedEnv hfHub{"HF_HUB_CACHE", QByteArray()};
    ScopedEnv hfOld{"HUGGINGFACE_HUB_CACHE", QByteArray()};
    ScopedEnv ollama{"OLLAMA_MODELS", QByteArray()};
    ScopedEnv llama{"LLAMA_CACHE", QByteArray()};

    QString path(const QString &relative) const { return dir.path() + QLatin1Char('/') + relative; }
};

ModelStore storeOf(const QString &which)
{
    if (which == QLatin1String("ollama"))
        return ModelStore::Ollama;
    if (which == QLatin1String("lmstudio"))
        return ModelStore::LmStudio;
    if (which == QLatin1String("llamacpp"))
        return ModelStore::LlamaCpp;
    return ModelStore::HuggingFace;
}

// The roots of the environment, without the Ollama service's store of this machine.
ModelStoreRoots rootsOfFakeHome()
{
    ModelStoreRoots roots = modelStoreRootsFromEnvironment();
    roots.ollama.removeAll(QStringLiteral("/usr/share/ollama/.ollama/models"));
    return roots;
}

const ModelListEntry *find(const QList<ModelListEntry> &entries, ModelStore store, const QString &name)
{
    for (const ModelListEntry &e : entries)
        if (e.store == store && e.name == name)
            return &e;
    return nullptr;
}

QString described(const QList<ModelListEntry> &entries)
{
    QStringList lines;
    for (const ModelListEntry &e : entries)
        lines << QStringLiteral("%1 | %2 | %3").arg(modelStoreName(e.store), e.name, e.problem);
    return lines.join(QLatin1Char('\n'));
}

// Every entry stores.json expects, with the values make_stores.py computed;
// the number of entries it expects (a name of a file listed under another is none).
int compareWithStoresJson(const QList<ModelListEntry> &entries)
{
    int expected = 0;
    const QJsonObject all = fakestores::all();
    for (const QString &which : {QStringLiteral("huggingface"), QStringLiteral("ollama"), QStringLiteral("lmstudio"),
                                 QStringLiteral("llamacpp")}) {
        for (const QJsonValue &v : all.value(which).toObject().value(QLatin1String("models")).toArray()) {
            const QJsonObject m = v.toObject();
            const QString name = m.value(QLatin1String("name")).toString();
            const ModelStore store = storeOf(which);
            if (m.contains(QLatin1String("same_file_as"))) {
                // Listed once, under the other name, which says where else the file is.
                if (find(entries, store, name))
                    qWarning("%s listed twice", qPrintable(name));
                const ModelListEntry *kept = find(entries, store, m.value(QLatin1String("same_file_as")).toString());
                if (!kept || !kept->alsoAt.contains(modelStoreName(store) + QLatin1Char(' ') + name))
                    qWarning("%s is not named as the same file", qPrintable(name));
                if (find(entries, store, name) || !kept || !kept->alsoAt.contains(modelStoreName(store) + QLatin1Char(' ') + name))
                    return -1;
                continue;
            }
            ++expected;
            const ModelListEntry *e = find(entries, store, name);
            if (!e) {
                qWarning("%s: %s is not listed", qPrintable(which), qPrintable(name));
                return -1;
            }
            if (e->problem.contains(QLatin1Char('\n'))) {
                qWarning("%s: its reason is more than one line", qPrintable(name));
                return -1;
            }
            if (m.contains(QLatin1String("error"))) {
                for (const QJsonValue &w : m.value(QLatin1String("words")).toArray())
                    if (e->canOpen() || !e->problem.contains(w.toString())) {
                        qWarning("%s: reason \"%s\" lacks \"%s\"", qPrintable(name), qPrintable(e->problem),
                                 qPrintable(w.toString()));
                        return -1;
                    }
                continue;
            }
            const bool ok = e->family == m.value(QLatin1String("family")).toString()
                            && e->parameters == m.value(QLatin1String("parameters")).toDouble()
                            && e->format == m.value(QLatin1String("format")).toString()
                            && e->fileType == m.value(QLatin1String("quantisation")).toString()
                            && e->sizeOnDisk == m.value(QLatin1String("size_on_disk")).toInteger()
                            && e->parts == m.value(QLatin1String("parts")).toInt(1);
            // A split model is listed with its facts; this program opens GGUF models of one file.
            const bool split = m.value(QLatin1String("parts")).toInt(1) > 1;
            if (!ok || e->canOpen() == split) {
                qWarning("%s: got %s %.0f %s %s %lld parts %d \"%s\"", qPrintable(name), qPrintable(e->family), e->parameters,
                         qPrintable(e->format), qPrintable(e->fileType), e->sizeOnDisk, e->parts, qPrintable(e->problem));
                return -1;
            }
        }
    }
    return expected;
}

} // namespace

class TestModelStores : public QObject
{
    Q_OBJECT

private slots:
    void rootsFromTheEnvironment()
    {
        FakeHome home;
        const QString h = home.dir.path();
        ModelStoreRoots roots = modelStoreRootsFromEnvironment();
        QCOMPARE(roots.huggingFace, QStringList{h + "/.cache/huggingface/hub"});
        QCOMPARE(roots.ollama, (QStringList{h + "/.ollama/models", "/usr/share/ollama/.ollama/models"}));
        QCOMPARE(roots.lmStudio, (QStringList{h + "/.lmstudio/models", h + "/.cache/lm-studio/models"}));
        QCOMPARE(roots.llamaCpp, QStringList{h + "/.cache/llama.cpp"});
        QVERIFY(roots.trainedHere.isEmpty());
        {
            // llama.cpp's cache follows XDG_CACHE_HOME, as the Hugging Face cache does; LM Studio's does not.
            ScopedEnv xdg("XDG_CACHE_HOME", "/xdg");
            roots = modelStoreRootsFromEnvironment();
            QCOMPARE(roots.llamaCpp, QStringList{"/xdg/llama.cpp"});
            QCOMPARE(roots.huggingFace, QStringList{"/xdg/huggingface/hub"});
            QCOMPARE(roots.lmStudio.last(), h + "/.cache/lm-studio/models");
            ScopedEnv llama("LLAMA_CACHE", "/elsewhere/llama");
            ScopedEnv ollama("OLLAMA_MODELS", " \"/elsewhere/ollama\" ");
            ScopedEnv hub("HF_HUB_CACHE", "/elsewhere/hub");
            roots = modelStoreRootsFromEnvironment();
            QCOMPARE(roots.llamaCpp, QStringList{"/elsewhere/llama"});
            QCOMPARE(roots.ollama, QStringList{"/elsewhere/ollama"}); // trimmed of spaces and quotes, as Ollama does
            QCOMPARE(roots.huggingFace, QStringList{"/elsewhere/hub"});
        }
    }

    void everyStoreWhereItsProgramKeepsIt()
    {
        FakeHome home;
        QVERIFY(fakestores::layOutHome(home.dir.path()));
        const QList<ModelListEntry> entries = listModels(rootsOfFakeHome());
        const int expected = compareWithStoresJson(entries);
        QVERIFY2(expected > 0, qPrintable(described(entries)));
        QCOMPARE(entries.size(), expected);
        // What is no model is not listed.
        for (const ModelListEntry &e : entries)
            for (const char *never : {"stray", "mmproj", "too-shallow", "README", "datasets", "00002-of-00002", "version.txt",
                                      "manifest=", ".json", ".etag", "downloadInProgress"})
                QVERIFY2(!e.name.contains(QLatin1String(never)), qPrintable(e.name));
        // By store in ModelStore's order, then by name.
        for (qsizetype i = 1; i < entries.size(); ++i)
            QVERIFY(entries[i - 1].store < entries[i].store
                    || (entries[i - 1].store == entries[i].store && entries[i - 1].name.compare(entries[i].name, Qt::CaseInsensitive) < 0));
        // Each opens as File › Open Model takes it: Ollama's by name, the others by path.
        const ModelListEntry *ollama = find(entries, ModelStore::Ollama, "qwen2.5:0.5b");
        QVERIFY(ollama);
        QCOMPARE(ollama->openWith, QStringLiteral("ollama:qwen2.5:0.5b"));
        QCOMPARE(ollama->path, home.path(".ollama/models/blobs/sha256-c594f88d966f993a5ede2fab7e61f1e17057423d207dc5af5f6c7e5b7ba2aeb7"));
        const ModelListEntry *cached = find(entries, ModelStore::HuggingFace, "tiny-org/llama-bf16");
        QVERIFY(cached);
        QCOMPARE(cached->openWith, home.path(".cache/huggingface/hub/models--tiny-org--llama-bf16"));
        for (const ModelListEntry &e : entries) {
            if (!e.canOpen())
                continue;
            QString why;
            QVERIFY2(resolveModel(e.openWith, &why), qPrintable(why));
        }
    }

    void theEnvironmentMovesTheStores()
    {
        FakeHome home;
        const QString base = home.path("elsewhere");
        const QJsonObject all = fakestores::all();
        for (const QString &which : {QStringLiteral("huggingface"), QStringLiteral("ollama"), QStringLiteral("llamacpp")})
            QVERIFY(!fakestores::layOut(which, base).isEmpty());
        // LM Studio has no variable: its older folder, ~/.cache/lm-studio/models.
        const QString lmstudio = fakestores::layOut(QStringLiteral("lmstudio"), base);
        QVERIFY(QDir().mkpath(home.path(".cache/lm-studio")));
        QVERIFY(QDir().rename(lmstudio, home.path(".cache/lm-studio/models")));
        std::vector<std::unique_ptr<ScopedEnv>> env;
        for (const QString &which : {QStringLiteral("huggingface"), QStringLiteral("ollama"), QStringLiteral("llamacpp")}) {
            const QJsonObject vars = all.value(which).toObject().value(QLatin1String("environment")).toObject();
            for (auto it = vars.begin(); it != vars.end(); ++it)
                env.push_back(std::make_unique<ScopedEnv>(qPrintable(it.key()), (base + '/' + it.value().toString()).toUtf8()));
        }
        QCOMPARE(env.size(), std::size_t(3));
        // Nothing at the home folder's own places: every entry comes from where the variables point.
        const QList<ModelListEntry> entries = listModels(modelStoreRootsFromEnvironment());
        const int expected = compareWithStoresJson(entries);
        QVERIFY2(expected > 0, qPrintable(described(entries)));
        QCOMPARE(entries.size(), expected);
        for (const ModelListEntry &e : entries)
            QVERIFY2(e.path.startsWith(base) || e.path.startsWith(home.path(".cache/lm-studio")) || e.path.startsWith("ollama:"),
                     qPrintable(e.path));
    }

    void oneFileIsOneEntry()
    {
        FakeHome home;
        QVERIFY(fakestores::layOutHome(home.dir.path()));
        const QString blob = home.path(".ollama/models/blobs/sha256-98f367a80f57dfc8c8feabb19c0e6a5faa093f79e3ebc7b985b044857db7ecc5");
        // A symbolic link into Ollama's store, as tools that share Ollama's models with LM Studio make.
        QVERIFY(QDir().mkpath(home.path(".lmstudio/models/tiny-org/Linked-GGUF")));
        QVERIFY(QFile::link(blob, home.path(".lmstudio/models/tiny-org/Linked-GGUF/llama-tiny-Q4_K_M.gguf")));
        // A hard link, as `lms import --hard-link` makes: neither name is the file's own.
        std::error_code error;
        std::filesystem::create_hard_link(home.path(".lmstudio/models/google/gemma-tiny-GGUF/gemma-tiny-F32.gguf").toStdString(),
                                          home.path(".cache/llama.cpp/google_gemma-tiny-GGUF_gemma-tiny-F32.gguf").toStdString(), error);
        QVERIFY2(!error, error.message().c_str());
        const QList<ModelListEntry> entries = listModels(rootsOfFakeHome());

        // The file keeps its row; the link is named in it.
        QVERIFY(!find(entries, ModelStore::LmStudio, "tiny-org/Linked-GGUF/llama-tiny-Q4_K_M.gguf"));
        const ModelListEntry *llama = find(entries, ModelStore::Ollama, "hf.co/tiny-org/Llama-Tiny-GGUF:Q4_K_M");
        QVERIFY(llama);
        QCOMPARE(llama->alsoAt, QStringList{"LM Studio tiny-org/Linked-GGUF/llama-tiny-Q4_K_M.gguf"});
        QCOMPARE(llama->sizeOnDisk, qint64(582496)); // once, not twice
        // Two names of one file, neither a link: the first store's keeps the row.
        QVERIFY(!find(entries, ModelStore::LlamaCpp, "google_gemma-tiny-GGUF_gemma-tiny-F32.gguf"));
        const ModelListEntry *gemma = find(entries, ModelStore::LmStudio, "google/gemma-tiny-GGUF/gemma-tiny-F32.gguf");
        QVERIFY(gemma);
        QCOMPARE(gemma->alsoAt, QStringList{"llama.cpp google_gemma-tiny-GGUF_gemma-tiny-F32.gguf"});
        // Two tags of one Ollama blob: one row.
        const ModelListEntry *qwen = find(entries, ModelStore::Ollama, "qwen2.5:0.5b");
        QVERIFY(qwen);
        QCOMPARE(qwen->alsoAt, QStringList{"Ollama qwen2.5:latest"});
        // Copies are files of their own: the same qwen2 bytes in Ollama, LM Studio and llama.cpp are three rows.
        int copies = 0;
        for (const ModelListEntry &e : entries)
            copies += e.sizeOnDisk == 94528 && e.family == QLatin1String("qwen2");
        QCOMPARE(copies, 3);
        QCOMPARE(entries.size(), compareWithStoresJson(entries));
    }

    void storesThatAreNotThereAreSkipped()
    {
        FakeHome home;
        // Nothing anywhere: an empty list, no error.
        QVERIFY(listModels(rootsOfFakeHome()).isEmpty());
        // A store that is a file, and folders of a store that are empty or unreadable.
        QVERIFY(QDir().mkpath(home.path(".cache")));
        QFile file(home.path(".cache/llama.cpp"));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("not a folder");
        file.close();
        QVERIFY(QDir().mkpath(home.path(".lmstudio/models/empty-publisher")));
        QVERIFY(QDir().mkpath(home.path(".ollama/models/manifests")));
        QVERIFY(listModels(rootsOfFakeHome()).isEmpty());
        QVERIFY(fakestores::layOutHome(home.path("other")));
        QVERIFY(QDir().rename(home.path("other/.lmstudio"), home.path("unreadable")));
        QVERIFY(QFile::setPermissions(home.path("unreadable"), QFileDevice::Permissions()));
        ModelStoreRoots roots = rootsOfFakeHome();
        roots.lmStudio = {home.path("unreadable/models"), home.path("no/such/folder")};
        const bool root = QFileInfo(home.path("unreadable/models")).isReadable(); // permissions do not bind root
        const QList<ModelListEntry> entries = listModels(roots);
        QFile::setPermissions(home.path("unreadable"), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
        if (!root)
            QVERIFY2(entries.isEmpty(), qPrintable(described(entries)));
        // A cancelled listing stops with what it has: here, nothing.
        roots.ollama = {home.path("other/.ollama/models")};
        QVERIFY(!listModels(roots).isEmpty());
        CancelFlag cancel(true);
        QVERIFY(listModels(roots, &cancel).isEmpty());
    }

    void hostileFilesAreListedWithTheirReason()
    {
        FakeHome home;
        const QString folder = home.path(".lmstudio/models/hostile/files");
        QVERIFY(QDir().mkpath(folder));
        QFile list(QStringLiteral(ATTN_TEST_DATA "/gguf/hostile/hostile.json"));
        QVERIFY(list.open(QIODevice::ReadOnly));
        const QJsonArray files = QJsonDocument::fromJson(list.readAll()).object().value(QLatin1String("files")).toArray();
        QVERIFY(files.size() > 50);
        for (const QJsonValue &v : files) {
            const QString name = v.toObject().value(QLatin1String("file")).toString();
            QVERIFY(QFile::copy(QStringLiteral(ATTN_TEST_DATA "/gguf/hostile/") + name, folder + '/' + name));
        }
        const QList<ModelListEntry> entries = listModels(rootsOfFakeHome());
        QCOMPARE(entries.size(), files.size());
        // Refused by what reads the header and metadata (the listing reads no more).
        const QStringList metadata{"type-iq2_xxs.gguf", "architecture-unknown.gguf", "architecture-missing.gguf",
                                   "head-count-zero.gguf", "key-wrong-type.gguf"};
        for (const QJsonValue &v : files) {
            const QJsonObject f = v.toObject();
            const QString name = f.value(QLatin1String("file")).toString();
            const ModelListEntry *e = find(entries, ModelStore::LmStudio, "hostile/files/" + name);
            QVERIFY2(e, qPrintable(name));
            QVERIFY2(!e->problem.contains('\n'), qPrintable(e->problem));
            const bool headerRefused = f.value(QLatin1String("ggml")).toString() == QLatin1String("refused by gguf.cpp");
            if (headerRefused || metadata.contains(name))
                QVERIFY2(!e->canOpen(), qPrintable(name));
            if (e->canOpen())
                continue;
            QVERIFY2(e->problem.startsWith(name + QStringLiteral(": ")), qPrintable(e->problem));
            // The words after the file's name, which holds some of them ("truncated-key.gguf").
            for (const QJsonValue &w : f.value(QLatin1String("words")).toArray())
                QVERIFY2(e->problem.mid(name.size() + 2).contains(w.toString()), qPrintable(e->problem));
            QCOMPARE(e->sizeOnDisk, QFileInfo(folder + '/' + name).size());
        }
    }

    void fileTypeNames()
    {
        // llama.h's llama_ftype, by hand: the labels in model files' names.
        QCOMPARE(ggufFileTypeName(0), QStringLiteral("F32"));
        QCOMPARE(ggufFileTypeName(1), QStringLiteral("F16"));
        QCOMPARE(ggufFileTypeName(7), QStringLiteral("Q8_0"));
        QCOMPARE(ggufFileTypeName(15), QStringLiteral("Q4_K_M"));
        QCOMPARE(ggufFileTypeName(18), QStringLiteral("Q6_K"));
        QCOMPARE(ggufFileTypeName(30), QStringLiteral("IQ4_XS"));
        QCOMPARE(ggufFileTypeName(32), QStringLiteral("BF16"));
        QCOMPARE(ggufFileTypeName(38), QStringLiteral("MXFP4_MOE"));
        for (qint64 none : {-1, 5, 6, 33, 34, 35, 39, 1024})
            QVERIFY(ggufFileTypeName(none).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestModelStores)
#include "tst_modelstores.moc"
