#include "trainingdialog.h"

#include "patternsparklineview.h"
#include "screenfit.h"
#include "snapshotgridview.h"
#include "trainingcurveview.h"
#include "trainingsession.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSlider>
#include <QSpinBox>
#include <QSplitter>
#include <QVBoxLayout>

TrainingDialog::TrainingDialog(QWidget *parent) : QWidget(parent, Qt::Window), m_session(new TrainingSession(this))
{
    setObjectName(QStringLiteral("trainingDialog"));
    setWindowTitle(tr("Train a model"));
    m_presets = trainingPresets();
    m_chooseFolder = [this](const QString &suggested) {
        QDir().mkpath(QFileInfo(suggested).absolutePath());
        return QFileDialog::getSaveFileName(this, tr("Save the trained model as a folder"), suggested, QString(),
                                            nullptr, QFileDialog::ShowDirsOnly);
    };
    auto *layout = new QHBoxLayout(this);
    layout->addWidget(buildControls());
    layout->addWidget(buildProgress(), 1);

    connect(m_session, &TrainingSession::stateChanged, this, &TrainingDialog::updateButtons);
    connect(m_session, &TrainingSession::reported, this, &TrainingDialog::onReported);
    connect(m_session, &TrainingSession::snapshotTaken, this, &TrainingDialog::onSnapshot);
    connect(m_session, &TrainingSession::finished, this, &TrainingDialog::onFinished);
    applyPreset(0);
    updateButtons();
    resizeWithinScreen(this, {1100, 720});
}

TrainingDialog *TrainingDialog::showFor(QWidget *window)
{
    auto *dialog = window->findChild<TrainingDialog *>(QString(), Qt::FindDirectChildrenOnly);
    if (!dialog)
        dialog = new TrainingDialog(window);
    dialog->show();
    dialog->raise();
    dialog->activateWindow();
    return dialog;
}

void TrainingDialog::setFolderChooser(std::function<QString(const QString &)> chooser)
{
    m_chooseFolder = std::move(chooser);
}

QWidget *TrainingDialog::buildControls()
{
    auto *box = new QWidget;
    box->setMaximumWidth(340);
    auto *column = new QVBoxLayout(box);
    column->setContentsMargins(0, 0, 0, 0);

    auto *taskLabel = new QLabel(tr("&Task:"));
    m_task = new QComboBox;
    for (const TrainingPreset &p : m_presets)
        m_task->addItem(p.title, int(p.kind));
    taskLabel->setBuddy(m_task);
    column->addWidget(taskLabel);
    column->addWidget(m_task);
    m_explanation = new QLabel;
    m_explanation->setWordWrap(true);
    m_explanation->setTextFormat(Qt::PlainText);
    m_explanation->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_explanation->setMinimumHeight(fontMetrics().height() * 9);
    column->addWidget(m_explanation);

    m_textRow = new QWidget;
    auto *textLayout = new QHBoxLayout(m_textRow);
    textLayout->setContentsMargins(0, 0, 0, 0);
    m_textFile = new QLineEdit;
    m_textFile->setPlaceholderText(tr("A text file (UTF-8 or any bytes)"));
    m_textFile->setAccessibleName(tr("Text file to train on"));
    auto *browse = new QPushButton(tr("Choose…"));
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString file = QFileDialog::getOpenFileName(this, tr("Text to train on"), m_textFile->text());
        if (!file.isEmpty())
            m_textFile->setText(file);
    });
    textLayout->addWidget(m_textFile, 1);
    textLayout->addWidget(browse);
    column->addWidget(m_textRow);

    auto *sizeBox = new QGroupBox(tr("Model size"));
    auto *form = new QFormLayout(sizeBox);
    auto spin = [&](const QString &label, int lo, int hi, const QString &tip) {
        auto *s = new QSpinBox;
        s->setRange(lo, hi);
        s->setToolTip(tip);
        form->addRow(label, s);
        return s;
    };
    m_family = new QComboBox;
    m_family->addItem(tr("GPT-2"), int(attn::ModelFamily::Gpt2));
    m_family->addItem(tr("Llama-style"), int(attn::ModelFamily::Llama));
    m_family->setToolTip(tr("GPT-2: LayerNorm, learned positions added to each token, a GELU MLP, biases. "
                            "Llama-style: RMSNorm, rotary positions that turn q and k, a SwiGLU MLP, "
                            "key/value heads shared by groups of query heads, no biases, and a "
                            "beginning-of-text token before every sequence"));
    form->addRow(tr("&Block:"), m_family);
    m_layers = spin(tr("&Layers:"), 1, 12, tr("Transformer blocks; induction needs two"));
    m_heads = spin(tr("&Heads:"), 1, 16, tr("Attention heads per layer; must divide d_model"));
    m_kvHeads = spin(tr("&Key/value heads:"), 1, 16,
                     tr("Llama-style: how many heads of keys and values a layer keeps; each is shared by "
                        "heads / this many query heads, so it must divide the heads"));
    m_tie = new QCheckBox(tr("Ti&e the output to the embedding"));
    m_tie->setToolTip(tr("Llama-style: predict the next token with the token embedding itself instead of a "
                         "separate output matrix (lm_head); GPT-2 always does"));
    form->addRow(QString(), m_tie);
    m_dModel = spin(tr("&d_model:"), 4, 1024, tr("Width of every token's vector"));
    m_context = spin(tr("&Context:"), 2, 1024, tr("Tokens per training sequence (the model's positions)"));
    m_steps = spin(tr("&Steps:"), 1, 1000000, tr("Optimiser steps; Stop ends the run early"));
    m_everyToken = new QCheckBox(tr("Score e&very next token"));
    m_everyToken->setToolTip(tr("Count every next token in the loss and the accuracy, as a language model is "
                                "trained, not only the task's answers: the model learns what it can of the "
                                "rest too, and its heads have to keep out of the way where they find nothing"));
    form->addRow(QString(), m_everyToken);
    m_dModel->setSingleStep(8);
    m_steps->setSingleStep(100);
    column->addWidget(sizeBox);

    auto *buttons = new QHBoxLayout;
    m_train = new QPushButton(tr("T&rain"));
    m_pause = new QPushButton(tr("&Pause"));
    m_resume = new QPushButton(tr("Res&ume"));
    m_stop = new QPushButton(tr("S&top"));
    for (QPushButton *b : {m_train, m_pause, m_resume, m_stop})
        buttons->addWidget(b);
    column->addLayout(buttons);
    m_progress = new QLabel;
    m_progress->setWordWrap(true);
    column->addWidget(m_progress);
    m_status = new QLabel;
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    column->addWidget(m_status);
    column->addStretch(1);
    auto *finish = new QHBoxLayout;
    m_save = new QPushButton(tr("&Save…"));
    m_open = new QPushButton(tr("&Open in the explorer"));
    m_open->setToolTip(tr("Open the saved model in the main window's views"));
    finish->addWidget(m_save);
    finish->addWidget(m_open);
    column->addLayout(finish);

    connect(m_task, qOverload<int>(&QComboBox::currentIndexChanged), this, &TrainingDialog::applyPreset);
    connect(m_family, qOverload<int>(&QComboBox::currentIndexChanged), this, &TrainingDialog::updateFamilyControls);
    connect(m_train, &QPushButton::clicked, this, &TrainingDialog::train);
    connect(m_pause, &QPushButton::clicked, this, [this] {
        m_session->pause();
        updateButtons();
    });
    connect(m_resume, &QPushButton::clicked, m_session, &TrainingSession::resume);
    connect(m_stop, &QPushButton::clicked, m_session, &TrainingSession::stop);
    connect(m_save, &QPushButton::clicked, this, &TrainingDialog::askWhereToSave);
    connect(m_open, &QPushButton::clicked, this, [this] {
        emit openModelRequested(m_saved);
        if (QWidget *window = parentWidget()) {
            window->raise();
            window->activateWindow();
        }
    });
    return box;
}

QWidget *TrainingDialog::buildProgress()
{
    auto *box = new QWidget;
    auto *column = new QVBoxLayout(box);
    column->setContentsMargins(0, 0, 0, 0);
    m_curve = new TrainingCurveView;
    m_grid = new SnapshotGridView;
    m_sparklines = new PatternSparklineView;
    auto *split = new QSplitter(Qt::Vertical);
    split->addWidget(m_curve);
    auto *lower = new QSplitter(Qt::Horizontal);
    auto titled = [](const QString &title, QWidget *content) {
        auto *group = new QGroupBox(title);
        auto *l = new QVBoxLayout(group);
        l->setContentsMargins(4, 4, 4, 4);
        l->addWidget(content);
        return group;
    };
    lower->addWidget(titled(tr("Attention of an example, per layer and head"), m_grid));
    lower->addWidget(titled(tr("Pattern scores per head"), m_sparklines));
    lower->setStretchFactor(0, 1);
    lower->setStretchFactor(1, 1);
    split->addWidget(lower);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    column->addWidget(split, 1);

    auto *replay = new QHBoxLayout;
    auto *label = new QLabel(tr("Snapshot:"));
    m_slider = new QSlider(Qt::Horizontal);
    m_slider->setAccessibleName(tr("Snapshot shown"));
    m_slider->setToolTip(tr("Replay the run: the attention and the scores as they were at an earlier step"));
    m_slider->setRange(0, 0);
    m_slider->setEnabled(false);
    label->setBuddy(m_slider);
    m_sliderLabel = new QLabel;
    m_sliderLabel->setMinimumWidth(fontMetrics().horizontalAdvance(tr("step %1 of %2").arg(1000000).arg(1000000)));
    replay->addWidget(label);
    replay->addWidget(m_slider, 1);
    replay->addWidget(m_sliderLabel);
    column->addLayout(replay);
    connect(m_slider, &QSlider::valueChanged, this, &TrainingDialog::showSnapshot);
    return box;
}
