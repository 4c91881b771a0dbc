// File › Models on This Computer in the window: the fake stores of
// tests/data/stores/stores.json laid out in a fake home folder are listed
// (every row stores.json expects, once), the filter narrows them by name,
// family, quantisation and store, columns sort by their numbers, a GGUF file
// of the LM Studio folder opens with Enter, the Open button or a double click
// exactly as File › Open Model opens it (its name in the window's title), a
// row that cannot be opened is greyed, says why and opens nothing, and a
// model that fails when opened leaves the open one with a one-line message.

#include "fakestores.h"
#include "modelwindowfixture.h"

#include "modellistdialog.h"
#include "modellistmodel.h"

#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

namespace {

const QString kLmStudioQwen = QStringLiteral("lmstudio-community/Qwen2-Tiny-GGUF/qwen2-tiny-Q8_0.gguf");

struct Fixture : ModelWindowFixture
{
    ModelListDialog *list = nullptr;

    // Opens File › Models on This Computer with its shortcut and waits for the listing.
    bool showList()
    {
        window.activateWindow(); // shortcuts reach the active window
        if (!QTest::qWaitForWindowActive(&window))
            return false;
        QTest::keyClick(&window, Qt::Key_O, Qt::ControlModifier | Qt::ShiftModifier);
        list = actions()->modelList();
        return list && list->isVisible()
               && QTest::qWaitFor([&] { return !list->listModel()->isListing(); }, 20000);
    }
    QSortFilterProxyModel *rows() { return list->shownRows(); }
    // The shown row of the entry named `name`, -1 when not shown.
    int rowOf(const QString &name)
    {
        for (int r = 0; r < rows()->rowCount(); ++r)
            if (rows()->index(r, ModelListModel::Name).data().toString() == name)
                return r;
        return -1;
    }
    QStringList shownNames()
    {
        QStringList names;
        for (int r = 0; r < rows()->rowCount(); ++r)
            names << rows()->index(r, ModelListModel::Name).data().toString();
        return names;
    }
    void choose(const QString &name)
    {
        list->table()->setCurrentIndex(rows()->index(rowOf(name), 0));
    }
};

} // namespace

class TestModelListWindow : public QObject
{
    Q_OBJECT

    QTemporaryDir m_home;
    QByteArray m_oldHome;

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_home.isValid());
        m_oldHome = qgetenv("HOME");
        qputenv("HOME", m_home.path().toUtf8());
        for (const char *moved : {"XDG_CACHE_HOME", "HF_HOME", "HF_HUB_CACHE", "HUGGINGFACE_HUB_CACHE", "OLLAMA_MODELS", "LLAMA_CACHE"})
            qunsetenv(moved);
        QVERIFY(fakestores::layOutHome(m_home.path()));
        // A file whose header reads well but whose weights do not: it fails only when opened.
        QVERIFY(QDir().mkpath(m_home.path() + "/.lmstudio/models/hostile/Nan-GGUF"));
        QVERIFY(QFile::copy(QStringLiteral(ATTN_TEST_DATA "/gguf/hostile/scale-nan.gguf"),
                            m_home.path() + "/.lmstudio/models/hostile/Nan-GGUF/scale-nan.gguf"));
    }

    void cleanupTestCase() { qputenv("HOME", m_oldHome); }

    void listsEveryStore()
    {
        Fixture f;
        QVERIFY(f.showList());
        QCOMPARE(f.list->windowTitle(), QStringLiteral("Models on This Computer"));
        // Every entry stores.json expects (a name of a file listed under another excepted), and the file added here.
        QStringList expected{"hostile/Nan-GGUF/scale-nan.gguf"};
        const QJsonObject all = fakestores::all();
        for (const auto &[which, place] : fakestores::homePlaces())
            for (const QJsonValue &v : all.value(which).toObject().value(QLatin1String("models")).toArray())
                if (!v.toObject().contains(QLatin1String("same_file_as")))
                    expected << v.toObject().value(QLatin1String("name")).toString();
        QStringList shown = f.shownNames();
        std::sort(expected.begin(), expected.end());
        std::sort(shown.begin(), shown.end());
        QCOMPARE(shown, expected);
        // A row as people read it.
        const int qwen = f.rowOf(QStringLiteral("qwen2.5:0.5b"));
        const auto cell = [&](int row, int column) { return f.rows()->index(row, column).data().toString(); };
        QCOMPARE(cell(qwen, ModelListModel::Store), QStringLiteral("Ollama"));
        QCOMPARE(cell(qwen, ModelListModel::Family), QStringLiteral("qwen2"));
        QCOMPARE(cell(qwen, ModelListModel::Parameters), QStringLiteral("80.8 K")); // 80,768
        QCOMPARE(cell(qwen, ModelListModel::Quantisation), QStringLiteral("gguf-Q8_0"));
        QCOMPARE(cell(qwen, ModelListModel::Size), QStringLiteral("94.5 kB"));   // 94,528 bytes
        QCOMPARE(cell(qwen, ModelListModel::Notes), QStringLiteral("also Ollama qwen2.5:latest"));
        const int q4 = f.rowOf(QStringLiteral("hf.co/tiny-org/Llama-Tiny-GGUF:Q4_K_M"));
        QCOMPARE(cell(q4, ModelListModel::Quantisation), QStringLiteral("gguf-Q4_K (Q4_K_M)"));
        QCOMPARE(cell(q4, ModelListModel::Parameters), QStringLiteral("936 K"));
        const int folder = f.rowOf(QStringLiteral("tiny-org/llama-bf16"));
        QCOMPARE(cell(folder, ModelListModel::Store), QStringLiteral("Hugging Face"));
        QCOMPARE(cell(folder, ModelListModel::Quantisation), QStringLiteral("safetensors-BF16"));
        QCOMPARE(f.list->statusLabel()->text(), QStringLiteral("%1 models").arg(expected.size()));
    }

    void theFilterNarrowsTheList()
    {
        Fixture f;
        QVERIFY(f.showList());
        const int all = f.rows()->rowCount();
        QTest::keyClicks(f.list->filterEdit(), QStringLiteral("q8_0"));
        QStringList shown = f.shownNames();
        shown.sort();
        QCOMPARE(shown, (QStringList{"ggml-org/Qwen2-Tiny-GGUF/qwen2-tiny-q8_0.gguf", "hostile/Nan-GGUF/scale-nan.gguf",
                                     kLmStudioQwen, "qwen2.5:0.5b"}));
        QCOMPARE(f.list->statusLabel()->text(), QStringLiteral("4 of %1 models shown").arg(all));
        // Every word must match one of name, family, quantisation or store, in any case.
        f.list->filterEdit()->setText(QStringLiteral("OLLAMA q4_k"));
        QCOMPARE(f.shownNames(), QStringList{"hf.co/tiny-org/Llama-Tiny-GGUF:Q4_K_M"});
        f.list->filterEdit()->setText(QStringLiteral("gemma"));
        QCOMPARE(f.shownNames(), QStringList{"google/gemma-tiny-GGUF/gemma-tiny-F32.gguf"});
        f.list->filterEdit()->setText(QStringLiteral("hugging safetensors"));
        QCOMPARE(f.shownNames(), QStringList{"tiny-org/llama-bf16"});
        f.list->filterEdit()->setText(QStringLiteral("nothing like this"));
        QCOMPARE(f.rows()->rowCount(), 0);
        QVERIFY(!f.list->openButton()->isEnabled());
        f.list->filterEdit()->clear();
        QCOMPARE(f.rows()->rowCount(), all);
    }

    void columnsSortByTheirNumbers()
    {
        Fixture f;
        QVERIFY(f.showList());
        f.list->table()->sortByColumn(ModelListModel::Size, Qt::AscendingOrder);
        qint64 before = -1;
        for (int r = 0; r < f.rows()->rowCount(); ++r) {
            const qint64 bytes = f.rows()->index(r, ModelListModel::Size).data(ModelListModel::SortRole).toLongLong();
            QVERIFY(bytes >= before);
            before = bytes;
        }
        // 94.5 kB (qwen2) after 52.7 kB (gemma) and before 582 kB: numbers, not text.
        QVERIFY(f.rowOf(QStringLiteral("google/gemma-tiny-GGUF/gemma-tiny-F32.gguf")) < f.rowOf(kLmStudioQwen));
        QVERIFY(f.rowOf(kLmStudioQwen) < f.rowOf(QStringLiteral("hf.co/tiny-org/Llama-Tiny-GGUF:Q4_K_M")));
        f.list->table()->sortByColumn(ModelListModel::Parameters, Qt::DescendingOrder);
        QCOMPARE(f.rows()->index(0, ModelListModel::Parameters).data().toString(), QStringLiteral("936 K"));
    }

    void enterOpensAGgufFileOfLmStudio()
    {
        Fixture f;
        QVERIFY(f.showList());
        QTest::keyClicks(f.list->filterEdit(), QStringLiteral("lm studio qwen2"));
        QCOMPARE(f.shownNames(), QStringList{kLmStudioQwen});
        QTest::keyClick(f.list->filterEdit(), Qt::Key_Return);
        QVERIFY(f.idle());
        QVERIFY2(f.model()->isOpen(), qPrintable(f.actions()->lastError()));
        QVERIFY(!f.list->isVisible());
        QCOMPARE(f.model()->folder(), m_home.path() + "/.lmstudio/models/" + kLmStudioQwen);
        QCOMPARE(f.model()->name(), QStringLiteral("qwen2-tiny-Q8_0.gguf"));
        QVERIFY2(f.window.windowTitle().startsWith(QStringLiteral("qwen2-tiny-Q8_0.gguf · ")), qPrintable(f.window.windowTitle()));
        QCOMPARE(f.model()->model()->format(), QStringLiteral("gguf-Q8_0"));
        QCOMPARE(f.model()->config()->modelType, QStringLiteral("qwen2"));
    }

    void theButtonAndADoubleClickOpenToo()
    {
        Fixture f;
        QVERIFY(f.showList());
        f.choose(QStringLiteral("qwen2.5:0.5b"));
        QVERIFY(f.list->openButton()->isEnabled());
        QTest::mouseClick(f.list->openButton(), Qt::LeftButton);
        QVERIFY(f.idle());
        QVERIFY2(f.model()->isOpen(), qPrintable(f.actions()->lastError()));
        QCOMPARE(f.model()->folder(), QStringLiteral("ollama:qwen2.5:0.5b")); // a session remembers the name
        QCOMPARE(f.model()->name(), QStringLiteral("qwen2.5:0.5b"));

        QVERIFY(f.showList());
        const int row = f.rowOf(QStringLiteral("tiny-org/llama-bf16"));
        const QRect cell = f.list->table()->visualRect(f.rows()->index(row, ModelListModel::Name));
        // A double click is a click, then the second press (QTest sends only the latter).
        QTest::mouseClick(f.list->table()->viewport(), Qt::LeftButton, Qt::NoModifier, cell.center());
        QVERIFY(f.list->isVisible()); // a click chooses, it does not open
        QTest::mouseDClick(f.list->table()->viewport(), Qt::LeftButton, Qt::NoModifier, cell.center());
        QVERIFY(f.idle());
        QVERIFY2(f.model()->isOpen(), qPrintable(f.actions()->lastError()));
        QCOMPARE(f.model()->name(), QStringLiteral("tiny-org/llama-bf16"));
        QCOMPARE(f.model()->model()->format(), QStringLiteral("safetensors-BF16"));
    }

    void aBrokenRowOpensNothing()
    {
        Fixture f;
        QVERIFY(f.open(QStringLiteral(ATTN_TEST_DATA "/gguf/families/qwen2.gguf")));
        QVERIFY(f.model()->isOpen());
        QVERIFY(f.showList());
        f.choose(QStringLiteral("broken:latest"));
        const QModelIndex name = f.list->table()->currentIndex();
        QCOMPARE(name.data().toString(), QStringLiteral("broken:latest"));
        // Greyed, its reason in the row and its tooltip, and no Open.
        QCOMPARE(name.data(Qt::ForegroundRole).value<QBrush>().color(), QApplication::palette().color(QPalette::Disabled, QPalette::Text));
        const QString notes = f.rows()->index(name.row(), ModelListModel::Notes).data().toString();
        // The reason without the manifest's name, which the row gives already (the tooltip has it whole).
        QVERIFY2(notes.startsWith(QStringLiteral("the manifest is not valid JSON (")), qPrintable(notes));
        QVERIFY(name.data(Qt::ToolTipRole).toString().startsWith(QStringLiteral("Cannot be opened: manifest registry.ollama.ai/library/broken/latest")));
        QVERIFY(f.list->detailsLabel()->text().startsWith(QStringLiteral("Cannot be opened: ")));
        QVERIFY(!f.list->openButton()->isEnabled());
        QSignalSpy requests(f.list, &ModelListDialog::openRequested);
        QTest::keyClick(f.list->table(), Qt::Key_Return);
        const QRect cell = f.list->table()->visualRect(name);
        QTest::mouseClick(f.list->table()->viewport(), Qt::LeftButton, Qt::NoModifier, cell.center());
        QTest::mouseDClick(f.list->table()->viewport(), Qt::LeftButton, Qt::NoModifier, cell.center());
        QVERIFY(!f.list->openCurrent());
        QCOMPARE(requests.count(), 0);
        QVERIFY(f.list->isVisible());
        QCOMPARE(f.model()->folder(), QStringLiteral(ATTN_TEST_DATA "/gguf/families/qwen2.gguf"));
    }

    void aModelThatFailsLeavesTheOpenOne()
    {
        Fixture f;
        QVERIFY(f.open(QStringLiteral(ATTN_TEST_DATA "/gguf/families/qwen2.gguf")));
        QVERIFY(f.showList());
        f.choose(QStringLiteral("hostile/Nan-GGUF/scale-nan.gguf"));
        QVERIFY(f.list->openButton()->isEnabled()); // its header is fine: only its weights are not
        QSignalSpy failures(f.model(), &ModelDocument::openFailed);
        QTest::keyClick(f.list->table(), Qt::Key_Return);
        QVERIFY(f.idle());
        QCOMPARE(failures.count(), 1);
        QVERIFY(f.model()->isOpen());
        QCOMPARE(f.model()->folder(), QStringLiteral(ATTN_TEST_DATA "/gguf/families/qwen2.gguf"));
        const QString error = f.actions()->lastError();
        QVERIFY2(error.startsWith(QStringLiteral("Cannot open the model: scale-nan.gguf: ")), qPrintable(error));
        QVERIFY(error.contains(QStringLiteral("token_embd.weight")));
        QVERIFY(!error.contains('\n'));
    }
};

QTEST_MAIN(TestModelListWindow)
#include "tst_modellistwindow.moc"
