#pragma once
// A trained model open in the window: its weights and tokenizer, the text's
// tokens, the forward pass's trace, and which layer, head and query the views
// show. Opening and computing run on worker threads; the latest text wins.

#include "model/forward.h"
#include "session.h"
#include "snapshot.h"
#include "viewselection.h"
#include "tokenizers/tokenizerloader.h"

#include <QFutureWatcher>
#include <QObject>
#include <memory>
#include <vector>

class ModelDocument : public QObject
{
    Q_OBJECT
public:
    // Layer and head live in `selection` (the document's): the model reads
    // them for its snapshot and writes the ones a session restores.
    explicit ModelDocument(ViewSelection *selection, QObject *parent = nullptr);
    ~ModelDocument() override;

    bool isOpen() const { return bool(m_model); }
    // Whether a folder is being opened or a text computed.
    bool isOpening() const { return m_opening; }
    bool isComputing() const { return m_computing; }
    QString name() const { return m_name; }     // the folder's (or cache entry's) name
    QString folder() const { return m_folder; } // as given to open()
    attn::SharedModelParameters model() const { return m_model; }
    attn::TokenizerPtr tokenizer() const { return m_tokenizer; }
    const attn::ModelConfig *config() const { return m_model ? &m_model->config : nullptr; }

    // Opens the model folder (plain, Hugging Face cache entry or snapshot) on
    // a worker thread. On success the model replaces the open one and the
    // current text is computed with it (opened(), then resultChanged()); on
    // failure openFailed() gives one line and nothing changes.
    void open(const QString &path);
    void close();

    // Opens `folder` (the reference's path, or where the user found it) as
    // open() does, then shows the reference's text, layer, head and query
    // (clamped to the model). When the weights file's identity differs from
    // the reference's, notice() says that the model file changed.
    void restore(const attn::ModelReference &reference, const QString &folder);
    // What a session file records of the open model (path made absolute).
    attn::ModelReference reference() const;
    // fileIdentity() of the open model's weights file; empty if it could not be read.
    QString identity() const { return m_identity; }

    // Tokenizes and runs the model on a worker thread; a newer text makes the
    // result of an older one be dropped.
    void setText(const QString &text);
    QString text() const { return m_text; }

    const std::vector<attn::ModelToken> &tokens() const { return m_tokens; }
    std::shared_ptr<const attn::ModelTrace> trace() const { return m_trace; }

    // The selection's layer and head, as files number them (head -1: the average).
    int layer() const { return m_selection->layer(); }
    int head() const { return m_selection->head().fileIndex(); }
    int query() const { return m_query; }
    void setLayer(int layer);
    void setHead(int head);
    void setQuery(int query);

    // The selected layer as the single-layer views draw it; never null.
    SnapshotPtr snapshot() const { return m_snapshot; }
    // GPT-2: the next token after the text; BERT: the first [MASK]'s
    // predictions (none without the MLM head or a mask). Most probable first.
    std::vector<std::pair<int, float>> predictions(int k) const;
    // What predictions() predicts: "next token" or "[MASK] at 4"; empty when nothing.
    QString predictionTitle() const;

    // Traces larger than this keep no scores: the shown layer's are computed from q and k.
    static constexpr double kScoresBudgetBytes = 512.0 * 1024 * 1024;

signals:
    void opened();
    void openFailed(const QString &message);
    void closed();
    void tokensChanged();
    void resultChanged(); // a new snapshot (new trace or another layer)
    void layerChanged(int layer);
    void headChanged(int head);
    void queryChanged(int query);
    void busyChanged(bool busy);
    void notice(const QString &text);

private:
    struct Loaded;
    struct Computed;
    void startCompute();
    void onOpenFinished();
    void onComputeFinished();
    void rebuildSnapshot();
    void onSelectionChanged();

    attn::SharedModelParameters m_model;
    attn::TokenizerPtr m_tokenizer;
    QString m_name, m_folder, m_pendingFolder, m_text, m_identity;
    std::optional<attn::ModelReference> m_restore; // applied when the open ends
    int m_restoreQuery = -1;                       // applied when the first run ends
    std::vector<attn::ModelToken> m_tokens;
    std::shared_ptr<const attn::ModelTrace> m_trace;
    SnapshotPtr m_snapshot;
    ViewSelection *m_selection;
    int m_snapshotLayer = 0; // the layer m_snapshot shows
    int m_query = 0;

    QFutureWatcher<std::shared_ptr<Loaded>> *m_openWatcher;
    QFutureWatcher<std::shared_ptr<Computed>> *m_computeWatcher;
    bool m_opening = false;
    bool m_computing = false;
    bool m_computeStale = false; // the text (or model) changed while a run was going
    quint64 m_generation = 0;    // bumped by every new text or model
    quint64 m_runGeneration = 0;
};
