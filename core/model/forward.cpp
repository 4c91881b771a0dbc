#include "model/forward.h"

#include "cancel.h"
#include "model/attentionop.h"
#include "model/incremental.h"
#include "model/ops.h"
#include "passthread.h"

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

Matrix norm(const Matrix &x, const LayerNormParameters &p, double eps)
{
    return layerNorm<float>(x, p.weight, p.bias, eps);
}

Matrix dense(const MatrixIn<float> &x, const DenseParameters &p) { return linear<float>(x, p.weight, p.bias); }

// Token (+ edits, + position, + token type 0) embeddings of positions from ... n-1.
Matrix embed(const ModelParameters &model, const std::vector<int> &ids, const ForwardOptions &options,
             Eigen::Index from = 0)
{
    const Eigen::Index n = Eigen::Index(ids.size());
    Matrix h(n - from, model.config.dModel);
    for (Eigen::Index i = from; i < n; ++i)
        h.row(i - from) = model.tokenEmbedding.row(ids[std::size_t(i)]) + model.positionEmbedding.row(i);
    for (const EmbeddingEdit &e : options.embeddingEdits) {
        if (e.position < 0 || e.position >= n || e.delta.size() != model.config.dModel)
            refuse(QStringLiteral("an embedding edit of position %1 with %2 values does not fit %3 tokens of %4")
                       .arg(e.position).arg(e.delta.size()).arg(n).arg(model.config.dModel));
        if (e.position >= from)
            h.row(e.position - from) += e.delta;
    }
    if (model.config.family == ModelFamily::Bert)
        h.rowwise() += model.tokenTypeEmbedding.row(0);
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
    settings.causal = c.causal;
    settings.scale = c.scaleAttention ? 1.0 / std::sqrt(double(c.headDim())) : 1.0;
    if (c.scaleByInverseLayerIndex)
        settings.scale /= double(layer + 1);
    settings.keepScores = options.keepScores;
    settings.cancel = options.cancel; // the window's newer request stops the pass at the next head
    settings.switchedOff.assign(std::size_t(c.heads), false);
    for (int h = 0; h < c.heads; ++h)
        settings.switchedOff[std::size_t(h)] = options.ablatedHeads.count(LayerHead{layer, h}) > 0;
    return settings;
}

// Self-attention of one block for positions from ... n-1 on their
// (normalised, for GPT-2) input x; the keys and values of positions before
// `from` come from `prefix`. Fills the trace over all n positions and returns
// the output projection of the new rows.
Matrix attend(const ModelParameters &model, int layer, const Matrix &x, const ForwardOptions &options,
              const LayerTrace *prefix, Eigen::Index from, LayerTrace &trace)
{
    const BlockParameters &b = model.blocks[std::size_t(layer)];
    trace.queries = belowPrefix(prefix ? &prefix->queries : nullptr, from, dense(x, b.query));
    trace.keys = belowPrefix(prefix ? &prefix->keys : nullptr, from, dense(x, b.key));
    trace.values = belowPrefix(prefix ? &prefix->values : nullptr, from, dense(x, b.value));

    const AttentionSettings settings = attentionSettings(model.config, layer, options);
    const Eigen::Index n = trace.queries.rows(), dk = model.config.headDim();
    // The new queries against every key: the causal mask lets new row r see keys 0 ... from + r.
    AttentionOutput<float> out = attention<float>(trace.queries.bottomRows(n - from), trace.keys, trace.values,
                                                  settings);
    trace.weights.resize(out.weights.size());
    trace.scores.resize(out.scores.size());
    for (std::size_t h = 0; h < out.weights.size(); ++h) {
        const Eigen::Index c0 = Eigen::Index(h) * dk;
        trace.weights[h] = squareBelowPrefix(prefix ? &prefix->weights[h] : nullptr, from,
                                             std::move(out.weights[h]), nullptr);
        if (out.scores.empty())
            continue;
        Matrix masked;
        if (from > 0)
            masked.noalias() = trace.queries.topRows(from).middleCols(c0, dk)
                             * trace.keys.bottomRows(n - from).middleCols(c0, dk).transpose();
        trace.scores[h] = squareBelowPrefix(prefix ? &prefix->scores[h] : nullptr, from, std::move(out.scores[h]),
                                            &masked);
    }
    Matrix projected = dense(out.context, b.attentionOutput);
    trace.context = belowPrefix(prefix ? &prefix->context : nullptr, from, std::move(out.context));
    return projected;
}

Matrix feedForward(const ModelParameters &model, const BlockParameters &b, const Matrix &x)
{
    return mlp<float>(x, b.mlpIn.weight, b.mlpIn.bias, b.mlpOut.weight, b.mlpOut.bias, model.config.activation);
}

// The logits of one position against the (tied) unembedding, as probabilities.
TokenPrediction predict(const WeightMatrix &unembedding, const RowVector<float> &h, const WeightVector *bias,
                        int position)
{
    RowVector<float> logits(unembedding.rows());
    logits.noalias() = h * unembedding.transpose();
    if (bias)
        logits += *bias;
    return TokenPrediction{position, softmax<float>(logits)};
}

void forwardBert(const ModelParameters &model, const std::vector<int> &ids, const ForwardOptions &options,
                 ModelTrace &trace)
{
    const ModelConfig &c = model.config;
    Matrix h = norm(embed(model, ids, options), model.embeddingNorm, c.layerNormEpsilon);
    trace.hidden.push_back(h);
    for (int l = 0; l < c.layers; ++l) {
        stopIfCancelled(options);
        const BlockParameters &b = model.blocks[std::size_t(l)];
        // Post-LayerNorm: normalise the stream after each residual sum.
        addResidual<float>(h, attend(model, l, h, options, nullptr, 0, trace.layers[std::size_t(l)]));
        h = norm(h, b.norm1, c.layerNormEpsilon);
        addResidual<float>(h, feedForward(model, b, h));
        h = norm(h, b.norm2, c.layerNormEpsilon);
        trace.hidden.push_back(h);
    }
    if (!model.mlm || options.maskTokenId < 0)
        return;
    const MlmHeadParameters &head = *model.mlm;
    for (std::size_t i = 0; i < ids.size(); ++i) {
        if (ids[i] != options.maskTokenId)
            continue;
        Matrix t = dense(h.row(Eigen::Index(i)), head.transform);
        activate(t, c.activation);
        t = norm(t, head.norm, c.layerNormEpsilon);
        trace.maskPredictions.push_back(predict(model.tokenEmbedding, t.row(0), &head.decoderBias, int(i)));
    }
}

} // namespace

void stopIfCancelled(const ForwardOptions &options)
{
    if (options.cancel && options.cancel->load(std::memory_order_relaxed))
        throw Cancelled();
}

ModelTrace forwardCausalFrom(const ModelParameters &model, const std::vector<int> &ids, const ForwardOptions &options,
                             const ModelTrace *prefix, int fromPosition, int fromLayer)
{
    notePassThread(std::numeric_limits<double>::infinity());
    const ModelConfig &c = model.config;
    checkInput(c, ids, options);
    const Eigen::Index n = Eigen::Index(ids.size());
    // Reusing layers takes every position of them: the two kinds of reuse do not mix.
    const int firstLayer = prefix ? std::clamp(fromLayer, 0, c.layers) : 0;
    const Eigen::Index from = prefix && firstLayer == 0 ? std::clamp<Eigen::Index>(fromPosition, 0, n - 1) : 0;
    ModelTrace trace;
    trace.tokenIds = ids;
    trace.options = options;
    trace.options.cancel = nullptr;
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
        trace.hidden.push_back(belowPrefix(prefix ? &prefix->hidden[0] : nullptr, from, Matrix(h)));
    }
    for (int l = firstLayer; l < c.layers; ++l) {
        stopIfCancelled(options);
        const BlockParameters &b = model.blocks[std::size_t(l)];
        const LayerTrace *old = prefix && from > 0 ? &prefix->layers[std::size_t(l)] : nullptr;
        // Pre-LayerNorm: each sublayer reads a normalised copy and adds to the stream.
        addResidual<float>(h, attend(model, l, norm(h, b.norm1, c.layerNormEpsilon), options, old, from,
                                     trace.layers[std::size_t(l)]));
        addResidual<float>(h, feedForward(model, b, norm(h, b.norm2, c.layerNormEpsilon)));
        trace.hidden.push_back(belowPrefix(prefix && from > 0 ? &prefix->hidden[std::size_t(l) + 1] : nullptr, from,
                                           Matrix(h)));
    }
    // Only the last row is needed for the next token: n x vocab logits would
    // be 200 MB at 1024 tokens of GPT-2.
    const RowVector<float> final = layerNorm<float>(h.row(h.rows() - 1), model.finalNorm.weight,
                                                    model.finalNorm.bias, c.layerNormEpsilon);
    trace.nextToken = predict(model.unembedding(), final, nullptr, int(n - 1));
    return trace;
}

ModelTrace forward(const ModelParameters &model, const std::vector<int> &tokenIds, const ForwardOptions &options)
{
    if (model.config.family == ModelFamily::Gpt2)
        return forwardCausalFrom(model, tokenIds, options, nullptr, 0);
    notePassThread(std::numeric_limits<double>::infinity());
    checkInput(model.config, tokenIds, options);
    ModelTrace trace;
    trace.tokenIds = tokenIds;
    trace.options = options;
    trace.options.cancel = nullptr;
    trace.layers.resize(std::size_t(model.config.layers));
    trace.hidden.reserve(std::size_t(model.config.layers) + 1);
    forwardBert(model, tokenIds, options, trace);
    return trace;
}

double traceBytes(const ModelConfig &config, int tokens, bool keepScores)
{
    const double n = tokens, perLayer = config.heads * n * n * (keepScores ? 2 : 1) + 4 * n * config.dModel;
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
