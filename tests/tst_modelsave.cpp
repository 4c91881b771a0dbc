// Saving a model folder survives being killed: a real child process
// (modelsave_child) saves one model after another and is SIGKILLed at random
// moments; after every kill the folder must be one whole model, byte for byte
// what a save of the seed its config.json names writes, and the next save
// must clear what the killed one left beside it.

#include "modelsave_child.h"

#include "model/modelloader.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QProcess>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <csignal>

namespace {

const QStringList kFiles{"config.json", "model.safetensors", "vocab.json", "merges.txt"};

QByteArray contents(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// The seed config.json names, or 0 when it names none.
std::uint64_t savedSeed(const QString &dir)
{
    const QJsonObject config = QJsonDocument::fromJson(contents(dir + "/config.json")).object();
    return config.value("attention_explorer_training").toObject().value("seed").toString().toULongLong();
}

// Empty when `dir` is a whole model: it loads, and every file is what a
// fresh save of its seed writes.
QString wholeModelProblem(const QString &dir, const QString &scratch)
{
    QString error;
    if (!attn::loadModel(dir, &error))
        return error;
    const std::uint64_t seed = savedSeed(dir);
    const QString reference = scratch + "/reference";
    QDir(reference).removeRecursively();
    if (seed == 0 || !saveChildModel(seed, reference, &error))
        return QStringLiteral("no seed, or the reference did not save: ") + error;
    for (const QString &file : kFiles)
        if (contents(dir + "/" + file) != contents(reference + "/" + file))
            return file + QStringLiteral(" differs from a fresh save of seed ") + QString::number(seed);
    return {};
}

bool runChild(const QString &dir, int seed)
{
    QProcess child;
    child.start(QStringLiteral(ATTN_SAVE_CHILD), {dir, QString::number(seed), "--once"});
    return child.waitForFinished(60000) && child.exitStatus() == QProcess::NormalExit && child.exitCode() == 0;
}

} // namespace

class TestModelSave : public QObject
{
    Q_OBJECT
private slots:
    void killedSavesLeaveAWholeModel()
    {
        QTemporaryDir tmp, scratch;
        const QString dir = tmp.filePath("model");
        QVERIFY(runChild(dir, 1));
        QVERIFY(wholeModelProblem(dir, scratch.path()).isEmpty());

        QRandomGenerator random(20261201); // fixed, so a failure can be replayed
        int firstSeed = 100, leftoversSeen = 0, newModelsSeen = 0;
        for (int round = 0; round < 25; ++round, firstSeed += 100) {
            QProcess child;
            child.start(QStringLiteral(ATTN_SAVE_CHILD), {dir, QString::number(firstSeed)});
            QVERIFY(child.waitForReadyRead(30000));
            QThread::msleep(random.bounded(5, 120));
            ::kill(pid_t(child.processId()), SIGKILL);
            QVERIFY(child.waitForFinished(30000));
            QCOMPARE(child.exitStatus(), QProcess::CrashExit);

            const QString problem = wholeModelProblem(dir, scratch.path());
            QVERIFY2(problem.isEmpty(), qPrintable(QStringLiteral("round %1: %2").arg(round).arg(problem)));
            if (savedSeed(dir) >= std::uint64_t(firstSeed))
                ++newModelsSeen;
            if (QDir(tmp.path()).entryList(QDir::Dirs | QDir::NoDotAndDotDot | QDir::Hidden).size() > 1)
                ++leftoversSeen;
        }
        qInfo("25 kills: %d left a half-written folder beside the model, %d came after a new model was in place",
              leftoversSeen, newModelsSeen);
        QVERIFY2(leftoversSeen > 0, "no kill landed inside a save: the test proved nothing");

        // The next save clears what the killed ones left, and only that.
        QVERIFY(runChild(dir, 5000));
        QCOMPARE(QDir(tmp.path()).entryList(QDir::Dirs | QDir::NoDotAndDotDot | QDir::Hidden), QStringList{"model"});
        QCOMPARE(savedSeed(dir), std::uint64_t(5000));
        QVERIFY(wholeModelProblem(dir, scratch.path()).isEmpty());
    }

    // Where folders cannot be swapped atomically the old one is moved aside
    // first; a kill between the two renames leaves only DIR.old-XXXXXX. The
    // next save must take it back rather than lose it, and clear DIR.tmp-*.
    void nextSaveRecoversAFolderMovedAside()
    {
        QTemporaryDir tmp, scratch;
        const QString dir = tmp.filePath("model");
        QVERIFY(runChild(dir, 7));
        QVERIFY(QDir().rename(dir, dir + ".old-Ab12Cd"));
        QVERIFY(QDir().mkpath(dir + ".tmp-Zz99Yy"));
        QFile half(dir + ".tmp-Zz99Yy/model.safetensors");
        QVERIFY(half.open(QIODevice::WriteOnly) && half.write("half") == 4);
        half.close();
        QVERIFY(QDir().mkpath(tmp.filePath("model.tmp-notours"))); // not a name a save makes: kept

        QString error;
        QVERIFY2(attn::saveModelFolder(attn::Trainer::initialModel(saveChildConfig(), 8), childSymbols(),
                                       QJsonObject{{"seed", "8"}}, tmp.filePath("other"), &error),
                 qPrintable(error)); // a save of another folder leaves these alone
        QVERIFY(QFileInfo::exists(dir + ".old-Ab12Cd"));
        QVERIFY(QFileInfo::exists(dir + ".tmp-Zz99Yy"));

        attn::recoverInterruptedSave(dir);
        const QStringList expected{"model", "model.tmp-notours", "other"};
        QCOMPARE(QDir(tmp.path()).entryList(QDir::Dirs | QDir::NoDotAndDotDot | QDir::Hidden), expected);
        QCOMPARE(savedSeed(dir), std::uint64_t(7)); // the old model, back in its place
        QVERIFY(wholeModelProblem(dir, scratch.path()).isEmpty());

        QVERIFY(runChild(dir, 9));
        QCOMPARE(QDir(tmp.path()).entryList(QDir::Dirs | QDir::NoDotAndDotDot | QDir::Hidden), expected);
        QCOMPARE(savedSeed(dir), std::uint64_t(9));
        QVERIFY(wholeModelProblem(dir, scratch.path()).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestModelSave)
#include "tst_modelsave.moc"
