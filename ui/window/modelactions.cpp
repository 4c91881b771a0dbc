#include "modelactions.h"

#include "comparison.h"
#include "compareview.h"
#include "crossattentionpanel.h"
#include "document.h"
#include "dockreach.h"
#include "fileactions.h"
#include "embeddingeditor.h"
#include "layerprogressbar.h"
#include "model/inputedit.h"
#include "mainwindow.h"
#include "modeldocument.h"
#include "modelfiledialog.h"
#include "modellistdialog.h"
#include "modelgridpanel.h"
#include "modelgridview.h"
#include "nexttokenview.h"
#include "optionspanel.h"
#include "rolloutview.h"
#include "tokenchips.h"

#include <QAbstractItemView>
#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QKeySequence>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QSettings>
#include <QSignalBlocker>
#include <QStatusBar>
#include <algorithm>

namespace {
const QString kLastModelDirKey = QStringLiteral("files/lastModelDir");
} // namespace

ModelActions::ModelActions(Document *document, MainWindow *window)
    : QObject(window), m_document(document), m_model(document->model()), m_window(window)
{
    m_gridPanel = new ModelGridPanel;
    m_grid = m_gridPanel->grid();
    connect(m_grid, &ModelGridView::tilePixelsChanged, m_model, &ModelDocument::setGridTilePixels);
    m_next = new NextTokenView;
    m_rollout = new RolloutView;
    connect(m_model, &ModelDocument::ablationChanged, this, &ModelActions::onAblation);
    connect(m_model, &ModelDocument::queryChanged, m_rollout, &RolloutView::setQuery);
    connect(m_model, &ModelDocument::queryChanged, this, &ModelActions::updateGridScores);
    connect(m_model, &ModelDocument::queryChanged, this, &ModelActions::updateEmbeddingPanel);
    connect(m_gridPanel, &ModelGridPanel::chosenKeyChanged, this, &ModelActions::updateGridScores);
    connect(m_document->selection(), &ViewSelection::colorMapChanged, m_rollout, &RolloutView::setColorMap);
    // The grid numbers the average -1, as files do (modelgridview.h).
    connect(m_grid, &ModelGridView::tileMenuRequested, this, [this](int layer, int head, const QPoint &globalPos) {
        popupHeadMenu(HeadRef::fromFileIndex(layer, head), globalPos);
    });
    connect(m_model, &ModelDocument::opened, this, &ModelActions::onOpened);
    connect(m_model, &ModelDocument::closed, this, &ModelActions::onClosed);
    connect(m_model, &ModelDocument::resultChanged, this, &ModelActions::onResult);
    connect(m_model, &ModelDocument::layerChanged, this, &ModelActions::onLayer);
    connect(m_model, &ModelDocument::headChanged, this, [this](int head) { m_grid->setSelected(m_model->layer(), head); });
    // The tile picks layer and head at once: one change of the selection.
    connect(m_model, &ModelDocument::openFailed, this, [this](const QString &message) {
        m_lessonStart.reset();
        m_lastError = tr("Cannot open the model: %1").arg(message);
        m_window->statusBar()->showMessage(m_lastError, MainWindow::kErrorShownMs);
        emit errorOccurred(m_lastError);
    });
    connect(m_grid, &ModelGridView::tileSelected, this, [this](int layer, int head) {
        m_document->selection()->setHead(HeadRef::one(layer, head));
    });
    connect(m_gridPanel, &ModelGridPanel::headPicked, this, [this](int layer, int head) {
        m_document->selection()->setHead(HeadRef::one(layer, head));
    });
    // A long run's layers, with Cancel; after a stop, Compute the Rest.
    m_progress = new LayerProgressBar;
    m_window->statusBar()->addPermanentWidget(m_progress);
    connect(m_progress, &LayerProgressBar::cancelRequested, m_model, &ModelDocument::stopRun);
    connect(m_progress, &LayerProgressBar::restRequested, m_model, &ModelDocument::computeRest);
    connect(m_model, &ModelDocument::progressChanged, this, &ModelActions::updateProgress);
    connect(m_model, &ModelDocument::closed, this, &ModelActions::updateProgress);
}

void ModelActions::updateProgress()
{
    const ModelDocument::LayerProgress p = m_model->layerProgress();
    if (p.running)
        m_progress->showRunning(p.done, p.total);
    else if (p.stopped)
        m_progress->showStopped(p.done, p.total);
    else
        m_progress->showNothing();
}

void ModelActions::addLayerControls(QHBoxLayout *tools)
{
    m_layerLabel = new QLabel(tr("Layer:"));
    m_layerBox = new QComboBox;
    m_layerBox->setAccessibleName(tr("Layer shown in the heatmap"));
    m_layerBox->view()->setAccessibleName(tr("Layers"));
    m_layerBox->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_layerBox->setToolTip(tr("Which layer of the model every view shows; layers count from 0"));
    m_layerLabel->setBuddy(m_layerBox);
    tools->addWidget(m_layerLabel);
    tools->addWidget(m_layerBox);
    tools->addSpacing(8);
    m_layerLabel->hide();
    m_layerBox->hide();
    connect(m_layerBox, qOverload<int>(&QComboBox::activated), m_document->selection(), &ViewSelection::setLayer);
}

void ModelActions::populateMenu(QMenu *file)
{
    QAction *open = file->addAction(tr("Open &Model…"), this, [this] {
        QSettings settings;
        const QString model = ModelFileDialog::getModel(m_window, tr("Open model folder or GGUF file"),
                                                        settings.value(kLastModelDirKey).toString());
        if (model.isEmpty())
            return;
        settings.setValue(kLastModelDirKey, QFileInfo(model).isFile() ? QFileInfo(model).absolutePath() : model);
        openFolder(model);
    });
    open->setStatusTip(tr("A folder with config.json, model.safetensors and the tokenizer files, or a GGUF file"));
    QAction *list = file->addAction(tr("Mo&dels on This Computer…"), this, &ModelActions::showModelList);
    list->setObjectName(QStringLiteral("modelList"));
    list->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    list->setStatusTip(tr("Every model of the Hugging Face cache, Ollama, LM Studio, llama.cpp's cache and the ones "
                          "trained here, in one list"));
    QAction *close = file->addAction(tr("&Close Model"), this, &ModelActions::closeModel);
    close->setObjectName(QStringLiteral("closeModel"));
    close->setEnabled(false);
    connect(m_model, &ModelDocument::opened, close, [close] { close->setEnabled(true); });
    connect(m_model, &ModelDocument::closed, close, [close] { close->setEnabled(false); });
    // Run A beside a variant B: another head, sentence, token or embedding (compareview.h).
    m_compareDock = new QDockWidget(tr("Compare runs"), m_window);
    m_compareDock->setObjectName(QStringLiteral("compare"));
    auto *comparison = new Comparison(m_model);
    m_compareDock->setWidget(new CompareView(comparison));
    comparison->setParent(m_compareDock->widget()); // lives exactly as long as its view
    m_window->addDockWidget(Qt::BottomDockWidgetArea, m_compareDock);
    // A tab beside the pipeline, not a third panel beside it and the bars,
    // whose widths added up to more than a 1280-pixel screen.
    if (auto *pipeline = m_window->findChild<QDockWidget *>(QStringLiteral("pipeline")))
        m_window->tabifyDockWidget(pipeline, m_compareDock);
    m_compareDock->hide();
    QAction *compare = file->addAction(tr("Com&pare Runs…"), this, [this] {
        m_compareDock->show();
        m_compareDock->raise();
        // Room for its panels, as tall as half the window allows (it shares the bottom with the pipeline).
        const int wanted = std::min(460, m_window->height() / 2);
        if (m_compareDock->height() < wanted)
            m_window->resizeDocks({m_compareDock}, {wanted}, Qt::Vertical);
    });
    compare->setObjectName(QStringLiteral("compareRuns"));
    compare->setStatusTip(tr("The shown head beside another head, sentence, replaced token or moved embedding"));
    compare->setEnabled(false);
    connect(m_model, &ModelDocument::opened, compare, [compare] { compare->setEnabled(true); });
    connect(m_model, &ModelDocument::closed, this, [this, compare] {
        compare->setEnabled(false);
        m_compareDock->hide();
    });


    m_nextDock = new QDockWidget(tr("Next token"), m_window);
    m_nextDock->setObjectName(QStringLiteral("nexttoken"));
    m_nextDock->setWidget(m_next);
    // Below the grid's tab group, not a tab of it: a switched-off head's effect shows beside the grid.
    m_window->addDockWidget(Qt::RightDockWidgetArea, m_nextDock, Qt::Vertical);
    m_nextDock->hide();

    m_rolloutDock = new QDockWidget(tr("Attention rollout"), m_window);
    m_rolloutDock->setObjectName(QStringLiteral("rollout"));
    m_rolloutDock->setWidget(m_rollout);
    m_window->addDockWidget(Qt::BottomDockWidgetArea, m_rolloutDock);
    if (auto *pipeline = m_window->findChild<QDockWidget *>(QStringLiteral("pipeline")))
        m_window->tabifyDockWidget(pipeline, m_rolloutDock);
    m_rolloutDock->hide();
    connect(m_rolloutDock, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        if (visible && m_rolloutDock->height() < 360)
            m_window->resizeDocks({m_rolloutDock}, {360}, Qt::Vertical); // room for the heatmap and its text
        m_model->setRolloutShown(visible); // computed only while it is on screen
    });
    // View › Attention rollout: only a model has layers to roll out.
    QAction *toggle = m_rolloutDock->toggleViewAction();
    toggle->setStatusTip(tr("How attention flows from the input tokens through all layers (attention rollout)"));
    toggle->setEnabled(false);
    connect(m_model, &ModelDocument::opened, toggle, [toggle] { toggle->setEnabled(true); });
    connect(m_model, &ModelDocument::closed, this, [this, toggle] {
        toggle->setEnabled(false);
        m_rolloutDock->hide();
    });

    // The head box's own menu switches the head it shows.
    QComboBox *box = m_window->headBox();
    box->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(box, &QWidget::customContextMenuRequested, this, [this, box](const QPoint &pos) {
        if (m_model->isOpen())
            popupHeadMenu(m_document->selection()->head(), box->mapToGlobal(pos));
    });
}

void ModelActions::showModelList()
{
    if (!m_modelList) {
        m_modelList = new ModelListDialog(m_window);
        // Opened as File › Open Model opens what it chose.
        connect(m_modelList, &ModelListDialog::openRequested, this, &ModelActions::openFolder);
    }
    m_modelList->refresh();
    m_modelList->show();
    m_modelList->raise();
    m_modelList->activateWindow();
    m_modelList->filterEdit()->setFocus();
}

void ModelActions::openFolder(const QString &path)
{
    // The model reads what the sentence field shows, typed but not yet applied included.
    openFolderOn(path, m_window->sentenceEdit()->text());
}

void ModelActions::openLesson(const QString &path, const QString &text, int query, int key, const QString &name)
{
    openFolderOn(path, text, name);
    if (m_model->isOpening())
        m_lessonStart = {query, key};
}

bool ModelActions::mayLeaveModel()
{
    // Only the switched-off heads go with the model; the hand-made session stays underneath.
    if (!m_model->isOpen() || m_model->ablatedHeads().empty())
        return true;
    return m_window->fileActions()->maybeSave();
}

void ModelActions::openFolderOn(const QString &path, const QString &text, const QString &name)
{
    if (!mayLeaveModel())
        return;
    m_lessonStart.reset();
    m_lessonOpened = false;
    // Only a new text: running the open model again on its own text is wasted,
    // and its notices (a text cut to the model's positions) took the status
    // bar from the message of a folder that failed to open.
    if (text != m_model->text())
        m_model->setText(text);
    m_window->statusBar()->showMessage(tr("Opening %1…").arg(path));
    m_model->open(path, name);
}

void ModelActions::closeModel()
{
    if (mayLeaveModel())
        m_model->close();
}

bool ModelActions::applyToWindow()
{
    if (!m_model->isOpen())
        return false;
    QStringList texts, tips;
    QList<attn::ModelToken::Role> roles;
    for (const attn::ModelToken &t : m_model->tokens()) {
        texts << t.text;
        roles << t.role;
        tips << TokenChips::toolTipFor(t);
    }
    m_window->chips()->setTokens(texts, roles);
    m_window->chips()->setToolTips(tips);
    m_gridPanel->setTokens(texts);
    QComboBox *box = m_window->headBox();
    const int heads = m_model->config()->heads;
    if (box->count() != heads + (heads > 1 ? 1 : 0) || box->itemData(0).toInt() != 0) {
        const QSignalBlocker block(box);
        box->clear();
        for (int h = 0; h < heads; ++h)
            box->addItem(tr("%1 of %2").arg(h).arg(heads), h);
        if (heads > 1)
            box->addItem(tr("average of %1").arg(heads));
        m_window->showHead(m_document->selection()->head());
    }
    updateHeadBoxMarks();
    return true;
}

void ModelActions::onOpened()
{
    setModelMode(true);
    const int layers = m_model->config()->layers;
    {
        const QSignalBlocker block(m_layerBox);
        m_layerBox->clear();
        for (int l = 0; l < layers; ++l)
            m_layerBox->addItem(tr("%1 of %2").arg(l).arg(layers), l);
    }
    m_grid->setLevels(nullptr);
    m_grid->setSwitchedOff(m_model->ablatedHeads());
    m_gridPanel->reset(); // the model before's score and token are not this one's
    m_lessonOpened = m_lessonStart.has_value();
    applyToWindow();
    // A session restores its text, layer and head; Open Model starts on head 0 of layer 0.
    if (m_window->sentenceEdit()->text() != m_model->text())
        m_window->sentenceEdit()->setText(m_model->text());
    onLayer(m_model->layer());
    updateGuesses();
    m_window->statusBar()->showMessage(tr("Opened %1 (%2, %3 layers × %4 heads)")
                                           .arg(m_model->name(), m_model->config()->familyName())
                                           .arg(layers).arg(m_model->config()->heads), 8000);
}

void ModelActions::onClosed()
{
    setModelMode(false);
    m_window->chips()->setToolTips({});
    m_grid->setLevels(nullptr);
    m_gridPanel->setHeadScores(nullptr);
    m_grid->setSwitchedOff({});
    m_rollout->setRollout(nullptr, {}, false, 0);
}

void ModelActions::setModelMode(bool on)
{
    // Hand-made sessions' controls do not apply to a model's fixed weights.
    const QString reason = on ? tr("Not used while a model is open: its embeddings and attention come from its weights "
                                   "(File › Close Model goes back)")
                              : QString();
    for (QWidget *w : {static_cast<QWidget *>(m_window->options()), static_cast<QWidget *>(m_window->crossAttention())}) {
        w->setEnabled(!on);
        w->setToolTip(reason);
    }
    // The Embedding dock names the model's token and says why it cannot edit it.
    if (on)
        updateEmbeddingPanel();
    else
        m_window->editor()->showSessionTokens();
    m_layerLabel->setVisible(on);
    m_layerBox->setVisible(on);
    if (QDockWidget *heads = m_window->findChild<QDockWidget *>(QStringLiteral("heads"))) {
        if (on && heads->widget() != m_gridPanel) {
            m_headsWidget = heads->widget();
            m_headsWidget->hide();
            heads->setWidget(m_gridPanel);
            m_gridPanel->show();
            heads->setWindowTitle(tr("All layers and heads"));
            heads->show();
            heads->raise(); // the model's overview first
        } else if (!on && heads->widget() == m_gridPanel && m_headsWidget) {
            m_gridPanel->hide();
            m_gridPanel->setParent(nullptr);
            heads->setWidget(m_headsWidget);
            m_headsWidget->show();
            m_gridPanel->setParent(m_window);
            m_gridPanel->hide();
            heads->setWindowTitle(tr("All heads"));
        }
        m_window->dockReach()->apply(heads); // the new contents stay hidden while the dock's tab is not shown
    }
    m_nextDock->setVisible(on);
}

void ModelActions::onResult()
{
    if (!m_model->isOpen())
        return;
    applyToWindow();
    updateEmbeddingPanel();
    m_grid->setMarks(m_model->gridMarks());
    if (m_model->gridLevels() != m_grid->levels()) {
        m_grid->setLevels(m_model->gridLevels(), m_model->gridTiles());
        updateGridScores();
        updateRollout();
    } else if (m_model->rollout() != m_rollout->rollout()) {
        updateRollout(); // computed after the rest, when the dock was shown
    }
    updateGuesses();
    if (m_lessonStart && m_lessonOpened && m_model->trace()) {
        const auto [query, key] = *std::exchange(m_lessonStart, std::nullopt);
        m_model->setQuery(query); // ignored when -1
        if (key >= 0)
            m_gridPanel->showChosenKey(key);
    }
}

void ModelActions::updateGridScores()
{
    std::shared_ptr<const ModelDocument::HeadScoreTable> scores = m_model->headScores();
    const std::shared_ptr<const attn::ModelTrace> trace = m_model->trace();
    const int key = m_gridPanel->chosenKey();
    if (scores && trace && key >= 0)
        scores = std::make_shared<const ModelDocument::HeadScoreTable>(
            attn::withChosenKey(*scores, *trace, attn::QueryKey{m_model->query(), key}));
    m_gridPanel->setHeadScores(scores);
}

void ModelActions::updateEmbeddingPanel()
{
    if (!m_model->isOpen())
        return;
    const std::vector<attn::ModelToken> &tokens = m_model->tokens();
    const int query = m_model->query();
    ModelTokenInfo info;
    info.dModel = m_model->config()->dModel;
    if (query >= 0 && query < int(tokens.size())) {
        info.position = query;
        info.text = tokens[std::size_t(query)].text;
        info.id = tokens[std::size_t(query)].id;
        info.norm = attn::tokenEmbeddingNorm(*m_model->model(), info.id);
    }
    m_window->editor()->showModelToken(info);
}

void ModelActions::onLayer(int layer)
{
    const QSignalBlocker block(m_layerBox);
    m_layerBox->setCurrentIndex(layer);
    m_grid->setSelected(layer, m_model->head());
    updateHeadBoxMarks();
}

void ModelActions::updateGuesses()
{
    std::vector<TokenGuess> guesses, movers;
    for (const ModelDocument::PredictionChange &c : m_model->predictionChanges(10))
        guesses.push_back({c.id, m_model->tokenizer()->idToText(c.id), c.after, c.before});
    for (const ModelDocument::PredictionChange &c : m_model->biggestMovers(5))
        movers.push_back({c.id, m_model->tokenizer()->idToText(c.id), c.after, c.before});
    m_next->setMovers(movers);
    const ModelDocument::LayerProgress progress = m_model->layerProgress();
    QString empty = m_model->config() && !m_model->config()->causal
        ? tr("Put [MASK] in the text to see what the model guesses there")
        : tr("No prediction yet");
    // The prediction needs the last layer.
    if (!m_model->tokens().empty() && m_model->computedLayers() < progress.total)
        empty = progress.stopped ? tr("Not computed: the run was stopped before the last layer")
                                 : tr("Waiting for the last layer (%1 of %2 done)").arg(m_model->computedLayers()).arg(progress.total);
    m_next->setEmptyText(empty);
    m_next->setGuesses(m_model->predictionTitle(), guesses);
    m_nextDock->setWindowTitle(m_model->config() && !m_model->config()->causal
                                   ? tr("Masked token") : tr("Next token"));
}
