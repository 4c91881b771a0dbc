#include "traincommand.h"

#include "commandoutput.h"

#include "cliparse.h"
#include "commandline.h"

#include "learn/modelwriter.h"
#include "learn/trainer.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTextStream>
#include <atomic>
#include <csignal>
#include <cstdio>

namespace {

std::atomic<bool> g_interrupted{false};

extern "C" void onInterrupt(int) { g_interrupted.store(true); }

// A text file larger than this is refused: character-level training samples
// windows of it, and far less text than this already takes hours to learn.
constexpr qint64 kMaxTextBytes = 256ll * 1024 * 1024;

void printLine(const QJsonObject &o)
{
    const QByteArray line = QJsonDocument(o).toJson(QJsonDocument::Compact) + '\n';
    std::fwrite(line.constData(), 1, std::size_t(line.size()), stdout);
    std::fflush(stdout);
}

std::optional<attn::TrainingTask> makeTask(const TrainArgs &args, attn::TaskKind kind, int vocab, QString *error)
{
    if (kind != attn::TaskKind::Text)
        return attn::TrainingTask::synthetic(kind, args.vocab.value_or(vocab), error);
    QFile file(args.text);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("%1: cannot read (%2)").arg(args.text, file.errorString());
        return std::nullopt;
    }
    if (file.size() > kMaxTextBytes) {
        *error = QStringLiteral("%1: larger than %2 MB").arg(args.text).arg(kMaxTextBytes >> 20);
        return std::nullopt;
    }
    return attn::TrainingTask::fromText(file.readAll(), args.text, error);
}

} // namespace

int runTrain(const TrainArgs &args)
{
    const attn::TaskKind kind = *attn::TrainingTask::kindFromName(args.task); // checked by the parser
    int vocab = 0;
    attn::TrainerSettings s = attn::defaultSettings(kind, &vocab);
    s.family = *attn::modelFamilyFromName(args.family); // checked by the parser
    s.layers = args.layers.value_or(s.layers);
    s.heads = args.heads.value_or(s.heads);
    s.kvHeads = args.kvHeads.value_or(0);
    s.tiedEmbeddings = args.tieEmbeddings;
    s.everyToken = args.everyToken;
    s.dModel = args.dModel.value_or(s.dModel);
    s.context = args.context.value_or(s.context);
    s.batch = args.batch.value_or(s.batch);
    s.steps = args.steps.value_or(s.steps);
    s.learningRate = args.learningRate.value_or(s.learningRate);
    s.warmupSteps = std::min(s.warmupSteps, std::max(1, s.steps / 10));
    s.seed = args.seed;
    s.reportEvery = args.reportEvery;

    QString error;
    std::optional<attn::TrainingTask> task = makeTask(args, kind, vocab, &error);
    if (!task)
        return printError(error, ExitBadInput);
    if (!(error = attn::Trainer::checkSettings(s, *task)).isEmpty()
        || !(error = attn::checkOutputFolder(args.output)).isEmpty())
        return printError(error, ExitBadInput);

    attn::Trainer trainer(std::move(*task), s);
    const double chance = trainer.task().chance();
    // SIGINT (Ctrl+C) and SIGTERM (kill, a session ending) stop the run
    // between steps; both stay caught until the save is done, so a second
    // signal cannot cut the save short (it is atomic anyway, see modelwriter.h).
    g_interrupted.store(false);
    const auto previousInt = std::signal(SIGINT, onInterrupt);
    const auto previousTerm = std::signal(SIGTERM, onInterrupt);
    double lastLoss = 0, lastAccuracy = 0;
    const attn::TrainingOutcome outcome = trainer.run(&g_interrupted, [&](const attn::TrainingReport &r) {
        lastLoss = r.loss;
        lastAccuracy = r.accuracy;
        printLine(QJsonObject{{"step", r.step}, {"loss", r.loss}, {"accuracy", r.accuracy}, {"chance", chance},
                              {"lr", r.learningRate}, {"seconds", r.seconds}});
    });

    QJsonObject training{{"task", args.task},      {"family", args.family},
                         {"steps", trainer.stepsDone()}, {"batch", s.batch},
                         {"learning_rate", s.learningRate}, {"seed", QString::number(s.seed)},
                         {"loss", lastLoss},       {"accuracy", lastAccuracy}};
    if (s.everyToken) // only when set: the folders of runs without it stay as they were
        training.insert(QStringLiteral("every_token"), true);
    const bool saved = attn::saveModelFolder(trainer.model(), trainer.task().symbols(), training, args.output, &error);
    std::signal(SIGINT, previousInt);
    std::signal(SIGTERM, previousTerm);
    if (!saved)
        return printError(error, ExitFailure);
    printLine(QJsonObject{{"steps", trainer.stepsDone()}, {"steps_per_second", outcome.stepsPerSecond},
                          {"loss", lastLoss}, {"accuracy", lastAccuracy}, {"stopped", outcome.stopped},
                          {"diverged", outcome.diverged}, {"output", args.output}});
    if (outcome.diverged)
        return printError(outcome.message, ExitFailure);
    return ExitOk;
}
