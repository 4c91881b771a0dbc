#pragma once
// The one forward pass of every model family over token ids, keeping what
// the views show. It reads only the recipe (model/modelconfig.h) and the
// weights; a family is a description (model/families/), never a branch here.

#include "model/modelparameters.h"

#include <atomic>
#include <functional>
#include <optional>
#include <set>
#include <stdexcept>
#include <vector>

namespace attn {

// What a model refuses to compute (bad token ids, too many tokens), with a message for the user.
class ModelInputError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

// One head of one layer, both numbered from 0.
struct LayerHead
{
    int layer = 0;
    int head = 0;

    bool operator<(const LayerHead &o) const { return layer != o.layer ? layer < o.layer : head < o.head; }
    bool operator==(const LayerHead &o) const { return layer == o.layer && head == o.head; }
};

// A change to one position's input: `delta` (d_model values) is added to the
// token's embedding row before anything else (Gemma's scale, the position
// embedding, BERT's token type embedding and embedding LayerNorm), as if that
// token's own vector had been edited for this position only. Several edits
// of one position add up.
struct EmbeddingEdit
{
    int position = 0;
    RowVector<float> delta;
};

struct ModelTrace;

struct ForwardOptions
{
    // Heads switched off: their context is zero before the layer's output
    // projection, so every later number changes and no earlier one does.
    std::set<LayerHead> ablatedHeads;
    // Raw scores q.k of every head (as much memory again as the weights).
    bool keepScores = true;
    // BERT: positions holding this id get masked-token predictions (when the
    // checkpoint has the MLM head). -1: none.
    int maskTokenId = -1;
    // Input changes (model/inputedit.h makes them); a position or size that
    // does not fit the input is refused with ModelInputError.
    std::vector<EmbeddingEdit> embeddingEdits;
    // Raised from another thread when nobody wants the result any more: the
    // pass then throws attn::Cancelled (runtime/cancel.h) before its next layer.
    // Never kept in a trace's options.
    const std::atomic<bool> *cancel = nullptr;
    // Called on the pass's thread as soon as each layer is done, in order
    // from layer 0 (layers a reused trace gives, at once; model/incremental.h),
    // with the trace so far: its layers 0 ... layer and hidden 0 ... layer + 1
    // are final and the pass reads none of them again, so the callback may
    // move them out (they are then missing from what the pass returns: a
    // window shows a long pass as it goes without a second copy of it). The
    // cancel flag is checked after it returns. Never kept in a trace's options.
    std::function<void(int layer, ModelTrace &trace)> layerDone;
};

// One layer's attention as the views need it. Q and the context hold all
// query heads side by side (head h: columns [h*head_dim, (h+1)*head_dim)); K
// and V all key/value heads, which with grouped-query attention are fewer:
// query head h reads key/value head h / (heads / kv_heads).
struct LayerTrace
{
    RowMatrix<float> queries;              // n x heads*head_dim: biases, q norms and rotation included
    RowMatrix<float> keys, values;         // n x kv_heads*head_dim (keys: rotated)
    std::vector<RowMatrix<float>> weights; // per query head n x n
    std::vector<RowMatrix<float>> scores;  // per query head n x n raw q.k, empty unless kept
    RowMatrix<float> context;              // n x heads*head_dim, what enters the output projection (ablated heads zero)
    // n x d_model: the context times the output projection, before its bias
    // (what the layer's view shows as its output). The pass computes it
    // anyway; kept, a view needs no product and typing a word extends it.
    RowMatrix<float> output;
    // Whether `output` is there for every position (a trace put together
    // by hand may lack it; the views then multiply).
    bool keptOutput() const { return output.rows() > 0 && output.rows() == context.rows(); }

    int heads() const { return int(weights.size()); }
    int headDim() const { return weights.empty() ? 0 : int(queries.cols()) / heads(); }
    int kvHeads() const { return headDim() > 0 ? int(keys.cols()) / headDim() : 0; }
    int kvHeadOf(int head) const { return kvHeads() > 0 ? head / (heads() / kvHeads()) : head; }
    auto query(int head) const { return queries.middleCols(head * headDim(), headDim()); }
    auto key(int head) const { return keys.middleCols(kvHeadOf(head) * headDim(), headDim()); }
    auto value(int head) const { return values.middleCols(kvHeadOf(head) * headDim(), headDim()); }
    auto headContext(int head) const { return context.middleCols(head * headDim(), headDim()); }
};

struct TokenPrediction
{
    int position = 0;               // the position predicted from (GPT-2: the last; BERT: a [MASK])
    RowVector<float> probabilities; // over the vocabulary, sums to 1
};

struct ModelTrace
{
    // hidden[0]: the embeddings (BERT: after their LayerNorm); hidden[l + 1]:
    // the output of layer l. GPT-2's ln_f is not applied to any of them.
    std::vector<RowMatrix<float>> hidden;
    std::vector<LayerTrace> layers;
    // Causal models: the next token after the last position (the logits of that row only).
    std::optional<TokenPrediction> nextToken;
    // BERT with the MLM head: one per position holding ForwardOptions::maskTokenId.
    std::vector<TokenPrediction> maskPredictions;
    // What it was computed from, so a longer text can reuse its rows (model/incremental.h).
    std::vector<int> tokenIds;
    ForwardOptions options;
};

// The whole model over `tokenIds`. Throws ModelInputError for an empty input,
// an id outside the vocabulary, more tokens than the model has positions, or
// an ablated head that does not exist.
ModelTrace forward(const ModelParameters &model, const std::vector<int> &tokenIds, const ForwardOptions &options = {});

// Throws attn::Cancelled when options.cancel is raised.
void stopIfCancelled(const ForwardOptions &options);

// The bytes a trace over n tokens holds (what to check before running one).
double traceBytes(const ModelConfig &config, int tokens, bool keepScores);

// The k most probable entries, most probable first (ties: the lower id first).
std::vector<std::pair<int, float>> topPredictions(const RowVector<float> &probabilities, int k);

} // namespace attn
