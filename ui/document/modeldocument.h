#pragma once
// A trained model open in the window: its weights and tokenizer, the text's
// tokens, the forward pass's trace, and which layer, head and query the views
// show. Opening runs on a worker thread; every pass (a new text, other
// switched-off heads, another layer's view) goes through the document's
// ComputeScheduler: the latest request wins and an older run is cancelled.

#include "computescheduler.h"
#include "model/forward.h"
#include "model/headscores.h"
#include "modelgridpainter.h"
#include "modelrun.h"
#include "session/session.h"
#include "snapshot.h"
#include "viewselection.h"
#include "tokenizers/tokenizerloader.h"

#include <QFutureWatcher>
#include <QObject>
#include <QTimer>
#include <memory>
#include <set>
#include <vector>

class ModelDocument : public QObject
{
    Q_OBJECT
public:
    // Layer and head live in `selection` (the document's): the model reads
    // them for its snapshot and writes the ones a session restores.
    ModelDocument(ViewSelection *selection, ComputeScheduler *scheduler, QObject *parent = nullptr);
    ~ModelDocument() override;

    bool isOpen() const { return bool(m_model); }
    // Counts openings and closings: an undo step of one model's switched-off
    // heads leaves the next model alone.
    int generation() const { return m_generation; }
    // Whether a folder is being opened or a text computed.
    bool isOpening() const { return m_opening; }
    bool isComputing() const;
    QString name() const { return m_name; }     // the folder's (or cache entry's) name
    QString folder() const { return m_folder; } // as given to open()
    attn::SharedModelParameters model() const { return m_model; }
    attn::TokenizerPtr tokenizer() const { return m_tokenizer; }
    const attn::ModelConfig *config() const { return m_model ? &m_model->config : nullptr; }
    // The document's selection (what the views show), which the model follows.
    const ViewSelection *selection() const { return m_selection; }

    // Opens the model (a folder, plain, Hugging Face cache entry or snapshot;
    // a GGUF file; or "ollama:NAME[:TAG]": io/modelfolder.h resolveModel) on
    // a worker thread. On success the model replaces the open one and the
    // current text is computed with it (opened(), then resultChanged()); on
    // failure openFailed() gives one line and nothing changes. `name` is what
    // name() gives (the window's title, the status bar), the folder's own
    // name when empty.
    void open(const QString &path, const QString &name = QString());
    void close();

    // Opens `folder` (the reference's path, or where the user found it) as
    // open() does, then shows the reference's text, layer, head and query
    // (clamped to the model). When the weights file's identity differs from
    // the reference's, notice() says that the model file changed.
    void restore(const attn::ModelReference &reference, const QString &folder);
    // What a session file records of the open model (path made absolute; an
    // Ollama name kept as it is).
    attn::ModelReference reference() const;
    // fileIdentity() of the open model's weights file; empty if it could not be read.
    QString identity() const { return m_identity; }

    // Tokenizes and runs the model on a worker thread; a newer text cancels
    // the run of an older one.
    void setText(const QString &text);
    QString text() const { return m_text; }

    const std::vector<attn::ModelToken> &tokens() const { return m_tokens; }
    std::shared_ptr<const attn::ModelTrace> trace() const { return m_trace; }
    // The leading positions the last run took from the trace before it
    // instead of computing them (0: a full pass; model/incremental.h).
    int reusedPositions() const { return m_reusedPositions; }

    // The selection's layer and head, as files number them (head -1: the average).
    int layer() const { return m_selection->layer(); }
    int head() const { return m_selection->head().fileIndex(); }
    int query() const { return m_query; }
    void setLayer(int layer);
    void setHead(int head);
    void setQuery(int query);

    // The selected layer as the single-layer views draw it; never null. After
    // another layer is selected it may show the previous one for a moment: a
    // long text's layer view is built on a worker (resultChanged() follows).
    SnapshotPtr snapshot() const { return m_snapshot; }
    // The layer snapshot() shows.
    int snapshotLayer() const { return m_snapshotLayer; }
    // Every head's thumbnail of the shown trace, before colouring, built on
    // the worker with it (the layers × heads grid); null without a trace.
    // While the selection sets the first token aside, the thumbnails of the
    // weights so (built on a worker when first asked: until they come, the
    // real ones, and gridFirstTokenAside() says which are given).
    std::shared_ptr<const ModelGridLevels> gridLevels() const;
    bool gridFirstTokenAside() const;
    // What the grid says beside its tiles (modelgridpainter.h): whether they
    // show the first token set aside.
    ModelGridMarks gridMarks() const;
    // The real thumbnails coloured on the worker, in the colour map and
    // window colour of the moment the run started; null while gridLevels()
    // gives others.
    std::shared_ptr<const ModelGridTiles> gridTiles() const;
    // Every head's pattern scores on the shown tokens ([layer][head],
    // model/headscores.h), computed on the worker with the trace; null without one.
    using HeadScoreTable = std::vector<std::vector<attn::HeadScores>>;
    std::shared_ptr<const HeadScoreTable> headScores() const { return m_headScores; }
    // GPT-2: the next token after the text; BERT: the first [MASK]'s
    // predictions (none without the MLM head or a mask). Most probable first.
    std::vector<std::pair<int, float>> predictions(int k) const;
    // What predictions() predicts: "next token" or "[MASK] at 4"; empty when nothing.
    QString predictionTitle() const;

    // Heads switched off (contract section 6, --ablate): their context is zero
    // before the layer's output projection. Setting them runs the model again
    // on a worker, as a new text does; heads the model lacks are left out.
    // Document::setAblatedHeads() is the undoable way; this is what undo calls.
    const std::set<attn::LayerHead> &ablatedHeads() const { return m_ablated; }
    void setAblatedHeads(const std::set<attn::LayerHead> &heads);
    bool isAblated(int layer, int head) const { return m_ablated.count({layer, head}) > 0; }
    // `heads` without those the open model does not have.
    std::set<attn::LayerHead> withinModel(const std::set<attn::LayerHead> &heads) const;

    // One predicted token now and in the run shown before this one (the
    // previous set of switched-off heads on the same tokens); before is -1
    // when there is no such run.
    struct PredictionChange
    {
        int id = -1;
        double before = -1;
        double after = 0;
    };
    // The k most probable tokens now, each with its probability before.
    std::vector<PredictionChange> predictionChanges(int k) const;
    // The k tokens whose probability moved most (by |after - before|), largest
    // first; empty when there is no run before to compare with.
    std::vector<PredictionChange> biggestMovers(int k) const;
    bool hasBefore() const { return bool(m_before); }

    // Attention rollout of the shown trace (core/model/rollout.h), computed
    // on the worker while the rollout is shown (setRolloutShown); null without
    // a trace, and until it is shown: a product of every layer's n x n
    // matrices that most texts typed never look at (about 25 ms at 256 tokens
    // of a 24-layer model, seconds at a few thousand).
    std::shared_ptr<const attn::RowMatrix<double>> rollout() const { return m_rollout; }
    // Whether the rollout is on screen: runs compute it with the rest, and
    // the shown trace's is computed now (resultChanged when it is there).
    void setRolloutShown(bool shown);

    // A long run shows its layers as they are done. Layers of the shown
    // result not computed (yet) are drawn as such: the grid's rows, a
    // layer's views ("not computed yet"), the next token (it waits for the
    // last layer). trace(), rollout() and the prediction are there only
    // once every layer is.
    struct LayerProgress
    {
        int done = 0;         // layers of the shown (or coming) result computed, from layer 0
        int total = 0;        // the model's layers
        bool running = false; // a run is going and shows its layers as it goes
        bool stopped = false; // the shown result's run was stopped: layers done ... total-1 were not computed
    };
    LayerProgress layerProgress() const;
    // The layers the shown result has (all of them but while a run goes, or after a stop).
    int computedLayers() const { return m_computedLayers; }
    // Stops the run going: the layers done stay shown, the others are drawn
    // as not computed, and notice() says so (nothing is shown yet: the
    // result before stays). Typing goes on as ever: a new text runs anew.
    void stopRun();
    // After a stop, computes the layers not computed, going on from the last
    // done (the same text and switched-off heads: nothing done is redone).
    void computeRest();
    // A run shows its layers as it goes once it has taken this long; a
    // faster one shows its whole result at once, as it always did (tests set
    // 0). The first run of a model just opened shows its layers as they come.
    void setLayerByLayerAfter(int milliseconds);
    static constexpr int kLayerByLayerAfterMs = 300;
    // How many pixels the grid's tiles have (0: not known): a run colours
    // its thumbnails only for tiles that show them whole, the grid pooling
    // and colouring the others itself.
    void setGridTilePixels(int pixels) { m_gridTilePixels = pixels; }

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
    void ablationChanged(); // the set of switched-off heads (its result follows with resultChanged)
    void progressChanged(); // layerProgress() changed

private:
    struct Loaded;
    void startCompute(bool resume = false);
    void onOpenFinished();
    void onComputed(const std::shared_ptr<ModelRunResult> &out);
    // Layer by layer: a layer done, kept until the run has gone on long enough to show it.
    void onLayerDone(const ModelLayerDone &done);
    void showLayersDone();
    // Makes the run's tokens the shown ones, every layer not computed yet.
    void beginPartial(const std::shared_ptr<const ModelRunStart> &run);
    // The trace the shown layers come from (partial while computedLayers() < layers).
    std::shared_ptr<const attn::ModelTrace> shownTrace() const;
    QString pendingLayerText(int layer) const;
    void forgetLayers(); // of the model closed or replaced
    // Shows `layer` of the trace: at once when small, else from a worker.
    void requestLayer();
    void cancelRuns();
    // The snapshot of `layer` from `result` (null: no trace, an explanation instead).
    void showLayer(int layer, std::shared_ptr<const attn::AttentionResult> result);
    void onSelectionChanged();
    // Builds the grid's thumbnails with the first token set aside, on a worker.
    void requestAsideGrid();
    // Computes the shown trace's rollout on a worker, when it is shown and missing.
    void requestRollout();
    void takeBefore(const std::vector<attn::ModelToken> &newTokens, const std::set<attn::LayerHead> &newAblated);

    attn::SharedModelParameters m_model;
    attn::TokenizerPtr m_tokenizer;
    QString m_name, m_folder, m_pendingFolder, m_pendingName, m_text, m_identity;
    std::optional<attn::ModelReference> m_restore; // applied when the open ends
    int m_restoreQuery = -1;                       // applied when the first run ends
    std::vector<attn::ModelToken> m_tokens;
    std::shared_ptr<const attn::ModelTrace> m_trace;
    std::shared_ptr<const attn::RowMatrix<double>> m_rollout;
    std::shared_ptr<const ModelGridLevels> m_gridLevels;
    std::shared_ptr<const ModelGridTiles> m_gridTiles;
    std::shared_ptr<const ModelGridLevels> m_asideGridLevels; // of m_trace, or null
    std::shared_ptr<const HeadScoreTable> m_headScores;
    QString m_runError; // why the newest text gave no result (the views keep the one before)
    double m_runMilliseconds = 0; // how long the shown run took
    std::set<attn::LayerHead> m_ablated;      // what the next run switches off
    std::set<attn::LayerHead> m_traceAblated; // what m_trace was computed with
    int m_reusedPositions = 0;
    std::shared_ptr<const attn::RowVector<float>> m_before; // the predictions before the last change of m_ablated
    SnapshotPtr m_snapshot;
    ViewSelection *m_selection;
    ComputeScheduler *m_scheduler;
    int m_snapshotLayer = 0; // the layer m_snapshot shows
    int m_query = 0;
    int m_generation = 0;

    QFutureWatcher<std::shared_ptr<Loaded>> *m_openWatcher;
    bool m_opening = false;

    // Layer by layer (modelprogress.cpp).
    std::shared_ptr<const attn::ModelTrace> m_reusable; // the last whole trace: a new text's run reuses it
    std::shared_ptr<const attn::RowMatrix<double>> m_reusableRollout; // m_reusable's rollout
    std::shared_ptr<const ModelScoreRows> m_reusableScoreRows;        // m_reusable's pattern sums
    std::shared_ptr<const ModelRunStart> m_shownRun;    // the run whose layers are shown
    int m_computedLayers = 0;
    bool m_stopped = false;
    bool m_nothingShownYet = false; // no run of the model just opened has given a whole result
    bool m_rolloutShown = false;
    int m_gridTilePixels = 0;
    int m_runSerial = 0;         // counts runs asked
    int m_runLayersDone = 0;     // layers the latest run reported
    bool m_runShowsLayers = false; // the latest run has gone on long enough to show its layers
    std::vector<ModelLayerDone> m_layersWaiting; // reported before that
    QTimer *m_layerByLayerTimer;
};
