#include "modelrun.h"

#include "model/incremental.h"
#include "model/layerview.h"
#include "model/rollout.h"

#include <QElapsedTimer>
#include <QObject>
#include <algorithm>

namespace {

// A trace above this is refused: the window must keep the shown one and compute the next.
constexpr double kMaxTraceBytes = 3.0 * 1024 * 1024 * 1024;

// The tokens the run reads, cut to the model's positions (with a notice), or an error.
std::shared_ptr<ModelRunStart> readTokens(const ModelRunInput &in, QString *error)
{
    auto start = std::make_shared<ModelRunStart>();
    start->serial = in.serial;
    start->ablated = in.ablated;
    start->layers = in.model->config.layers;
    start->colours.map = in.colours.map;
    start->colours.masked = in.colours.masked;
    start->tokens = in.tokenizer->encode(in.text);
    const int limit = in.model->config.positions;
    if (int(start->tokens.size()) > limit) {
        start->notice = QObject::tr("The text has %1 tokens; the model reads at most %2, so only the first %2 are used")
                            .arg(start->tokens.size()).arg(limit);
        start->tokens.resize(std::size_t(limit));
    }
    if (start->tokens.empty())
        *error = QObject::tr("the text has no tokens");
    else
        *error = attn::unknownTokenProblem(start->tokens, in.model->config.vocab);
    return start;
}

// Whether `partial`'s first layers were computed over these ids with these heads switched off.
bool resumable(const attn::ModelTrace *partial, int layers, const std::vector<int> &ids,
               const std::set<attn::LayerHead> &ablated)
{
    return partial && layers > 0 && partial->tokenIds == ids && partial->options.ablatedHeads == ablated
        && layers <= int(partial->layers.size());
}

// Below this much work a layer's view is built at once, on the GUI thread
// (about a millisecond): the casts of its projections and the output product.
double layerViewFlops(const attn::ModelConfig &c, int tokens)
{
    return 2.0 * tokens * c.dModel * c.dModel + 2.0 * c.heads * double(tokens) * tokens + 4.0 * c.dModel * c.dModel;
}
// With the output projection kept, only its copies: a byte moved counted as
// a flop above, 8 a double (inputs, output, each head's q, k, v, context, the mean).
double layerViewCopies(const attn::ModelConfig &c, int tokens)
{
    const double n = tokens;
    return 8.0 * (2.0 * n * c.dModel + 4.0 * n * c.heads * c.headDim() + c.heads * n * n);
}
constexpr double kSyncLayerFlops = 1e8;

} // namespace

bool layerViewOnWorker(const attn::ModelConfig &config, int tokens, bool outputKept)
{
    return (outputKept ? layerViewCopies(config, tokens) : layerViewFlops(config, tokens)) > kSyncLayerFlops;
}

std::vector<int> modelWindows(const attn::ModelConfig &config) { return modelGridMarks(config).windows; }

std::shared_ptr<ModelRunResult> runModel(const ModelRunInput &in, const attn::CancelFlag &cancel,
                                         const std::function<void(ModelLayerDone)> &layerDone)
{
    auto out = std::make_shared<ModelRunResult>();
    QElapsedTimer timer;
    timer.start();
    const attn::ModelParameters &model = *in.model;
    const attn::ModelConfig &c = model.config;
    out->layer = std::clamp(in.layer, 0, c.layers - 1);
    std::shared_ptr<ModelRunStart> start = readTokens(in, &out->error);
    out->run = start;
    if (!out->error.isEmpty())
        return out;
    const int n = int(start->tokens.size());
    std::vector<int> ids;
    for (const attn::ModelToken &t : start->tokens)
        ids.push_back(t.id);
    attn::ForwardOptions options;
    options.ablatedHeads = in.ablated;
    options.keepScores = attn::traceBytes(c, n, true) <= kModelScoresBudgetBytes;
    options.maskTokenId = in.tokenizer->specialIds().mask;
    options.cancel = &cancel;
    if (attn::traceBytes(c, n, false) > kMaxTraceBytes) {
        out->error = QObject::tr("%1 tokens need more memory than the window allows").arg(n);
        return out;
    }
    const std::vector<int> windows = modelWindows(c);

    // The trace the views read while the pass goes on: each layer is moved
    // into it from the pass's own as soon as it is done (never copied), so
    // its vectors have their final sizes from the start and nothing a view
    // reads is written again.
    auto growing = std::make_shared<attn::ModelTrace>();
    growing->tokenIds = ids;
    growing->options = options;
    growing->options.cancel = nullptr;
    growing->layers.resize(std::size_t(c.layers));
    growing->hidden.resize(std::size_t(c.layers) + 1);
    start->trace = growing;

    ModelGridLevels grid(std::size_t(c.layers)), aside(std::size_t(c.layers));
    std::vector<std::vector<QImage>> tiles(std::size_t(c.layers));
    auto scores = std::make_shared<std::vector<std::vector<attn::HeadScores>>>(std::size_t(c.layers));
    auto scoreRows = std::make_shared<ModelScoreRows>(std::size_t(c.layers));
    // Set once the pass knows how many rows it reuses (before its first layer is done).
    int earlierLines = 0, earlierRows = 0;
    const auto earlier = [&](const auto &grid, std::size_t l) {
        return grid && l < grid->size() && earlierLines > 0 ? EarlierThumbnails{&(*grid)[l], earlierLines}
                                                            : EarlierThumbnails{};
    };
    const bool sameColours = in.previousTiles && in.previousTiles->map == in.colours.map
                          && in.previousTiles->masked == in.colours.masked;
    const auto *earlierTiles = sameColours ? &in.previousTiles->images : nullptr;
    // Tiles smaller than the thumbnails show them pooled, which the grid colours itself.
    const bool colourTiles = in.gridTilePixels <= 0 || thumbnailBlocks(n, kModelGridMaxSide).lines <= in.gridTilePixels;
    std::size_t hiddenMoved = 0;
    options.layerDone = [&](int l, attn::ModelTrace &pass) {
        const std::size_t i = std::size_t(l);
        for (; hiddenMoved <= i + 1; ++hiddenMoved)
            growing->hidden[hiddenMoved] = std::move(pass.hidden[hiddenMoved]);
        growing->layers[i] = std::move(pass.layers[i]);
        const attn::LayerTrace &layer = growing->layers[i];
        const int window = i < windows.size() ? windows[i] : 0;
        ModelLayerDone done;
        done.run = start;
        done.layer = l;
        done.levels = grid[i] = modelGridLayerLevels(layer, c.causal, kModelGridMaxSide, false, window,
                                                     earlier(in.previousGrid, i));
        if (colourTiles)
            done.tiles = tiles[i] = colouredLayerTiles(done.levels, in.colours.map,
                                                       QColor::fromRgba(in.colours.masked), earlier(earlierTiles, i));
        if (in.firstTokenAside)
            done.asideLevels = aside[i] = modelGridLayerLevels(layer, c.causal, kModelGridMaxSide, true, window,
                                                               earlier(in.previousAsideGrid, i));
        const bool sumsGoOn = earlierRows > 0 && in.previousScoreRows && i < in.previousScoreRows->size();
        done.scores = (*scores)[i] = attn::layerHeadScores(layer, ids, window, (*scoreRows)[i],
                                                           sumsGoOn ? &(*in.previousScoreRows)[i] : nullptr,
                                                           earlierRows);
        if (l == out->layer)
            done.layerResult = out->layerResult = std::make_shared<const attn::AttentionResult>(
                attn::layerAttention(model, growing, l));
        layerDone(std::move(done));
    };
    try {
        attn::ModelTrace pass;
        if (resumable(in.resumeFrom.get(), in.resumeLayers, ids, in.ablated)) {
            // Going on after a stop: the layers done are the stopped run's.
            pass = attn::forwardFrom(model, ids, options, in.resumeFrom.get(), 0, in.resumeLayers);
        } else if (in.previous) {
            start->reused = attn::reusablePrefix(model, *in.previous, ids, options);
            earlierRows = c.causal ? start->reused : 0;
            if (c.causal)
                earlierLines = reusableThumbnailLines(n, int(in.previous->tokenIds.size()), start->reused,
                                                      kModelGridMaxSide);
            pass = attn::extendTrace(model, *in.previous, ids, options);
        } else {
            pass = attn::forward(model, ids, options);
        }
        growing->nextToken = std::move(pass.nextToken);
        growing->maskPredictions = std::move(pass.maskPredictions);
        out->trace = growing;
        attn::stopIfCancelled(&cancel);
        if (in.rollout)
            out->rollout = std::make_shared<const attn::RowMatrix<double>>(
                // Typing at the end: the rows of the text before are the rollout before's.
                start->reused > 0 && in.previousRollout && c.causal && in.previousRollout->rows() >= start->reused
                    ? attn::extendedRollout(*out->trace, *in.previousRollout, start->reused)
                    : attn::attentionRollout(*out->trace));
        out->grid = std::make_shared<const ModelGridLevels>(std::move(grid));
        auto coloured = std::make_shared<ModelGridTiles>(in.colours);
        coloured->images = std::move(tiles);
        out->gridTiles = std::move(coloured);
        if (in.firstTokenAside)
            out->asideGrid = std::make_shared<const ModelGridLevels>(std::move(aside));
        out->scores = std::move(scores);
        out->scoreRows = std::move(scoreRows);
    } catch (const attn::ModelInputError &e) {
        out->error = QString::fromStdString(e.what());
        out->trace.reset();
    } catch (const std::bad_alloc &) {
        out->error = QObject::tr("not enough memory to run the model on this text");
        out->trace.reset();
    }
    out->milliseconds = timer.nsecsElapsed() / 1e6;
    return out;
}
