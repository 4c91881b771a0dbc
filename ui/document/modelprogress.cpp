// ModelDocument layer by layer: a long run's layers shown as they are done,
// stopping a run and computing the rest after a stop.

#include "modeldocument.h"

#include <algorithm>

namespace {
const QString kRunChannel = QStringLiteral("model");
} // namespace

void ModelDocument::forgetLayers()
{
    m_reusable.reset();
    m_reusableRollout.reset();
    m_reusableScoreRows.reset();
    m_shownRun.reset();
    m_computedLayers = 0;
    m_stopped = false;
    m_runLayersDone = 0;
    m_layersWaiting.clear();
    m_layerByLayerTimer->stop();
}

void ModelDocument::setLayerByLayerAfter(int milliseconds)
{
    m_layerByLayerTimer->setInterval(std::max(0, milliseconds));
}

std::shared_ptr<const attn::ModelTrace> ModelDocument::shownTrace() const
{
    if (m_trace)
        return m_trace;
    return m_shownRun && m_computedLayers > 0 ? m_shownRun->trace : nullptr;
}

ModelDocument::LayerProgress ModelDocument::layerProgress() const
{
    LayerProgress p;
    if (!m_model)
        return p;
    p.total = m_model->config.layers;
    p.running = m_runShowsLayers && m_scheduler->isBusy(kRunChannel) && !m_stopped;
    p.done = p.running ? m_runLayersDone : m_computedLayers;
    p.stopped = m_stopped && !p.running;
    return p;
}

QString ModelDocument::pendingLayerText(int layer) const
{
    if (!m_model || m_tokens.empty() || layer < m_computedLayers)
        return isComputing() ? tr("computing…") : tr("type a text for the model to read");
    const int layers = m_model->config.layers;
    if (m_stopped)
        return tr("Layer %1 was not computed: the run was stopped after layer %2 of %3. Compute the Rest computes "
                  "it, and so does a new text")
            .arg(layer).arg(m_computedLayers - 1).arg(layers);
    if (m_computedLayers == 1)
        return tr("Layer %1 is not computed yet: layer 0 of %2 is done").arg(layer).arg(layers);
    return tr("Layer %1 is not computed yet: layers 0 to %2 of %3 are done").arg(layer).arg(m_computedLayers - 1).arg(layers);
}

void ModelDocument::onLayerDone(const ModelLayerDone &done)
{
    if (!done.run || done.run->serial != m_runSerial)
        return; // a run replaced since (the scheduler drops a cancelled run's reports too)
    m_runLayersDone = done.layer + 1;
    m_layersWaiting.push_back(done);
    if (m_runShowsLayers)
        showLayersDone();
    else
        emit progressChanged();
}

void ModelDocument::beginPartial(const std::shared_ptr<const ModelRunStart> &run)
{
    // The prediction shown before is what a change of switched-off heads compares with.
    takeBefore(run->tokens, run->ablated);
    const std::size_t layers = std::size_t(m_model->config.layers);
    m_shownRun = run;
    m_trace.reset(); // the whole trace before stays as m_reusable, for the next text to reuse
    m_rollout.reset();
    m_tokens = run->tokens;
    m_traceAblated = run->ablated;
    m_reusedPositions = run->reused;
    m_computedLayers = 0;
    m_stopped = false;
    m_runError.clear();
    m_gridLevels = std::make_shared<const ModelGridLevels>(layers);
    auto tiles = std::make_shared<ModelGridTiles>(run->colours);
    tiles->images.assign(layers, {});
    m_gridTiles = tiles;
    m_asideGridLevels.reset();
    m_headScores = std::make_shared<const HeadScoreTable>(layers);
    if (m_restoreQuery >= 0)
        m_query = std::exchange(m_restoreQuery, -1);
    m_query = std::clamp(m_query, 0, std::max(0, int(m_tokens.size()) - 1));
    emit tokensChanged();
    emit queryChanged(m_query);
}

void ModelDocument::showLayersDone()
{
    if (m_layersWaiting.empty() || !m_model)
        return;
    const std::vector<ModelLayerDone> waiting = std::exchange(m_layersWaiting, {});
    if (waiting.front().run != m_shownRun)
        beginPartial(waiting.front().run);
    // Copies of the lists with the new rows: a view keeps the lists it was given.
    ModelGridLevels levels = *m_gridLevels;
    auto tiles = std::make_shared<ModelGridTiles>(*m_gridTiles);
    HeadScoreTable scores = *m_headScores;
    const bool aside = !waiting.front().asideLevels.empty();
    ModelGridLevels asideLevels = m_asideGridLevels ? *m_asideGridLevels : ModelGridLevels(levels.size());
    bool selectedDone = false;
    for (const ModelLayerDone &d : waiting) {
        const std::size_t l = std::size_t(d.layer);
        levels[l] = d.levels;
        tiles->images[l] = d.tiles;
        scores[l] = d.scores;
        if (aside)
            asideLevels[l] = d.asideLevels;
        m_computedLayers = d.layer + 1;
        if (d.layer == layer() && d.layerResult) {
            showLayer(d.layer, d.layerResult);
            selectedDone = true;
        }
    }
    m_gridLevels = std::make_shared<const ModelGridLevels>(std::move(levels));
    m_gridTiles = tiles;
    if (aside)
        m_asideGridLevels = std::make_shared<const ModelGridLevels>(std::move(asideLevels));
    m_headScores = std::make_shared<const HeadScoreTable>(std::move(scores));
    if (!selectedDone && (m_snapshotLayer != layer() || !m_snapshot->result))
        requestLayer(); // the selected layer now done (or still to come: its text says how far the run is)
    else
        emit resultChanged();
    emit progressChanged();
}

void ModelDocument::stopRun()
{
    if (!m_model || !m_scheduler->isBusy(kRunChannel))
        return;
    const int layers = m_model->config.layers;
    if (m_runLayersDone >= layers)
        return; // every layer is done: the prediction and the rollout follow at once
    m_scheduler->cancel(kRunChannel); // no report of it comes any more
    m_layerByLayerTimer->stop();
    showLayersDone(); // what came before the stop, even if it was not shown yet
    if (!m_shownRun || m_shownRun->serial != m_runSerial) {
        m_runShowsLayers = false; // nothing to show: the bar goes
        emit notice(tr("Stopped before the first layer was done: the views still show the text before"));
        emit progressChanged();
        return;
    }
    m_stopped = true;
    if (layer() >= m_computedLayers)
        showLayer(layer(), nullptr); // its text now says the run was stopped
    emit resultChanged();
    emit progressChanged();
    emit notice(tr("Stopped after layer %1 of %2: layers %3 to %4 were not computed (Compute the Rest, or a new "
                   "text, computes them)")
                    .arg(m_computedLayers - 1).arg(layers).arg(m_computedLayers).arg(layers - 1));
}

void ModelDocument::computeRest()
{
    // The stopped run may still be ending its layer: this run waits for it.
    if (m_model && m_stopped)
        startCompute(true);
}
