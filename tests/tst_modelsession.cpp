// Sessions saved with a trained model open: the file names the model (path
// and weights identity) and what was shown; opening it in a new window brings
// back the model, text, layer, head and query. A missing model folder leaves
// the open session as it was, a changed weights file is noticed, a malformed
// "model" object is refused with one exact line, and version-1 files without
// "model" open as before. The tiny GPT-2 fixture and tokenizer are those of
// tst_modelwindow.

#include "modelfixtures.h"
#include "modelwindowfixture.h"
#include "tinygpt2tokenizer.h"

#include "document.h"
#include "fileactions.h"
#include "io/fileidentity.h"
#include "mainwindow.h"
#include "modelactions.h"
#include "modeldocument.h"
#include "session/session.h"
#include "session/sessionio.h"

#include <QComboBox>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>

using namespace tinygpt2;

namespace {

// A version-1 session with three tokens, then a "model" object.
QByteArray withModel(const QByteArray &model)
{
    return R"({"format": "attention-explorer-session", "version": 1, "tokens": ["a", "b", "c"],
               "embeddings": [[1, 0, 0], [0, 1, 0], [0, 0, 1]], "model": )" + model + '}';
}

const QByteArray kIdentity = "size:12 sha256:" + QByteArray(64, 'a');

} // namespace

class TestModelSession : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_model;

    struct Fixture : ModelWindowFixture
    {
        QSignalSpy errors{window.fileActions(), &FileActions::errorOccurred};
        bool openModel(const QString &path) { return open(path) && model()->isOpen(); }
    };

    // A copy of the fixture folder, for tests that move or change it.
    QString copyModel(const QString &name)
    {
        const QString to = m_dir.filePath(name);
        if (!QDir().mkpath(to))
            return {};
        for (const char *file : {"config.json", "model.safetensors", "vocab.json", "merges.txt"})
            if (!QFile::copy(m_model + '/' + QLatin1String(file), to + '/' + QLatin1String(file)))
                return {};
        return to;
    }

    // Opens `folder` in a window, types the text, picks layer 1, head 2 and
    // query 4 and saves to `path`.
    bool saveWithModel(const QString &folder, const QString &path)
    {
        Fixture f;
        if (!f.openModel(folder))
            return false;
        f.type(kText);
        if (!f.idle())
            return false;
        f.actions()->layerBox()->setCurrentIndex(1);
        emit f.actions()->layerBox()->activated(1);
        f.window.headBox()->setCurrentIndex(2);
        emit f.window.headBox()->activated(2);
        f.doc.setQuery(4);
        return f.model()->layer() == 1 && f.model()->head() == 2 && f.model()->query() == 4
            && f.window.fileActions()->saveTo(path);
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
        m_model = m_dir.filePath(QStringLiteral("tiny-gpt2"));
        QVERIFY(QDir().mkpath(m_model));
        const QString fixture = fixtures::modelDir("gpt2-f32");
        QVERIFY(copyFile(fixture + QStringLiteral("/config.json"), m_model + QStringLiteral("/config.json")));
        QVERIFY(copyFile(fixture + QStringLiteral("/model.safetensors"), m_model + QStringLiteral("/model.safetensors")));
        QVERIFY(writeFile(m_model + QStringLiteral("/vocab.json"), vocabJson()));
        QVERIFY(writeFile(m_model + QStringLiteral("/merges.txt"), kMerges));
    }

    void roundTrip()
    {
        const QString path = m_dir.filePath(QStringLiteral("model.attn.json"));
        QVERIFY(saveWithModel(m_model, path));

        // The file: the hand-made session underneath, and the model object.
        QString error;
        const std::optional<attn::Session> read = attn::readSession(path, &error);
        QVERIFY2(read, qPrintable(error));
        QVERIFY(read->model);
        QCOMPARE(read->model->path, QFileInfo(m_model).absoluteFilePath());
        QCOMPARE(read->model->identity, attn::fileIdentity(m_model + QStringLiteral("/model.safetensors"), &error));
        QVERIFY(read->model->identity.startsWith(QLatin1String("size:")));
        QCOMPARE(read->model->text, kText);
        QCOMPARE(read->model->layer, 1);
        QCOMPARE(read->model->head, 2);
        QCOMPARE(read->model->query, 4);
        attn::Session handMade = *read;
        handMade.model.reset();
        QCOMPARE(handMade, attn::exampleSession());

        // A new window opens it all again.
        Fixture g;
        QSignalSpy notices(&g.doc, &Document::notice);
        QVERIFY(g.window.fileActions()->openPath(path));
        QVERIFY(g.idle());
        QVERIFY2(g.model()->isOpen(), qPrintable(g.actions()->lastError()));
        QCOMPARE(g.model()->folder(), QFileInfo(m_model).absoluteFilePath());
        QCOMPARE(g.model()->text(), kText);
        QCOMPARE(g.window.sentenceEdit()->text(), kText);
        QCOMPARE(int(g.model()->tokens().size()), 7);
        QCOMPARE(g.model()->layer(), 1);
        QCOMPARE(g.model()->head(), 2);
        QCOMPARE(g.model()->query(), 4);
        QCOMPARE(g.doc.query(), 4);
        QCOMPARE(g.actions()->layerBox()->currentIndex(), 1);
        QCOMPARE(g.window.headBox()->currentData().toInt(), 2);
        QCOMPARE(g.window.selectedHead(), std::optional<int>(2));
        QCOMPARE(g.doc.session(), attn::exampleSession());
        QCOMPARE(g.doc.filePath(), path);
        // The same weights: only the fixture's usual remark on its larger tokenizer.
        QCOMPARE(notices.count(), 1);
        // The fixture reads 29 of its tokenizer's tokens: those 29 (7 of them
        // longer than one byte) and the other 256 - 22 bytes, 263 in all.
        QCOMPARE(notices.first().value(0).toString(),
                 QStringLiteral("This model reads the first 29 of its tokenizer's 263 tokens: a text that needs any "
                                "other is refused"));
        QCOMPARE(g.errors.count(), 0);

        // Closing the model leaves the hand-made session of the file.
        g.actions()->closeModel();
        QCOMPARE(g.doc.session(), attn::exampleSession());
        QCOMPARE(g.doc.tokenCount(), 6);
    }

    void versionOneOpensAsBefore()
    {
        // A hand-made file (no "model") closes an open model and shows its session.
        const QString path = m_dir.filePath(QStringLiteral("plain.attn.json"));
        QString error;
        attn::Session plain = attn::exampleSession();
        plain.query = 2;
        QVERIFY2(attn::writeSession(path, plain, &error), qPrintable(error));
        QVERIFY(!attn::sessionToJson(plain).contains("\"model\""));
        Fixture f;
        QVERIFY(f.openModel(m_model));
        QVERIFY(f.window.fileActions()->openPath(path));
        QVERIFY(!f.model()->isOpen());
        QVERIFY(!f.model()->isOpening());
        QCOMPARE(f.doc.session(), plain);
        QCOMPARE(f.doc.query(), 2);
        // Saved again without a model, it has no "model" object.
        QVERIFY(f.window.fileActions()->saveTo(path));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY(!file.readAll().contains("\"model\""));
    }

    void missingModelFolder()
    {
        const QString folder = copyModel(QStringLiteral("moved-gpt2"));
        QVERIFY(!folder.isEmpty());
        const QString path = m_dir.filePath(QStringLiteral("moved.attn.json"));
        QVERIFY(saveWithModel(folder, path));
        QVERIFY(QDir(folder).removeRecursively());

        Fixture f;
        attn::Session before = attn::exampleSession();
        before.query = 3;
        f.doc.resetSession(before);
        QVERIFY(!f.window.fileActions()->openPath(path));
        QCOMPARE(f.errors.count(), 1);
        QCOMPARE(f.errors.first().value(0).toString(),
                 QStringLiteral("moved.attn.json: model.path: the model folder %1 is missing")
                     .arg(QFileInfo(folder).absoluteFilePath()));
        QCOMPARE(f.doc.missingModelFolder(), QFileInfo(folder).absoluteFilePath());
        QVERIFY(!f.model()->isOpen());
        QVERIFY(!f.model()->isOpening());
        QCOMPARE(f.doc.session(), before);
        QVERIFY(f.doc.filePath().isEmpty());

        // Located elsewhere (what the dialog gives in the window): it opens from there.
        QString error;
        QVERIFY2(f.doc.openFile(path, &error, m_model), qPrintable(error));
        QVERIFY(f.idle());
        QVERIFY(f.model()->isOpen());
        QCOMPARE(f.model()->folder(), m_model);
        QCOMPARE(f.model()->layer(), 1);
        QCOMPARE(f.model()->query(), 4);
        QVERIFY(f.doc.missingModelFolder().isEmpty());
    }

    void changedWeightsFile()
    {
        const QString folder = copyModel(QStringLiteral("retrained-gpt2"));
        QVERIFY(!folder.isEmpty());
        const QString path = m_dir.filePath(QStringLiteral("retrained.attn.json"));
        QVERIFY(saveWithModel(folder, path));

        // One weight changes in its lowest mantissa byte: still a valid model.
        QFile weights(folder + QStringLiteral("/model.safetensors"));
        QVERIFY(weights.open(QIODevice::ReadWrite));
        QVERIFY(weights.seek(weights.size() - 4));
        char byte = 0;
        QVERIFY(weights.getChar(&byte));
        QVERIFY(weights.seek(weights.size() - 4));
        QVERIFY(weights.putChar(char(byte ^ 1)));
        weights.close();

        Fixture f;
        QSignalSpy notices(&f.doc, &Document::notice);
        QVERIFY(f.window.fileActions()->openPath(path));
        QVERIFY(f.idle());
        QVERIFY(f.model()->isOpen());
        QCOMPARE(f.model()->text(), kText);
        QCOMPARE(notices.count(), 2); // the tokenizer remark (see roundTrip), then the change
        QCOMPARE(notices.last().value(0).toString(), QStringLiteral("The model file changed since the session was saved"));
        QCOMPARE(f.window.statusBar()->currentMessage(), QStringLiteral("The model file changed since the session was saved"));
    }

    void malformedModel_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("message"); // after "bad.attn.json: "

        QTest::newRow("not an object") << withModel("[]") << "model: expected an object, got a list";
        QTest::newRow("no path") << withModel("{}") << "model.path: missing";
        QTest::newRow("path a number") << withModel(R"({"path": 3})") << "model.path: expected a string, got a number";
        QTest::newRow("empty path") << withModel(R"({"path": ""})")
                                    << "model.path: expected the model's folder, got an empty string";
        QTest::newRow("identity a number") << withModel(R"({"path": "m", "identity": 1})")
                                           << "model.identity: expected a string, got a number";
        QTest::newRow("identity malformed") << withModel(R"({"path": "m", "identity": "sha1:abc"})")
                                            << "model.identity: expected \"size:N sha256:HEX\", got \"sha1:abc\"";
        QTest::newRow("text a list") << withModel(R"({"path": "m", "text": []})")
                                     << "model.text: expected a string, got a list";
        QTest::newRow("layer negative") << withModel(R"({"path": "m", "layer": -1})")
                                        << "model.layer: expected a whole number from 0 to 1048576, got -1";
        QTest::newRow("layer a fraction") << withModel(R"({"path": "m", "layer": 1.5})")
                                          << "model.layer: expected a whole number, got 1.5";
        QTest::newRow("head -2") << withModel(R"({"path": "m", "head": -2})")
                                 << "model.head: expected a whole number from -1 to 1048576, got -2";
        QTest::newRow("query a string") << withModel(R"({"path": "m", "query": "4"})")
                                        << "model.query: expected a number, got a string";
        QTest::newRow("query too large") << withModel(R"({"path": "m", "query": 2000000})")
                                         << "model.query: expected a whole number from 0 to 1048576, got 2000000";
    }

    void malformedModel()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, message);
        QString error;
        QVERIFY(!attn::parseSession(json, QStringLiteral("bad.attn.json"), &error));
        QCOMPARE(error, QStringLiteral("bad.attn.json: ") + message);
    }

    void validModelDefaults()
    {
        QString error;
        const std::optional<attn::Session> s = attn::parseSession(
            withModel(R"({"path": "/models/gpt2", "identity": ")" + kIdentity + R"("})"), QStringLiteral("ok.attn.json"), &error);
        QVERIFY2(s, qPrintable(error));
        QVERIFY(s->model);
        QCOMPARE(s->model->path, QStringLiteral("/models/gpt2"));
        QCOMPARE(s->model->identity, QString::fromLatin1(kIdentity));
        QCOMPARE(s->model->text, QString());
        QCOMPARE(s->model->layer, 0);
        QCOMPARE(s->model->head, 0);
        QCOMPARE(s->model->query, 0);
        // Written and read again, it is the same.
        const std::optional<attn::Session> again = attn::parseSession(attn::sessionToJson(*s), QStringLiteral("ok.attn.json"), &error);
        QVERIFY2(again, qPrintable(error));
        QCOMPARE(*again, *s);
    }
};

QTEST_MAIN(TestModelSession)
#include "tst_modelsession.moc"
