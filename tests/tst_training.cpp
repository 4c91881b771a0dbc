// AdamW against torch.optim.AdamW (tests/data/learn/adamw_reference.py), the
// tasks' sequences, the trainer (determinism, divergence, a short run that
// learns), and the saved model folder reloaded by the model loader.

#include "learn/adamw.h"
#include "learn/modelwriter.h"
#include "learn/tasks.h"
#include "learn/trainer.h"
#include "model/forward.h"
#include "model/modelloader.h"
#include "tokenizers/tokenizerloader.h"

#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <cmath>
#include <cstring>

using namespace attn;

namespace {

bool sameBits(const ModelParameters &a, const ModelParameters &b)
{
    ModelParameters x = a, y = b;
    const std::vector<ParameterTensor> ta = parameterTensors(x), tb = parameterTensors(y);
    for (std::size_t i = 0; i < ta.size(); ++i)
        if (std::memcmp(ta[i].data, tb[i].data, sizeof(float) * std::size_t(ta[i].rows * ta[i].cols)) != 0)
            return false;
    return true;
}

TrainerSettings tinySettings()
{
    TrainerSettings s;
    s.layers = 1;
    s.heads = 2;
    s.dModel = 32;
    s.context = 12;
    s.batch = 16;
    s.steps = 20;
    s.warmupSteps = 10;
    return s;
}

TrainingTask task(TaskKind kind, int symbols)
{
    QString error;
    std::optional<TrainingTask> t = TrainingTask::synthetic(kind, symbols, &error);
    if (!t)
        qFatal("%s", qPrintable(error));
    return *t;
}

} // namespace

class TestTraining : public QObject
{
    Q_OBJECT
private slots:
    void adamwMatchesTorch()
    {
        // Three steps, lr 0.01, betas (0.9, 0.999), eps 1e-8, weight decay 0.1:
        // the numbers adamw_reference.py printed from torch.optim.AdamW.
        Eigen::VectorXf p(4), m = Eigen::VectorXf::Zero(4), v = Eigen::VectorXf::Zero(4);
        p << 0.5f, -1.0f, 2.0f, 0.0f;
        const float grads[3][4] = {{0.1f, -0.2f, 0.3f, 1e-3f}, {-0.3f, 0.1f, 0.2f, 0.0f}, {0.05f, 0.05f, -0.5f, 2.0f}};
        const float expected[3][4] = {{0.489500016f, -0.989000022f, 1.98800004f, -0.00999990012f},
                                      {0.493952423f, -0.985347688f, 1.97630858f, -0.0166903883f},
                                      {0.496233463f, -0.983748496f, 1.97513056f, -0.0230644215f}};
        AdamWSettings s;
        for (int step = 0; step < 3; ++step) {
            const Eigen::VectorXf g = Eigen::Map<const Eigen::VectorXf>(grads[step], 4);
            adamwUpdate(p, g, m, v, step + 1, 0.01, 0.1, s);
            for (int i = 0; i < 4; ++i)
                // torch sums in another order: a few float ulps apart.
                QVERIFY2(std::fabs(p[i] - expected[step][i]) < 1e-6f,
                         qPrintable(QStringLiteral("step %1 entry %2: %3").arg(step + 1).arg(i).arg(p[i], 0, 'g', 9)));
        }
    }

    void inductionSequences()
    {
        const TrainingTask t = task(TaskKind::Induction, 16);
        SplitMix64 rng(7);
        const int sequences = 400;
        const TrainingBatch b = t.batch(rng, sequences, 32);
        QCOMPARE(b.inputs.size(), std::size_t(sequences * 32));
        std::vector<int> lengths(34, 0), distances(34, 0);
        for (int s = 0; s < sequences; ++s) {
            int counted = 0, firstCounted = -1;
            for (int i = 0; i < 32; ++i) {
                const std::size_t at = std::size_t(s * 32 + i);
                QVERIFY(b.inputs[at] >= 0 && b.inputs[at] < 16);
                if (i + 1 < 32)
                    QCOMPARE(b.targets[at], b.inputs[at + 1]);
                if (b.weights[at] > 0) {
                    counted++;
                    if (firstCounted < 0)
                        firstCounted = i;
                }
            }
            // 33 tokens: stretches of 2 to 16 (33/16 to 33/2), so 1 to 15
            // predictable tokens, each the token that followed its earlier
            // occurrence at least a stretch earlier.
            QVERIFY2(counted >= 1 && counted <= 15, qPrintable(QString::number(counted)));
            const int stretch = counted + 1, second = firstCounted; // input `second` is the repeat's first token
            const int *seq = b.inputs.data() + s * 32;
            int distance = -1;
            for (int first = second - stretch; first >= 0 && distance < 0; --first)
                if (std::equal(seq + first, seq + first + std::min(stretch, 32 - second), seq + second))
                    distance = second - first;
            QVERIFY(distance >= stretch);
            lengths[std::size_t(stretch)]++;
            distances[std::size_t(distance)]++;
        }
        // No length and no distance is common enough for a fixed-offset head
        // to predict many repeats: every length of 2 to 16 and most distances
        // of 2 to 31 occur, none in more than a sixth of the sequences.
        for (int l = 2; l <= 16; ++l)
            QVERIFY2(lengths[std::size_t(l)] > 0, qPrintable(QString::number(l)));
        const int seenDistances = int(std::count_if(distances.begin(), distances.end(), [](int c) { return c > 0; }));
        QVERIFY2(seenDistances >= 25, qPrintable(QString::number(seenDistances)));
        QVERIFY(*std::max_element(distances.begin(), distances.end()) < sequences / 6);
        QVERIFY(*std::max_element(lengths.begin(), lengths.end()) < sequences / 6);
    }

    void sequenceTasks_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("expected"); // symbols a..d, seed 3: what the task makes of the first half
        QTest::newRow("copy") << int(TaskKind::Copy) << QStringLiteral("copy");
        QTest::newRow("reverse") << int(TaskKind::Reverse) << QStringLiteral("reverse");
        QTest::newRow("sort") << int(TaskKind::Sort) << QStringLiteral("sort");
    }
    void sequenceTasks()
    {
        QFETCH(int, kind);
        QFETCH(QString, expected);
        const TrainingTask t = task(TaskKind(kind), 4);
        QCOMPARE(t.vocab(), 5);
        QCOMPARE(t.symbols().back(), QByteArray("="));
        SplitMix64 rng(3);
        const TrainingBatch b = t.batch(rng, 1, 10); // x1..x5 = y1..y5, inputs the first 10
        std::vector<int> x(b.inputs.begin(), b.inputs.begin() + 5), y(b.targets.begin() + 5, b.targets.end());
        QCOMPARE(b.inputs[5], 4); // the separator
        if (expected == QLatin1String("reverse"))
            std::reverse(x.begin(), x.end());
        else if (expected == QLatin1String("sort"))
            std::sort(x.begin(), x.end());
        QCOMPARE(y, x);
        QCOMPARE(std::vector<float>(b.weights.begin(), b.weights.begin() + 5), std::vector<float>(5, 0.0f));
        QCOMPARE(std::vector<float>(b.weights.begin() + 5, b.weights.end()), std::vector<float>(5, 1.0f));
    }

    void textTask()
    {
        QString error;
        const std::optional<TrainingTask> t = TrainingTask::fromText(QByteArrayLiteral("abba cab"), "t.txt", &error);
        QVERIFY(t);
        QCOMPARE(t->vocab(), 4); // ' ', a, b, c
        QCOMPARE(t->maxLength(), 7);
        QVERIFY(!TrainingTask::fromText(QByteArrayLiteral("a"), "t.txt", &error));
        QCOMPARE(error, QStringLiteral("t.txt: too short to learn from (1 bytes)"));
    }

    void badSettings_data()
    {
        QTest::addColumn<int>("layers");
        QTest::addColumn<int>("heads");
        QTest::addColumn<int>("dModel");
        QTest::addColumn<QString>("message");
        QTest::newRow("zero layers") << 0 << 2 << 32 << QStringLiteral("--layers 0: must be 1 to 12");
        QTest::newRow("heads not dividing") << 1 << 3 << 32 << QStringLiteral("--heads 3: must divide --d-model 32");
    }
    void badSettings()
    {
        QFETCH(int, layers);
        QFETCH(int, heads);
        QFETCH(int, dModel);
        QFETCH(QString, message);
        TrainerSettings s = tinySettings();
        s.layers = layers;
        s.heads = heads;
        s.dModel = dModel;
        QCOMPARE(Trainer::checkSettings(s, task(TaskKind::Copy, 4)), message);
    }

    void sameSeedSameWeights()
    {
        const TrainerSettings s = tinySettings();
        Trainer a(task(TaskKind::Induction, 8), s), b(task(TaskKind::Induction, 8), s);
        a.run(nullptr, {});
        b.run(nullptr, {});
        QCOMPARE(a.stepsDone(), 20);
        QVERIFY(sameBits(a.model(), b.model()));
        TrainerSettings other = s;
        other.seed = 2;
        Trainer c(task(TaskKind::Induction, 8), other);
        c.run(nullptr, {});
        QVERIFY(!sameBits(a.model(), c.model()));
    }

    void stopFlag()
    {
        Trainer t(task(TaskKind::Copy, 4), tinySettings());
        std::atomic<bool> stop{true};
        const TrainingOutcome o = t.run(&stop, {});
        QVERIFY(o.stopped);
        QCOMPARE(o.steps, 0);
    }

    // The loss of step N+1 is computed on the weights of step N: when it is
    // not finite or explodes, those weights are bad too, and the model kept
    // must be bit for bit a run stopped after step N-1.
    void divergenceKeepsLastGoodWeights_data()
    {
        QTest::addColumn<double>("learningRate");
        QTest::addColumn<int>("warmupSteps");
        QTest::addColumn<double>("gradientClip");
        QTest::newRow("1e6 at once, unclipped") << 1e6 << 0 << 0.0;
        QTest::newRow("1e4 at once, unclipped") << 1e4 << 0 << 0.0;
        QTest::newRow("ramping towards 1e4, clipped") << 1e4 << 1000000 << 1.0;
    }
    void divergenceKeepsLastGoodWeights()
    {
        QFETCH(double, learningRate);
        QFETCH(int, warmupSteps);
        QFETCH(double, gradientClip);
        TrainerSettings s = tinySettings();
        s.learningRate = learningRate;
        s.warmupSteps = warmupSteps;
        s.gradientClip = gradientClip;
        s.steps = 2000;
        Trainer t(task(TaskKind::Copy, 4), s);
        const TrainingOutcome o = t.run(nullptr, {});
        QVERIFY(o.diverged);
        const int kept = t.stepsDone();
        QCOMPARE(o.steps, kept + 1); // the step that made the bad weights, undone
        static const QRegularExpression line(QStringLiteral(
            "^the loss became (\\S+) at step (\\d+); stopped with the weights of step (\\d+), the last good ones "
            "\\(try a smaller --lr\\)$"));
        const QRegularExpressionMatch match = line.match(o.message);
        QVERIFY2(match.hasMatch(), qPrintable(o.message));
        const double loss = match.captured(1).toDouble();
        QVERIFY(!std::isfinite(loss) || match.captured(1) == "nan" || loss > 10);
        QCOMPARE(match.captured(2).toInt(), kept + 2);
        QCOMPARE(match.captured(3).toInt(), kept);
        qInfo("lr %g: stopped at step %d, kept step %d (%s)", learningRate, kept + 2, kept, qPrintable(o.message));

        ModelParameters m = t.model();
        for (const ParameterTensor &p : parameterTensors(m))
            QVERIFY(p.values().allFinite());
        if (kept == 0) {
            QVERIFY(sameBits(t.model(), Trainer::initialModel(Trainer::configFor(s, t.task().vocab()), s.seed)));
        } else {
            TrainerSettings shorter = s;
            shorter.steps = kept;
            Trainer u(task(TaskKind::Copy, 4), shorter);
            QVERIFY(!u.run(nullptr, {}).diverged);
            QVERIFY(sameBits(t.model(), u.model()));
        }
        TrainerSettings oneMore = s;
        oneMore.steps = kept + 1; // the bad weights, which must not be what was kept
        Trainer v(task(TaskKind::Copy, 4), oneMore);
        v.run(nullptr, {});
        QVERIFY(!sameBits(t.model(), v.model()));
    }

    void reverseLossFalls();
    void savedFolderReloads();
};

void TestTraining::reverseLossFalls()
{
    // 300 steps of a 2-layer model on reversing 6 symbols of 8: the loss on
    // the reversed half starts near ln 8 = 2.08 and must fall below a third of
    // its first report's value.
    TrainerSettings s = tinySettings();
    s.layers = 2;
    s.context = 12;
    s.steps = 300;
    s.learningRate = 3e-3;
    s.warmupSteps = 30;
    s.reportEvery = 25;
    Trainer t(task(TaskKind::Reverse, 8), s);
    std::vector<TrainingReport> reports;
    const TrainingOutcome o = t.run(nullptr, [&](const TrainingReport &r) { reports.push_back(r); });
    QCOMPARE(o.steps, 300);
    QCOMPARE(reports.size(), std::size_t(12));
    QCOMPARE(reports.back().step, 300);
    qInfo("reverse: loss %.3f -> %.3f, accuracy %.3f -> %.3f, %.0f steps/s", reports.front().loss,
          reports.back().loss, reports.front().accuracy, reports.back().accuracy, o.stepsPerSecond);
    QVERIFY(reports.front().loss > 1.8);
    QVERIFY(reports.back().loss < reports.front().loss / 3);
    QVERIFY(reports.back().accuracy > 0.8);
}

void TestTraining::savedFolderReloads()
{
    TrainerSettings s = tinySettings();
    s.layers = 2;
    Trainer t(task(TaskKind::Copy, 6), s);
    t.run(nullptr, {});
    QTemporaryDir tmp;
    const QString dir = tmp.filePath(QStringLiteral("model"));
    QString error;
    QVERIFY2(saveModelFolder(t.model(), t.task().symbols(), {}, dir, &error), qPrintable(error));
    const SharedModelParameters loaded = loadModel(dir, &error);
    QVERIFY2(loaded, qPrintable(error));
    QCOMPARE(loaded->config.layers, 2);
    QCOMPARE(loaded->config.vocab, 7);
    QVERIFY(sameBits(*loaded, t.model()));

    // The tokenizer: one token per symbol, "=" the separator.
    const TokenizerPtr tokenizer = loadTokenizerFromFolder(dir, QStringLiteral("gpt2"), &error);
    QVERIFY2(tokenizer, qPrintable(error));
    QCOMPARE(tokenizer->encodeIds(QStringLiteral("fab=fab")), (std::vector<int>{5, 0, 1, 6, 5, 0, 1}));
    QCOMPARE(tokenizer->idToText(6), QStringLiteral("="));
    QVERIFY(tokenizer->encodeIds(QStringLiteral("z")).front() >= 7); // a byte the model never saw
    const ModelTrace before = forward(t.model(), {5, 0, 1, 6}), after = forward(*loaded, {5, 0, 1, 6});
    QCOMPARE(before.nextToken->probabilities, after.nextToken->probabilities);

    // Saving again replaces the folder; a failure leaves it as it was.
    Trainer other(task(TaskKind::Copy, 6), [&] { TrainerSettings o = s; o.seed = 9; return o; }());
    QVERIFY(saveModelFolder(other.model(), other.task().symbols(), {}, dir, &error));
    QVERIFY(sameBits(*loadModel(dir, &error), other.model()));
    QVERIFY(!saveModelFolder(t.model(), t.task().symbols(), {}, tmp.filePath(QStringLiteral("no/such/model")), &error));
    QVERIFY2(error.contains(QLatin1String("does not exist")), qPrintable(error));
    QCOMPARE(QDir(tmp.path()).entryList(QDir::NoDotAndDotDot | QDir::AllEntries), QStringList{QStringLiteral("model")});
}

QTEST_GUILESS_MAIN(TestTraining)
#include "tst_training.moc"
