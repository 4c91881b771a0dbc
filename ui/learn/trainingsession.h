#pragma once
// One training run for the window: owns a Trainer on a worker thread, passes
// its reports to the GUI thread, takes snapshots of the attention of a fixed
// example sequence every few hundred steps, pauses, resumes and stops it, and
// saves the trained model as a model folder. The trainer's weights never
// leave the worker: snapshots and the final model are copies made there
// between steps.

#include "learn/trainer.h"
#include "trainingcurves.h"
#include "trainingsnapshot.h"

#include <QObject>
#include <QStringList>
#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>

class QThread;

class TrainingSession : public QObject
{
    Q_OBJECT
public:
    enum class State { Idle, Running, Paused, Finished };

    explicit TrainingSession(QObject *parent = nullptr);
    ~TrainingSession() override;

    // Starts a run; false and one line in `error` when a setting is bad or a
    // run is already going. `snapshotEvery` 0: snapshotEveryFor(settings).
    bool start(attn::TrainingTask task, const attn::TrainerSettings &settings, QString *error, int snapshotEvery = 0);
    // Pause takes effect at the next report (stateChanged then says Paused).
    void pause();
    void resume();
    void stop();

    State state() const { return m_state; }
    bool pauseRequested() const;
    const attn::TrainerSettings &settings() const { return m_settings; }
    attn::TaskKind kind() const { return m_kind; }
    int snapshotEvery() const { return m_snapshotEvery; }
    double chance() const { return m_chance; }

    const std::vector<attn::TrainingReport> &reports() const { return m_reports; }
    const std::vector<TrainingSnapshot> &snapshots() const { return m_snapshots; }
    // Each head's scores over the snapshots so far.
    const std::vector<HeadPatternSeries> &patternSeries() const { return m_series; }
    // The loss and accuracy so far, with a marker at `markerStep` (-1: none).
    TrainingCurves curves(int markerStep = -1) const;
    // The fixed example the snapshots run on, as ids and as the text of each token.
    const std::vector<int> &exampleTokens() const { return m_example; }
    QStringList exampleTexts() const;

    // After Finished: the trained model (the last good weights if it diverged).
    attn::SharedModelParameters finalModel() const { return m_final; }
    const attn::TrainingOutcome &outcome() const { return m_outcome; }

    // Writes the final model as a model folder (parent folders are made).
    bool save(const QString &dir, QString *error) const;
    // Where a run is saved unless the user says otherwise:
    // modelsFolder()/<task>-<date and time>.
    QString defaultFolder() const;
    // The program's data folder's "models" (~/.local/share/attention-explorer/models,
    // attn::appDataFolder()): where trained models are kept.
    static QString modelsFolder();
    // Where earlier versions kept them (still listed, never written to).
    static QStringList earlierModelsFolders();

signals:
    void stateChanged(TrainingSession::State state);
    void reported(int step);
    void snapshotTaken(int index);
    void finished();

private:
    void runOnWorker(attn::Trainer &trainer);
    TrainingSnapshot takeSnapshot(const attn::Trainer &trainer) const;
    void waitWhilePaused();
    void addSnapshot(TrainingSnapshot snapshot);
    void setState(State state);

    // Shared with the worker.
    mutable std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_pause = false;
    std::atomic<bool> m_stop{false};

    // Read by the worker, written only while no run goes.
    std::vector<int> m_example;
    int m_snapshotEvery = 1;
    attn::TrainerSettings m_settings;

    // GUI thread only (the trainer: the worker's while a run goes).
    std::unique_ptr<attn::Trainer> m_trainer;
    QThread *m_thread = nullptr;
    State m_state = State::Idle;
    attn::TaskKind m_kind = attn::TaskKind::Induction;
    std::vector<QByteArray> m_symbols;
    double m_chance = -1;
    std::vector<attn::TrainingReport> m_reports;
    std::vector<TrainingSnapshot> m_snapshots;
    std::vector<HeadPatternSeries> m_series;
    attn::SharedModelParameters m_final;
    attn::TrainingOutcome m_outcome;
};
