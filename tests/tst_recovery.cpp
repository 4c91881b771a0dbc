#include "autosaver.h"
#include "document.h"
#include "recovery_edits.h"
#include "session/sessionio.h"

#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

// Autosave and crash recovery, with a real process killed by SIGKILL.
class TestRecovery : public QObject
{
    Q_OBJECT
private slots:
    void restoresAfterKill()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QProcess child;
        child.start(QStringLiteral(ATTN_RECOVERY_CHILD), {dir.path()});
        QVERIFY(child.waitForStarted());
        QVERIFY(child.waitForReadyRead(10000));
        QCOMPARE(child.readAllStandardOutput().trimmed(), QByteArray("ready"));
        child.kill(); // SIGKILL: no clean-up code runs in the child
        QVERIFY(child.waitForFinished());
        QCOMPARE(child.exitStatus(), QProcess::CrashExit);

        const QStringList orphans = Autosaver::orphanedFiles(dir.path());
        QCOMPARE(orphans.size(), 1);
        QCOMPARE(Autosaver::originalPath(orphans.first()), QString());

        Document expected;
        applyRecoveryEdits(expected);
        QString error;
        const std::optional<attn::Session> recovered = attn::readSession(orphans.first(), &error);
        QVERIFY2(recovered, qPrintable(error));
        QCOMPARE(*recovered, expected.session());

        Document restored;
        restored.restoreRecovered(*recovered, QString());
        QCOMPARE(restored.session(), expected.session());
        QVERIFY(restored.isModified()); // the user still has to save it
        QCOMPARE(restored.result().output, expected.result().output);
    }

    void cleanDocumentWritesNothing()
    {
        QTemporaryDir dir;
        Document document;
        Autosaver autosaver(&document, dir.path());
        QVERIFY(!autosaver.saveNow());
        QVERIFY(!QFile::exists(autosaver.recoveryPath()));
        document.setQuery(2); // navigation, not a change
        QVERIFY(!autosaver.saveNow());
        document.setEmbeddingValue(1, 0, 0.25);
        QVERIFY(autosaver.saveNow());
        QVERIFY(QFile::exists(autosaver.recoveryPath()));
        QVERIFY(!autosaver.saveNow()); // nothing new since the last write
        // A running process's own file is never offered for recovery.
        QVERIFY(Autosaver::orphanedFiles(dir.path()).isEmpty());
        // Saving makes the document clean: the recovery file goes away.
        QString error;
        QVERIFY(document.saveFile(dir.filePath(QStringLiteral("s.attn.json")), &error));
        QVERIFY(!QFile::exists(autosaver.recoveryPath()));
    }

    void remembersTheOriginalFile()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("mine.attn.json"));
        Document document;
        QString error;
        QVERIFY(document.saveFile(path, &error));
        Autosaver autosaver(&document, dir.path());
        document.setEmbeddingValue(0, 0, 0.5);
        QVERIFY(autosaver.saveNow());
        QCOMPARE(Autosaver::originalPath(autosaver.recoveryPath()), path);
    }
};

QTEST_MAIN(TestRecovery)
#include "tst_recovery.moc"
