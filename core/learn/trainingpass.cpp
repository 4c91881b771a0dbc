#include "learn/trainingpass.h"

#include "model/attentionop.h"
#include "model/ops.h"

#include <stdexcept>

namespace attn {
namespace {

// The float weights as S: no copy for float, a converted temporary for the
// double gradient checks.
template<typename S, typename Plain, typename Stride>
decltype(auto) as(const Weights<Plain, Stride> &w)
{
    return w.template cast<S>();
}

template<typename S, typename Plain, typename Stride, typename G>
void addTo(Weights<Plain, Stride> &target, const G &gradient)
{
    target.writable() += gradient.template cast<float>();
}

void checkRecipe(const ModelConfig &c)
{
    const bool gpt2 = c.norm == NormKind::LayerNorm && c.positionKind == PositionKind::Learned
                   && c.mlp == MlpKind::Plain && c.activation == Activation::GeluTanh;
    const bool llama = c.norm == NormKind::RmsNorm && c.positionKind == PositionKind::Rotary
                    && c.mlp == MlpKind::Gated && c.activation == Activation::Silu
                    && c.rotary.dimensions == c.headDim() && c.rotary.scaling == RopeScaling::None;
    if ((!gpt2 && !llama) || c.normPlacement != NormPlacement::BeforeSublayer || c.queryKeyNorms
        || c.sublayerOutputNorms || c.embeddingScale != 1.0 || c.attentionSoftcap > 0 || c.finalSoftcap > 0
        || c.tokenTypes > 0 || !c.causal || c.heads % c.kvHeads() != 0)
        throw std::invalid_argument("training: a recipe the trainer does not make");
}

// x W + b, or x Wᵀ + b, as the layer stores W; no bias when it has none.
template<typename S>
RowMatrix<S> project(const MatrixIn<S> &x, const DenseParameters &p)
{
    RowMatrix<S> y(x.rows(), p.outputs());
    if (p.transposed)
        y.noalias() = x * as<S>(p.weight).transpose();
    else
        y.noalias() = x * as<S>(p.weight);
    if (p.bias.size() > 0)
        y.rowwise() += as<S>(p.bias);
    return y;
}

template<typename S>
LinearGradients<S> projectBackward(const MatrixIn<S> &x, const DenseParameters &p, const MatrixIn<S> &dy)
{
    return p.transposed ? linearTransposedBackward<S>(x, as<S>(p.weight), dy)
                        : linearBackward<S>(x, as<S>(p.weight), dy);
}

template<typename S>
void addDense(DenseParameters &target, const LinearGradients<S> &g)
{
    addTo<S>(target.weight, g.weight);
    if (target.bias.size() > 0)
        addTo<S>(target.bias, g.bias);
}

template<typename S>
RowMatrix<S> normalise(const MatrixIn<S> &x, const NormParameters &p, const ModelConfig &c)
{
    if (c.norm == NormKind::RmsNorm)
        return rmsNorm<S>(x, as<S>(p.weight), c.normEpsilon);
    return layerNorm<S>(x, as<S>(p.weight), as<S>(p.bias), c.normEpsilon);
}

// Adds the norm's gradients to `target`; returns dLoss/d(its input).
template<typename S>
RowMatrix<S> normaliseBackward(const MatrixIn<S> &x, const NormParameters &p, const ModelConfig &c,
                               const MatrixIn<S> &dy, NormParameters &target)
{
    LayerNormGradients<S> g = c.norm == NormKind::RmsNorm ? rmsNormBackward<S>(x, as<S>(p.weight), c.normEpsilon, dy)
                                                          : layerNormBackward<S>(x, as<S>(p.weight), c.normEpsilon, dy);
    addTo<S>(target.weight, g.weight);
    if (target.bias.size() > 0)
        addTo<S>(target.bias, g.bias);
    return std::move(g.input);
}

AttentionSettings settingsOf(const ModelConfig &c, int layer)
{
    AttentionSettings settings;
    settings.heads = c.heads;
    settings.kvHeads = c.kvHeads();
    settings.causal = true;
    settings.scale = c.scoreScale(layer);
    return settings;
}

} // namespace

template<typename S>
S trainingForward(const ModelParameters &model, const TrainingBatch &batch, TrainingActivations<S> &keep)
{
    const ModelConfig &c = model.config;
    checkRecipe(c);
    const Eigen::Index rows = Eigen::Index(batch.inputs.size()), n = batch.length;
    const bool rotary = c.positionKind == PositionKind::Rotary;
    RowMatrix<S> h(rows, c.dModel);
    for (Eigen::Index i = 0; i < rows; ++i)
        h.row(i) = model.tokenEmbedding.row(batch.inputs[std::size_t(i)]).template cast<S>();
    if (rotary)
        keep.rotary = rotaryTable<S>(c.rotary, batch.length);
    else
        for (Eigen::Index i = 0; i < rows; ++i)
            h.row(i) += model.positionEmbedding.row(i % n).template cast<S>();
    keep.layers.resize(std::size_t(c.layers));
    for (int l = 0; l < c.layers; ++l) {
        const BlockParameters &b = model.blocks[std::size_t(l)];
        LayerActivations<S> &a = keep.layers[std::size_t(l)];
        a.input = h;
        a.norm1 = normalise<S>(h, b.norm1, c);
        a.queries = project<S>(a.norm1, b.query);
        a.keys = project<S>(a.norm1, b.key);
        a.values = project<S>(a.norm1, b.value);
        if (rotary) {
            turnHeads(a.queries, c.heads, c.headDim(), batch.length, keep.rotary);
            turnHeads(a.keys, c.kvHeads(), c.headDim(), batch.length, keep.rotary);
        }
        const AttentionSettings settings = settingsOf(c, l);
        a.context.resize(rows, Eigen::Index(c.heads) * c.headDim());
        a.weights.resize(std::size_t(batch.sequences));
        for (int s = 0; s < batch.sequences; ++s) {
            AttentionOutput<S> out = attention<S>(a.queries.middleRows(s * n, n), a.keys.middleRows(s * n, n),
                                                  a.values.middleRows(s * n, n), settings);
            a.weights[std::size_t(s)] = std::move(out.weights);
            a.context.middleRows(s * n, n) = out.context;
        }
        addResidual<S>(h, project<S>(a.context, b.attentionOutput));
        a.middle = h;
        a.norm2 = normalise<S>(h, b.norm2, c);
        a.inner = project<S>(a.norm2, b.mlpIn);
        if (c.mlp == MlpKind::Gated) {
            // down(silu(gate(x)) * up(x)), in the order model/forward.cpp computes it.
            a.gate = project<S>(a.norm2, b.mlpGate);
            a.activated = a.gate;
            activate(a.activated, c.activation);
            a.activated.array() *= a.inner.array();
        } else {
            a.activated = a.inner;
            activate(a.activated, c.activation);
        }
        addResidual<S>(h, project<S>(a.activated, b.mlpOut));
    }
    keep.final = std::move(h);
    keep.finalNorm = normalise<S>(keep.final, model.finalNorm, c);
    keep.logits.resize(rows, c.vocab);
    keep.logits.noalias() = keep.finalNorm * as<S>(model.unembedding()).transpose();
    keep.loss = crossEntropy<S>(keep.logits, batch.targets, batch.weights);
    return keep.loss.loss;
}

template<typename S>
void trainingBackward(const ModelParameters &model, const TrainingBatch &batch, const TrainingActivations<S> &keep,
                      ModelParameters &gradients)
{
    const ModelConfig &c = model.config;
    checkRecipe(c);
    const Eigen::Index n = batch.length;
    const bool rotary = c.positionKind == PositionKind::Rotary;
    gradients = zeroModel(c);
    RowMatrix<S> dTokens = RowMatrix<S>::Zero(c.vocab, c.dModel);
    RowMatrix<S> dUnembedding = c.tiedUnembedding ? RowMatrix<S>() : RowMatrix<S>::Zero(c.vocab, c.dModel);

    // Walk the forward pass backwards: unembedding, the final norm, then each block from the last.
    const RowMatrix<S> dFinalNorm = unembeddingBackward<S>(keep.finalNorm, as<S>(model.unembedding()),
                                                           keep.loss.dLogits,
                                                           c.tiedUnembedding ? dTokens : dUnembedding);
    RowMatrix<S> dh = normaliseBackward<S>(keep.final, model.finalNorm, c, dFinalNorm, gradients.finalNorm);

    for (int l = c.layers - 1; l >= 0; --l) {
        const BlockParameters &b = model.blocks[std::size_t(l)];
        BlockParameters &g = gradients.blocks[std::size_t(l)];
        const LayerActivations<S> &a = keep.layers[std::size_t(l)];

        // h = middle + mlp(norm_2(middle))
        const LinearGradients<S> out = projectBackward<S>(a.activated, b.mlpOut, dh);
        addDense(g.mlpOut, out);
        RowMatrix<S> dNorm2;
        if (c.mlp == MlpKind::Gated) {
            const GatedGradients<S> gated = swigluBackward<S>(a.gate, a.inner, out.input);
            const LinearGradients<S> gate = projectBackward<S>(a.norm2, b.mlpGate, gated.gate);
            const LinearGradients<S> up = projectBackward<S>(a.norm2, b.mlpIn, gated.up);
            addDense(g.mlpGate, gate);
            addDense(g.mlpIn, up);
            dNorm2 = gate.input + up.input;
        } else {
            const LinearGradients<S> in = projectBackward<S>(a.norm2, b.mlpIn, geluNewBackward<S>(a.inner, out.input));
            addDense(g.mlpIn, in);
            dNorm2 = in.input;
        }
        residualBackward<S>(dh, normaliseBackward<S>(a.middle, b.norm2, c, dNorm2, g.norm2));

        // middle = input + o_proj(attention(turned q, turned k, v of norm_1(input)))
        const LinearGradients<S> proj = projectBackward<S>(a.context, b.attentionOutput, dh);
        addDense(g.attentionOutput, proj);
        RowMatrix<S> dq(a.queries.rows(), a.queries.cols()), dk(a.keys.rows(), a.keys.cols()),
            dv(a.values.rows(), a.values.cols());
        const double scale = c.scoreScale(l);
        for (int s = 0; s < batch.sequences; ++s) {
            const AttentionGradients<S> ag = attentionBackward<S>(
                a.queries.middleRows(s * n, n), a.keys.middleRows(s * n, n), a.values.middleRows(s * n, n),
                a.weights[std::size_t(s)], scale, proj.input.middleRows(s * n, n), c.kvHeads());
            dq.middleRows(s * n, n) = ag.queries;
            dk.middleRows(s * n, n) = ag.keys;
            dv.middleRows(s * n, n) = ag.values;
        }
        if (rotary) {
            turnHeads(dq, c.heads, c.headDim(), batch.length, keep.rotary, true);
            turnHeads(dk, c.kvHeads(), c.headDim(), batch.length, keep.rotary, true);
        }
        const LinearGradients<S> gq = projectBackward<S>(a.norm1, b.query, dq);
        const LinearGradients<S> gk = projectBackward<S>(a.norm1, b.key, dk);
        const LinearGradients<S> gv = projectBackward<S>(a.norm1, b.value, dv);
        addDense(g.query, gq);
        addDense(g.key, gk);
        addDense(g.value, gv);
        const RowMatrix<S> dNorm1 = gq.input + gk.input + gv.input;
        residualBackward<S>(dh, normaliseBackward<S>(a.input, b.norm1, c, dNorm1, g.norm1));
    }
    if (rotary) {
        tokenEmbeddingBackward<S>(batch.inputs, dh, dTokens);
    } else {
        RowMatrix<S> dPositions = RowMatrix<S>::Zero(c.positions, c.dModel);
        embeddingBackward<S>(batch.inputs, batch.length, dh, dTokens, dPositions);
        addTo<S>(gradients.positionEmbedding, dPositions);
    }
    addTo<S>(gradients.tokenEmbedding, dTokens);
    if (!c.tiedUnembedding)
        addTo<S>(gradients.untiedUnembedding, dUnembedding);
}

template float trainingForward<float>(const ModelParameters &, const TrainingBatch &, TrainingActivations<float> &);
template double trainingForward<double>(const ModelParameters &, const TrainingBatch &, TrainingActivations<double> &);
template void trainingBackward<float>(const ModelParameters &, const TrainingBatch &, const TrainingActivations<float> &,
                                      ModelParameters &);
template void trainingBackward<double>(const ModelParameters &, const TrainingBatch &,
                                       const TrainingActivations<double> &, ModelParameters &);

} // namespace attn
