#include "document.h"

#include "session/embedding.h"
#include "io/ollamastore.h"
#include "lessons/examples.h"
#include "lessons/lessons.h"
#include "modeldocument.h"
#include "lessons/notation.h"
#include "session/sessiondelta.h"
#include "session/sessionio.h"
#include "session/tokenizer.h"

#include <QElapsedTimer>
#include <QFileInfo>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include <cmath>
#include <utility>
#include <QUndoCommand>

namespace {

// Whether a session's model is where the session says: a folder or a GGUF
// file on disk, or a name the Ollama store still has.
bool modelIsThere(const QString &model)
{
    QString ignored;
    return attn::isOllamaModelName(model) ? bool(attn::resolveOllamaModel(model, &ignored)) : QFileInfo::exists(model);
}

// One undo step: what the edit changed (attn::SessionDelta), not the whole
// session. A slider drag merges into one step because every move carries the
// same merge id.
class SessionEdit : public QUndoCommand
{
public:
    SessionEdit(Document *doc, attn::SessionDelta delta, const QString &text, int mergeId)
        : QUndoCommand(text), m_doc(doc), m_delta(std::move(delta)), m_mergeId(mergeId)
    {
    }
    void undo() override { apply(&attn::SessionDelta::undo); }
    void redo() override { apply(&attn::SessionDelta::redo); }
    int id() const override { return m_mergeId; }
    bool mergeWith(const QUndoCommand *other) override
    {
        const auto *edit = static_cast<const SessionEdit *>(other);
        if (edit->m_mergeId != m_mergeId || m_mergeId < 0 || !m_delta.absorb(edit->m_delta))
            return false;
        // A drag back to where it started leaves nothing to undo.
        setObsolete(m_delta.isEmpty());
        return true;
    }
    const attn::SessionDelta &delta() const { return m_delta; }

private:
    void apply(void (attn::SessionDelta::*step)(attn::Session &) const)
    {
        attn::Session session = m_doc->session();
        (m_delta.*step)(session);
        // The query moves without undo steps (navigation): a step that brings
        // back fewer tokens than it counts puts it on the last one (found by tst_monkey).
        session.query = std::clamp(session.query, 0, std::max(0, session.tokenCount() - 1));
        m_doc->applySession(session);
    }

    Document *m_doc;
    attn::SessionDelta m_delta;
    int m_mergeId;
};

} // namespace

Document::Document(QObject *parent) : Document(attn::runningExample(), parent) {}

Document::Document(const attn::Session &start, QObject *parent)
    : QObject(parent), m_snapshot(std::make_shared<AttentionSnapshot>()), m_model(new ModelDocument(&m_selection, &m_scheduler, this))
{
    // Connected first, so the selection is in step before any view hears of a change.
    connect(this, &Document::sessionChanged, this, &Document::syncSelection);
    connect(this, &Document::queryChanged, this, &Document::syncSelection);
    connect(m_model, &ModelDocument::opened, this, &Document::syncSelection);
    connect(m_model, &ModelDocument::resultChanged, this, &Document::resultChanged);
    connect(m_model, &ModelDocument::queryChanged, this, &Document::queryChanged);
    connect(m_model, &ModelDocument::notice, this, &Document::notice);
    connect(m_model, &ModelDocument::busyChanged, this, [this] { emit computingChanged(isComputing()); });
    connect(m_model, &ModelDocument::closed, this, [this] {
        // Back to the hand-made session: every view shows it again.
        emit sessionChanged();
        emit queryChanged(m_session.query);
        emit resultChanged();
    });
    applySession(start);
    // A large result keeps in full only the head the views showed when it
    // was computed, and the scores' thumbnails only while scores were shown:
    // showing another computes again, on the worker.
    connect(&m_selection, &ViewSelection::headChanged, this, &Document::refreshForViews);
    connect(&m_selection, &ViewSelection::showScoresChanged, this, &Document::refreshForViews);
    // The matrix views draw another snapshot (an open model says so itself).
    connect(&m_selection, &ViewSelection::firstTokenAsideChanged, this, [this](bool aside) {
        if (!aside) { // nothing kept for a view nobody shows: a model's trace can be hundreds of megabytes
            m_aside.reset();
            m_asideOf.reset();
        }
        if (!m_model->isOpen())
            emit resultChanged();
    });
    connect(&m_scheduler, &ComputeScheduler::busyChanged, this, [this](const QString &channel) {
        if (channel == QLatin1String("session"))
            emit computingChanged(isComputing());
    });
    connect(&m_undo, &QUndoStack::cleanChanged, this, [this](bool clean) { emit modifiedChanged(!clean); });
}

bool Document::openFile(const QString &path, QString *error, const QString &modelFolder)
{
    m_missingModel.clear();
    std::optional<attn::Session> session = attn::readSession(path, error);
    if (!session)
        return false;
    const std::optional<attn::ModelReference> reference = std::exchange(session->model, std::nullopt);
    const QString folder = reference ? (modelFolder.isEmpty() ? reference->path : modelFolder) : QString();
    if (reference && !modelIsThere(folder)) {
        // Checked before anything changes: the open session stays as it was.
        m_missingModel = folder;
        *error = attn::isOllamaModelName(folder)
                     ? tr("%1: model.path: the model %2 is not in the Ollama store").arg(QFileInfo(path).fileName(), folder)
                     : folder.endsWith(QLatin1String(".gguf"), Qt::CaseInsensitive)
                     ? tr("%1: model.path: the model file %2 is missing").arg(QFileInfo(path).fileName(), folder)
                     : tr("%1: model.path: the model folder %2 is missing").arg(QFileInfo(path).fileName(), folder);
        return false;
    }
    m_model->close();
    resetSession(*session);
    m_filePath = path;
    emit filePathChanged(path);
    if (reference)
        m_model->restore(*reference, folder);
    return true;
}

bool Document::saveFile(const QString &path, QString *error)
{
    attn::Session saved = m_session;
    if (m_model->isOpen())
        saved.model = m_model->reference();
    if (!attn::writeSession(path, saved, error))
        return false;
    m_undo.setClean();
    if (path != m_filePath) {
        m_filePath = path;
        emit filePathChanged(path);
    }
    return true;
}

void Document::restoreRecovered(const attn::Session &session, const QString &originalPath)
{
    std::optional<attn::Session> saved;
    QString ignored;
    if (!originalPath.isEmpty())
        saved = attn::readSession(originalPath, &ignored);
    m_model->close();
    resetSession(saved.value_or(attn::runningExample()));
    m_filePath = originalPath;
    emit filePathChanged(m_filePath);
    pushEdit(session, tr("Restore unsaved changes"));
}

void Document::newSession(const attn::Session &start)
{
    m_model->close();
    resetSession(start);
    m_filePath.clear();
    emit filePathChanged(m_filePath);
}

void Document::newSession() { newSession(attn::runningExample()); }

std::size_t Document::undoStepBytes(int index) const
{
    const auto *edit = dynamic_cast<const SessionEdit *>(m_undo.command(index));
    return edit ? edit->delta().bytes() : 0;
}

void Document::pushEdit(const attn::Session &after, const QString &text, int mergeId)
{
    if (after == m_session)
        return;
    m_undo.push(new SessionEdit(this, attn::SessionDelta::between(m_session, after), text, mergeId));
}

double Document::lastComputeMilliseconds() const { return m_model->isOpen() ? snapshot()->milliseconds : m_lastComputeMs; }
SnapshotPtr Document::snapshot() const { return m_model->isOpen() ? m_model->snapshot() : m_snapshot; }

SnapshotPtr Document::matrixSnapshot() const
{
    const SnapshotPtr shown = snapshot();
    if (!m_selection.firstTokenAside() || !shown->result)
        return shown;
    if (shown != m_asideOf) {
        m_aside = firstTokenAsideSnapshot(shown);
        m_asideOf = shown;
    }
    return m_aside;
}
bool Document::isComputing() const
{
    return m_scheduler.isBusy(QStringLiteral("session")) || m_model->isComputing() || m_model->isOpening();
}
int Document::query() const { return m_model->isOpen() ? m_model->query() : m_session.query; }
int Document::tokenCount() const { return m_model->isOpen() ? int(m_model->tokens().size()) : m_session.tokenCount(); }
int Document::dModel() const { return m_model->isOpen() ? m_model->config()->dModel : m_session.dModel(); }
int Document::headCount() const { return m_model->isOpen() ? m_model->config()->heads : m_session.attention.heads; }

void Document::setSentence(const QString &sentence)
{
    if (m_model->isOpen()) {
        m_model->setText(sentence);
        return;
    }
    attn::Session next = m_session;
    next.sentence = sentence;
    QStringList tokens = attn::tokenTexts(attn::tokenize(sentence));
    // More tokens than a session file may hold: use the first ones, so that
    // what is on screen can always be saved and opened again.
    if (tokens.size() > attn::kMaxTokens) {
        emit notice(tr("The sentence has %1 tokens; only the first %2 are used").arg(tokens.size()).arg(attn::kMaxTokens));
        tokens.resize(attn::kMaxTokens);
    }
    if (tokens.isEmpty())
        emit notice(tr("The sentence has no words or marks to attend over: the tokens stay as they were"));
    if (!tokens.isEmpty()) {
        // With no tokens there is nothing to attend over: keep the last tokens
        // and their vectors, and let the sentence field show the problem.
        next.embeddings = attn::carryOverEmbeddings(m_session.tokens, m_session.embeddings, tokens);
        next.tokens = tokens;
        next.query = std::min(next.query, int(tokens.size()) - 1);
    }
    pushEdit(next, tr("Edit sentence"));
}

void Document::setQuery(int query)
{
    if (m_model->isOpen()) {
        m_model->setQuery(query);
        return;
    }
    if (query < 0 || query >= m_session.tokenCount() || query == m_session.query)
        return;
    // Reading each word's row is not an edit: leaving the session after it
    // asks nothing, and undo takes back edits, not clicks.
    m_session.query = query;
    emit queryChanged(query);
}

void Document::setEmbeddingValue(int token, int dim, double value, int dragId)
{
    if (token < 0 || token >= m_session.tokenCount() || dim < 0 || dim >= m_session.dModel()
        || !std::isfinite(value))
        return;
    attn::Session next = m_session;
    next.embeddings(token, dim) = value;
    // Merge ids of drags sit above the fixed ids of other edits.
    // at(), not []: a non-const [] would copy the token list (of thousands) on every slider step.
    pushEdit(next, tr("Edit embedding of “%1”").arg(next.tokens.at(token)), dragId >= 0 ? 1000 + dragId : -1);
}

void Document::setDModel(int dModel)
{
    if (dModel < 1 || dModel > attn::kMaxDModel || dModel == m_session.dModel())
        return;
    attn::Session next = m_session;
    next.embeddings = attn::resizeEmbeddings(next.tokens, next.embeddings, dModel);
    if (next.source)
        next.source->embeddings = attn::resizeEmbeddings(next.source->tokens, next.source->embeddings, dModel);
    next.weights = {}; // fixed matrices no longer fit: fall back to the seed
    if (next.attention.mode == attn::Mode::Simplified)
        next.attention.headDim = dModel;
    // Rotary positions turn pairs: simplified heads of an odd width cannot have them.
    if (next.attention.rotary() && attn::effectiveHeadDim(next.attention, dModel) % 2 != 0) {
        next.attention.positionalEncoding = attn::PositionalEncoding::None;
        emit notice(tr("Rotary positions are off: they turn pairs of numbers, and d_model %1 is odd.").arg(dModel));
    }
    pushEdit(next, tr("Change d_model to %1").arg(dModel));
}

void Document::setAttention(const attn::AttentionConfig &config)
{
    attn::Session next = m_session;
    const attn::AttentionConfig &old = m_session.attention;
    // A new shape or seed: fixed matrices give way to generated ones. The
    // mode sets each head's width too (d_model in simplified mode), and with
    // it the shape of Wo.
    const int dModel = m_session.dModel();
    if (config.heads != old.heads || config.headDim != old.headDim || config.seed != old.seed
        || attn::effectiveHeadDim(config, dModel) != attn::effectiveHeadDim(old, dModel))
        next.weights = {};
    // Another number of key/value heads: one W_k and W_v each, generated.
    if (config.keyValueHeads() != old.keyValueHeads()) {
        next.weights.key.clear();
        next.weights.value.clear();
    }
    next.attention = config;
    pushEdit(next, tr("Change attention options"));
}

void Document::setSession(const attn::Session &session, const QString &undoText)
{
    pushEdit(session, undoText);
}

void Document::setSource(const std::optional<attn::SourceSequence> &source)
{
    if (source && (source->tokens.isEmpty() || source->embeddings.rows() != source->tokens.size()
                   || source->embeddings.cols() != m_session.dModel() || !source->embeddings.allFinite()))
        return;
    attn::Session next = m_session;
    next.source = source;
    pushEdit(next, source ? tr("Set source sentence") : tr("Remove source sentence"));
}

void Document::setSourceSentence(const QString &sentence)
{
    const QStringList tokens = attn::tokenTexts(attn::tokenize(sentence));
    if (tokens.isEmpty()) {
        setSource(std::nullopt);
        return;
    }
    // The source's own words first, then the sentence's: a word shared by
    // both sequences starts with the vector it already has.
    QStringList known = m_session.tokens;
    Eigen::MatrixXd vectors = m_session.embeddings;
    if (m_session.source) {
        known = m_session.source->tokens + known;
        vectors.resize(m_session.source->embeddings.rows() + m_session.embeddings.rows(), m_session.dModel());
        vectors << m_session.source->embeddings, m_session.embeddings;
    }
    setSource(attn::SourceSequence{tokens, attn::carryOverEmbeddings(known, vectors, tokens)});
}

void Document::shuffleTokens(std::uint64_t seed)
{
    pushEdit(attn::shuffled(m_session, attn::shuffleOrder(m_session.tokenCount(), seed)), tr("Shuffle words"));
}

void Document::resetSession(const attn::Session &session)
{
    m_undo.clear();
    applySession(session);
    m_undo.setClean();
    m_selection.setHead(HeadRef()); // head 0, as a file opens (a session's file names no head)
    emit replaced();
}

void Document::applySession(const attn::Session &session)
{
    const bool onlyQuery = !m_session.tokens.isEmpty() && session.query != m_session.query && [&] {
        attn::Session same = session;
        same.query = m_session.query;
        return same == m_session;
    }();
    m_session = session;
    if (onlyQuery) {
        emit queryChanged(m_session.query);
        return;
    }
    m_snapshotPending = false;
    const bool ready = recompute();
    m_snapshotPending = !ready;
    emit sessionChanged();
    emit queryChanged(m_session.query);
    if (ready)
        emit resultChanged();
}

double Document::estimatedFlops(const attn::Session &session)
{
    return attn::sessionFlops(session);
}

bool Document::recompute()
{
    // Small sessions are answered at once (no thread, no stale view); large
    // ones on a worker, where a newer edit cancels the run for an older one.
    // The heads the views do not show in full keep no matrix (attn::HeadsKept).
    m_requestedKept = keptForViews();
    return m_scheduler.request(
        QStringLiteral("session"), {m_session}, this,
        [this](const ComputeScheduler::Snapshots &snapshots) {
            const bool late = m_snapshotPending;
            m_snapshotPending = false;
            m_snapshot = snapshots.front();
            m_lastComputeMs = m_snapshot->milliseconds;
            if (late)
                emit resultChanged();
        },
        m_requestedKept);
}

attn::HeadsKept Document::keptForViews() const
{
    return attn::HeadsKept::only(m_selection.head().head, m_selection.showScores());
}

bool Document::resultLacksWhatViewsShow() const
{
    if (m_model->isOpen() || !m_snapshot || !m_snapshot->result)
        return false;
    const std::vector<attn::HeadResult> &heads = m_snapshot->result->heads;
    const std::optional<int> head = m_selection.head().head;
    if (head && *head >= 0 && std::size_t(*head) < heads.size() && heads[std::size_t(*head)].weights.isOnDemand())
        return true;
    if (!head && !m_selection.showScores() && m_snapshot->result->meanWeights.isOnDemand())
        return true;
    return m_selection.showScores() && !heads.empty() && heads.front().weights.pooled()
        && !heads.front().scores.pooled();
}

void Document::refreshForViews()
{
    // Until the new result lands the views compute what they draw from the
    // old one (the same numbers, more slowly). A run in progress for what the
    // views show now will do.
    if (m_model->isOpen())
        return;
    if (m_snapshotPending ? m_requestedKept == keptForViews() : !resultLacksWhatViewsShow())
        return;
    const bool ready = recompute();
    m_snapshotPending = !ready;
    if (ready)
        emit resultChanged();
}

void Document::computeVariants(const QString &channel, std::vector<attn::Session> sessions, QObject *receiver,
                               ComputeScheduler::Done done)
{
    m_scheduler.request(channel, std::move(sessions), receiver, std::move(done));
}

void Document::syncSelection()
{
    if (m_model->isOpen())
        m_selection.setShape(m_model->config()->layers, m_model->config()->heads);
    else
        m_selection.setShape(1, m_session.attention.heads);
    m_selection.followQuery(query());
}

SnapshotPtr Document::computeSnapshot(const attn::Session &session, attn::Precision precision)
{
    return makeSnapshot(session, precision);
}

namespace {

// One switch of heads on or off: the two sets, nothing of the session or the
// weights. It belongs to the model open when it was made: once that model is
// closed (or another opened) it changes nothing.
class AblationEdit : public QUndoCommand
{
public:
    AblationEdit(ModelDocument *model, std::set<attn::LayerHead> before, std::set<attn::LayerHead> after,
                 const QString &text)
        : QUndoCommand(text), m_model(model), m_generation(model->generation()), m_before(std::move(before)),
          m_after(std::move(after))
    {
    }
    void undo() override { apply(m_before); }
    void redo() override { apply(m_after); }

private:
    void apply(const std::set<attn::LayerHead> &heads)
    {
        if (m_model->generation() == m_generation)
            m_model->setAblatedHeads(heads);
    }

    ModelDocument *m_model;
    int m_generation;
    std::set<attn::LayerHead> m_before, m_after;
};

} // namespace

void Document::setAblatedHeads(const std::set<attn::LayerHead> &heads, const QString &undoText)
{
    const std::set<attn::LayerHead> after = m_model->withinModel(heads);
    if (!m_model->isOpen() || after == m_model->ablatedHeads())
        return;
    m_undo.push(new AblationEdit(m_model, m_model->ablatedHeads(), after, undoText));
}
