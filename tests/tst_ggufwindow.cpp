// GGUF files and Ollama models in the window: File › Open Model's dialog
// takes a GGUF file as well as a folder; a GGUF file dropped on the window
// opens as a model, and a hostile one is refused with its one line while the
// model already open stays; sessions remember a GGUF file by its path and an
// Ollama model by its name (resolved again through the store when opened),
// and one whose model has gone leaves the open session as it was.

#include "fakestores.h"
#include "modelwindowfixture.h"

#include "io/fileidentity.h"
#include "modelfiledialog.h"
#include "model/modelloader.h"
#include "session/sessionio.h"

#include <QApplication>
#include <QLabel>
#include <QStatusBar>
#include <QMimeData>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

namespace {

const QString kGguf = QStringLiteral(ATTN_TEST_DATA "/gguf/");
const QString kText = QStringLiteral("The robot moved the box");

struct Fixture : ModelWindowFixture
{
    QSignalSpy errors{window.fileActions(), &FileActions::errorOccurred};

    void drop(const QString &path)
    {
        QMimeData mime;
        mime.setUrls({QUrl::fromLocalFile(path)});
        const QPoint at = window.rect().center();
        QDragEnterEvent enter(at, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&window, &enter);
        QDropEvent dropped(QPointF(at), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(&window, &dropped);
    }
};

// Answers the next ModelFileDialog with `choice` (or cancels it when empty).
void answerDialog(const QString &choice)
{
    QTimer::singleShot(0, [choice] {
        auto *dialog = qobject_cast<ModelFileDialog *>(QApplication::activeModalWidget());
        if (!dialog)
            qFatal("no model file dialog is open");
        if (choice.isEmpty()) {
            dialog->reject();
            return;
        }
        dialog->selectFile(choice);
        dialog->accept();
        if (dialog->isVisible())
            dialog->reject(); // not taken: the test fails, not hangs
    });
}

} // namespace

class TestGgufWindow : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
    }

    void theDialogTakesFilesAndFolders()
    {
        // Qt's own dialogs pick folders or files; this one shows both and takes either.
        ModelFileDialog files(nullptr, QStringLiteral("Open"), kGguf + "families");
        QCOMPARE(files.fileMode(), QFileDialog::Directory);
        QVERIFY(!files.testOption(QFileDialog::ShowDirsOnly));
        QVERIFY(files.testOption(QFileDialog::DontUseNativeDialog));
        files.selectFile(kGguf + "families/qwen3.gguf");
        files.accept();
        QCOMPARE(files.result(), int(QDialog::Accepted));
        QCOMPARE(files.chosenModel(), kGguf + "families/qwen3.gguf");
        ModelFileDialog folders(nullptr, QStringLiteral("Open"), QStringLiteral(ATTN_TEST_DATA "/families"));
        folders.selectFile(QStringLiteral(ATTN_TEST_DATA "/families/llama"));
        folders.accept();
        QCOMPARE(folders.result(), int(QDialog::Accepted));
        QCOMPARE(folders.chosenModel(), QStringLiteral(ATTN_TEST_DATA "/families/llama"));
        // Shown, a GGUF file chosen in the list can be opened with the Open button.
        ModelFileDialog shown(nullptr, QStringLiteral("Open"), kGguf + "quantised");
        shown.show();
        shown.selectFile(kGguf + "quantised/qwen2-q8_0.gguf");
        QVERIFY(shown.openButton());
        QTRY_VERIFY(shown.openButton()->isEnabled());
        QTest::mouseClick(shown.openButton(), Qt::LeftButton);
        QCOMPARE(shown.result(), int(QDialog::Accepted));
        QCOMPARE(shown.chosenModel(), kGguf + "quantised/qwen2-q8_0.gguf");
        // A folder that is no model is looked into, not opened.
        ModelFileDialog browse(nullptr, QStringLiteral("Open"), QStringLiteral(ATTN_TEST_DATA));
        browse.selectFile(kGguf + "quantised");
        browse.accept();
        QCOMPARE(browse.result(), int(QDialog::Rejected));
        QCOMPARE(browse.directory().absolutePath(), QDir(kGguf + "quantised").absolutePath());
        QVERIFY(browse.chosenModel().isEmpty());
    }

    void openModelOpensAGgufFile()
    {
        Fixture f;
        QAction *open = nullptr;
        for (QAction *a : f.window.findChildren<QAction *>())
            if (a->text().remove(QLatin1Char('&')) == QStringLiteral("Open Model…"))
                open = a;
        QVERIFY(open);
        answerDialog(kGguf + "quantised/llama-q4_k_m.gguf");
        open->trigger();
        QVERIFY(f.idle());
        QVERIFY2(f.model()->isOpen(), qPrintable(f.actions()->lastError()));
        QCOMPARE(f.model()->name(), QStringLiteral("llama-q4_k_m.gguf"));
        QCOMPARE(f.model()->model()->format(), QStringLiteral("gguf-Q4_K"));
        QCOMPARE(f.model()->config()->layers, 2);
    }

    void droppedFiles()
    {
        Fixture f;
        f.type(kText);
        f.drop(kGguf + "families/qwen2.gguf");
        QVERIFY(f.idle());
        QVERIFY2(f.model()->isOpen(), qPrintable(f.actions()->lastError()));
        QCOMPARE(f.model()->folder(), kGguf + "families/qwen2.gguf");
        QCOMPARE(f.model()->tokenizer()->encodeIds(kText), (std::vector<int>{257, 262, 267, 270, 273}));
        QVERIFY(f.doc.filePath().isEmpty()); // a model, not a session
        // Hostile files are refused with their one line; the model stays.
        QSignalSpy failures(f.model(), &ModelDocument::openFailed);
        for (const char *hostile : {"scale-nan.gguf", "not-gguf.gguf", "vocab-size-mismatch.gguf", "truncated-data.gguf"}) {
            f.drop(kGguf + "hostile/" + QLatin1String(hostile));
            QVERIFY(f.idle());
            QVERIFY(f.model()->isOpen());
            QCOMPARE(f.model()->folder(), kGguf + "families/qwen2.gguf");
            QVERIFY2(f.actions()->lastError().startsWith(QStringLiteral("Cannot open the model: %1: ").arg(QLatin1String(hostile))),
                     qPrintable(f.actions()->lastError()));
            QVERIFY(!f.actions()->lastError().contains('\n'));
        }
        QCOMPARE(failures.count(), 4);
        QCOMPARE(f.model()->text(), kText);
    }

    // A large file's blocks are checked as the pass converts them, so a bad
    // one is found while computing, not at open: the window says which
    // tensor in one line, keeps the text, computes nothing wrong, and
    // computes again once a good model is open. The size from which blocks
    // are checked that way is brought down to this small file's.
    void cleanup() { attn::setGgufCheckedWholeBytes(std::nullopt); } // whatever a test set, and however it ended

    void aBadBlockFoundWhileComputing()
    {
        attn::setGgufCheckedWholeBytes(0);
        Fixture f;
        f.type(kText);
        QVERIFY(f.open(kGguf + "families/qwen2.gguf"));
        QVERIFY(f.model()->trace());
        QVERIFY(f.open(kGguf + "hostile/scale-inf.gguf"));
        QVERIFY2(f.model()->isOpen(), qPrintable(f.actions()->lastError())); // opened: no block was converted
        QCOMPARE(f.model()->folder(), kGguf + "hostile/scale-inf.gguf");
        const QString error = f.doc.snapshot()->error;
        QVERIFY2(error.contains(QStringLiteral("blk.0.ffn_up.weight")) && error.contains(QStringLiteral("not finite")),
                 qPrintable(error));
        QVERIFY(!error.contains(QLatin1Char('\n')));
        bool shown = false;
        for (const QLabel *label : f.window.statusBar()->findChildren<QLabel *>())
            shown = shown || label->text() == QStringLiteral("Cannot compute: ") + error;
        QVERIFY(shown);
        QVERIFY(!f.model()->trace()); // nothing of the bad file's numbers is shown
        QCOMPARE(f.model()->text(), kText);
        QVERIFY(f.open(kGguf + "families/qwen2.gguf"));
        QVERIFY(f.model()->trace());
        QVERIFY(f.doc.snapshot()->error.isEmpty());
    }

    void sessionsRememberAGgufFile()
    {
        const QString gguf = m_dir.filePath("tiny.gguf");
        QVERIFY(QFile::copy(kGguf + "families/gemma.gguf", gguf));
        const QString path = m_dir.filePath("gguf.attn.json");
        {
            Fixture f;
            QVERIFY(f.open(gguf));
            f.type(kText);
            QVERIFY(f.idle());
            QVERIFY(f.window.fileActions()->saveTo(path));
        }
        QString error;
        const std::optional<attn::Session> read = attn::readSession(path, &error);
        QVERIFY2(read && read->model, qPrintable(error));
        QCOMPARE(read->model->path, gguf);
        QCOMPARE(read->model->identity, attn::fileIdentity(gguf, &error));
        Fixture g;
        QVERIFY(g.window.fileActions()->openPath(path));
        QVERIFY(g.idle());
        QVERIFY2(g.model()->isOpen(), qPrintable(g.actions()->lastError()));
        QCOMPARE(g.model()->folder(), gguf);
        QCOMPARE(g.model()->text(), kText);
        // Gone: the open session stays, and the message says which file.
        QVERIFY(QFile::remove(gguf));
        Fixture h;
        QVERIFY(!h.window.fileActions()->openPath(path));
        QCOMPARE(h.errors.count(), 1);
        QVERIFY2(h.errors.first().value(0).toString().contains(
                     QStringLiteral("gguf.attn.json: model.path: the model file %1 is missing").arg(gguf)),
                 qPrintable(h.errors.first().value(0).toString()));
        QVERIFY(!h.model()->isOpen());
    }

    void sessionsRememberAnOllamaName()
    {
        const QString root = fakestores::layOut(QStringLiteral("ollama"), m_dir.filePath("store"));
        QVERIFY(!root.isEmpty());
        qputenv("OLLAMA_MODELS", root.toUtf8());
        const QString path = m_dir.filePath("ollama.attn.json");
        {
            Fixture f;
            QVERIFY(f.open(QStringLiteral("ollama:qwen2.5:0.5b")));
            QVERIFY2(f.model()->isOpen(), qPrintable(f.actions()->lastError()));
            QCOMPARE(f.model()->name(), QStringLiteral("qwen2.5:0.5b"));
            f.type(kText);
            QVERIFY(f.idle());
            QVERIFY(f.window.fileActions()->saveTo(path));
        }
        QString error;
        const std::optional<attn::Session> read = attn::readSession(path, &error);
        QVERIFY2(read && read->model, qPrintable(error));
        QCOMPARE(read->model->path, QStringLiteral("ollama:qwen2.5:0.5b")); // a name, not a blob's path
        {
            Fixture g;
            QVERIFY(g.window.fileActions()->openPath(path));
            QVERIFY(g.idle());
            QVERIFY2(g.model()->isOpen(), qPrintable(g.actions()->lastError()));
            QCOMPARE(g.model()->folder(), QStringLiteral("ollama:qwen2.5:0.5b"));
            QCOMPARE(g.model()->text(), kText);
        }
        // A store without it: refused, naming the model.
        qputenv("OLLAMA_MODELS", m_dir.filePath("empty-store").toUtf8());
        Fixture h;
        QVERIFY(!h.window.fileActions()->openPath(path));
        QCOMPARE(h.errors.count(), 1);
        QVERIFY2(h.errors.first().value(0).toString().contains(
                     QStringLiteral("ollama.attn.json: model.path: the model ollama:qwen2.5:0.5b is not in the Ollama store")),
                 qPrintable(h.errors.first().value(0).toString()));
        qunsetenv("OLLAMA_MODELS");
    }
};

QTEST_MAIN(TestGgufWindow)
#include "tst_ggufwindow.moc"
