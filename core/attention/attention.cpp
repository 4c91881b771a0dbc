#include "attention/attention.h"

#include "attention/forwardpass.h"
#include "runtime/prng.h"
#include "attention/rotarypositions.h"

#include <algorithm>
#include <cmath>
#include <mutex>
#include <string>

namespace attn {

bool ProjectionWeights::operator==(const ProjectionWeights &o) const
{
    auto same = [](const Eigen::MatrixXd &a, const Eigen::MatrixXd &b) {
        return a.rows() == b.rows() && a.cols() == b.cols() && a == b;
    };
    auto sameList = [&](const std::vector<Eigen::MatrixXd> &a, const std::vector<Eigen::MatrixXd> &b) {
        if (a.size() != b.size())
            return false;
        for (std::size_t i = 0; i < a.size(); ++i)
            if (!same(a[i], b[i]))
                return false;
        return true;
    };
    return sameList(query, o.query) && sameList(key, o.key) && sameList(value, o.value) && same(output, o.output);
}

AttentionConfig effectiveConfig(const AttentionConfig &config, bool crossAttention)
{
    AttentionConfig c = config;
    if (crossAttention)
        c.causal = false;
    return c;
}

AttentionConfig withHeadCount(const AttentionConfig &config, int heads, int dModel)
{
    AttentionConfig c = config;
    c.heads = std::clamp(heads, 1, kMaxHeads);
    if (c.mode == Mode::Simplified)
        c.heads = 1;
    if (c.heads != config.heads) {
        // Rotary positions turn pairs: an odd width would leave one number out.
        if (c.mode == Mode::ScaledDotProduct && dModel % c.heads == 0 && (!c.rotary() || (dModel / c.heads) % 2 == 0))
            c.headDim = dModel / c.heads;
        c.outputProjection = c.heads > 1;
        // Shared key/value heads stay shared in groups as near the old size as divide the new count.
        c = withKeyValueHeads(c, config.kvHeads > 0 ? std::max(1, config.kvHeads * c.heads / config.heads) : 0);
    }
    return c;
}

AttentionConfig withKeyValueHeads(const AttentionConfig &config, int kvHeads)
{
    AttentionConfig c = config;
    if (c.mode == Mode::Simplified || kvHeads <= 0 || kvHeads >= c.heads) {
        c.kvHeads = 0;
        return c;
    }
    // The largest divisor of heads not above what was asked.
    int kv = kvHeads;
    while (c.heads % kv != 0)
        --kv;
    c.kvHeads = kv == c.heads ? 0 : kv;
    return c;
}

AttentionConfig withPositions(const AttentionConfig &config, PositionalEncoding encoding, int dModel)
{
    AttentionConfig c = config;
    c.positionalEncoding = encoding;
    if (c.rotary() && effectiveHeadDim(c, dModel) % 2 != 0)
        return config;
    return c;
}

std::string configProblem(const AttentionConfig &c, int dModel)
{
    if (c.rotary()) {
        const int width = effectiveHeadDim(c, dModel);
        if (width % 2 != 0)
            return c.mode == Mode::Simplified
                ? "rotary positions turn pairs of numbers, and simplified attention's heads are d_model = "
                      + std::to_string(width) + " numbers wide, an odd number"
                : "rotary positions turn pairs of numbers: head_dim must be even, got " + std::to_string(width);
        if (!std::isfinite(c.ropeTheta) || !(c.ropeTheta > 0))
            return "rope_theta must be a positive number";
    }
    if (c.kvHeads != 0) {
        if (c.mode == Mode::Simplified)
            return "kv_heads applies to scaled-dot-product attention only (simplified attention has no key or "
                   "value matrices)";
        if (c.kvHeads < 1 || c.kvHeads > c.heads || c.heads % c.kvHeads != 0)
            return "kv_heads (" + std::to_string(c.kvHeads) + ") must divide heads (" + std::to_string(c.heads) + ")";
    }
    return {};
}

AttentionConfig withMode(const AttentionConfig &config, Mode mode, int dModel)
{
    AttentionConfig c = config;
    if (mode == config.mode)
        return c;
    c.mode = mode;
    if (mode == Mode::Simplified) {
        c.heads = 1;
        c.kvHeads = 0;
        c.headDim = dModel;
        c.scale = false;
        c.outputProjection = false;
    } else {
        c.scale = true;
        if (dModel % c.heads == 0 && (!c.rotary() || (dModel / c.heads) % 2 == 0))
            c.headDim = dModel / c.heads;
    }
    // Rotary positions need an even head width: with an odd one they are off.
    if (c.rotary() && effectiveHeadDim(c, dModel) % 2 != 0)
        c.positionalEncoding = PositionalEncoding::None;
    return c;
}

int effectiveHeadDim(const AttentionConfig &config, int dModel)
{
    return config.mode == Mode::Simplified ? dModel : config.headDim;
}

Eigen::MatrixXd sinusoidalEncoding(int tokens, int dModel)
{
    Eigen::MatrixXd pe(tokens, dModel);
    for (int k = 0; k < dModel; ++k) {
        const int pair = k / 2; // the "i" of 2i and 2i+1
        const double frequency = std::pow(10000.0, -2.0 * pair / double(dModel));
        for (int pos = 0; pos < tokens; ++pos) {
            const double angle = pos * frequency;
            pe(pos, k) = (k % 2 == 0) ? std::sin(angle) : std::cos(angle);
        }
    }
    return pe;
}

Eigen::MatrixXd generatedWeights(std::int64_t seed, WeightKind kind, int head, int rows, int cols)
{
    // Hash the three numbers as little-endian bytes, so that big-endian
    // machines draw the same weights (the contract promises every platform).
    const std::uint64_t parts[3] = {std::uint64_t(seed), std::uint64_t(kind), std::uint64_t(head)};
    char bytes[sizeof parts];
    for (std::size_t p = 0; p < 3; ++p)
        for (std::size_t b = 0; b < 8; ++b)
            bytes[p * 8 + b] = char((parts[p] >> (8 * b)) & 0xFF);
    SplitMix64 rng(stableHash(bytes, sizeof bytes));
    const double limit = std::sqrt(3.0 / std::max(rows, 1));
    Eigen::MatrixXd w(rows, cols);
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c)
            w(r, c) = rng.nextSymmetric(limit);
    return w;
}

namespace {

bool resultIsFinite(const AttentionResult &result)
{
    // Single-precision scores are bounded before they are computed (sessionPass<float>).
    for (const HeadResult &head : result.heads)
        if (!head.weights.allFinite() || (!result.singlePrecision && !head.scores.allFinite()))
            return false;
    return allFiniteFast(result.output);
}

void checkShape(const Eigen::MatrixXd &m, int rows, int cols, const std::string &what)
{
    if (m.rows() != rows || m.cols() != cols)
        throw InputError(what + ": expected a " + std::to_string(rows) + " x " + std::to_string(cols)
                         + " matrix, got " + std::to_string(m.rows()) + " x " + std::to_string(m.cols()));
}

// `count` matrices: one per head for W_q, one per key/value head for W_k and W_v.
std::vector<Eigen::MatrixXd> completeList(const std::vector<Eigen::MatrixXd> &given, const AttentionConfig &config,
                                          WeightKind kind, int dModel, const char *name, int count)
{
    const bool shared = count != config.heads;
    if (!given.empty() && int(given.size()) != count)
        throw InputError(std::string("weights.") + name + ": expected " + std::to_string(count)
                         + (count == 1 ? " matrix" : " matrices")
                         + (shared ? " (one per key/value head), got " : " (one per head), got ")
                         + std::to_string(given.size()));
    std::vector<Eigen::MatrixXd> out;
    out.reserve(std::size_t(count));
    for (int h = 0; h < count; ++h) {
        if (given.empty()) {
            out.push_back(generatedWeights(config.seed, kind, h, dModel, config.headDim));
        } else {
            checkShape(given[std::size_t(h)], dModel, config.headDim,
                       std::string("weights.") + name + "[" + std::to_string(h) + "]");
            out.push_back(given[std::size_t(h)]);
        }
    }
    return out;
}

// The per-head matrices side by side (d_model x heads*head_dim), in float.
// Every head's W_q, then every head's W_k, then every head's W_v, side by
// side in float (d_model x 3 heads*head_dim): one product projects them all.
Eigen::MatrixXf projectionsInFloat(const CompletedWeights &w)
{
    if (w.query.empty())
        return {};
    const Eigen::Index width = w.query.front().cols(), heads = Eigen::Index(w.query.size());
    const Eigen::Index kvHeads = Eigen::Index(w.key.size());
    Eigen::MatrixXf all(w.query.front().rows(), (heads + 2 * kvHeads) * width);
    Eigen::Index column = 0;
    for (const std::vector<Eigen::MatrixXd> *kind : {&w.query, &w.key, &w.value})
        for (const Eigen::MatrixXd &head : *kind) {
            all.middleCols(column, width) = head.cast<float>();
            column += width;
        }
    return all;
}

SharedWeights completeWeightsNow(const AttentionConfig &config, int dModel, const ProjectionWeights &given)
{
    auto w = std::make_shared<CompletedWeights>();
    if (config.mode == Mode::ScaledDotProduct) {
        const int kv = config.keyValueHeads();
        w->query = completeList(given.query, config, WeightKind::Query, dModel, "query", config.heads);
        w->key = completeList(given.key, config, WeightKind::Key, dModel, "key", kv);
        w->value = completeList(given.value, config, WeightKind::Value, dModel, "value", kv);
    }
    if (config.outputProjection) {
        const int concat = config.heads * effectiveHeadDim(config, dModel);
        if (given.output.size() == 0) {
            w->output = generatedWeights(config.seed, WeightKind::Output, 0, concat, dModel);
        } else {
            checkShape(given.output, concat, dModel, "weights.output");
            w->output = given.output;
        }
    }
    w->projectionSingle = projectionsInFloat(*w);
    w->outputSingle = w->output.cast<float>();
    return w;
}

// Drawing the generated matrices takes as long as the rest of a 256-token,
// 8-head pass, and a slider drag asks for the same ones at every step: keep
// the last fully generated set (they depend only on the numbers below).
struct GeneratedWeightsCache
{
    std::mutex mutex;
    std::int64_t seed = 0;
    Mode mode = Mode::Simplified;
    int heads = 0, kvHeads = 0, headDim = 0, dModel = 0;
    bool output = false;
    SharedWeights weights;

    bool matches(const AttentionConfig &c, int d) const
    {
        return weights && seed == c.seed && mode == c.mode && heads == c.heads && kvHeads == c.keyValueHeads()
            && headDim == c.headDim && dModel == d && output == c.outputProjection;
    }
};

} // namespace

SharedWeights completeWeights(const AttentionConfig &config, int dModel, const ProjectionWeights &given)
{
    const bool allGenerated = given.query.empty() && given.key.empty() && given.value.empty() && given.output.size() == 0;
    if (!allGenerated)
        return completeWeightsNow(config, dModel, given);
    static GeneratedWeightsCache cache;
    {
        const std::lock_guard<std::mutex> lock(cache.mutex);
        if (cache.matches(config, dModel))
            return cache.weights;
    }
    SharedWeights generated = completeWeightsNow(config, dModel, given);
    const std::lock_guard<std::mutex> lock(cache.mutex);
    cache.seed = config.seed;
    cache.mode = config.mode;
    cache.heads = config.heads;
    cache.kvHeads = config.keyValueHeads();
    cache.headDim = config.headDim;
    cache.dModel = dModel;
    cache.output = config.outputProjection;
    cache.weights = generated;
    return generated;
}

double forwardFlops(double n, double m, int dModel, const AttentionConfig &config)
{
    const double d = dModel;
    const double width = double(config.heads) * effectiveHeadDim(config, dModel);
    double flops = 2 * 2 * n * m * width; // scores and context
    if (config.mode == Mode::ScaledDotProduct) // Q; K and V of the key/value heads
        flops += 2 * (n * width + 2 * m * double(config.keyValueHeads()) * config.headDim) * d;
    if (config.outputProjection)
        flops += 2 * n * width * d;
    return flops;
}

double forwardWork(double n, double m, int dModel, const AttentionConfig &config)
{
    // Simplified heads are computed once.
    const double heads = config.mode == Mode::Simplified ? 1 : config.heads;
    return forwardFlops(n, m, dModel, config) + kSoftmaxFlopsPerEntry * heads * n * m;
}

Eigen::MatrixXd softmaxRows(const Eigen::Ref<const Eigen::MatrixXd> &scores, double scale, bool causal)
{
    return detail::softmaxRowsOf(scores, scale, causal);
}

AttentionResult computeAttention(const Eigen::Ref<const Eigen::MatrixXd> &embeddings, const AttentionConfig &requested,
                                 const ProjectionWeights &given, const Eigen::MatrixXd *source, Precision precision,
                                 const CancelFlag *cancel, const HeadsKept &kept)
{
    // A causal mask orders one sequence against itself; in cross-attention
    // the queries see every source token, so the option does not apply there.
    const AttentionConfig config = effectiveConfig(requested, source != nullptr);
    const int n = int(embeddings.rows());
    const int dModel = int(embeddings.cols());
    if (n < 1)
        throw InputError("there are no tokens to attend over");
    if (dModel < 1)
        throw InputError("embeddings need at least one dimension");
    if (config.heads < 1 || config.heads > kMaxHeads)
        throw InputError("heads must be between 1 and " + std::to_string(kMaxHeads));
    if (config.mode == Mode::ScaledDotProduct && (config.headDim < 1 || config.headDim > kMaxHeadDim))
        throw InputError("head_dim must be between 1 and " + std::to_string(kMaxHeadDim));
    if (source && source->cols() != dModel)
        throw InputError("source embeddings must have d_model = " + std::to_string(dModel) + " numbers per row");
    if (source && source->rows() < 1)
        throw InputError("the source sequence has no tokens");
    if (const std::string problem = configProblem(config, dModel); !problem.empty())
        throw InputError(problem);

    AttentionResult result;
    result.causal = config.causal;
    result.positionalEncoding = config.positionalEncoding == PositionalEncoding::Sinusoidal;
    result.rotary = config.rotary();
    result.ropeTheta = config.ropeTheta;
    result.kvHeads = config.mode == Mode::ScaledDotProduct ? config.keyValueHeads() : config.heads;
    result.inputs = embeddings;
    if (config.positionalEncoding == PositionalEncoding::Sinusoidal)
        result.inputs += sinusoidalEncoding(n, dModel);
    if (source) {
        result.sourceInputs = *source;
        if (config.positionalEncoding == PositionalEncoding::Sinusoidal)
            result.sourceInputs += sinusoidalEncoding(int(source->rows()), dModel);
    }
    const Eigen::MatrixXd &keysFrom = source ? result.sourceInputs : result.inputs;

    result.weights = completeWeights(config, dModel, given);
    result.projected = config.mode == Mode::ScaledDotProduct;
    result.outputProjected = config.outputProjection;
    const int headDim = effectiveHeadDim(config, dModel);
    result.scoreScale = config.scale ? 1.0 / std::sqrt(double(headDim)) : 1.0;

    const detail::PassInputs pass{result.inputs, keysFrom, *result.weights, config, headDim, result.scoreScale, cancel,
                                    kept};
    const double m = source ? double(source->rows()) : double(n);
    result.singlePrecision = precision == Precision::Single
        || (precision == Precision::Auto && forwardWork(n, m, dModel, config) > kFullPrecisionFlops);
    if (result.singlePrecision) {
        // float overflows near 3e38, double near 1e308: let double decide.
        if (!detail::sessionPass<float>(pass, result) || !resultIsFinite(result)) {
            result.singlePrecision = false;
            result.heads.clear();
        }
    }
    if (!result.singlePrecision)
        detail::sessionPass<double>(pass, result);

    if (!allFiniteFast(result.output) || !allFiniteFast(result.inputs))
        throw InputError("the numbers are too large: the result overflows to infinity "
                         "(keep embeddings and weights within about ±1e150)");
    if (!resultIsFinite(result))
        throw InputError("the numbers are too large: attention scores overflow to infinity");
    return result;
}

namespace {

AttentionMatrix averageOverHeads(const AttentionResult &result, AttentionMatrix HeadResult::*quantity)
{
    std::vector<const AttentionMatrix *> matrices;
    for (const HeadResult &head : result.heads)
        matrices.push_back(&(head.*quantity));
    return averageOf(matrices);
}

} // namespace

AttentionMatrix averageWeights(const AttentionResult &result)
{
    if (result.meanWeights.size() > 0)
        return result.meanWeights; // made by the forward pass, while each head's weights were at hand
    return averageOverHeads(result, &HeadResult::weights);
}

AttentionMatrix averageScores(const AttentionResult &result)
{
    return averageOverHeads(result, &HeadResult::scores);
}

} // namespace attn
