// Ollama's store read without Ollama (core/io/ollamastore): names as
// types/model/name.go parses them, the store's folders, the fake store of
// tests/data/stores/stores.json (make_stores.py) with its manifests, each good
// one naming its GGUF blob and each broken one refused with the words
// stores.json gives, names matched regardless of case, and --model
// ollama:NAME[:TAG] through the command line with OLLAMA_MODELS pointing at
// the store.

#include "fakestores.h"
#include "scopedenv.h"

#include "io/modelfolder.h"
#include "io/ollamastore.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using namespace attn;

namespace {

struct Run
{
    int exitCode = -1;
    QByteArray out, err;
};

Run runApp(const QStringList &arguments, const QString &ollamaModels)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("DISPLAY"));
    env.remove(QStringLiteral("QT_QPA_PLATFORM"));
    env.insert(QStringLiteral("OLLAMA_MODELS"), ollamaModels);
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(ATTN_APP_PATH), arguments);
    Run run;
    if (!p.waitForFinished(60000)) {
        p.kill();
        p.waitForFinished();
        return run;
    }
    run.out = p.readAllStandardOutput();
    run.err = p.readAllStandardError();
    run.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    return run;
}


} // namespace

class TestOllama : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_root = fakestores::layOut(QStringLiteral("ollama"), m_dir.path());
        QVERIFY(!m_root.isEmpty());
    }

    void names_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("manifest"); // empty: refused
        QTest::addColumn<QString>("shown");    // or the refusal
        QTest::newRow("model") << "qwen2.5" << "manifests/registry.ollama.ai/library/qwen2.5/latest" << "qwen2.5:latest";
        QTest::newRow("model and tag") << "qwen2.5:0.5b" << "manifests/registry.ollama.ai/library/qwen2.5/0.5b"
                                       << "qwen2.5:0.5b";
        QTest::newRow("namespace") << "someone/tiny:q8" << "manifests/registry.ollama.ai/someone/tiny/q8"
                                   << "someone/tiny:q8";
        QTest::newRow("host") << "hf.co/bartowski/Llama-3.2-1B-Instruct-GGUF:Q4_K_M"
                              << "manifests/hf.co/bartowski/Llama-3.2-1B-Instruct-GGUF/Q4_K_M"
                              << "hf.co/bartowski/Llama-3.2-1B-Instruct-GGUF:Q4_K_M";
        QTest::newRow("empty") << "" << ""
                               << "no model name after \"ollama:\" (for example ollama:qwen2.5:0.5b)";
        QTest::newRow("four parts") << "a/b/c/d" << ""
                                    << "a/b/c/d has 4 parts before the tag; an Ollama name has at most three (host/namespace/model)";
        QTest::newRow("a way out of the store") << "../../etc:passwd" << "" << ".. is not a namespace (letters, digits, '_' and '-')";
        QTest::newRow("two dots") << "qwen..2" << "" << "qwen..2 is not a model name (letters, digits, '_', '-' and '.')";
        QTest::newRow("space in the tag") << "qwen:0.5 b" << "" << "0.5 b is not a tag (letters, digits, '_', '-' and '.')";
        QTest::newRow("dot in the namespace") << "some.one/tiny" << ""
                                              << "some.one is not a namespace (letters, digits, '_' and '-')";
        QTest::newRow("line break") << "qwen\n2" << "" << "qwen?2 is not a model name (letters, digits, '_', '-' and '.')";
        QTest::newRow("empty tag") << "qwen:" << "" << "no tag after ':' in qwen:";
    }

    void names()
    {
        QFETCH(QString, name);
        QFETCH(QString, manifest);
        QFETCH(QString, shown);
        QString error;
        const std::optional<OllamaName> parsed = parseOllamaName(name, &error);
        if (manifest.isEmpty()) {
            QVERIFY(!parsed);
            QCOMPARE(error, shown);
            return;
        }
        QVERIFY2(parsed, qPrintable(error));
        QCOMPARE(parsed->manifestPath(), manifest);
        QCOMPARE(parsed->shown(), shown);
    }

    void storeRoots()
    {
        {
            // Ollama trims spaces, then quotes (envconfig.Var).
            const ScopedEnv env("OLLAMA_MODELS", " \"/srv/ollama/models\" ");
            QCOMPARE(ollamaStoreRoots(), QStringList{"/srv/ollama/models"});
        }
        const ScopedEnv env("OLLAMA_MODELS", QByteArray());
        QCOMPARE(ollamaStoreRoots(), (QStringList{QDir::homePath() + "/.ollama/models", "/usr/share/ollama/.ollama/models"}));
    }

    void manifests_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("blob");  // empty: refused
        QTest::addColumn<QStringList>("words");
        for (const QJsonValue &m : fakestores::all().value("ollama").toObject().value("models").toArray()) {
            // The GGUF version is the file's to refuse, not the manifest's (tst_ggufopen).
            if (m["name"].toString() == QLatin1String("hostile:latest"))
                continue;
            QTest::newRow(qPrintable(m["name"].toString())) << m["name"].toString() << m["gguf"].toString()
                                                            << m["words"].toVariant().toStringList();
        }
    }

    void manifests()
    {
        QFETCH(QString, name);
        QFETCH(QString, blob);
        QFETCH(QStringList, words);
        QString error;
        const std::optional<OllamaName> parsed = parseOllamaName(name, &error);
        QVERIFY2(parsed, qPrintable(error));
        const std::optional<OllamaManifest> m = readOllamaManifest(m_root + '/' + parsed->manifestPath(), m_root, &error);
        if (blob.isEmpty()) {
            QVERIFY(!m);
            QVERIFY2(error.startsWith(QStringLiteral("manifest ") + parsed->manifestPath().mid(10) + ": "), qPrintable(error));
            QVERIFY(!error.contains('\n'));
            for (const QString &w : words)
                QVERIFY2(error.contains(w, Qt::CaseInsensitive), qPrintable(error));
            return;
        }
        QVERIFY2(m, qPrintable(error));
        QCOMPARE(m->modelBlob, m_root + '/' + blob);
        QCOMPARE(m->digest, "sha256:" + blob.mid(13));
        QCOMPARE(m->modelBytes, QFileInfo(m->modelBlob).size());
        QVERIFY(QFileInfo(m->configBlob).isFile());
    }

    void theLastModelLayerIsTheModel()
    {
        // Ollama's GetModel keeps the last image.model layer; other layers
        // (a projector, a template) are not the model, and their digests are not checked.
        const QString a(64, 'a'), b(64, 'b');
        const QByteArray json = QStringLiteral(
            R"({"layers": [{"mediaType": "application/vnd.ollama.image.model", "digest": "sha256:%1", "size": 5},
                           {"mediaType": "application/vnd.ollama.image.template", "digest": "not one"},
                           {"mediaType": "application/vnd.ollama.image.model", "digest": "sha256:%2"},
                           {"mediaType": "application/vnd.ollama.image.projector", "digest": "sha256:%1"}]})")
                                    .arg(a, b).toUtf8();
        QString error;
        const std::optional<OllamaManifest> m = parseOllamaManifest(json, "/store", &error, false);
        QVERIFY2(m, qPrintable(error));
        QCOMPARE(m->modelBlob, "/store/blobs/sha256-" + b);
        QCOMPARE(m->modelBytes, -1);
        QVERIFY(!parseOllamaManifest(json, "/store", &error, true));
        QCOMPARE(error, "its weights blob blobs/sha256-" + b + " is missing");
        QVERIFY(!parseOllamaManifest("[1, 2]", "/store", &error));
        QCOMPARE(error, QStringLiteral("the manifest is not a JSON object"));
        QVERIFY(!parseOllamaManifest(R"({"layers": {}})", "/store", &error));
        QCOMPARE(error, QStringLiteral("the manifest has no \"layers\" list"));
        QVERIFY(!parseOllamaManifest(R"({"layers": [{"mediaType": "application/vnd.ollama.image.model", "digest": 7}]})",
                                     "/store", &error));
        QCOMPARE(error, QStringLiteral("layer 0's digest (not a string) is not \"sha256:\" and 64 hex digits"));
    }

    void listsTheStore()
    {
        // Every manifest at the depth Ollama reads, shown as `ollama list` shows it; not too-shallow.
        QStringList names;
        for (const OllamaManifestFile &f : ollamaManifestFiles(m_root)) {
            names << f.name.shown();
            QCOMPARE(f.path, m_root + '/' + f.name.manifestPath());
        }
        QStringList expected;
        for (const QJsonValue &m : fakestores::all().value("ollama").toObject().value("models").toArray())
            expected << m["name"].toString();
        std::sort(expected.begin(), expected.end(), [](const QString &x, const QString &y) {
            return x.compare(y, Qt::CaseInsensitive) < 0;
        });
        QCOMPARE(names, expected);
        QVERIFY(ollamaManifestFiles(m_dir.path() + "/nowhere").isEmpty());
    }

    void resolvesNames_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("result"); // the blob, or the refusal's words
        QTest::addColumn<bool>("found");
        const QString qwen = "blobs/sha256-c594f88d966f993a5ede2fab7e61f1e17057423d207dc5af5f6c7e5b7ba2aeb7";
        const QString llama = "blobs/sha256-98f367a80f57dfc8c8feabb19c0e6a5faa093f79e3ebc7b985b044857db7ecc5";
        QTest::newRow("name and tag") << "ollama:qwen2.5:0.5b" << qwen << true;
        QTest::newRow("latest by default") << "ollama:qwen2.5" << qwen << true;
        QTest::newRow("another case") << "ollama:QWEN2.5:0.5B" << qwen << true;
        QTest::newRow("host and namespace, another case") << "ollama:HF.co/Tiny-Org/llama-tiny-gguf:q4_k_m" << llama << true;
        QTest::newRow("not there") << "ollama:nonesuch:7b"
                                   << "ollama:nonesuch:7b: no such model in the Ollama store (looked for "
                                      "manifests/registry.ollama.ai/library/nonesuch/7b in STORE)" << false;
        QTest::newRow("broken manifest") << "ollama:broken"
                                         << "ollama:broken: manifest registry.ollama.ai/library/broken/latest: the "
                                            "manifest is not valid JSON (unterminated array at byte 32)" << false;
        QTest::newRow("bad name") << "ollama:a/b/c/d" << "ollama:a/b/c/d: a/b/c/d has 4 parts" << false;
    }

    void resolvesNames()
    {
        QFETCH(QString, name);
        QFETCH(QString, result);
        QFETCH(bool, found);
        const ScopedEnv env("OLLAMA_MODELS", m_root.toUtf8());
        QString error;
        const std::optional<QString> blob = resolveOllamaModel(name, &error);
        if (found) {
            QVERIFY2(blob, qPrintable(error));
            QCOMPARE(*blob, m_root + '/' + result);
            // resolveModel takes it as a GGUF file.
            const std::optional<ModelFiles> files = resolveModel(name, &error);
            QVERIFY2(files, qPrintable(error));
            QCOMPARE(files->gguf, m_root + '/' + result);
            QVERIFY(files->isGguf());
            return;
        }
        QVERIFY(!blob);
        QVERIFY2(error.startsWith(QString(result).replace("STORE", m_root)), qPrintable(error));
        QVERIFY(!resolveModel(name, &error));
    }

    void commandLine_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("file"); // the GGUF file it must equal, or the words of its refusal
        QTest::addColumn<int>("exitCode");
        QTest::newRow("qwen2.5:0.5b") << "ollama:qwen2.5:0.5b" << "quantised/qwen2-q8_0.gguf" << 0;
        QTest::newRow("hf.co name") << "ollama:hf.co/tiny-org/Llama-Tiny-GGUF:Q4_K_M" << "quantised/llama-q4_k_m.gguf" << 0;
        QTest::newRow("GGUF of version 4") << "ollama:hostile" << "version 4" << 2;
        QTest::newRow("missing blob") << "ollama:missing"
                                      << "sha256-c0b3488e4a3a635aaafa62abbf115731643b4761b2ce1ed6e567ebe2f655dbae" << 2;
        QTest::newRow("no GGUF layer") << "ollama:safetensors-style" << "GGUF" << 2;
        QTest::newRow("digest not sha256") << "ollama:bad-digest" << "digest" << 2;
        QTest::newRow("not there") << "ollama:nonesuch" << "no such model in the Ollama store" << 2;
    }

    void commandLine()
    {
        // compute --model ollama:NAME writes exactly what compute --model FILE.gguf writes.
        QFETCH(QString, model);
        QFETCH(QString, file);
        QFETCH(int, exitCode);
        const QStringList args{"compute", "--model", model, "--text", "The robot moved the box"};
        const Run run = runApp(args, m_root);
        QCOMPARE(run.exitCode, exitCode);
        if (exitCode != 0) {
            QVERIFY2(run.err.contains(file.toUtf8()), run.err.constData());
            QCOMPARE(run.err.count('\n'), 1);
            return;
        }
        QVERIFY(run.err.isEmpty());
        QStringList direct = args;
        direct[2] = QStringLiteral(ATTN_TEST_DATA "/gguf/") + file;
        const Run reference = runApp(direct, m_root);
        QCOMPARE(reference.exitCode, 0);
        QVERIFY(!run.out.isEmpty());
        QCOMPARE(run.out, reference.out);
        // tokenize too.
        const Run tokens = runApp({"tokenize", "--model", model, "--text", "The robot"}, m_root);
        QCOMPARE(tokens.exitCode, 0);
        QVERIFY(tokens.out.startsWith("{\"token_ids\":["));
    }

private:
    QTemporaryDir m_dir;
    QString m_root;
};

QTEST_GUILESS_MAIN(TestOllama)
#include "tst_ollama.moc"
