// TrainingDialog while a run goes: the buttons, the reports and snapshots
// arriving from the session, the replay slider, saving.
#include "trainingdialog.h"

#include "patternsparklineview.h"
#include "snapshotgridview.h"
#include "trainingcurveview.h"
#include "trainingsession.h"

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSlider>
#include <QSpinBox>

void TrainingDialog::applyPreset(int index)
{
    if (index < 0 || index >= int(m_presets.size()))
        return;
    const TrainingPreset &p = m_presets[std::size_t(index)];
    m_explanation->setText(p.explanation);
    m_textRow->setVisible(p.kind == attn::TaskKind::Text);
    m_layers->setValue(p.settings.layers);
    m_heads->setValue(p.settings.heads);
    m_kvHeads->setValue(p.settings.heads);
    m_dModel->setValue(p.settings.dModel);
    m_context->setValue(p.settings.context);
    m_steps->setValue(p.settings.steps);
}

void TrainingDialog::updateFamilyControls()
{
    const bool llama = m_family->currentData().toInt() == int(attn::ModelFamily::Llama);
    const bool idle = m_task->isEnabled();
    m_kvHeads->setEnabled(llama && idle);
    m_tie->setEnabled(llama && idle);
    m_everyToken->setEnabled(idle);
}

bool TrainingDialog::train()
{
    const int index = m_task->currentIndex();
    if (index < 0 || index >= int(m_presets.size()))
        return false;
    const TrainingPreset &preset = m_presets[std::size_t(index)];
    attn::TrainerSettings s = preset.settings;
    s.family = attn::ModelFamily(m_family->currentData().toInt());
    s.layers = m_layers->value();
    s.heads = m_heads->value();
    if (s.family == attn::ModelFamily::Llama) {
        s.kvHeads = m_kvHeads->value();
        s.tiedEmbeddings = m_tie->isChecked();
    }
    s.everyToken = m_everyToken->isChecked();
    s.dModel = m_dModel->value();
    s.context = m_context->value();
    s.steps = m_steps->value();
    s.warmupSteps = std::min(s.warmupSteps, std::max(1, s.steps / 10));
    s.reportEvery = reportEveryFor(s);
    QString error;
    std::optional<attn::TrainingTask> task = makeTrainingTask(preset, m_textFile->text().trimmed(), &error);
    if (!task || !m_session->start(std::move(*task), s, &error)) {
        showStatus(error, true);
        return false;
    }
    m_saved.clear();
    m_slider->setRange(0, 0);
    m_grid->setTrace(nullptr, -1);
    m_sparklines->setSeries({});
    m_curve->setCurves(m_session->curves());
    m_progress->clear();
    showStatus(tr("Training %1: a snapshot every %2 steps").arg(preset.title).arg(m_session->snapshotEvery()));
    updateButtons();
    return true;
}

void TrainingDialog::updateButtons()
{
    using State = TrainingSession::State;
    const State state = m_session->state();
    const bool going = state == State::Running || state == State::Paused;
    m_train->setEnabled(!going);
    m_pause->setEnabled(state == State::Running && !m_session->pauseRequested());
    m_resume->setEnabled(state == State::Paused);
    m_stop->setEnabled(going);
    for (QWidget *w : std::initializer_list<QWidget *>{m_task, m_family, m_layers, m_heads, m_dModel, m_context,
                                                       m_steps, m_textFile})
        w->setEnabled(!going);
    updateFamilyControls();
    m_save->setEnabled(state == State::Finished && m_session->finalModel());
    m_open->setEnabled(!m_saved.isEmpty());
    if (state == State::Paused)
        showStatus(tr("Paused at step %1").arg(m_session->reports().empty() ? 0 : m_session->reports().back().step));
}

void TrainingDialog::onReported()
{
    const attn::TrainingReport &r = m_session->reports().back();
    const double perSecond = r.seconds > 0 ? r.step / r.seconds : 0.0;
    m_progress->setText(tr("Step %1 of %2 · loss %3 · accuracy %4% (chance %5%) · %6 steps/s")
                            .arg(r.step).arg(m_session->settings().steps)
                            .arg(r.loss, 0, 'f', 3)
                            .arg(r.accuracy * 100, 0, 'f', 1)
                            .arg(m_session->chance() * 100, 0, 'f', 1)
                            .arg(perSecond, 0, 'f', 0));
    const int shown = m_slider->value();
    const auto &snaps = m_session->snapshots();
    m_curve->setCurves(m_session->curves(shown < int(snaps.size()) && shown != m_slider->maximum()
                                             ? snaps[std::size_t(shown)].step : -1));
}

void TrainingDialog::onSnapshot(int index)
{
    // Follow the newest snapshot unless the user is replaying an older one.
    const bool following = m_slider->value() == m_slider->maximum();
    m_slider->setEnabled(true);
    m_slider->setRange(0, index);
    m_sparklines->setSeries(m_session->patternSeries());
    if (following)
        m_slider->setValue(index);
    showSnapshot(m_slider->value());
}

void TrainingDialog::showSnapshot(int index)
{
    const auto &snaps = m_session->snapshots();
    if (index < 0 || index >= int(snaps.size()))
        return;
    const TrainingSnapshot &s = snaps[std::size_t(index)];
    m_grid->setTrace(s.trace, s.step);
    const bool latest = index == int(snaps.size()) - 1;
    m_sparklines->setCurrent(latest ? -1 : index);
    m_sliderLabel->setText(tr("step %1 of %2").arg(s.step).arg(m_session->settings().steps));
    m_curve->setCurves(m_session->curves(latest ? -1 : s.step));
}

void TrainingDialog::onFinished()
{
    const attn::TrainingOutcome &o = m_session->outcome();
    const int steps = m_session->snapshots().empty() ? 0 : m_session->snapshots().back().step;
    if (o.diverged)
        showStatus(tr("Stopped: %1").arg(o.message), true);
    else
        showStatus(o.stopped ? tr("Stopped at step %1").arg(steps) : tr("Finished %1 steps").arg(steps));
    updateButtons();
    askWhereToSave();
}

void TrainingDialog::askWhereToSave()
{
    if (!m_session->finalModel() || !m_chooseFolder)
        return;
    const QString folder = m_chooseFolder(m_session->defaultFolder());
    if (!folder.isEmpty())
        saveTo(folder);
}

bool TrainingDialog::saveTo(const QString &folder)
{
    QString error;
    if (!m_session->save(folder, &error)) {
        showStatus(tr("Not saved: %1").arg(error), true);
        return false;
    }
    m_saved = folder;
    showStatus(tr("Saved to %1").arg(folder));
    updateButtons();
    return true;
}

void TrainingDialog::showStatus(const QString &text, bool problem)
{
    m_status->setText(text);
    m_status->setStyleSheet(problem ? QStringLiteral("color: #c0392b") : QString());
}
