#pragma once
// Learn › Train a model…: a window to pick a task and a model size, train it
// while watching the loss, the attention of an example per layer and head and
// each head's pattern scores, replay the snapshots with a slider, and save
// the result as a model folder the explorer opens. It shows what its
// TrainingSession gives it and computes nothing itself.

#include "trainingpresets.h"

#include <QWidget>
#include <functional>

class PatternSparklineView;
class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSlider;
class QSpinBox;
class SnapshotGridView;
class TrainingCurveView;
class TrainingSession;

class TrainingDialog : public QWidget
{
    Q_OBJECT
public:
    explicit TrainingDialog(QWidget *parent = nullptr);

    // The window's one training dialog, made on first use, shown and raised.
    static TrainingDialog *showFor(QWidget *window);

    // Asks where to save a finished run (given the suggested folder; empty:
    // not now). A file dialog by default; tests put their own.
    void setFolderChooser(std::function<QString(const QString &suggested)> chooser);

    // Starts training with the controls' settings (what Train does); false and
    // the reason shown when they are unusable.
    bool train();
    // Saves the finished run into `folder`; false and the reason shown on failure.
    bool saveTo(const QString &folder);

    TrainingSession *session() const { return m_session; }
    QComboBox *taskBox() const { return m_task; }
    // GPT-2's block or the Llama family's (data: attn::ModelFamily).
    QComboBox *familyBox() const { return m_family; }
    QSpinBox *layersBox() const { return m_layers; }
    QSpinBox *headsBox() const { return m_heads; }
    QSpinBox *kvHeadsBox() const { return m_kvHeads; }
    QCheckBox *tieBox() const { return m_tie; }
    QCheckBox *everyTokenBox() const { return m_everyToken; }
    QSpinBox *dModelBox() const { return m_dModel; }
    QSpinBox *contextBox() const { return m_context; }
    QSpinBox *stepsBox() const { return m_steps; }
    QLineEdit *textFileEdit() const { return m_textFile; }
    QSlider *stepSlider() const { return m_slider; }
    SnapshotGridView *grid() const { return m_grid; }
    PatternSparklineView *sparklines() const { return m_sparklines; }
    TrainingCurveView *curve() const { return m_curve; }
    QPushButton *trainButton() const { return m_train; }
    QPushButton *pauseButton() const { return m_pause; }
    QPushButton *resumeButton() const { return m_resume; }
    QPushButton *stopButton() const { return m_stop; }
    QPushButton *openButton() const { return m_open; }
    QLabel *statusLabel() const { return m_status; }
    QString savedFolder() const { return m_saved; }

signals:
    // "Open in the explorer": the window opens the saved folder.
    void openModelRequested(const QString &folder);

private:
    QWidget *buildControls();
    QWidget *buildProgress();
    void applyPreset(int index);
    void updateFamilyControls();
    void updateButtons();
    void onReported();
    void onSnapshot(int index);
    void onFinished();
    void showSnapshot(int index);
    void askWhereToSave();
    void showStatus(const QString &text, bool problem = false);

    TrainingSession *m_session;
    std::vector<TrainingPreset> m_presets;
    std::function<QString(const QString &)> m_chooseFolder;
    QComboBox *m_task = nullptr;
    QLabel *m_explanation = nullptr;
    QWidget *m_textRow = nullptr;
    QLineEdit *m_textFile = nullptr;
    QComboBox *m_family = nullptr;
    QSpinBox *m_layers = nullptr, *m_heads = nullptr, *m_dModel = nullptr, *m_context = nullptr, *m_steps = nullptr;
    QSpinBox *m_kvHeads = nullptr;
    QCheckBox *m_tie = nullptr;
    QCheckBox *m_everyToken = nullptr;
    QPushButton *m_train = nullptr, *m_pause = nullptr, *m_resume = nullptr, *m_stop = nullptr;
    QPushButton *m_save = nullptr, *m_open = nullptr;
    QLabel *m_status = nullptr, *m_progress = nullptr, *m_sliderLabel = nullptr;
    TrainingCurveView *m_curve = nullptr;
    SnapshotGridView *m_grid = nullptr;
    PatternSparklineView *m_sparklines = nullptr;
    QSlider *m_slider = nullptr;
    QString m_saved;
};
