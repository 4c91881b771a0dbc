#include "modeldocument.h"

#include "runtime/freedmemory.h"

#include "io/fileidentity.h"
#include "io/modelfolder.h"
#include "io/ollamastore.h"
#include "model/openmodel.h"
#include "lessons/notation.h"
#include "runtime/twothreads.h"

#include <QFileInfo>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include <iterator>
#include <utility>

namespace {

// "openai-community/gpt2" for a cache entry models--openai-community--gpt2,
// "qwen2.5:0.5b" for ollama:qwen2.5:0.5b, else the folder's or file's name.
QString displayName(const QString &path)
{
    if (attn::isOllamaModelName(path))
        return path.mid(7);
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


ModelDocument::ModelDocument(ViewSelection *selection, ComputeScheduler *scheduler, QObject *parent)
    : QObject(parent), m_snapshot(std::make_shared<AttentionSnapshot>()), m_selection(selection),
      m_scheduler(scheduler), m_openWatcher(new QFutureWatcher<std::shared_ptr<Loaded>>(this)),
      m_layerByLayerTimer(new QTimer(this))
{
    m_layerByLayerTimer->setSingleShot(true);
    m_layerByLayerTimer->setInterval(kLayerByLayerAfterMs);
    connect(m_layerByLayerTimer, &QTimer::timeout, this, [this] {
        m_runShowsLayers = true;
        showLayersDone();
        emit progressChanged();
    });
    connect(m_openWatcher, &QFutureWatcherBase::finished, this, &ModelDocument::onOpenFinished);
    connect(m_selection, &ViewSelection::headChanged, this, &ModelDocument::onSelectionChanged);
    // The views show the first token set aside at once; the grid's pictures
    // of it come from a worker the first time (resultChanged again then).
    connect(m_selection, &ViewSelection::firstTokenAsideChanged, this, [this] {
        if (!m_model)
            return;
        emit resultChanged();
        requestAsideGrid();
    });
    connect(m_scheduler, &ComputeScheduler::busyChanged, this, [this](const QString &channel) {
        if (!channel.startsWith(QLatin1String("model")))
            return;
        emit busyChanged(m_opening || isComputing());
        emit progressChanged();
    });
}

ModelDocument::~ModelDocument()
{
    // The worker holds its own copies; waiting keeps it from outliving the watcher's owner.
    m_openWatcher->waitForFinished();
}

void ModelDocument::open(const QString &path, const QString &name)
{
    if (m_opening) {
        emit notice(tr("A model is already being opened"));
        return;
    }
    m_opening = true;
    emit busyChanged(true);
    m_pendingFolder = path;
    m_pendingName = name;
    m_openWatcher->setFuture(QtConcurrent::run([path] {
        auto loaded = std::make_shared<Loaded>();
        const std::optional<attn::ModelFiles> files = attn::resolveModel(path, &loaded->error);
        if (!files)
            return loaded;
        const std::optional<attn::ModelConfig> config = attn::readModelConfig(*files, &loaded->error);
        if (!config)
            return loaded;
        // The weights and the tokenizer at once: reading a large
        // tokenizer.json (a third of a second for Qwen's 151,643 tokens) takes
        // as long as checking a small model's weights.
        attn::SharedModelParameters model;
        QString tokenizerError;
        attn::runBoth([&] { model = attn::loadModel(*files, &loaded->error); },
                      [&] { loaded->tokenizer = attn::loadModelTokenizer(*files, *config, &tokenizerError); });
        if (!model)
            return loaded;
        if (!loaded->tokenizer) {
            loaded->error = tokenizerError;
            return loaded;
        }
        // A larger tokenizer is not refused here: forward() names any id the model lacks.
        if (loaded->tokenizer->vocabSize() > model->config.vocab)
            loaded->warning = QObject::tr("This model reads the first %1 of its tokenizer's %2 tokens: a text that "
                                          "needs any other is refused")
                                  .arg(model->config.vocab).arg(loaded->tokenizer->vocabSize());
        // Read once here so that Save need not touch the weights file.
        QString ignored;
        loaded->identity = attn::fileIdentity(files->weightsFile(), &ignored);
        loaded->model = std::move(model);
        return loaded;
    }));
}

void ModelDocument::onOpenFinished()
{
    const std::shared_ptr<Loaded> loaded = m_openWatcher->result();
    m_opening = false;
    emit busyChanged(isComputing());
    const std::optional<attn::ModelReference> restore = std::exchange(m_restore, std::nullopt);
    if (!loaded->model) {
        // The model already open (or the hand-made session) stays as it was.
        emit openFailed(loaded->error);
        return;
    }
    m_model = loaded->model;
    m_tokenizer = loaded->tokenizer;
    m_folder = m_pendingFolder;
    m_name = m_pendingName.isEmpty() ? displayName(m_folder) : m_pendingName;
    m_identity = loaded->identity;
    m_restoreQuery = -1;
    m_query = 0; // the model before's query is not this one's (a session restores its own)
    ++m_generation;
    m_trace.reset();
    m_rollout.reset();
    m_before.reset();
    m_tokens.clear();
    forgetLayers();
    m_nothingShownYet = true;
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
    m_gridLevels.reset();
    m_gridTiles.reset();
    m_asideGridLevels.reset();
    m_headScores.reset();
    m_runError.clear();
    m_runMilliseconds = 0;
    showLayer(start.layer, nullptr);
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
    // An Ollama name is kept as a name: the store resolves it again when the session opens.
    r.path = attn::isOllamaModelName(m_folder) ? m_folder : QFileInfo(m_folder).absoluteFilePath();
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
    cancelRuns(); // a run still going is cancelled, its answer never shown
    m_model.reset();
    m_tokenizer.reset();
    m_trace.reset();
    forgetLayers();
    m_rollout.reset();
    m_gridLevels.reset();
    m_gridTiles.reset();
    m_asideGridLevels.reset();
    m_headScores.reset();
    m_runError.clear();
    m_runMilliseconds = 0;
    m_before.reset();
    m_ablated.clear();
    m_traceAblated.clear();
    m_tokens.clear();
    m_name.clear();
    m_folder.clear();
    m_identity.clear();
    m_restoreQuery = -1;
    m_query = 0;
    ++m_generation;
    m_snapshot = std::make_shared<AttentionSnapshot>();
    // The kept memory of its results goes back to the system, once they are freed.
    QThreadPool::globalInstance()->start([] { attn::releaseFreedMemory(); });
    emit closed();
}

void ModelDocument::setText(const QString &text)
{
    m_text = text;
    if (m_model)
        startCompute();
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

void ModelDocument::setQuery(int query)
{
    if (query < 0 || query >= int(m_tokens.size()) || query == m_query)
        return;
    m_query = query;
    emit queryChanged(query);
}
