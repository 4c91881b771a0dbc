// What starting the program leaves behind: where its files go, and nothing
// printed. The folders are named by the program once
// (~/.local/share/attention-explorer/models, not
// .../attention-explorer/attention-explorer/models, Qt's AppDataLocation with
// an organisation of the same name); models trained by earlier versions
// under that old path are still listed. A clean start of the window, and
// opening the Learn dialogs, print no Qt warning (one said
// "QWidget::setMinimumSize: (/QLabel) Negative sizes (0,-1)").
//
// The XDG folders point into a temporary directory, so the expected paths
// below are written out by hand.

#include "autosaver.h"
#include "document.h"
#include "lessons/examples.h"
#include "fileactions.h"
#include "io/appfolders.h"
#include "mainwindow.h"
#include "mistakesdialog.h"
#include "practicedialog.h"
#include "lessons/shippedmodel.h"
#include "trainedmodelsmenu.h"
#include "trainingsession.h"

#include <QAction>
#include <QDir>
#include <QFile>
#include <QMenuBar>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

namespace {

QStringList g_messages;
QtMessageHandler g_previous = nullptr;

void collect(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    // The offscreen platform the tests run on says what it cannot do
    // ("This plugin does not support raise()"); a desktop's platform does not.
    const bool platformNote = message.startsWith(QLatin1String("This plugin does not support"));
    if (type != QtDebugMsg && type != QtInfoMsg && !platformNote)
        g_messages << message;
    if (g_previous)
        g_previous(type, context, message);
}

bool makeModelFolder(const QString &folder)
{
    QFile config(QDir(folder).filePath(QStringLiteral("config.json")));
    return QDir().mkpath(folder) && config.open(QIODevice::WriteOnly) && config.write("{}") == 2;
}

} // namespace

class TestWindowStart : public QObject
{
    Q_OBJECT

    QTemporaryDir m_home;

private slots:
    void initTestCase()
    {
        QVERIFY(m_home.isValid());
        qputenv("XDG_DATA_HOME", QFile::encodeName(m_home.filePath(QStringLiteral("data"))));
        qputenv("XDG_CACHE_HOME", QFile::encodeName(m_home.filePath(QStringLiteral("cache"))));
        qputenv("XDG_CONFIG_HOME", QFile::encodeName(m_home.filePath(QStringLiteral("config"))));
        qunsetenv("ATTN_RECOVERY_DIR");
        attn::setApplicationNames();
    }

    void foldersNameTheProgramOnce()
    {
        const QString data = m_home.filePath(QStringLiteral("data"));
        QCOMPARE(TrainingSession::modelsFolder(), data + QStringLiteral("/attention-explorer/models"));
        QCOMPARE(Autosaver::defaultDirectory(), data + QStringLiteral("/attention-explorer/recovery"));
        QString error;
        const std::optional<attn::ShippedModel> shipped = attn::shippedModel(attn::ShippedLesson::Pronouns, &error);
        QVERIFY2(shipped, qPrintable(error));
        QCOMPARE(QFileInfo(shipped->folder).path(), m_home.filePath(QStringLiteral("cache")) + "/attention-explorer/models");
        // Settings stay where they always were.
        QCOMPARE(QSettings().fileName(),
                 m_home.filePath(QStringLiteral("config")) + "/attention-explorer/attention-explorer.conf");
    }

    void modelsTrainedUnderTheOldPathAreStillFound()
    {
        const QString data = m_home.filePath(QStringLiteral("data"));
        const QString before = data + QStringLiteral("/attention-explorer/attention-explorer/models/induction-old");
        const QString now = data + QStringLiteral("/attention-explorer/models/induction-new");
        QVERIFY(makeModelFolder(before));
        QTest::qWait(20); // a later modification time
        QVERIFY(makeModelFolder(now));
        QCOMPARE(TrainedModelsMenu::trainedModelFolders(), (QStringList{now, before})); // newest first
        QCOMPARE(Autosaver::earlierDirectories(),
                 QStringList{data + QStringLiteral("/attention-explorer/attention-explorer/recovery")});
        TrainedModelsMenu menu;
        menu.popup(QPoint(0, 0));
        QCOMPARE(menu.actions().size(), 2);
        menu.hide();
    }

    void aCleanStartPrintsNothing()
    {
        g_messages.clear();
        struct Collecting // until the end of this function, however it ends
        {
            Collecting() { g_previous = qInstallMessageHandler(collect); }
            ~Collecting() { qInstallMessageHandler(g_previous); }
        } collecting;
        {
            Document document;
            MainWindow window(&document);
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            QTest::qWait(50);
            const QStringList atStart = g_messages;
            QVERIFY2(atStart.isEmpty(), qPrintable(atStart.join(QLatin1Char('\n'))));
            // The Learn dialogs belong to the window too.
            for (QAction *menu : window.menuBar()->actions())
                if (menu->menu())
                    for (QAction *a : menu->menu()->actions())
                        if (a->text() == QStringLiteral("&Mistakes made visible…") || a->text() == QStringLiteral("&Practice…"))
                            a->trigger();
            QVERIFY(window.findChild<MistakesDialog *>() && window.findChild<PracticeDialog *>());
            QTest::qWait(50);
            window.findChild<MistakesDialog *>()->close();
            window.findChild<PracticeDialog *>()->close();
            window.fileActions()->setInteractive(false);
        }
        QVERIFY2(g_messages.isEmpty(), qPrintable(g_messages.join(QLatin1Char('\n'))));
    }
};

QTEST_MAIN(TestWindowStart)
#include "tst_windowstart.moc"
