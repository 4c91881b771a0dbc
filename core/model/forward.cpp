#include "model/forward.h"

#include "runtime/cancel.h"
#include "model/attentionop.h"
#include "model/denseops.h"
#include "model/incremental.h"
#include "model/ops.h"
#include "model/rotary.h"
#include "runtime/passthread.h"
#include "runtime/twothreads.h"

#include <QString>
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace attn {
namespace {

using Matrix = RowMatrix<float>;

[[noreturn]] void refuse(const QString &message) { throw ModelInputError(message.toStdString()); }

void checkInput(const ModelConfig &config, const std::vector<int> &ids, const ForwardOptions &options)
{
    if (ids.empty())
        refuse(QStringLiteral("no tokens to compute"));
    if (ids.size() > std::size_t(config.positions))
        refuse(QStringLiteral("%1 tokens are more than the model's %2 positions").arg(ids.size()).arg(config.positions));
    for (std::size_t i = 0; i < ids.size(); ++i)
        if (ids[i] < 0 || ids[i] >= config.vocab)
            refuse(QStringLiteral("token %1 has id %2, outside the vocabulary of %3").arg(i).arg(ids[i]).arg(config.vocab));
    for (const LayerHead &lh : options.ablatedHeads)
        if (lh.layer < 0 || lh.layer >= config.layers || lh.head < 0 || lh.head >= config.heads)
            refuse(QStringLiteral("head %1:%2 does not exist (%3 layers of %4 heads)")
                       .arg(lh.layer).arg(lh.head).arg(config.layers).arg(config.heads));
}

// LayerNorm or RMSNorm, as the recipe says.
Matrix norm(const MatrixIn<float> &x, const NormParameters &p, const ModelConfig &c)
{
    if (c.norm == NormKind::RmsNorm)
        return rmsNorm<float>(x, p.weight, c.normEpsilon);
    return layerNorm<float>(x, p.weight, p.bias, c.normEpsilon);
}

// Token (+ edits, * scale, + position, + token type 0, then their norm)
// embeddings of positions from ... n-1.
Matrix embed(const ModelParameters &model, const std::vector<int> &ids, const ForwardOptions &options,
             Eigen::Index from = 0)
{
    const ModelConfig &c = model.config;
    const Eigen::Index n = Eigen::Index(ids.size());
    Matrix h(n - from, c.dModel);
    for (Eigen::Index i = from; i < n; ++i)
        model.tokenEmbedding.toFloat(ids[std::size_t(i)], 1, h.row(i - from).data());
    for (const EmbeddingEdit &e : options.embeddingEdits) {
        if (e.position < 0 || e.position >= n || e.delta.size() != c.dModel)
            refuse(QStringLiteral("an embedding edit of position %1 with %2 values does not fit %3 tokens of %4")
                       .arg(e.position).arg(e.delta.size()).arg(n).arg(c.dModel));
        if (e.position >= from)
            h.row(e.position - from) += e.delta;
    }
    if (c.embeddingScale != 1.0)
        h *= float(c.embeddingScale);
    if (c.positionKind == PositionKind::Learned) {
        Matrix positions(n - from, c.dModel);
        model.positionEmbedding.toFloat(from, n - from, positions.data());
        h += positions;
    }
    if (c.tokenTypes > 0)
        h.rowwise() += weightRow(model.tokenTypeEmbedding, 0);
    if (c.embeddingNorm)
        h = norm(h, model.embeddingNorm, c);
    return h;
}

// The first `from` rows of `old` above `fresh`: a matrix over all positions
// from the one computed over the new ones. `fresh` itself when from is 0.
Matrix belowPrefix(const Matrix *old, Eigen::Index from, Matrix &&fresh)
{
    if (from == 0)
        return std::move(fresh);
    Matrix all(from + fresh.rows(), fresh.cols());
    all.topRows(from) = old->topRows(from);
    all.bottomRows(fresh.rows()) = fresh;
    return all;
}

// An n x n attention matrix from the new rows (m x n) and the prefix's rows:
// their first `from` columns, and the columns of the new keys either zero
// (the weights: causally masked) or computed (the raw scores q.k, which the
// full pass keeps for masked entries too).
Matrix squareBelowPrefix(const Matrix *old, Eigen::Index from, Matrix &&fresh, const Matrix *maskedBlock)
{
    if (from == 0)
        return std::move(fresh);
    const Eigen::Index n = fresh.cols();
    Matrix all(n, n);
    all.topLeftCorner(from, from) = old->topLeftCorner(from, from);
    if (maskedBlock)
        all.topRightCorner(from, n - from) = *maskedBlock;
    else
        all.topRightCorner(from, n - from).setZero();
    all.bottomRows(n - from) = fresh;
    return all;
}

AttentionSettings attentionSettings(const ModelConfig &c, int layer, const ForwardOptions &options)
{
    AttentionSettings settings;
    settings.heads = c.heads;
    settings.kvHeads = c.kvHeads();
    settings.causal = c.causal;
    settings.window = c.causal ? c.windowOf(layer) : 0;
    settings.scale = c.scoreScale(layer);
    settings.softcap = c.attentionSoftcap;
    settings.keepScores = options.keepScores;
    settings.cancel = options.cancel; // the window's newer request stops the pass at the next head
    settings.switchedOff.assign(std::size_t(c.heads), false);
    for (int h = 0; h < c.heads; ++h)
        settings.switchedOff[std::size_t(h)] = options.ablatedHeads.count(LayerHead{layer, h}) > 0;
    return settings;
}

// q and k of the new positions from ... n-1 as attention compares them:
// each head normalised (Qwen3, Gemma 3), then rotated by its position.
void prepareQueriesAndKeys(const ModelConfig &c, const BlockParameters &b, int layer, Eigen::Index from, Matrix &q,
                           Matrix &k)
{
    if (c.queryKeyNorms) {
        rmsNormEachHead<float>(q, c.heads, b.queryNorm.weight, c.normEpsilon);
        rmsNormEachHead<float>(k, c.kvHeads(), b.keyNorm.weight, c.normEpsilon);
    }
    if (c.positionKind != PositionKind::Rotary)
        return;
    const std::vector<float> frequencies = rotaryFrequencies(c.rotary, c.windowOf(layer) > 0);
    applyRotary(q, c.heads, c.headDim(), c.rotary.dimensions, frequencies, from);
    applyRotary(k, c.kvHeads(), c.headDim(), c.rotary.dimensions, frequencies, from);
}

// Self-attention of one block for positions from ... n-1 on their
// (normalised, before-sublayer) input x; the keys and values of positions
// before `from` come from `prefix`. Fills the trace over all n positions and
// returns the output projection of the new rows.
Matrix attend(const ModelParameters &model, int layer, const Matrix &x, const ForwardOptions &options,
              const LayerTrace *prefix, Eigen::Index from, LayerTrace &trace)
{
    const ModelConfig &c = model.config;
    const BlockParameters &b = model.blocks[std::size_t(layer)];
    std::vector<Matrix> qkv = denseEach(x, {&b.query, &b.key, &b.value});
    prepareQueriesAndKeys(c, b, layer, from, qkv[0], qkv[1]);
    trace.keys = belowPrefix(prefix ? &prefix->keys : nullptr, from, std::move(qkv[1]));
    trace.values = belowPrefix(prefix ? &prefix->values : nullptr, from, std::move(qkv[2]));

    const AttentionSettings settings = attentionSettings(c, layer, options);
    const Eigen::Index n = trace.keys.rows(), dk = c.headDim();
    // The new queries against every key: the causal mask lets new row r see keys 0 ... from + r.
    AttentionOutput<float> out = attention<float>(qkv[0], trace.keys, trace.values, settings);
    trace.weights.resize(out.weights.size());
    trace.scores.resize(out.scores.size());
    // The prefix's rows against the new keys (raw scores kept for masked
    // entries too), here: OpenBLAS may not be called from two threads at once.
    std::vector<Matrix> masked(from > 0 ? out.scores.size() : 0);
    for (std::size_t h = 0; h < masked.size(); ++h)
        masked[h].noalias() = prefix->queries.topRows(from).middleCols(Eigen::Index(h) * dk, dk)
                            * trace.keys.bottomRows(n - from).middleCols(c.kvHeadOf(int(h)) * dk, dk).transpose();
    Matrix projected = product(out.context, b.attentionOutput);
    const bool outputOfPrefix = prefix && from > 0 && !prefix->keptOutput(); // a prefix put together without it
    const auto square = [&](std::size_t h) {
        trace.weights[h] = squareBelowPrefix(prefix ? &prefix->weights[h] : nullptr, from,
                                             std::move(out.weights[h]), nullptr);
        if (!out.scores.empty())
            trace.scores[h] = squareBelowPrefix(prefix ? &prefix->scores[h] : nullptr, from,
                                                std::move(out.scores[h]), masked.empty() ? nullptr : &masked[h]);
    };
    const auto queriesAndContext = [&] {
        trace.queries = belowPrefix(prefix ? &prefix->queries : nullptr, from, std::move(qkv[0]));
        trace.context = belowPrefix(prefix ? &prefix->context : nullptr, from, std::move(out.context));
    };
    const auto output = [&] {
        if (!outputOfPrefix)
            trace.output = belowPrefix(prefix ? &prefix->output : nullptr, from, Matrix(projected));
    };
    // Below a prefix, each head's rows and the layer's q, context and output
    // are copied from it: megabytes a layer, which two threads move at
    // nearly twice the speed of one.
    const std::size_t heads = out.weights.size(), half = heads / 2;
    if (from == 0 || heads < 2) {
        for (std::size_t h = 0; h < heads; ++h)
            square(h);
        queriesAndContext();
        output();
    } else {
        runBoth([&] { for (std::size_t h = 0; h < half; ++h) square(h); queriesAndContext(); },
                [&] { for (std::size_t h = half; h < heads; ++h) square(h); output(); });
    }
    if (outputOfPrefix)
        trace.output = product(trace.context, b.attentionOutput);
    if (b.attentionOutput.bias.size() > 0)
        projected.rowwise() += b.attentionOutput.bias;
    return projected;
}

Matrix feedForward(const ModelConfig &c, const BlockParameters &b, const Matrix &x)
{
    if (c.mlp == MlpKind::Plain) {
        Matrix inner = dense(x, b.mlpIn);
        activate(inner, c.activation);
        return dense(inner, b.mlpOut);
    }
    std::vector<Matrix> gateAndIn = denseEach(x, {&b.mlpGate, &b.mlpIn});
    Matrix &gate = gateAndIn[0];
    activate(gate, c.activation);
    gate.array() *= gateAndIn[1].array();
    return dense(gate, b.mlpOut);
}

// One block over the new rows h (all rows when nothing is reused).
void block(const ModelParameters &model, int l, Matrix &h, const ForwardOptions &options, const LayerTrace *old,
           Eigen::Index from, LayerTrace &trace)
{
    const ModelConfig &c = model.config;
    const BlockParameters &b = model.blocks[std::size_t(l)];
    if (c.normPlacement == NormPlacement::AfterResidual) {
        // BERT: normalise the stream after each residual sum.
        addResidual<float>(h, attend(model, l, h, options, old, from, trace));
        h = norm(h, b.norm1, c);
        addResidual<float>(h, feedForward(c, b, h));
        h = norm(h, b.norm2, c);
        return;
    }
    // Each sublayer reads a normalised copy and adds to the stream; Gemma 2/3
    // normalise what each sublayer adds, too.
    Matrix attended = attend(model, l, norm(h, b.norm1, c), options, old, from, trace);
    if (c.sublayerOutputNorms)
        attended = norm(attended, b.attentionOutputNorm, c);
    addResidual<float>(h, attended);
    Matrix fed = feedForward(c, b, norm(h, b.norm2, c));
    if (c.sublayerOutputNorms)
        fed = norm(fed, b.mlpOutputNorm, c);
    addResidual<float>(h, fed);
}

// The logits of one position against the unembedding, as probabilities.
TokenPrediction predict(const ModelConfig &c, const WeightMatrix &unembedding, const RowVector<float> &h,
                        const WeightVector *bias, int position)
{
    RowVector<float> logits = unembed(h, unembedding);
    if (bias)
        logits += *bias;
    if (c.finalSoftcap > 0)
        logits = ((logits.array() / float(c.finalSoftcap)).tanh() * float(c.finalSoftcap)).matrix();
    return TokenPrediction{position, softmax<float>(logits)};
}

void maskedPredictions(const ModelParameters &model, const std::vector<int> &ids, const ForwardOptions &options,
                       const Matrix &h, ModelTrace &trace)
{
    if (!model.mlm || options.maskTokenId < 0)
        return;
    const ModelConfig &c = model.config;
    const MlmHeadParameters &head = *model.mlm;
    for (std::size_t i = 0; i < ids.size(); ++i) {
        if (ids[i] != options.maskTokenId)
            continue;
        Matrix t = dense(h.row(Eigen::Index(i)), head.transform);
        activate(t, c.activation);
        t = norm(t, head.norm, c);
        trace.maskPredictions.push_back(predict(c, model.tokenEmbedding, t.row(0), &head.decoderBias, int(i)));
    }
}

} // namespace

void stopIfCancelled(const ForwardOptions &options)
{
    if (options.cancel && options.cancel->load(std::memory_order_relaxed))
        throw Cancelled();
}

ModelTrace forwardFrom(const ModelParameters &model, const std::vector<int> &ids, const ForwardOptions &options,
                             const ModelTrace *prefix, int fromPosition, int fromLayer)
{
    notePassThread(std::numeric_limits<double>::infinity());
    const ModelConfig &c = model.config;
    checkInput(c, ids, options);
    const Eigen::Index n = Eigen::Index(ids.size());
    // Reusing layers takes every position of them: the two kinds of reuse do
    // not mix. Reusing positions needs the causal mask (earlier rows then
    // never see later ones).
    const int firstLayer = prefix ? std::clamp(fromLayer, 0, c.layers) : 0;
    const Eigen::Index from = prefix && c.causal && firstLayer == 0
                                ? std::clamp<Eigen::Index>(fromPosition, 0, n - 1) : 0;
    ModelTrace trace;
    trace.tokenIds = ids;
    trace.options = options;
    trace.options.cancel = nullptr;
    trace.options.layerDone = nullptr;
    trace.layers.resize(std::size_t(c.layers));
    trace.hidden.reserve(std::size_t(c.layers) + 1);
    // h: the residual stream of the new positions only (of all, from layer firstLayer on).
    Matrix h;
    if (firstLayer > 0) {
        // Nothing before firstLayer changed: its layers and its input are the prefix's.
        for (int l = 0; l < firstLayer; ++l)
            trace.layers[std::size_t(l)] = prefix->layers[std::size_t(l)];
        for (int l = 0; l <= firstLayer; ++l)
            trace.hidden.push_back(prefix->hidden[std::size_t(l)]);
        h = prefix->hidden[std::size_t(firstLayer)];
    } else {
        h = embed(model, ids, options, from);
        trace.hidden.push_back(belowPrefix(prefix && from > 0 ? &prefix->hidden[0] : nullptr, from, Matrix(h)));
    }
    // Layers taken from the prefix are done already: they are reported first.
    for (int l = 0; l < firstLayer && options.layerDone; ++l) {
        options.layerDone(l, trace);
        stopIfCancelled(options);
    }
    for (int l = firstLayer; l < c.layers; ++l) {
        stopIfCancelled(options);
        const LayerTrace *old = prefix && from > 0 ? &prefix->layers[std::size_t(l)] : nullptr;
        block(model, l, h, options, old, from, trace.layers[std::size_t(l)]);
        trace.hidden.push_back(belowPrefix(prefix && from > 0 ? &prefix->hidden[std::size_t(l) + 1] : nullptr, from,
                                           Matrix(h)));
        if (options.layerDone)
            options.layerDone(l, trace);
    }
    stopIfCancelled(options); // before the unembedding, the longest step after a layer
    if (c.causal && c.normPlacement == NormPlacement::BeforeSublayer) {
        // Only the last row is needed for the next token: n x vocab logits
        // would be 200 MB at 1024 tokens of GPT-2, 600 MB of Qwen.
        const RowVector<float> final = norm(h.row(h.rows() - 1), model.finalNorm, c);
        trace.nextToken = predict(c, model.unembedding(), final, nullptr, int(n - 1));
    }
    maskedPredictions(model, ids, options, h, trace);
    return trace;
}

ModelTrace forward(const ModelParameters &model, const std::vector<int> &tokenIds, const ForwardOptions &options)
{
    return forwardFrom(model, tokenIds, options, nullptr, 0);
}

double traceBytes(const ModelConfig &config, int tokens, bool keepScores)
{
    const double n = tokens, q = double(config.heads) * config.headDim(), kv = double(config.kvHeads()) * config.headDim();
    const double perLayer = config.heads * n * n * (keepScores ? 2 : 1) + n * (2 * q + 2 * kv + config.dModel);
    return 4.0 * (config.layers * perLayer + (config.layers + 1) * n * config.dModel + config.vocab);
}

std::vector<std::pair<int, float>> topPredictions(const RowVector<float> &probabilities, int k)
{
    std::vector<int> ids(std::size_t(probabilities.size()));
    std::iota(ids.begin(), ids.end(), 0);
    const std::size_t count = std::min(ids.size(), std::size_t(std::max(k, 0)));
    std::partial_sort(ids.begin(), ids.begin() + std::ptrdiff_t(count), ids.end(), [&](int a, int b) {
        return probabilities[a] != probabilities[b] ? probabilities[a] > probabilities[b] : a < b;
    });
    std::vector<std::pair<int, float>> top;
    for (std::size_t i = 0; i < count; ++i)
        top.emplace_back(ids[i], probabilities[ids[i]]);
    return top;
}

} // namespace attn
