#pragma once
// The open session: owns it, runs the core on every change, keeps the undo
// history, and tells the views through signals. Widgets never compute.

#include "attention.h"
#include "session.h"
#include "snapshot.h"

#include <QObject>
#include <QString>
#include <QUndoStack>
#include <cstdint>
#include <optional>

class Document : public QObject
{
    Q_OBJECT
public:
    explicit Document(QObject *parent = nullptr);

    const attn::Session &session() const { return m_session; }
    // What the views draw; never null. Its result is null when the session
    // could not be computed, and its error then says why.
    SnapshotPtr snapshot() const { return m_snapshot; }
    bool hasResult() const { return m_snapshot->result != nullptr; }
    const attn::AttentionResult &result() const { return *m_snapshot->result; }
    QString computeError() const { return m_snapshot->error; }
    double lastComputeMilliseconds() const { return m_lastComputeMs; }

    int query() const { return m_session.query; }
    int tokenCount() const { return m_session.tokenCount(); }
    int dModel() const { return m_session.dModel(); }

    QUndoStack *undoStack() { return &m_undo; }

    // The file the session was opened from or last saved to (empty for a new one).
    QString filePath() const { return m_filePath; }
    bool isModified() const { return !m_undo.isClean(); }

    // Opens a session file; on failure `error` gets the one-line reason and
    // the open session stays exactly as it was.
    bool openFile(const QString &path, QString *error);
    // Saves atomically to `path` and makes it the document's file.
    bool saveFile(const QString &path, QString *error);
    // A fresh session on the built-in example.
    void newSession();
    // Puts a session recovered after a crash in place, as unsaved changes to
    // `originalPath` (empty when it had never been saved).
    void restoreRecovered(const attn::Session &session, const QString &originalPath);

    // Every edit below is one undo step; a run of edits with the same merge
    // key (one slider drag) collapses into one.
    void setSentence(const QString &sentence);
    void setQuery(int query);
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

    // Runs the core on a variant of the session (see core/lessons.h) without
    // touching the document: the demos' numbers come from the same engine.
    static SnapshotPtr computeSnapshot(const attn::Session &session, double *milliseconds = nullptr);

    // Replaces the whole session and forgets the history (New, Open).
    void resetSession(const attn::Session &session);

    // Puts a session in place without an undo step; used by undo itself.
    void applySession(const attn::Session &session);

signals:
    void sessionChanged();        // tokens, embeddings or options changed
    void queryChanged(int query); // only the query moved
    void resultChanged();         // a new snapshot is ready
    void filePathChanged(const QString &path);
    void modifiedChanged(bool modified);

private:
    void pushEdit(const attn::Session &after, const QString &text, int mergeId = -1);
    void recompute();

    attn::Session m_session;
    SnapshotPtr m_snapshot;
    double m_lastComputeMs = 0.0;
    QString m_filePath;
    QUndoStack m_undo;
};
