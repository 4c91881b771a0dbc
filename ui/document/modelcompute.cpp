// ModelDocument's passes through the document's scheduler: a new text or set
// of switched-off heads (the "model" channel), another layer's view
// ("model-layer"), the grid with the first token set aside and the rollout
// once they are shown. Everything slow runs in the job on a worker
// (modelrun.h): the forward pass, the rollout, the selected layer's view and
// the grid's thumbnails; the GUI thread only takes each layer and the answer.

#include "modeldocument.h"

#include "model/layerview.h"
#include "model/rollout.h"

#include <QThreadPool>
#include <QGuiApplication>
#include <QPalette>
#include <algorithm>

namespace {

const QString kRunChannel = QStringLiteral("model");
const QString kLayerChannel = QStringLiteral("model-layer");
const QString kAsideGridChannel = QStringLiteral("model-grid-aside");
const QString kRolloutChannel = QStringLiteral("model-rollout");

using LayerResult = std::shared_ptr<const attn::AttentionResult>;

// Drops these references on a worker. A replaced trace is a hundred megabytes
// a worker allocated; freed on the GUI thread, glibc hands its pages back to
// the kernel there, milliseconds the window would not answer.
void releaseOnWorker(std::vector<std::shared_ptr<const void>> held)
{
    QThreadPool::globalInstance()->start([held = std::move(held)]() mutable { held.clear(); });
}

} // namespace

bool ModelDocument::isComputing() const
{
    return m_scheduler->isBusy(kRunChannel) || m_scheduler->isBusy(kLayerChannel)
        || m_scheduler->isBusy(kAsideGridChannel) || m_scheduler->isBusy(kRolloutChannel);
}

void ModelDocument::cancelRuns()
{
    m_scheduler->cancel(kRunChannel);
    m_scheduler->cancel(kLayerChannel);
    m_scheduler->cancel(kAsideGridChannel);
    m_scheduler->cancel(kRolloutChannel);
}

std::shared_ptr<const ModelGridLevels> ModelDocument::gridLevels() const
{
    return gridFirstTokenAside() ? m_asideGridLevels : m_gridLevels;
}

bool ModelDocument::gridFirstTokenAside() const
{
    return m_selection->firstTokenAside() && m_asideGridLevels;
}

ModelGridMarks ModelDocument::gridMarks() const
{
    ModelGridMarks marks = m_model ? modelGridMarks(m_model->config) : ModelGridMarks();
    marks.firstTokenAside = gridFirstTokenAside();
    if (m_model && m_gridLevels && m_computedLayers < m_model->config.layers) {
        marks.computedLayers = m_computedLayers;
        marks.stopped = m_stopped;
    }
    return marks;
}

std::shared_ptr<const ModelGridTiles> ModelDocument::gridTiles() const
{
    return gridFirstTokenAside() ? nullptr : m_gridTiles;
}

void ModelDocument::requestAsideGrid()
{
    if (!m_trace || m_asideGridLevels || !m_selection->firstTokenAside())
        return;
    const std::shared_ptr<const attn::ModelTrace> trace = m_trace;
    const bool causal = m_model->config.causal;
    const std::vector<int> windows = modelWindows(m_model->config);
    using Levels = std::shared_ptr<const ModelGridLevels>;
    m_scheduler->requestJob<Levels>(
        kAsideGridChannel,
        [trace, causal, windows](const attn::CancelFlag &) {
            return std::make_shared<const ModelGridLevels>(
                modelGridLevels(*trace, causal, kModelGridMaxSide, true, windows));
        },
        this, [this, trace](const Levels &levels) {
            if (trace != m_trace)
                return; // the run of a newer text brings its own
            m_asideGridLevels = levels;
            emit resultChanged();
        });
}

void ModelDocument::setRolloutShown(bool shown)
{
    m_rolloutShown = shown;
    requestRollout();
}

void ModelDocument::requestRollout()
{
    if (!m_rolloutShown || !m_trace || m_rollout)
        return;
    const std::shared_ptr<const attn::ModelTrace> trace = m_trace;
    using Rollout = std::shared_ptr<const attn::RowMatrix<double>>;
    m_scheduler->requestJob<Rollout>(
        kRolloutChannel,
        [trace](const attn::CancelFlag &) {
            return std::make_shared<const attn::RowMatrix<double>>(attn::attentionRollout(*trace));
        },
        this, [this, trace](const Rollout &rollout) {
            if (trace != m_trace)
                return; // the run of a newer text brings its own
            m_rollout = rollout;
            if (m_reusable == trace)
                m_reusableRollout = rollout; // the next typed word extends it
            emit resultChanged();
        });
}

void ModelDocument::startCompute(bool resume)
{
    m_scheduler->cancel(kLayerChannel); // the run gives the selected layer's view of its own trace
    m_scheduler->cancel(kAsideGridChannel);
    m_scheduler->cancel(kRolloutChannel);
    ModelRunInput in;
    in.model = m_model;
    in.tokenizer = m_tokenizer;
    in.text = m_text;
    in.ablated = m_ablated;
    in.layer = layer();
    in.firstTokenAside = m_selection->firstTokenAside();
    // The grid's colours now, so the worker colours its tiles too (the grid
    // colours them again itself only if they change meanwhile).
    in.colours.map = m_selection->colorMap();
    in.colours.masked = QGuiApplication::palette().color(QPalette::Window).rgba();
    in.gridTilePixels = m_gridTilePixels;
    // Typing at the end of a GPT-2 text: only the new positions are computed.
    in.previous = m_reusable;
    in.previousRollout = m_reusableRollout;
    in.previousScoreRows = m_reusableScoreRows;
    if (m_trace && m_trace == m_reusable) { // the grid shown is the reusable trace's
        in.previousGrid = m_gridLevels;
        in.previousAsideGrid = m_asideGridLevels;
        in.previousTiles = m_gridTiles;
    }
    in.rollout = m_rolloutShown;
    if (resume && m_stopped && m_shownRun) {
        in.resumeFrom = m_shownRun->trace;
        in.resumeLayers = m_computedLayers;
    }
    in.serial = ++m_runSerial;
    m_runLayersDone = 0;
    m_layersWaiting.clear();
    // While layers of a run are shown (going, or stopped), the next run's
    // come as they are done too; so do the first run's of a model just
    // opened: there is nothing for them to flicker over.
    m_runShowsLayers = m_layerByLayerTimer->interval() == 0 || (!m_trace && (m_computedLayers > 0 || m_nothingShownYet));
    if (!m_runShowsLayers)
        m_layerByLayerTimer->start();
    using Result = std::shared_ptr<ModelRunResult>;
    m_scheduler->requestJobWithProgress<Result, ModelLayerDone>(
        kRunChannel,
        [in](const attn::CancelFlag &cancel, const std::function<void(ModelLayerDone)> &report) {
            return runModel(in, cancel, report);
        },
        this, [this](const ModelLayerDone &done) { onLayerDone(done); },
        [this](const Result &out) { onComputed(out); });
    emit progressChanged();
}

void ModelDocument::onComputed(const std::shared_ptr<ModelRunResult> &out)
{
    if (!m_model)
        return;
    m_layerByLayerTimer->stop();
    m_layersWaiting.clear();
    const bool partialShown = m_shownRun && m_shownRun == out->run;
    if (!out->trace && (m_trace || partialShown) && !out->error.isEmpty()) {
        // A text the model cannot read (or run): what was shown stays, with
        // the reason, until a text it can read comes.
        m_runError = out->error;
        auto snapshot = std::make_shared<AttentionSnapshot>(*m_snapshot);
        snapshot->error = m_runError;
        m_snapshot = snapshot;
        if (!out->run->notice.isEmpty())
            emit notice(out->run->notice);
        emit resultChanged();
        emit progressChanged();
        return;
    }
    m_runError = out->error;
    if (!partialShown) // else taken when its first layer was shown
        takeBefore(out->run->tokens, out->run->ablated);
    releaseOnWorker({m_trace, m_rollout, m_gridLevels, m_gridTiles, m_asideGridLevels, m_reusable, m_reusableRollout,
                     m_reusableScoreRows});
    m_tokens = out->run->tokens;
    m_trace = out->trace;
    m_nothingShownYet = m_nothingShownYet && !m_trace;
    m_reusable = out->trace;
    m_reusableRollout = out->rollout;
    m_reusableScoreRows = out->scoreRows;
    m_shownRun = out->run;
    m_computedLayers = out->trace ? m_model->config.layers : 0;
    m_stopped = false;
    m_rollout = out->rollout;
    m_gridLevels = out->grid;
    m_gridTiles = out->gridTiles;
    m_asideGridLevels = out->asideGrid;
    m_headScores = out->scores;
    m_traceAblated = out->run->ablated;
    m_reusedPositions = out->run->reused;
    if (m_restoreQuery >= 0)
        m_query = std::exchange(m_restoreQuery, -1);
    m_query = std::clamp(m_query, 0, std::max(0, int(m_tokens.size()) - 1));
    // showLayer() takes the time and the error (m_runError) from here: the
    // snapshot holds the layer's inputs, megabytes a copy would cost.
    m_runMilliseconds = out->milliseconds;
    const bool shownAlready = partialShown && m_snapshotLayer == layer() && m_snapshot->result;
    if (shownAlready) { // the layer's view came with its layer: only its time is new
        auto snapshot = std::make_shared<AttentionSnapshot>(*m_snapshot);
        snapshot->milliseconds = m_runMilliseconds;
        m_snapshot = snapshot;
    } else if (out->layer == layer() || !m_trace)
        showLayer(layer(), out->layerResult);
    else
        showLayer(m_snapshotLayer, nullptr); // replaced by the selected layer's view below
    if (!out->run->notice.isEmpty())
        emit notice(out->run->notice);
    emit tokensChanged();
    emit resultChanged();
    emit queryChanged(m_query);
    emit progressChanged();
    if (m_trace && !shownAlready && out->layer != layer())
        requestLayer();
    requestAsideGrid(); // the first token was set aside while the run went on
    requestRollout();   // the rollout was shown while the run went on
}

void ModelDocument::onSelectionChanged()
{
    if (!m_model)
        return; // the hand-made session's head: nothing of the model's changes
    if (layer() != m_snapshotLayer) {
        emit layerChanged(layer());
        requestLayer();
    }
    emit headChanged(head());
}

void ModelDocument::requestLayer()
{
    const int layer = this->layer();
    const std::shared_ptr<const attn::ModelTrace> trace = shownTrace();
    if (!trace || layer >= m_computedLayers) {
        m_scheduler->cancel(kLayerChannel);
        showLayer(layer, nullptr); // says why: no text, or the layer is not computed (yet)
        emit resultChanged();
        return;
    }
    const attn::SharedModelParameters model = m_model;
    // Kept by the pass: the view is then copies only.
    const bool outputKept = std::size_t(layer) < trace->layers.size() && trace->layers[std::size_t(layer)].keptOutput();
    if (!layerViewOnWorker(model->config, int(m_tokens.size()), outputKept)) {
        m_scheduler->cancel(kLayerChannel); // an older, larger request must not overwrite this later
        showLayer(layer, std::make_shared<const attn::AttentionResult>(
                             attn::layerAttention(*model, trace, layer)));
        emit resultChanged();
        return;
    }
    m_scheduler->requestJob<LayerResult>(
        kLayerChannel,
        [model, trace, layer](const attn::CancelFlag &) {
            return std::make_shared<const attn::AttentionResult>(attn::layerAttention(*model, trace, layer));
        },
        this, [this, trace, layer](const LayerResult &result) {
            if (trace != shownTrace() || layer != this->layer())
                return; // a newer trace or layer is on its way
            showLayer(layer, result);
            emit resultChanged();
        });
}

void ModelDocument::showLayer(int layer, std::shared_ptr<const attn::AttentionResult> result)
{
    QStringList texts;
    for (const attn::ModelToken &t : m_tokens)
        texts << t.text;
    const bool shown = m_model && result;
    auto snapshot = modelLayerSnapshot(texts, shown ? std::move(result) : nullptr, m_model ? layer : -1);
    for (const attn::LayerHead &off : m_traceAblated) // what the shown trace was computed with
        if (off.layer == layer)
            snapshot->switchedOffHeads.push_back(off.head);
    snapshot->milliseconds = m_runMilliseconds;
    m_snapshotLayer = layer;
    if (!m_runError.isEmpty())
        snapshot->error = m_runError; // the newest text's problem, whichever layer is shown
    else if (m_model && !shown)
        snapshot->error = pendingLayerText(layer);
    m_snapshot = snapshot;
}
