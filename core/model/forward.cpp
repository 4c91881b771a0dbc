#include "model/forward.h"

#include "model/attentionop.h"
#include "model/ops.h"

#include <QString>
#include <algorithm>
#include <cmath>
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

// Token (+ position, + token type 0) embeddings of the ids.
Matrix embed(const ModelParameters &model, const std::vector<int> &ids)
{
    const Eigen::Index n = Eigen::Index(ids.size());
    Matrix h(n, model.config.dModel);
    for (Eigen::Index i = 0; i < n; ++i)
        h.row(i) = model.tokenEmbedding.row(ids[std::size_t(i)]) + model.positionEmbedding.row(i);
    if (model.config.family == ModelFamily::Bert)
        h.rowwise() += model.tokenTypeEmbedding.row(0);
    return h;
}

// Self-attention of one block on its (normalised, for GPT-2) input; fills the
// trace and returns the output projection's result.
Matrix attend(const ModelParameters &model, int layer, const Matrix &x, const ForwardOptions &options,
              LayerTrace &trace)
{
    const ModelConfig &c = model.config;
    const BlockParameters &b = model.blocks[std::size_t(layer)];
    trace.queries = dense(x, b.query);
    trace.keys = dense(x, b.key);
    trace.values = dense(x, b.value);

    AttentionSettings settings;
    settings.heads = c.heads;
    settings.causal = c.causal;
    settings.scale = c.scaleAttention ? 1.0 / std::sqrt(double(c.headDim())) : 1.0;
    if (c.scaleByInverseLayerIndex)
        settings.scale /= double(layer + 1);
    settings.keepScores = options.keepScores;
    settings.switchedOff.assign(std::size_t(c.heads), false);
    for (int h = 0; h < c.heads; ++h)
        settings.switchedOff[std::size_t(h)] = options.ablatedHeads.count(LayerHead{layer, h}) > 0;

    AttentionOutput<float> out = attention<float>(trace.queries, trace.keys, trace.values, settings);
    trace.weights = std::move(out.weights);
    trace.scores = std::move(out.scores);
    trace.context = std::move(out.context);
    return dense(trace.context, b.attentionOutput);
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

void forwardGpt2(const ModelParameters &model, const std::vector<int> &ids, const ForwardOptions &options,
                 ModelTrace &trace)
{
    const ModelConfig &c = model.config;
    Matrix h = embed(model, ids);
    trace.hidden.push_back(h);
    for (int l = 0; l < c.layers; ++l) {
        const BlockParameters &b = model.blocks[std::size_t(l)];
        // Pre-LayerNorm: each sublayer reads a normalised copy and adds to the stream.
        addResidual<float>(h, attend(model, l, norm(h, b.norm1, c.layerNormEpsilon), options, trace.layers[std::size_t(l)]));
        addResidual<float>(h, feedForward(model, b, norm(h, b.norm2, c.layerNormEpsilon)));
        trace.hidden.push_back(h);
    }
    // Only the last row is needed for the next token: n x vocab logits would
    // be 200 MB at 1024 tokens of GPT-2.
    const Eigen::Index last = h.rows() - 1;
    const RowVector<float> final = layerNorm<float>(h.row(last), model.finalNorm.weight, model.finalNorm.bias,
                                                    c.layerNormEpsilon);
    trace.nextToken = predict(model.unembedding(), final, nullptr, int(last));
}

void forwardBert(const ModelParameters &model, const std::vector<int> &ids, const ForwardOptions &options,
                 ModelTrace &trace)
{
    const ModelConfig &c = model.config;
    Matrix h = norm(embed(model, ids), model.embeddingNorm, c.layerNormEpsilon);
    trace.hidden.push_back(h);
    for (int l = 0; l < c.layers; ++l) {
        const BlockParameters &b = model.blocks[std::size_t(l)];
        // Post-LayerNorm: normalise the stream after each residual sum.
        addResidual<float>(h, attend(model, l, h, options, trace.layers[std::size_t(l)]));
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

ModelTrace forward(const ModelParameters &model, const std::vector<int> &tokenIds, const ForwardOptions &options)
{
    checkInput(model.config, tokenIds, options);
    ModelTrace trace;
    trace.layers.resize(std::size_t(model.config.layers));
    trace.hidden.reserve(std::size_t(model.config.layers) + 1);
    if (model.config.family == ModelFamily::Gpt2)
        forwardGpt2(model, tokenIds, options, trace);
    else
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
