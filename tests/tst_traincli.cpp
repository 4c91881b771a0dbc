// `attention-explorer train` as a user runs it: JSON lines, the saved folder,
// SIGINT, and bad options refused with one line.

#include "learn/modelwriter.h"
#include "learn/trainer.h"
#include "model/modelloader.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QThread>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <csignal>

namespace {

QJsonObject trainingOf(const QString &dir)
{
    QFile f(dir + "/config.json");
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object().value("attention_explorer_training").toObject();
}

// An old model in DIR (seed 7, 5 steps) for a later run to replace.
bool trainOldModel(const QString &dir)
{
    QProcess p;
    p.start(QStringLiteral(ATTN_APP_PATH), {"train", "--task", "reverse", "--steps", "5", "--seed", "7", "-o", dir});
    return p.waitForFinished(60000) && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0
           && trainingOf(dir).value("seed").toString() == "7";
}

QStringList beside(const QString &dir)
{
    return QDir(QFileInfo(dir).absolutePath()).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden);
}

const QStringList kLongRun{"train", "--task", "reverse", "--steps", "1000000", "--seed", "8", "--report-every", "5"};

} // namespace

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
        QVERIFY(!trainingOf(dir).contains("every_token")); // only the runs that asked for it say so
    }

    // A Llama-style run from the command line: a llama folder that compute --model opens.
    void trainsLlamaAndSaves()
    {
        QTemporaryDir tmp;
        const QString dir = tmp.filePath(QStringLiteral("llama"));
        QProcess p;
        p.start(QStringLiteral(ATTN_APP_PATH), {"train", "--task", "pronoun", "--family", "llama", "--heads", "4",
                                                "--kv-heads", "2", "--every-token", "--steps", "30",
                                                "--report-every", "10", "-o", dir});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        const QList<QByteArray> lines = p.readAllStandardOutput().trimmed().split('\n');
        QCOMPARE(lines.size(), 4);
        QVERIFY(QJsonDocument::fromJson(lines.last()).object().value("steps_per_second").toDouble() > 0);
        // Every word counts: chance is a guess among the task's 58 words, not among its 14 verbs.
        QCOMPARE(QJsonDocument::fromJson(lines.first()).object().value("chance").toDouble(), 1.0 / 58);
        QCOMPARE(trainingOf(dir).value("family").toString(), QStringLiteral("llama"));
        QCOMPARE(trainingOf(dir).value("every_token").toBool(), true);
        QString error;
        const attn::SharedModelParameters model = attn::loadModel(dir, &error);
        QVERIFY2(model, qPrintable(error));
        QCOMPARE(model->config.modelType, QStringLiteral("llama"));
        QCOMPARE(model->config.kvHeads(), 2);
        QCOMPARE(model->config.vocab, 59); // the task's 58 words and the beginning token

        const QString result = tmp.filePath(QStringLiteral("result.json"));
        QProcess compute;
        compute.start(QStringLiteral(ATTN_APP_PATH), {"compute", "--model", dir, "--text", "The man found the lamp and it",
                                                      "-o", result});
        QVERIFY(compute.waitForFinished(60000));
        QCOMPARE(compute.exitCode(), 0);
        QFile f(result);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QJsonObject r = QJsonDocument::fromJson(f.readAll()).object();
        QCOMPARE(r.value("tokens").toArray().first().toString(), QStringLiteral("<|begin_of_text|>"));
        QCOMPARE(r.value("tokens").toArray().size(), 8);
        QCOMPARE(r.value("model").toObject().value("kv_heads").toInt(), 2);
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

    // SIGINT and SIGTERM both stop the run between steps and save it in place
    // of the old model: exit 0, the new folder whole, nothing left beside it.
    void signalReplacesTheOldModel_data()
    {
        QTest::addColumn<int>("signal");
        QTest::newRow("SIGINT") << int(SIGINT);
        QTest::newRow("SIGTERM") << int(SIGTERM);
    }
    void signalReplacesTheOldModel()
    {
        QFETCH(int, signal);
        QTemporaryDir tmp;
        const QString dir = tmp.filePath(QStringLiteral("m"));
        QVERIFY(trainOldModel(dir));
        QProcess p;
        p.start(QStringLiteral(ATTN_APP_PATH), kLongRun + QStringList{"-o", dir});
        QVERIFY(p.waitForReadyRead(30000));
        ::kill(pid_t(p.processId()), signal);
        QVERIFY(p.waitForFinished(30000));
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 0);
        const QJsonObject last = QJsonDocument::fromJson(p.readAllStandardOutput().trimmed().split('\n').last()).object();
        QCOMPARE(last.value("stopped").toBool(), true);
        QString error;
        QVERIFY2(attn::loadModel(dir, &error), qPrintable(error));
        QCOMPARE(trainingOf(dir).value("seed").toString(), QStringLiteral("8"));
        QCOMPARE(trainingOf(dir).value("steps").toInt(), last.value("steps").toInt());
        QCOMPARE(beside(dir), QStringList{"m"});
    }

    // A SIGTERM at any moment, from start-up (before the handler is in place,
    // when it kills the process) to the save: DIR is the old model or the
    // whole new one.
    void signalAtAnyMomentLeavesAWholeModel()
    {
        QTemporaryDir tmp;
        const QString dir = tmp.filePath(QStringLiteral("m"));
        QVERIFY(trainOldModel(dir));
        QRandomGenerator random(7); // fixed, so a failure can be replayed
        int killed = 0, saved = 0;
        for (int round = 0; round < 10; ++round) {
            QProcess p;
            p.start(QStringLiteral(ATTN_APP_PATH), kLongRun + QStringList{"-o", dir});
            QVERIFY(p.waitForStarted(30000));
            QThread::msleep(round < 5 ? random.bounded(0, 4) : random.bounded(0, 200));
            ::kill(pid_t(p.processId()), SIGTERM);
            QVERIFY(p.waitForFinished(30000));
            const bool clean = p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
            QVERIFY2(clean || p.exitStatus() == QProcess::CrashExit, qPrintable(p.readAllStandardError()));
            ++(clean ? saved : killed);
            QString error;
            QVERIFY2(attn::loadModel(dir, &error), qPrintable(error));
            const QString seed = trainingOf(dir).value("seed").toString();
            QVERIFY2(seed == "8" || (!clean && seed == "7"), qPrintable(seed));
            QCOMPARE(beside(dir), QStringList{"m"});
            if (seed == "8") // an old model again for the next round
                QVERIFY(trainOldModel(dir));
        }
        qInfo("10 SIGTERMs: %d stopped and saved, %d came before the handler", saved, killed);
    }

    // The largest learning rate the option takes makes copy's loss explode
    // (near step 450): exit 1, one line naming the step, and the weights of
    // the step before the bad ones saved, byte for byte what the trainer
    // gives when stopped there. Every size is given, so the comparison run
    // below has the same settings (warm-up: the task's 50 steps).
    void explodingLossKeepsTheLastGoodWeights()
    {
        QTemporaryDir tmp;
        const QString dir = tmp.filePath(QStringLiteral("m"));
        QProcess p;
        p.start(QStringLiteral(ATTN_APP_PATH), {"train", "--task", "copy", "--lr", "1", "--steps", "2000", "--layers", "2",
                                                "--heads", "2", "--d-model", "32", "--context", "16", "--batch", "16",
                                                "--vocab", "8", "--seed", "1", "--report-every", "100", "-o", dir});
        QVERIFY(p.waitForFinished(120000));
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 1);
        const QString message = QString::fromUtf8(p.readAllStandardError());
        static const QRegularExpression line(
            "^attention-explorer: the loss became (\\S+) at step (\\d+); stopped with the weights of step (\\d+), "
            "the last good ones \\(try a smaller --lr\\)\n$");
        const QRegularExpressionMatch match = line.match(message);
        QVERIFY2(match.hasMatch(), qPrintable(message));
        const int badStep = match.captured(2).toInt(), kept = match.captured(3).toInt();
        QCOMPARE(kept, badStep - 2);
        QVERIFY(kept >= 50); // past the warm-up, so the run below matches
        QString error;
        QVERIFY2(attn::loadModel(dir, &error), qPrintable(error));
        QCOMPARE(trainingOf(dir).value("steps").toInt(), kept);
        const QJsonObject last = QJsonDocument::fromJson(p.readAllStandardOutput().trimmed().split('\n').last()).object();
        QCOMPARE(last.value("diverged").toBool(), true);
        QCOMPARE(last.value("steps").toInt(), kept);

        std::optional<attn::TrainingTask> task = attn::TrainingTask::synthetic(attn::TaskKind::Copy, 8, &error);
        QVERIFY(task);
        attn::TrainerSettings s;
        s.layers = 2, s.heads = 2, s.dModel = 32, s.context = 16, s.batch = 16, s.learningRate = 1;
        s.warmupSteps = 50, s.seed = 1, s.steps = kept;
        attn::Trainer trainer(std::move(*task), s);
        QVERIFY(!trainer.run(nullptr, {}).diverged);
        const QString reference = tmp.filePath(QStringLiteral("reference"));
        QVERIFY2(attn::saveModelFolder(trainer.model(), trainer.task().symbols(), {}, reference, &error),
                 qPrintable(error));
        QFile saved(dir + "/model.safetensors"), expected(reference + "/model.safetensors");
        QVERIFY(saved.open(QIODevice::ReadOnly) && expected.open(QIODevice::ReadOnly));
        QVERIFY(saved.readAll() == expected.readAll());
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
        QTest::newRow("output is a file") << QStringList{"--task", "copy", "-o", "TMP/short.txt"}
                                          << "-o TMP/short.txt: exists and is not a folder";
        QTest::newRow("learning rate above 1") << QStringList{"--task", "copy", "--lr", "2", "-o", "OUT"}
                                               << "--lr must be a number above 0 and at most 1";
        QTest::newRow("vocabulary of the pronoun task") << QStringList{"--task", "pronoun", "--vocab", "5", "-o", "OUT"}
                                                        << "--vocab 5: the pronoun task has its own 58 words";
        QTest::newRow("unknown task") << QStringList{"--task", "nope", "-o", "OUT"}
                                      << "--task nope: unknown task; use induction, copy, reverse, sort, pronoun or text";
        QTest::newRow("text task without --text") << QStringList{"--task", "text", "-o", "OUT"}
                                                  << "--task text needs --text FILE";
        QTest::newRow("zero steps") << QStringList{"--task", "copy", "--steps", "0", "-o", "OUT"}
                                    << "--steps must be a whole number from 1 to 100000000";
        QTest::newRow("unknown family") << QStringList{"--task", "copy", "--family", "mamba", "-o", "OUT"}
                                        << "--family mamba: unknown family; use gpt2 or llama";
        QTest::newRow("kv heads not dividing heads")
            << QStringList{"--task", "pronoun", "--family", "llama", "--heads", "4", "--kv-heads", "3", "-o", "OUT"}
            << "--kv-heads 3: must divide --heads 4";
        QTest::newRow("kv heads for GPT-2")
            << QStringList{"--task", "pronoun", "--heads", "4", "--kv-heads", "2", "-o", "OUT"}
            << "--kv-heads 2: GPT-2 has one key/value head per query head; shared key/value heads need --family llama";
        QTest::newRow("odd head width for rotary positions")
            << QStringList{"--task", "copy", "--family", "llama", "--d-model", "36", "--heads", "4", "-o", "OUT"}
            << "--heads 4: rotary positions turn q and k in pairs, so d_model / heads must be even (36 / 4 = 9)";
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
