#include "modeldocument.h"

#include "io/fileidentity.h"
#include "io/modelfolder.h"
#include "model/incremental.h"
#include "model/layerview.h"
#include "model/modelloader.h"
#include "model/rollout.h"
#include "notation.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include <iterator>
#include <utility>

namespace {

// A trace above this is refused: the window must keep the shown one and compute the next.
constexpr double kMaxTraceBytes = 3.0 * 1024 * 1024 * 1024;

// "openai-community/gpt2" for a cache entry models--openai-community--gpt2, else the folder's name.
QString displayName(const QString &path)
{
    QString name = QFileInfo(QFileInfo(path).absoluteFilePath()).fileName();
    if (name.startsWith(QLatin1String("models--")))
        name = name.mid(8).replace(QLatin1String("--"), QLatin1String("/"));
    return name;
}

QString headList(const std::set<attn::LayerHead> &heads)
{
    QStringList names;
    for (const attn::LayerHead &h : heads)
        names << QStringLiteral("%1:%2").arg(h.layer).arg(h.head);
    return names.join(QStringLiteral(", "));
}

} // namespace

struct ModelDocument::Loaded
{
    attn::SharedModelParameters model;
    attn::TokenizerPtr tokenizer;
    QString error;
    QString warning;
    QString identity;
};

struct ModelDocument::Computed
{
    std::vector<attn::ModelToken> tokens;
    std::shared_ptr<const attn::ModelTrace> trace;
    std::shared_ptr<const attn::RowMatrix<double>> rollout;
    std::set<attn::LayerHead> ablated; // what this run switched off
    int reused = 0;                    // leading positions taken from the trace before
    QString error;
    QString notice;
    double milliseconds = 0;
};

ModelDocument::ModelDocument(ViewSelection *selection, QObject *parent)
    : QObject(parent), m_snapshot(std::make_shared<AttentionSnapshot>()), m_selection(selection),
      m_openWatcher(new QFutureWatcher<std::shared_ptr<Loaded>>(this)),
      m_computeWatcher(new QFutureWatcher<std::shared_ptr<Computed>>(this))
{
    connect(m_openWatcher, &QFutureWatcherBase::finished, this, &ModelDocument::onOpenFinished);
    connect(m_computeWatcher, &QFutureWatcherBase::finished, this, &ModelDocument::onComputeFinished);
    connect(m_selection, &ViewSelection::headChanged, this, &ModelDocument::onSelectionChanged);
}

ModelDocument::~ModelDocument()
{
    // The workers hold their own copies; waiting keeps them from outliving the watchers' owner.
    m_openWatcher->waitForFinished();
    m_computeWatcher->waitForFinished();
}

void ModelDocument::open(const QString &path)
{
    if (m_opening) {
        emit notice(tr("A model is already being opened"));
        return;
    }
    m_opening = true;
    emit busyChanged(true);
    m_pendingFolder = path;
    m_openWatcher->setFuture(QtConcurrent::run([path] {
        auto loaded = std::make_shared<Loaded>();
        const std::optional<attn::ModelFiles> files = attn::resolveModelFolder(path, &loaded->error);
        if (!files)
            return loaded;
        attn::SharedModelParameters model = attn::loadModel(files->folder, &loaded->error);
        if (!model)
            return loaded;
        loaded->tokenizer = attn::loadTokenizerFromFolder(files->folder, model->config.familyName(), &loaded->error);
        if (!loaded->tokenizer)
            return loaded;
        // A larger tokenizer is not refused here: forward() names any id the model lacks.
        if (loaded->tokenizer->vocabSize() > model->config.vocab)
            loaded->warning = QObject::tr("This model reads the first %1 of its tokenizer's %2 tokens: a text that "
                                          "needs any other is refused")
                                  .arg(model->config.vocab).arg(loaded->tokenizer->vocabSize());
        // Read once here so that Save need not touch the weights file.
        QString ignored;
        loaded->identity = attn::fileIdentity(files->weights, &ignored);
        loaded->model = std::move(model);
        return loaded;
    }));
}

void ModelDocument::onOpenFinished()
{
    const std::shared_ptr<Loaded> loaded = m_openWatcher->result();
    m_opening = false;
    emit busyChanged(m_computing);
    const std::optional<attn::ModelReference> restore = std::exchange(m_restore, std::nullopt);
    if (!loaded->model) {
        // The model already open (or the hand-made session) stays as it was.
        emit openFailed(loaded->error);
        return;
    }
    m_model = loaded->model;
    m_tokenizer = loaded->tokenizer;
    m_folder = m_pendingFolder;
    m_name = displayName(m_folder);
    m_identity = loaded->identity;
    m_restoreQuery = -1;
    m_trace.reset();
    m_rollout.reset();
    m_before.reset();
    m_tokens.clear();
    m_ablated.clear();
    m_traceAblated.clear();
    // Open Model starts on head 0 of layer 0; a session restores its own (clamped to this model).
    HeadRef start;
    QString droppedNotice;
    if (restore) {
        const int layer = std::clamp(restore->layer, 0, m_model->config.layers - 1);
        const int head = std::clamp(restore->head, m_model->config.heads > 1 ? -1 : 0, m_model->config.heads - 1);
        start = HeadRef::fromFileIndex(layer, head);
        m_restoreQuery = restore->query;
        std::set<attn::LayerHead> saved;
        for (const auto &[l, h] : restore->ablated)
            saved.insert({l, h});
        m_ablated = withinModel(saved);
        std::set<attn::LayerHead> dropped;
        std::set_difference(saved.begin(), saved.end(), m_ablated.begin(), m_ablated.end(),
                            std::inserter(dropped, dropped.end()));
        if (!dropped.empty())
            droppedNotice = tr("This model has no head %1: left out of the switched-off heads").arg(headList(dropped));
    }
    m_selection->setShape(m_model->config.layers, m_model->config.heads);
    m_selection->setHead(start);
    rebuildSnapshot();
    emit opened();
    emit ablationChanged();
    if (!loaded->warning.isEmpty())
        emit notice(loaded->warning);
    if (!droppedNotice.isEmpty())
        emit notice(droppedNotice);
    if (restore && !restore->identity.isEmpty() && restore->identity != m_identity)
        emit notice(tr("The model file changed since the session was saved"));
    startCompute();
}

void ModelDocument::restore(const attn::ModelReference &reference, const QString &folder)
{
    if (m_opening) {
        emit notice(tr("A model is already being opened"));
        return;
    }
    m_text = reference.text;
    open(folder);
    m_restore = reference;
}

attn::ModelReference ModelDocument::reference() const
{
    attn::ModelReference r;
    r.path = QFileInfo(m_folder).absoluteFilePath();
    r.identity = m_identity;
    r.text = m_text;
    r.layer = layer();
    r.head = head();
    r.query = m_query;
    for (const attn::LayerHead &h : m_ablated)
        r.ablated.emplace_back(h.layer, h.head);
    return r;
}

void ModelDocument::close()
{
    if (!m_model)
        return;
    ++m_generation; // a run still going is dropped when it ends
    m_model.reset();
    m_tokenizer.reset();
    m_trace.reset();
    m_rollout.reset();
    m_before.reset();
    m_ablated.clear();
    m_traceAblated.clear();
    m_tokens.clear();
    m_name.clear();
    m_folder.clear();
    m_identity.clear();
    m_restoreQuery = -1;
    m_snapshot = std::make_shared<AttentionSnapshot>();
    emit closed();
}

void ModelDocument::setText(const QString &text)
{
    m_text = text;
    if (m_model)
        startCompute();
}

void ModelDocument::startCompute()
{
    ++m_generation;
    if (m_computing) {
        m_computeStale = true; // one more run, for the newest text, when this one ends
        return;
    }
    m_computeStale = false;
    m_computing = true;
    m_runGeneration = m_generation;
    emit busyChanged(true);
    const attn::SharedModelParameters model = m_model;
    const attn::TokenizerPtr tokenizer = m_tokenizer;
    const QString text = m_text;
    const std::set<attn::LayerHead> ablated = m_ablated;
    // Typing at the end of a GPT-2 text: only the new positions are computed.
    const std::shared_ptr<const attn::ModelTrace> previous = m_trace;
    m_computeWatcher->setFuture(QtConcurrent::run([model, tokenizer, text, ablated, previous] {
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
        if (out->tokens.empty()) {
            out->error = QObject::tr("the text has no tokens");
            return out;
        }
        attn::ForwardOptions options;
        options.ablatedHeads = ablated;
        out->ablated = ablated;
        const int n = int(out->tokens.size());
        options.keepScores = attn::traceBytes(model->config, n, true) <= kScoresBudgetBytes;
        options.maskTokenId = tokenizer->specialIds().mask;
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
            out->rollout = std::make_shared<const attn::RowMatrix<double>>(attn::attentionRollout(*out->trace));
        } catch (const attn::ModelInputError &e) {
            out->error = QString::fromStdString(e.what());
        } catch (const std::bad_alloc &) {
            out->error = QObject::tr("not enough memory to run the model on this text");
        }
        out->milliseconds = timer.nsecsElapsed() / 1e6;
        return out;
    }));
}

void ModelDocument::onComputeFinished()
{
    const std::shared_ptr<Computed> out = m_computeWatcher->result();
    m_computing = false;
    if (m_runGeneration == m_generation && m_model) {
        takeBefore(out->tokens, out->ablated);
        m_tokens = out->tokens;
        m_trace = out->trace;
        m_rollout = out->rollout;
        m_traceAblated = out->ablated;
        m_reusedPositions = out->reused;
        if (m_restoreQuery >= 0)
            m_query = std::exchange(m_restoreQuery, -1);
        m_query = std::clamp(m_query, 0, std::max(0, int(m_tokens.size()) - 1));
        rebuildSnapshot();
        auto snapshot = std::make_shared<AttentionSnapshot>(*m_snapshot);
        snapshot->milliseconds = out->milliseconds;
        if (!out->error.isEmpty())
            snapshot->error = out->error;
        m_snapshot = snapshot;
        if (!out->notice.isEmpty())
            emit notice(out->notice);
        emit tokensChanged();
        emit resultChanged();
        emit queryChanged(m_query);
    }
    if (m_computeStale && m_model) {
        startCompute();
        return;
    }
    m_computeStale = false;
    emit busyChanged(m_opening);
}

void ModelDocument::setLayer(int layer)
{
    if (m_model)
        m_selection->setLayer(layer);
}

void ModelDocument::setHead(int head)
{
    if (m_model)
        m_selection->setHead(HeadRef::fromFileIndex(layer(), head));
}

void ModelDocument::onSelectionChanged()
{
    if (!m_model)
        return; // the hand-made session's head: nothing of the model's changes
    if (layer() != m_snapshotLayer) {
        rebuildSnapshot();
        emit layerChanged(layer());
        emit resultChanged();
    }
    emit headChanged(head());
}

void ModelDocument::setQuery(int query)
{
    if (query < 0 || query >= int(m_tokens.size()) || query == m_query)
        return;
    m_query = query;
    emit queryChanged(query);
}

void ModelDocument::rebuildSnapshot()
{
    auto snapshot = std::make_shared<AttentionSnapshot>();
    snapshot->milliseconds = m_snapshot ? m_snapshot->milliseconds : 0;
    QStringList texts;
    for (const attn::ModelToken &t : m_tokens)
        texts << t.text;
    snapshot->rowTokens = attn::tokenLabels(texts);
    snapshot->columnTokens = snapshot->rowTokens;
    m_snapshotLayer = layer();
    if (m_model && m_trace) {
        snapshot->result = std::make_shared<const attn::AttentionResult>(attn::layerAttention(*m_model, m_trace, layer()));
        // The bars compare what enters the layer with what its attention adds.
        snapshot->embeddings = snapshot->result->inputs;
    } else if (m_model) {
        snapshot->error = m_computing ? tr("computing…") : tr("type a text for the model to read");
    }
    m_snapshot = snapshot;
}
