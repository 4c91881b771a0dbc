#pragma once
// What the training window offers per task: its name, the paragraph that says
// what a model must learn and which attention pattern solves it, and the
// settings it starts from (chosen so the lesson shows in minutes on two cores).

#include "learn/trainer.h"

#include <QString>
#include <optional>
#include <vector>

struct TrainingPreset
{
    attn::TaskKind kind = attn::TaskKind::Induction;
    QString title;        // for the task list
    QString explanation;  // one paragraph
    attn::TrainerSettings settings;
    int symbols = 0;      // synthetic tasks' vocabulary (Text: the file's bytes)
};

// The tasks in the order the window lists them.
std::vector<TrainingPreset> trainingPresets();
TrainingPreset trainingPreset(attn::TaskKind kind);

// Snapshots per run: about this many, whatever the number of steps.
constexpr int kSnapshotsPerRun = 50;
// Steps between reports (and chances to pause): small enough that Pause
// answers within a fraction of a second on the largest default model.
int reportEveryFor(const attn::TrainerSettings &settings);
// Steps between snapshots: a multiple of the report interval.
int snapshotEveryFor(const attn::TrainerSettings &settings);

// The task a preset trains on; Text reads `textFile`. Nothing and one line in
// `error` when the file cannot be read or is unusable.
std::optional<attn::TrainingTask> makeTrainingTask(const TrainingPreset &preset, const QString &textFile,
                                                   QString *error);
