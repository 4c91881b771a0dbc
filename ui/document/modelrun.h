#pragma once
// One run of the open model over a text, on the window's worker: the forward
// pass, with what the views need of each layer made as soon as that layer is
// done (its thumbnails, pattern scores, output projection) and handed on, so
// that a large model fills the window layer by layer; then what needs every
// layer (the rollout, the prediction).

#include "attention/attention.h"
#include "runtime/cancel.h"
#include "model/forward.h"
#include "model/headscores.h"
#include "modelgridpainter.h"
#include "session/session.h"
#include "tokenizers/tokenizerloader.h"

#include <QImage>
#include <QString>
#include <functional>
#include <memory>
#include <set>
#include <vector>

// Traces larger than this keep no scores: the shown layer's are computed
// from q and k (a millisecond or two). Every kept score is written by the
// pass and copied again at each typed word for a view that reads one layer's:
// at 256 tokens of a Qwen2.5-0.5B-shaped model, 88 MB and 6 ms a word.
constexpr double kModelScoresBudgetBytes = 64.0 * 1024 * 1024;

// Every head's pattern sums row by row ([layer][head], attn::HeadScoreRows).
using ModelScoreRows = std::vector<std::vector<attn::HeadScoreRows>>;

// What a run is asked.
struct ModelRunInput
{
    attn::SharedModelParameters model;
    attn::TokenizerPtr tokenizer;
    QString text;
    std::set<attn::LayerHead> ablated;
    // The last whole trace, whose rows or layers the run reuses where it can (model/incremental.h).
    std::shared_ptr<const attn::ModelTrace> previous;
    std::shared_ptr<const attn::RowMatrix<double>> previousRollout; // previous's, whose kept rows are reused too
    // previous's grid (any may be null): the thumbnails' lines over the rows
    // a typed word leaves unchanged are copied from it (gridthumbnails.h).
    std::shared_ptr<const ModelGridLevels> previousGrid, previousAsideGrid;
    std::shared_ptr<const ModelGridTiles> previousTiles;
    std::shared_ptr<const ModelScoreRows> previousScoreRows; // previous's, whose sums over reused rows go on
    // A stopped run's trace, whose layers 0 ... resumeLayers-1 are done: the
    // run goes on from there when the tokens and switched-off heads are the same.
    std::shared_ptr<const attn::ModelTrace> resumeFrom;
    int resumeLayers = 0;
    int layer = 0;            // the selected layer: its view is built on the worker
    ModelGridTiles colours;   // the grid's colours when the run was asked
    int gridTilePixels = 0;   // its tiles' pixels (0: not known): larger thumbnails are left uncoloured
    bool firstTokenAside = false;
    bool rollout = true;      // whether to compute the rollout (it is shown)
    int serial = 0;           // which run of the document this is
};

// What a run knows before its first layer, shared by its reports and its answer.
struct ModelRunStart
{
    int serial = 0;
    std::vector<attn::ModelToken> tokens;
    std::set<attn::LayerHead> ablated;
    int layers = 0;
    int reused = 0; // leading positions taken from the trace before
    QString notice;
    ModelGridTiles colours; // the colours its tiles are given (no images)
    // Filled by the worker layer by layer: layers 0 ... l and hidden 0 ...
    // l + 1 are final once layer l is reported, and never written again; the
    // rest (later layers, the prediction) only the answer may read.
    std::shared_ptr<const attn::ModelTrace> trace;
};

// One layer done.
struct ModelLayerDone
{
    std::shared_ptr<const ModelRunStart> run;
    int layer = 0;
    std::vector<QImage> levels, tiles, asideLevels; // the grid's row (tiles: when shown whole; asideLevels: when asked)
    std::vector<attn::HeadScores> scores;
    std::shared_ptr<const attn::AttentionResult> layerResult; // when this is the selected layer
};

// The whole run.
struct ModelRunResult
{
    std::shared_ptr<const ModelRunStart> run;
    std::shared_ptr<const attn::ModelTrace> trace; // run->trace, complete (null on error)
    std::shared_ptr<const attn::RowMatrix<double>> rollout; // when asked
    std::shared_ptr<const ModelGridLevels> grid;
    std::shared_ptr<const ModelGridTiles> gridTiles;  // `grid` in the colours asked
    std::shared_ptr<const ModelGridLevels> asideGrid; // when asked
    std::shared_ptr<const std::vector<std::vector<attn::HeadScores>>> scores;
    std::shared_ptr<const ModelScoreRows> scoreRows; // what `scores` were summed from, for the next typed word
    std::shared_ptr<const attn::AttentionResult> layerResult; // of the selected layer
    int layer = 0;
    QString error;
    double milliseconds = 0;
};

// Runs `in` on the calling thread, giving each layer to `layerDone` as it
// is done. Throws attn::Cancelled when `cancel` is raised.
std::shared_ptr<ModelRunResult> runModel(const ModelRunInput &in, const attn::CancelFlag &cancel,
                                         const std::function<void(ModelLayerDone)> &layerDone);

// Whether a layer's view (model/layerview.h) over `tokens` is too much work
// for the GUI thread: its copies (the pass keeps each layer's output
// projection, LayerTrace::output), and with `outputKept` false (a trace
// without it) the product too.
bool layerViewOnWorker(const attn::ModelConfig &config, int tokens, bool outputKept);

// Each layer's sliding window (0: none), as the grid and the pattern scores take them.
std::vector<int> modelWindows(const attn::ModelConfig &config);
