// ModelDocument's passes through the document's scheduler: a new text or set
// of switched-off heads (the "model" channel) and another layer's view
// ("model-layer"). Everything slow runs in the job on a worker: the forward
// pass, the rollout, the selected layer's view and the grid's thumbnails; the
// GUI thread only takes the answer.

#include "modeldocument.h"

#include "model/incremental.h"
#include "model/layerview.h"
#include "model/rollout.h"

#include <QElapsedTimer>
#include <QThreadPool>
#include <QGuiApplication>
#include <QPalette>
#include <algorithm>

namespace {

const QString kRunChannel = QStringLiteral("model");
const QString kLayerChannel = QStringLiteral("model-layer");
const QString kAsideGridChannel = QStringLiteral("model-grid-aside");

// Each layer's sliding window (0: none), as the grid and the pattern scores take them.
std::vector<int> windowsOf(const attn::ModelConfig &c) { return modelGridMarks(c).windows; }

// A trace above this is refused: the window must keep the shown one and compute the next.
constexpr double kMaxTraceBytes = 3.0 * 1024 * 1024 * 1024;

// Below this much work a layer's view is built at once, on the GUI thread
// (about a millisecond): the casts of its projections and the output product.
double layerViewFlops(const attn::ModelConfig &c, int tokens)
{
    return 2.0 * tokens * c.dModel * c.dModel + 2.0 * c.heads * double(tokens) * tokens + 4.0 * c.dModel * c.dModel;
}
constexpr double kSyncLayerFlops = 1e8;

using LayerResult = std::shared_ptr<const attn::AttentionResult>;

// Drops these references on a worker. A replaced trace is a hundred megabytes
// a worker allocated; freed on the GUI thread, glibc hands its pages back to
// the kernel there, milliseconds the window would not answer.
void releaseOnWorker(std::vector<std::shared_ptr<const void>> held)
{
    QThreadPool::globalInstance()->start([held = std::move(held)]() mutable { held.clear(); });
}

} // namespace

struct ModelDocument::Computed
{
    std::vector<attn::ModelToken> tokens;
    std::shared_ptr<const attn::ModelTrace> trace;
    std::shared_ptr<const attn::RowMatrix<double>> rollout;
    std::shared_ptr<const ModelGridLevels> grid;
    std::shared_ptr<const ModelGridTiles> gridTiles; // `grid` in the colours the window had when it asked
    std::shared_ptr<const ModelGridLevels> asideGrid; // with the first token set aside, when the views asked for it
    std::shared_ptr<const HeadScoreTable> scores;
    LayerResult layerResult; // of `layer`
    int layer = 0;
    std::set<attn::LayerHead> ablated; // what this run switched off
    int reused = 0;                    // leading positions taken from the trace before
    QString error;
    QString notice;
    double milliseconds = 0;
};

bool ModelDocument::isComputing() const
{
    return m_scheduler->isBusy(kRunChannel) || m_scheduler->isBusy(kLayerChannel)
        || m_scheduler->isBusy(kAsideGridChannel);
}

void ModelDocument::cancelRuns()
{
    m_scheduler->cancel(kRunChannel);
    m_scheduler->cancel(kLayerChannel);
    m_scheduler->cancel(kAsideGridChannel);
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
    const std::vector<int> windows = windowsOf(m_model->config);
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

void ModelDocument::startCompute()
{
    m_scheduler->cancel(kLayerChannel); // the run gives the selected layer's view of its own trace
    m_scheduler->cancel(kAsideGridChannel);
    const bool aside = m_selection->firstTokenAside();
    const attn::SharedModelParameters model = m_model;
    const attn::TokenizerPtr tokenizer = m_tokenizer;
    const QString text = m_text;
    const std::set<attn::LayerHead> ablated = m_ablated;
    const int layer = this->layer();
    // The grid's colours now, so the worker colours its tiles too (the grid
    // colours them again itself only if they change meanwhile).
    ModelGridTiles colours;
    colours.map = m_selection->colorMap();
    colours.masked = QGuiApplication::palette().color(QPalette::Window).rgba();
    // Typing at the end of a GPT-2 text: only the new positions are computed.
    const std::shared_ptr<const attn::ModelTrace> previous = m_trace;
    auto job = [model, tokenizer, text, ablated, previous, layer, colours, aside](const attn::CancelFlag &cancel) {
        auto out = std::make_shared<Computed>();
        QElapsedTimer timer;
        timer.start();
        out->tokens = tokenizer->encode(text);
        const int limit = model->config.positions;
        if (int(out->tokens.size()) > limit) {
            out->notice = QObject::tr("The text has %1 tokens; the model reads at most %2, so only the first %2 are used")
                              .arg(out->tokens.size()).arg(limit);
            out->tokens.resize(std::size_t(limit));
        }
        out->ablated = ablated;
        out->layer = layer;
        if (out->tokens.empty()) {
            out->error = QObject::tr("the text has no tokens");
            return out;
        }
        const QString unknown = attn::unknownTokenProblem(out->tokens, model->config.vocab);
        if (!unknown.isEmpty()) {
            out->error = unknown;
            return out;
        }
        attn::ForwardOptions options;
        options.ablatedHeads = ablated;
        const int n = int(out->tokens.size());
        options.keepScores = attn::traceBytes(model->config, n, true) <= kScoresBudgetBytes;
        options.maskTokenId = tokenizer->specialIds().mask;
        options.cancel = &cancel;
        if (attn::traceBytes(model->config, n, false) > kMaxTraceBytes) {
            out->error = QObject::tr("%1 tokens need more memory than the window allows").arg(n);
            return out;
        }
        std::vector<int> ids;
        for (const attn::ModelToken &t : out->tokens)
            ids.push_back(t.id);
        try {
            out->reused = previous ? attn::reusablePrefix(*model, *previous, ids, options) : 0;
            out->trace = std::make_shared<const attn::ModelTrace>(
                previous ? attn::extendTrace(*model, *previous, ids, options) : attn::forward(*model, ids, options));
            attn::stopIfCancelled(options);
            out->rollout = std::make_shared<const attn::RowMatrix<double>>(attn::attentionRollout(*out->trace));
            attn::stopIfCancelled(options);
            const std::vector<int> windows = windowsOf(model->config);
            out->grid = std::make_shared<const ModelGridLevels>(
                modelGridLevels(*out->trace, model->config.causal, kModelGridMaxSide, false, windows));
            auto tiles = std::make_shared<ModelGridTiles>(colours);
            tiles->images = colouredTiles(*out->grid, colours.map, QColor::fromRgba(colours.masked));
            out->gridTiles = std::move(tiles);
            if (aside)
                out->asideGrid = std::make_shared<const ModelGridLevels>(
                    modelGridLevels(*out->trace, model->config.causal, kModelGridMaxSide, true, windows));
            out->scores = std::make_shared<const HeadScoreTable>(
                attn::traceHeadScores(*out->trace, ids, std::nullopt, windows));
            out->layerResult = std::make_shared<const attn::AttentionResult>(
                attn::layerAttention(*model, out->trace, std::min(layer, model->config.layers - 1)));
        } catch (const attn::ModelInputError &e) {
            out->error = QString::fromStdString(e.what());
        } catch (const std::bad_alloc &) {
            out->error = QObject::tr("not enough memory to run the model on this text");
        }
        out->milliseconds = timer.nsecsElapsed() / 1e6;
        return out;
    };
    m_scheduler->requestJob<std::shared_ptr<Computed>>(kRunChannel, job, this,
                                                       [this](const std::shared_ptr<Computed> &out) { onComputed(out); });
}

void ModelDocument::onComputed(const std::shared_ptr<Computed> &out)
{
    if (!m_model)
        return;
    if (!out->trace && m_trace && !out->error.isEmpty()) {
        // A text the model cannot read (or run): what was shown stays, with
        // the reason, until a text it can read comes.
        m_runError = out->error;
        auto snapshot = std::make_shared<AttentionSnapshot>(*m_snapshot);
        snapshot->error = m_runError;
        m_snapshot = snapshot;
        if (!out->notice.isEmpty())
            emit notice(out->notice);
        emit resultChanged();
        return;
    }
    m_runError = out->error;
    takeBefore(out->tokens, out->ablated);
    releaseOnWorker({m_trace, m_rollout, m_gridLevels, m_gridTiles, m_asideGridLevels});
    m_tokens = out->tokens;
    m_trace = out->trace;
    m_rollout = out->rollout;
    m_gridLevels = out->grid;
    m_gridTiles = out->gridTiles;
    m_asideGridLevels = out->asideGrid;
    m_headScores = out->scores;
    m_traceAblated = out->ablated;
    m_reusedPositions = out->reused;
    if (m_restoreQuery >= 0)
        m_query = std::exchange(m_restoreQuery, -1);
    m_query = std::clamp(m_query, 0, std::max(0, int(m_tokens.size()) - 1));
    // showLayer() takes the time and the error (m_runError) from here: the
    // snapshot holds the layer's inputs, megabytes a copy would cost.
    m_runMilliseconds = out->milliseconds;
    if (out->layer == layer() || !m_trace)
        showLayer(layer(), out->layerResult);
    else
        showLayer(m_snapshotLayer, nullptr); // replaced by the selected layer's view below
    if (!out->notice.isEmpty())
        emit notice(out->notice);
    emit tokensChanged();
    emit resultChanged();
    emit queryChanged(m_query);
    if (m_trace && out->layer != layer())
        requestLayer();
    requestAsideGrid(); // the first token was set aside while the run went on
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
    if (!m_trace) {
        m_scheduler->cancel(kLayerChannel);
        showLayer(layer, nullptr);
        emit resultChanged();
        return;
    }
    const attn::SharedModelParameters model = m_model;
    const std::shared_ptr<const attn::ModelTrace> trace = m_trace;
    if (layerViewFlops(model->config, int(m_tokens.size())) <= kSyncLayerFlops) {
        m_scheduler->cancel(kLayerChannel); // an older, larger request must not overwrite this later
        showLayer(layer, std::make_shared<const attn::AttentionResult>(attn::layerAttention(*model, trace, layer)));
        emit resultChanged();
        return;
    }
    m_scheduler->requestJob<LayerResult>(
        kLayerChannel,
        [model, trace, layer](const attn::CancelFlag &) {
            return std::make_shared<const attn::AttentionResult>(attn::layerAttention(*model, trace, layer));
        },
        this, [this, trace, layer](const LayerResult &result) {
            if (trace != m_trace || layer != this->layer())
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
        snapshot->error = isComputing() ? tr("computing…") : tr("type a text for the model to read");
    m_snapshot = snapshot;
}
