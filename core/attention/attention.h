#pragma once
// The attention maths of the contract's section 1, keeping every intermediate.

#include "attention/attentionmatrix.h"
#include "runtime/cancel.h"

#include <Eigen/Dense>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace attn {

struct LayerRotation; // model/layerrotation.h

enum class Mode { Simplified, ScaledDotProduct };
// Sinusoidal: a pattern added to X. Rotary: nothing added; each head's q and
// k turned pairwise by position (attention/rotarypositions.h), v left as it is.
enum class PositionalEncoding { None, Sinusoidal, Rotary };

// Rotary positions' base when a session does not give one (contract section 9).
constexpr double kDefaultRopeTheta = 10000.0;

// What the engine refuses to compute, with a message meant for the user.
class InputError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

struct AttentionConfig
{
    Mode mode = Mode::ScaledDotProduct;
    int heads = 1;
    int headDim = 1; // used in scaled-dot-product mode; simplified mode uses d_model
    // Key/value heads (grouped-query attention, scaled-dot-product mode only):
    // query head h reads key/value head h / (heads / kvHeads). 0: one per
    // query head, as a file without kv_heads says (the reader, the writer and
    // the options keep 0 for "as many as heads", so equal sessions compare equal).
    int kvHeads = 0;
    bool causal = false;
    bool scale = true;
    PositionalEncoding positionalEncoding = PositionalEncoding::None;
    double ropeTheta = kDefaultRopeTheta; // the base of rotary positions' angles
    bool outputProjection = false;
    std::int64_t seed = 0;

    // How many key/value heads the weights hold: kvHeads, or heads when 0.
    int keyValueHeads() const { return kvHeads > 0 ? kvHeads : heads; }
    bool rotary() const { return positionalEncoding == PositionalEncoding::Rotary; }

    bool operator==(const AttentionConfig &o) const
    {
        return mode == o.mode && heads == o.heads && headDim == o.headDim && kvHeads == o.kvHeads
            && causal == o.causal && scale == o.scale && positionalEncoding == o.positionalEncoding
            && ropeTheta == o.ropeTheta && outputProjection == o.outputProjection && seed == o.seed;
    }
    bool operator!=(const AttentionConfig &o) const { return !(*this == o); }
};

// Projection matrices in the row-vector convention (rows = input dimensions).
// An empty list or matrix means "not given": it is generated from the seed.
struct ProjectionWeights
{
    std::vector<Eigen::MatrixXd> query;      // one d_model x head_dim per head
    std::vector<Eigen::MatrixXd> key, value; // one d_model x head_dim per key/value head
    Eigen::MatrixXd output;                         // (heads * head_dim) x d_model

    bool operator==(const ProjectionWeights &o) const;
};

// The matrices a pass multiplies by, none missing (the rest generated from the
// seed). Made once and shared, never copied: a slider drag over generated
// weights reuses one set, and every result points at the set it used.
struct CompletedWeights : ProjectionWeights
{
    // The same in float, for the single-precision pass: every head's W_q,
    // then every key/value head's W_k, then their W_v, side by side (d_model
    // x (heads + 2 kv_heads)*head_dim), so that one wide product gives q, k
    // and v of every head instead of one thin product per head and kind; and W_o.
    Eigen::MatrixXf projectionSingle, outputSingle;
};
using SharedWeights = std::shared_ptr<const CompletedWeights>;

struct HeadResult
{
    // n x d_k, m x d_k, m x d_k. With rotary positions q and k as turned; with
    // shared key/value heads, keys and values are those of this head's group.
    Eigen::MatrixXd queries, keys, values;
    AttentionMatrix scores;                // raw dot products Q K^T, n x m
    AttentionMatrix weights;               // softmax rows, masked entries exactly 0
    Eigen::MatrixXd context;               // weights * values, n x d_k
};

// Which heads a single-precision pass keeps in full (a double pass keeps
// every head). The window shows one head's matrix, or the mean, and every
// head as a thumbnail: the heads it does not show keep only their q and k
// and each row's softmax statistics, and compute a row when asked
// (AttentionMatrix::isOnDemand), with the thumbnails pooled by the pass
// (AttentionMatrix::pooled). At 4096 tokens that is 2 MiB a head instead of
// 64 MiB. Results no larger than a thumbnail keep every head.
class HeadsKept
{
public:
    static HeadsKept all() { return {}; }
    // `head` in full, or none (nullopt: the mean is shown, kept in full
    // anyway); the scores' thumbnails only with `scores` (a view shows the
    // scores): pooling them costs the softmax two loads and two stores an
    // entry, and a view that shows scores without them computes what it draws.
    static HeadsKept only(std::optional<int> head, bool scores = false)
    {
        HeadsKept kept;
        kept.m_all = false;
        kept.m_head = head;
        kept.m_scores = scores;
        return kept;
    }
    bool keeps(int head) const { return m_all || m_head == head; }
    // The mean over heads in full: when shown (else only its thumbnail).
    bool keepsMean() const { return m_all || !m_head; }
    bool keepsAll() const { return m_all; }
    bool poolsScores() const { return m_all || m_scores; }
    bool operator==(const HeadsKept &o) const
    {
        return m_all == o.m_all && (m_all || (m_head == o.m_head && m_scores == o.m_scores));
    }

private:
    bool m_all = true;
    std::optional<int> m_head;
    bool m_scores = true;
};

// Teaching-size inputs are computed in double. Large ones may be computed in
// float: twice the speed of the matrix products and half the memory, and the
// numbers the views show (4 decimals, weights below 1) stay the same.
enum class Precision { Auto, Double, Single };

// Auto switches to single precision above this much work (forwardWork: about
// 100 tokens at d_model 256 and 8 heads; every built-in example is far below).
constexpr double kFullPrecisionFlops = 5e7;

struct AttentionResult
{
    Eigen::MatrixXd inputs;       // X after positional encoding, n x d_model
    Eigen::MatrixXd sourceInputs; // cross-attention only: the source after positional encoding
    std::vector<HeadResult> heads;
    AttentionMatrix meanWeights;  // the weights averaged over heads (empty with one head)
    Eigen::MatrixXd output;       // concat of contexts, times Wo when the projection is on
    SharedWeights weights;        // a session's matrices as used (empty lists in simplified mode, but Wo);
                                  // null for a model's layer, whose weights stay in the model
    bool projected = false;       // q, k, v are the inputs times W_q, W_k, W_v (false: simplified, q = k = v = x)
    bool outputProjected = false; // output is the contexts side by side times W_o
    double scoreScale = 1.0;      // what scores are multiplied by before the softmax
    bool causal = false;            // as computed: never in cross-attention
    int window = 0;                 // with causal, a sliding window: query i sees keys i - window < j <= i
    bool positionalEncoding = false; // inputs are the embeddings plus sinusoidal positions
    bool rotary = false;            // each head's q and k were turned by position (rotary positions)
    double ropeTheta = kDefaultRopeTheta; // with rotary: the base of the angles
    int kvHeads = 0;                // key/value heads; 0 (a model's layer) or heads: one per head
    // A model's layer that turned q and k by position: how (model/layerrotation.h).
    // Null for a hand-made session and for a model with learned positions.
    std::shared_ptr<const LayerRotation> rotation;
    bool singlePrecision = false; // computed in float (see Precision)

    bool isMasked(int query, int key) const
    {
        return causal && (key > query || (window > 0 && key <= query - window));
    }
    // A key masked by the sliding window only (it is before the query: causal alone would show it).
    bool isOutsideWindow(int query, int key) const { return causal && window > 0 && key <= query - window; }
    // How many query heads there are per key/value head, and which one head h reads.
    int keyValueHeadCount() const { return kvHeads > 0 ? kvHeads : int(heads.size()); }
    int keyValueHeadOf(int head) const
    {
        const int kv = keyValueHeadCount();
        return kv > 0 && int(heads.size()) % kv == 0 ? head / (int(heads.size()) / kv) : head;
    }
    bool sharesKeyValues() const { return keyValueHeadCount() < int(heads.size()); }
    int headDim() const { return heads.empty() ? 0 : int(heads.front().queries.cols()); }
};

// Hard limits of what the engine and the files accept.
constexpr int kMaxTokens = 4096;
constexpr int kMaxDModel = 1024;
constexpr int kMaxHeads = 64;
constexpr int kMaxHeadDim = 1024;

// Floating-point operations of the matrix products of one forward pass with n
// queries and m keys (the softmax's exponentials are not counted).
double forwardFlops(double n, double m, int dModel, const AttentionConfig &config);

// The work of one pass in floating-point operations, the softmax included:
// forwardFlops plus kSoftmaxFlopsPerEntry for each of the heads' n x m
// entries (an exponential, the row's maximum and sum, the finiteness check).
// What decides the precision and whether a request waits for a worker: at
// 2000 tokens and d_model 3 the products are only 4.8e7 operations, the
// exponentials more work than they.
constexpr double kSoftmaxFlopsPerEntry = 10;
double forwardWork(double n, double m, int dModel, const AttentionConfig &config);

// The options as computed: in cross-attention (a source is set) the causal
// mask does not apply, whatever the session says.
AttentionConfig effectiveConfig(const AttentionConfig &config, bool crossAttention);

// The options after the user asks for `heads` heads, with the defaults a
// session file gets: head_dim = d_model / heads when that is whole (else it
// stays), and the output projection on exactly when there is more than one head.
AttentionConfig withHeadCount(const AttentionConfig &config, int heads, int dModel);

// The options after switching to `mode`, each mode with its textbook
// defaults: simplified attention has no weights, so its heads would all be
// the same: one head of width d_model, unscaled; scaled dot-product scales by
// 1/sqrt(d_k) and takes head_dim = d_model / heads when that is whole.
AttentionConfig withMode(const AttentionConfig &config, Mode mode, int dModel);

// The width of each head: head_dim in scaled-dot-product mode, d_model in simplified mode.
int effectiveHeadDim(const AttentionConfig &config, int dModel);

// What is wrong with the options for embeddings of width dModel, in words
// for the user, or empty: rotary positions with an odd head width, key/value
// heads that do not divide the heads or in simplified mode, a base that is
// not a positive finite number.
std::string configProblem(const AttentionConfig &config, int dModel);

// The options after asking for `kvHeads` key/value heads (0 or heads: one
// per head), kept to a divisor of heads; always one per head in simplified mode.
AttentionConfig withKeyValueHeads(const AttentionConfig &config, int kvHeads);

// The options after choosing positions: rotary needs an even head width, so
// with an odd one the options stay as they were.
AttentionConfig withPositions(const AttentionConfig &config, PositionalEncoding encoding, int dModel);

// PE[pos][2i] = sin(pos / 10000^(2i/d)), PE[pos][2i+1] = cos(same angle).
Eigen::MatrixXd sinusoidalEncoding(int tokens, int dModel);

// A rows x cols matrix drawn uniformly from [-sqrt(3/rows), sqrt(3/rows)) (variance
// 1/fan-in). Each (kind, head) has its own stream, so adding a head leaves the
// other heads' weights as they were.
enum class WeightKind { Query = 0, Key = 1, Value = 2, Output = 3 };
Eigen::MatrixXd generatedWeights(std::int64_t seed, WeightKind kind, int head, int rows, int cols);

// The given matrices, with every missing one generated from the seed.
// Throws InputError when a given matrix has the wrong shape.
SharedWeights completeWeights(const AttentionConfig &config, int dModel, const ProjectionWeights &given);

// Row-wise softmax of scores * scale, over keys not masked; stable for any
// finite input. Masked entries are exactly 0 and each row sums to 1.
Eigen::MatrixXd softmaxRows(const Eigen::Ref<const Eigen::MatrixXd> &scores, double scale, bool causal);

// The whole forward pass. `source` (m x d_model) turns it into cross-attention:
// queries from `embeddings`, keys and values from `source`.
// Throws InputError for inconsistent sizes or a result that overflows, and
// Cancelled once `cancel` is raised.
AttentionResult computeAttention(const Eigen::Ref<const Eigen::MatrixXd> &embeddings, const AttentionConfig &config,
                                 const ProjectionWeights &given = {},
                                 const Eigen::MatrixXd *source = nullptr, Precision precision = Precision::Auto,
                                 const CancelFlag *cancel = nullptr, const HeadsKept &kept = HeadsKept::all());

// One head's weights (or raw scores) computed again in double from the
// result's inputs and weights; head -1 is the mean over heads. What number
// files need when the result was computed in single precision: one matrix,
// not a whole second result.
Eigen::MatrixXd headMatrixInDouble(const AttentionResult &result, int head, bool scores);

// The weights (or raw scores) averaged over heads, as model overviews show them.
AttentionMatrix averageWeights(const AttentionResult &result);
AttentionMatrix averageScores(const AttentionResult &result);

} // namespace attn
