#include "trainingpresets.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <algorithm>

namespace {

QString tr(const char *text) { return QCoreApplication::translate("TrainingPreset", text); }

TrainingPreset make(attn::TaskKind kind, const char *title, const char *explanation)
{
    TrainingPreset p;
    p.kind = kind;
    p.title = tr(title);
    p.explanation = tr(explanation);
    // The command line's defaults too, so a run in the window and one of
    // `attention-explorer train` teach the same lesson.
    p.settings = attn::defaultSettings(kind, &p.symbols);
    return p;
}

} // namespace

std::vector<TrainingPreset> trainingPresets()
{
    return {
        make(attn::TaskKind::Induction, QT_TRANSLATE_NOOP("TrainingPreset", "Induction: continue a repeat"),
             QT_TRANSLATE_NOOP("TrainingPreset",
                 "Random tokens in which a stretch appears a second time, its length and the distance "
                 "between the copies changing from sequence to sequence. Nothing predicts a random token, "
                 "but inside the repeat the next token is the one that followed the same token the first "
                 "time. Two heads learn to find it, and the pattern scores show them forming: in layer 0 "
                 "a head that attends to the previous token (its “previous” line climbs towards 1), so "
                 "each position carries the token before it; in layer 1 a head that attends to the token "
                 "after the earlier occurrence of the current one (its “induction” line climbs) and "
                 "copies it. The loss drops as these heads form, since the repeated tokens become "
                 "predictable.")),
        make(attn::TaskKind::Copy, QT_TRANSLATE_NOOP("TrainingPreset", "Copy a sequence"),
             QT_TRANSLATE_NOOP("TrainingPreset",
                 "A sequence of symbols, the separator “=”, then the same sequence again. After the "
                 "separator each token is the one a fixed distance back, so a head that attends to the "
                 "position half a sequence earlier (an off-diagonal stripe) solves it; the first half "
                 "is random and cannot be learned, so the accuracy counts only the copy.")),
        make(attn::TaskKind::Reverse, QT_TRANSLATE_NOOP("TrainingPreset", "Reverse a sequence"),
             QT_TRANSLATE_NOOP("TrainingPreset",
                 "A sequence, “=”, then the sequence backwards. The k-th answer token is the k-th token "
                 "before the separator, counted from it: a head must learn to attend to the mirror "
                 "position, which draws an anti-diagonal in its weights after the separator.")),
        make(attn::TaskKind::Sort, QT_TRANSLATE_NOOP("TrainingPreset", "Sort a sequence"),
             QT_TRANSLATE_NOOP("TrainingPreset",
                 "A sequence, “=”, then the same symbols in ascending order. No fixed position holds the "
                 "answer: a head has to attend to the smallest input symbol larger than the one just "
                 "written, so its attention depends on the token values, not on distances.")),
        make(attn::TaskKind::Pronoun, QT_TRANSLATE_NOOP("TrainingPreset", "Pronouns: find the noun"),
             QT_TRANSLATE_NOOP("TrainingPreset",
                 "Short sentences, one word per token, such as “The girl passed the red box and it fell.” "
                 "Each noun has a verb that only it does (a box falls, a girl waves), and only the verb "
                 "after the pronoun is scored. Which noun the pronoun stands for is told by its kind: "
                 "“it” is the thing, “he” or “she” the person, and the two nouns come in either order "
                 "with a varying number of words around them, so no fixed distance finds the noun. A "
                 "head learns to attend from the pronoun to its noun and carry the noun's identity "
                 "forward: open the trained model, click the pronoun and look at layer 0.")),
        make(attn::TaskKind::Text, QT_TRANSLATE_NOOP("TrainingPreset", "Text from a file"),
             QT_TRANSLATE_NOOP("TrainingPreset",
                 "Predict the next character of a text file you choose, one token per byte. Spelling "
                 "is mostly local, so previous-token heads come first (they see the letters just "
                 "written); in longer runs induction heads appear too, copying words that occurred "
                 "earlier in the window.")),
    };
}

TrainingPreset trainingPreset(attn::TaskKind kind)
{
    for (const TrainingPreset &p : trainingPresets())
        if (p.kind == kind)
            return p;
    return trainingPresets().front();
}

int reportEveryFor(const attn::TrainerSettings &settings)
{
    return std::clamp(settings.steps / 200, 1, 10);
}

int snapshotEveryFor(const attn::TrainerSettings &settings)
{
    const int report = reportEveryFor(settings);
    const int every = std::max(report, settings.steps / kSnapshotsPerRun);
    return (every + report - 1) / report * report;
}

std::optional<attn::TrainingTask> makeTrainingTask(const TrainingPreset &preset, const QString &textFile,
                                                   QString *error)
{
    if (preset.kind != attn::TaskKind::Text)
        return attn::TrainingTask::synthetic(preset.kind, preset.symbols, error);
    // Character-level training samples windows of the text; far less than this
    // already takes hours to learn, and it is read on the GUI thread.
    constexpr qint64 kMaxTextBytes = 64ll * 1024 * 1024;
    if (textFile.isEmpty()) {
        *error = tr("Choose a text file to train on");
        return std::nullopt;
    }
    QFile file(textFile);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = tr("%1: cannot read (%2)").arg(textFile, file.errorString());
        return std::nullopt;
    }
    if (file.size() > kMaxTextBytes) {
        *error = tr("%1: larger than %2 MB").arg(textFile).arg(kMaxTextBytes >> 20);
        return std::nullopt;
    }
    return attn::TrainingTask::fromText(file.readAll(), QFileInfo(textFile).fileName(), error);
}
