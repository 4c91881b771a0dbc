#pragma once
// Trains a small GPT-2 or Llama-style model on a TrainingTask:
// initialisation, steps of forward (keeping activations), backward and AdamW,
// and a run loop that a stop flag ends between steps. Runs on the calling
// thread (a worker thread drives it in the window). Same settings and seed:
// the same weights bit for bit.

#include "learn/adamw.h"
#include "learn/tasks.h"
#include "learn/trainingpass.h"

#include <atomic>
#include <functional>
#include <optional>

namespace attn {

// The block a run trains (contract section 7, `train --family`): GPT-2's
// (LayerNorm, learned positions, GELU MLP, biases, tied unembedding) or the
// Llama family's (RMSNorm, rotary positions, SwiGLU, grouped key/value
// heads, no biases). A Llama-style run puts kBeginningOfText before every
// sequence, as Llama tokenizers do.
enum class ModelFamily { Gpt2, Llama };

// "gpt2" or "llama", as config.json's model_type and `train --family` name them.
QString modelFamilyName(ModelFamily family);
std::optional<ModelFamily> modelFamilyFromName(const QString &name);

struct TrainerSettings
{
    ModelFamily family = ModelFamily::Gpt2;
    int layers = 2;
    int heads = 4;
    // Llama: key/value heads, each shared by heads / kvHeads query heads (0: one per query head).
    int kvHeads = 0;
    // Llama: logits from the token embedding (tie_word_embeddings) instead of
    // a separate lm_head. Untied by default, as LlamaConfig and the Llama 2 and
    // Llama 3 8B checkpoints are: a word's vector going in and the vector that
    // predicts it coming out are free to differ. GPT-2 always ties.
    bool tiedEmbeddings = false;
    // Count every next token in the loss and the accuracy, as a language
    // model is trained, not only the task's answers (TrainingTask::countingEveryToken).
    bool everyToken = false;
    int dModel = 64;
    int context = 64;       // tokens per training sequence (the model's n_positions)
    int batch = 8;          // sequences per step
    int steps = 2000;
    double learningRate = 1e-3;
    int warmupSteps = 100;  // linear warm-up to learningRate, then constant
    double gradientClip = 1.0; // the gradients' global norm is capped at this (0: off)
    std::uint64_t seed = 1;
    int reportEvery = 50;
    AdamWSettings adamw;
};

// Each task's defaults, chosen so its lesson shows in minutes on two cores;
// `symbols` gets the synthetic task's vocabulary (Text: 0, the file decides).
// The command line and the training window both start from these.
TrainerSettings defaultSettings(TaskKind kind, int *symbols);

// Averages over the steps since the previous report.
struct TrainingReport
{
    int step = 0; // steps done
    double loss = 0;
    double accuracy = 0;
    double learningRate = 0;
    double seconds = 0; // since the run began
};

struct TrainingOutcome
{
    int steps = 0;         // steps done in this run
    bool stopped = false;  // the stop flag ended it
    bool diverged = false; // a non-finite or exploding loss ended it; the model is the last good one
    QString message;       // set when diverged
    double stepsPerSecond = 0;
};

class Trainer
{
public:
    // Settings are checked by checkSettings first; a bad one throws std::invalid_argument.
    Trainer(TrainingTask task, const TrainerSettings &settings);

    // One line naming the bad setting, or empty.
    static QString checkSettings(const TrainerSettings &settings, const TrainingTask &task);
    // The config (GPT-2 or Llama) a run of these settings trains; `vocab` counts
    // the beginning token of a Llama-style run.
    static ModelConfig configFor(const TrainerSettings &settings, int vocab);
    // A fresh model: see trainer.cpp for why not GPT-2's std 0.02.
    static ModelParameters initialModel(const ModelConfig &config, std::uint64_t seed);

    // One step on a fresh batch. False when the loss or the gradients were not
    // finite or the loss exploded: the parameters are then the last good ones
    // (those of the step before, when the current weights gave the bad loss)
    // and the run must end.
    bool step(double *loss = nullptr, double *accuracy = nullptr);

    // The rest of a step once trainingForward has filled `keep` for `batch`:
    // backward, the gradients' global norm clipped to `clip` (0: not), one
    // AdamW update of `model`. Returns the norm before clipping; when it is not
    // finite nothing is updated.
    static double descend(ModelParameters &model, const TrainingBatch &batch, const TrainingActivations<float> &keep,
                          ModelParameters &gradients, AdamW &optimiser, double learningRate, double clip);

    // Steps until settings.steps are done, `stop` is set, or the run diverges;
    // `report` every reportEvery steps and after the last one.
    TrainingOutcome run(const std::atomic<bool> *stop, const std::function<void(const TrainingReport &)> &report);

    const ModelParameters &model() const { return m_model; }
    const TrainingTask &task() const { return m_task; }
    const TrainerSettings &settings() const { return m_settings; }
    // Steps that made model(): after a bad loss, one fewer than the optimiser took.
    int stepsDone() const { return m_optimiser.steps() - m_rolledBack; }
    double learningRate() const;
    const QString &problem() const { return m_problem; }

private:
    TrainingTask m_task;
    TrainerSettings m_settings;
    ModelParameters m_model, m_lastGood, m_gradients;
    AdamW m_optimiser;
    SplitMix64 m_data;
    TrainingActivations<float> m_activations;
    std::optional<double> m_firstLoss;
    QString m_problem;
    int m_rolledBack = 0;
};

} // namespace attn
