#pragma once
// The open session: owns it, runs the core on every change, keeps the undo
// history, and tells the views through signals. Widgets never compute.

#include "attention/attention.h"
#include "model/forward.h"
#include "session/session.h"
#include "computescheduler.h"
#include "snapshot.h"
#include "viewselection.h"

#include <QObject>
#include <QString>
#include <QFutureWatcher>
#include <QUndoStack>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>

class ModelDocument;

class Document : public QObject
{
    Q_OBJECT
public:
    // Starts on the running example (what the window opens on), or on `start`.
    explicit Document(QObject *parent = nullptr);
    explicit Document(const attn::Session &start, QObject *parent = nullptr);

    const attn::Session &session() const { return m_session; }
    // What the views draw; never null. Its result is null when the session
    // could not be computed, and its error then says why.
    // While a model is open (model()->isOpen()), its selected layer.
    SnapshotPtr snapshot() const;
    // What the matrix views draw (the heatmap, the heads' tiles, their
    // exports): snapshot(), or the same with the first token set aside while
    // the selection asks for it (firstTokenAsideSnapshot, made once for each
    // snapshot). The pipeline, bars and walkthrough always get snapshot().
    SnapshotPtr matrixSnapshot() const;
    bool hasResult() const { return snapshot()->result != nullptr; }
    const attn::AttentionResult &result() const { return *snapshot()->result; }
    QString computeError() const { return snapshot()->error; }
    double lastComputeMilliseconds() const;

    // A session whose forward pass costs more than this many floating-point
    // operations is computed on a worker thread: the window stays live, the
    // views keep the last result (the status says "computing") until the new
    // one is ready, and edits made meanwhile are folded into one next run.
    static constexpr double kSyncFlops = ComputeScheduler::kSyncFlops;
    void setSyncFlopLimit(double flops) { m_scheduler.setSyncFlopLimit(flops); }
    // From the start of a worker run until its result has been handled (not
    // merely until the thread ends: a tiny session may finish before the caller looks).
    bool isComputing() const;
    // The operations of one forward pass of `session` (its matrix products).
    static double estimatedFlops(const attn::Session &session);

    // The query, tokens and shape the views show: the open model's while
    // there is one, else the session's.
    int query() const;
    int tokenCount() const;
    int dModel() const;
    int headCount() const;

    // A trained model shown instead of the session while it is open; the
    // session stays as it was underneath. New, Open and a restore close it.
    // setSentence() and setQuery() go to it while it is open.
    ModelDocument *model() const { return m_model; }

    // What the views show (query, layer, head, weights or scores, colour
    // map). The document keeps its shape and query in step with the session
    // or the open model; views read it and ask it for head and layer changes.
    ViewSelection *selection() { return &m_selection; }
    const ViewSelection *selection() const { return &m_selection; }

    QUndoStack *undoStack() { return &m_undo; }
    // The bytes the undo step at `index` of the stack keeps (only what it changed).
    std::size_t undoStepBytes(int index) const;

    // The file the session was opened from or last saved to (empty for a new one).
    QString filePath() const { return m_filePath; }
    bool isModified() const { return !m_undo.isClean(); }

    // Opens a session file; on failure `error` gets the one-line reason and
    // the open session stays exactly as it was. A file saved with a model
    // (its "model" object) opens its hand-made session, then the model from
    // `modelFolder` if given, else from the path the file names, on a worker
    // (model()->opened() or openFailed() follows). When that folder does not
    // exist, nothing is opened and missingModelFolder() names it.
    bool openFile(const QString &path, QString *error, const QString &modelFolder = QString());
    // The model folder the last openFile() could not find; empty otherwise.
    QString missingModelFolder() const { return m_missingModel; }
    // Saves atomically to `path` and makes it the document's file. With a
    // model open, the file also records it (model()->reference()).
    bool saveFile(const QString &path, QString *error);
    // A fresh session, on the running example unless another is given (Examples menu).
    void newSession(const attn::Session &start);
    void newSession();
    // Puts a session recovered after a crash in place, as unsaved changes to
    // `originalPath` (empty when it had never been saved).
    void restoreRecovered(const attn::Session &session, const QString &originalPath);

    // Choosing a query is navigation, like choosing a head or a layer: no
    // undo step and no unsaved change (Save still writes it).
    void setQuery(int query);
    // Every edit below is one undo step; a run of edits with the same merge
    // key (one slider drag) collapses into one.
    void setSentence(const QString &sentence);
    void setEmbeddingValue(int token, int dim, double value, int dragId = -1);
    void setDModel(int dModel);
    void setAttention(const attn::AttentionConfig &config);
    void setSession(const attn::Session &session, const QString &undoText);
    // Cross-attention: the sequence that supplies keys and values (nullopt:
    // back to self-attention). Rows must have d_model numbers.
    void setSource(const std::optional<attn::SourceSequence> &source);
    // Tokenizes `sentence` into the source; words it already had (or that the
    // sentence has) keep their vectors, as in setSentence. Empty: no source.
    void setSourceSentence(const QString &sentence);
    // Reorders the sentence's tokens with their vectors (attn::shuffleOrder).
    void shuffleTokens(std::uint64_t seed);
    // The open model's switched-off heads (model()->ablatedHeads()), as one
    // undo step holding only the sets before and after. Nothing without a model.
    void setAblatedHeads(const std::set<attn::LayerHead> &heads, const QString &undoText);

    // Computes variants of the session (see core/lessons/lessons.h) without touching
    // the document, through the document's scheduler: small ones at once,
    // large ones on a worker; the channel's latest request wins and cancels
    // the older run. `done` gets one snapshot per session, on this thread,
    // unless `receiver` is gone by then. The demos' numbers come from the same engine.
    void computeVariants(const QString &channel, std::vector<attn::Session> sessions, QObject *receiver,
                         ComputeScheduler::Done done);
    ComputeScheduler *scheduler() { return &m_scheduler; }

    // Runs the core on one session at once, on the calling thread (tests, export).
    static SnapshotPtr computeSnapshot(const attn::Session &session,
                                       attn::Precision precision = attn::Precision::Auto);

    // Replaces the whole session and forgets the history (New, Open, an
    // example): the views start afresh on head 0 (replaced() follows).
    void resetSession(const attn::Session &session);

    // Puts a session in place without an undo step; used by undo itself.
    void applySession(const attn::Session &session);

signals:
    void sessionChanged();        // tokens, embeddings or options changed
    // Another document took this one's place (resetSession): what the views
    // remember of the old one (the walkthrough's step, the zoom) goes.
    void replaced();
    void queryChanged(int query); // only the query moved
    void resultChanged();         // a new snapshot is ready
    void filePathChanged(const QString &path);
    void modifiedChanged(bool modified);
    void computingChanged(bool computing);
    // A one-line remark on an edit that was not taken as typed (no words,
    // too many tokens); the window shows it in the status bar.
    void notice(const QString &text);

private:
    void pushEdit(const attn::Session &after, const QString &text, int mergeId = -1);
    // True when the snapshot was computed at once; false when a worker will
    // deliver it (resultChanged follows then).
    bool recompute();
    // The result lacks what the views now show in full (another head, the
    // scores' thumbnails): refreshForViews() computes it again.
    bool resultLacksWhatViewsShow() const;
    void refreshForViews();
    attn::HeadsKept keptForViews() const;
    // Gives the selection the shape and query of what is shown (the model's while one is open).
    void syncSelection();

    attn::Session m_session;
    ViewSelection m_selection; // before m_model, which follows it
    SnapshotPtr m_snapshot;
    mutable SnapshotPtr m_asideOf, m_aside; // matrixSnapshot()'s: made from m_asideOf
    double m_lastComputeMs = 0.0;
    ComputeScheduler m_scheduler;
    attn::HeadsKept m_requestedKept; // what the last request keeps
    bool m_snapshotPending = false; // the snapshot comes from a worker: resultChanged when it lands
    QString m_filePath;
    QString m_missingModel;
    QUndoStack m_undo;
    ModelDocument *m_model = nullptr;
};
