// `attention-explorer train` as a user runs it: JSON lines, the saved folder,
// SIGINT, and bad options refused with one line.

#include "model/modelloader.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <csignal>

class TestTrainCli : public QObject
{
    Q_OBJECT
private slots:
    void trainsAndSaves()
    {
        QTemporaryDir tmp;
        const QString dir = tmp.filePath(QStringLiteral("copy"));
        QProcess p;
        p.start(QStringLiteral(ATTN_APP_PATH), {"train", "--task", "copy", "--steps", "40", "--report-every", "10",
                                                "-o", dir});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        const QList<QByteArray> lines = p.readAllStandardOutput().trimmed().split('\n');
        QCOMPARE(lines.size(), 5);
        const QJsonObject first = QJsonDocument::fromJson(lines.first()).object();
        QCOMPARE(first.value("step").toInt(), 10);
        QVERIFY(first.value("loss").toDouble() > 0);
        QVERIFY(first.contains("accuracy"));
        const QJsonObject last = QJsonDocument::fromJson(lines.last()).object();
        QVERIFY(last.value("steps_per_second").toDouble() > 0);
        QCOMPARE(last.value("steps").toInt(), 40);
        QString error;
        const attn::SharedModelParameters model = attn::loadModel(dir, &error);
        QVERIFY2(model, qPrintable(error));
        QCOMPARE(model->config.vocab, 9);
    }

    void interruptSaves()
    {
        QTemporaryDir tmp;
        const QString dir = tmp.filePath(QStringLiteral("m"));
        QProcess p;
        p.start(QStringLiteral(ATTN_APP_PATH), {"train", "--task", "reverse", "--steps", "1000000", "--report-every",
                                                "5", "-o", dir});
        QVERIFY(p.waitForReadyRead(30000));
        ::kill(pid_t(p.processId()), SIGINT);
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 0);
        const QList<QByteArray> lines = p.readAllStandardOutput().trimmed().split('\n');
        const QJsonObject last = QJsonDocument::fromJson(lines.last()).object();
        QCOMPARE(last.value("stopped").toBool(), true);
        QString error;
        QVERIFY2(attn::loadModel(dir, &error), qPrintable(error));
    }

    void badOptions_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("message");
        QTest::newRow("heads not dividing d_model") << QStringList{"--task", "copy", "--heads", "3", "-o", "OUT"}
                                                    << "--heads 3: must divide --d-model 32";
        QTest::newRow("zero layers") << QStringList{"--task", "copy", "--layers", "0", "-o", "OUT"}
                                     << "--layers must be a whole number from 1 to 12";
        QTest::newRow("unreadable text") << QStringList{"--task", "text", "--text", "TMP/none.txt", "-o", "OUT"}
                                         << "TMP/none.txt: cannot read (No such file or directory)";
        QTest::newRow("unwritable output") << QStringList{"--task", "copy", "-o", "TMP/no/such/m"}
                                           << "-o TMP/no/such/m: the folder TMP/no/such does not exist";
        QTest::newRow("text shorter than the context")
            << QStringList{"--task", "text", "--text", "TMP/short.txt", "--context", "64", "-o", "OUT"}
            << "--context 64: the text has only 11 bytes; use a shorter context";
    }
    void badOptions()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, message);
        QTemporaryDir tmp;
        QFile shortText(tmp.filePath(QStringLiteral("short.txt")));
        QVERIFY(shortText.open(QIODevice::WriteOnly) && shortText.write("hello world") == 11);
        shortText.close();
        for (QString &a : arguments)
            a.replace(QLatin1String("TMP"), tmp.path()).replace(QLatin1String("OUT"), tmp.filePath("out"));
        message.replace(QLatin1String("TMP"), tmp.path());
        QProcess p;
        p.start(QStringLiteral(ATTN_APP_PATH), QStringList{"train"} + arguments);
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitCode(), 2);
        QCOMPARE(QString::fromUtf8(p.readAllStandardError()), "attention-explorer: " + message + "\n");
        QVERIFY(!QFileInfo::exists(tmp.filePath("out")));
    }
};

QTEST_GUILESS_MAIN(TestTrainCli)
#include "tst_traincli.moc"
