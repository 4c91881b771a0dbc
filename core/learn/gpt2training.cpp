#include "learn/gpt2training.h"

#include "model/attentionop.h"
#include "model/ops.h"

#include <cmath>

namespace attn {
namespace {

// The float weights as S: no copy for float, a converted temporary for the
// double gradient checks.
template<typename S, typename Plain, typename Stride>
decltype(auto) as(const Weights<Plain, Stride> &w)
{
    return w.template cast<S>();
}

double attentionScale(const ModelConfig &c, int layer)
{
    double scale = c.scaleAttention ? 1.0 / std::sqrt(double(c.headDim())) : 1.0;
    return c.scaleByInverseLayerIndex ? scale / double(layer + 1) : scale;
}

template<typename S, typename Plain, typename Stride, typename G>
void addTo(Weights<Plain, Stride> &target, const G &gradient)
{
    target.writable() += gradient.template cast<float>();
}

template<typename S>
void addLinear(DenseParameters &target, const LinearGradients<S> &g)
{
    addTo<S>(target.weight, g.weight);
    addTo<S>(target.bias, g.bias);
}

} // namespace

template<typename S>
S trainingForward(const ModelParameters &model, const TrainingBatch &batch, TrainingActivations<S> &keep)
{
    const ModelConfig &c = model.config;
    const Eigen::Index rows = Eigen::Index(batch.inputs.size()), n = batch.length;
    const double eps = c.normEpsilon;
    RowMatrix<S> h(rows, c.dModel);
    for (Eigen::Index i = 0; i < rows; ++i)
        h.row(i) = (model.tokenEmbedding.row(batch.inputs[std::size_t(i)]) + model.positionEmbedding.row(i % n))
                       .template cast<S>();
    keep.layers.resize(std::size_t(c.layers));
    for (int l = 0; l < c.layers; ++l) {
        const BlockParameters &b = model.blocks[std::size_t(l)];
        LayerActivations<S> &a = keep.layers[std::size_t(l)];
        a.input = h;
        a.norm1 = layerNorm<S>(h, as<S>(b.norm1.weight), as<S>(b.norm1.bias), eps);
        a.queries = linear<S>(a.norm1, as<S>(b.query.weight), as<S>(b.query.bias));
        a.keys = linear<S>(a.norm1, as<S>(b.key.weight), as<S>(b.key.bias));
        a.values = linear<S>(a.norm1, as<S>(b.value.weight), as<S>(b.value.bias));
        AttentionSettings settings;
        settings.heads = c.heads;
        settings.causal = true;
        settings.scale = attentionScale(c, l);
        a.context.resize(rows, c.dModel);
        a.weights.resize(std::size_t(batch.sequences));
        for (int s = 0; s < batch.sequences; ++s) {
            AttentionOutput<S> out = attention<S>(a.queries.middleRows(s * n, n), a.keys.middleRows(s * n, n),
                                                  a.values.middleRows(s * n, n), settings);
            a.weights[std::size_t(s)] = std::move(out.weights);
            a.context.middleRows(s * n, n) = out.context;
        }
        addResidual<S>(h, linear<S>(a.context, as<S>(b.attentionOutput.weight), as<S>(b.attentionOutput.bias)));
        a.middle = h;
        a.norm2 = layerNorm<S>(h, as<S>(b.norm2.weight), as<S>(b.norm2.bias), eps);
        // mlp() keeps nothing; its two halves are called here so that c_fc's output stays for the backward pass.
        a.inner = linear<S>(a.norm2, as<S>(b.mlpIn.weight), as<S>(b.mlpIn.bias));
        RowMatrix<S> activated = a.inner;
        activate(activated, Activation::GeluTanh);
        addResidual<S>(h, linear<S>(activated, as<S>(b.mlpOut.weight), as<S>(b.mlpOut.bias)));
    }
    keep.final = std::move(h);
    keep.finalNorm = layerNorm<S>(keep.final, as<S>(model.finalNorm.weight), as<S>(model.finalNorm.bias), eps);
    keep.logits.resize(rows, c.vocab);
    keep.logits.noalias() = keep.finalNorm * as<S>(model.tokenEmbedding).transpose();
    keep.loss = crossEntropy<S>(keep.logits, batch.targets, batch.weights);
    return keep.loss.loss;
}

template<typename S>
void trainingBackward(const ModelParameters &model, const TrainingBatch &batch, const TrainingActivations<S> &keep,
                      ModelParameters &gradients)
{
    const ModelConfig &c = model.config;
    const Eigen::Index n = batch.length;
    const double eps = c.normEpsilon;
    gradients = zeroGpt2(c);
    RowMatrix<S> dTokens = RowMatrix<S>::Zero(c.vocab, c.dModel);
    RowMatrix<S> dPositions = RowMatrix<S>::Zero(c.positions, c.dModel);

    // Walk the forward pass backwards: unembedding, ln_f, then each block from the last.
    const RowMatrix<S> dFinalNorm = unembeddingBackward<S>(keep.finalNorm, as<S>(model.tokenEmbedding),
                                                           keep.loss.dLogits, dTokens);
    LayerNormGradients<S> lnf = layerNormBackward<S>(keep.final, as<S>(model.finalNorm.weight), eps, dFinalNorm);
    addTo<S>(gradients.finalNorm.weight, lnf.weight);
    addTo<S>(gradients.finalNorm.bias, lnf.bias);
    RowMatrix<S> dh = std::move(lnf.input);

    for (int l = c.layers - 1; l >= 0; --l) {
        const BlockParameters &b = model.blocks[std::size_t(l)];
        BlockParameters &g = gradients.blocks[std::size_t(l)];
        const LayerActivations<S> &a = keep.layers[std::size_t(l)];

        // h = middle + mlp(ln_2(middle))
        MlpGradients<S> mg = mlpBackward<S>(a.norm2, a.inner, as<S>(b.mlpIn.weight), as<S>(b.mlpOut.weight), dh);
        addLinear(g.mlpIn, mg.in);
        addLinear(g.mlpOut, mg.out);
        const LayerNormGradients<S> ln2 = layerNormBackward<S>(a.middle, as<S>(b.norm2.weight), eps, mg.input);
        addTo<S>(g.norm2.weight, ln2.weight);
        addTo<S>(g.norm2.bias, ln2.bias);
        residualBackward<S>(dh, ln2.input);

        // middle = input + c_proj(attention(ln_1(input)))
        const LinearGradients<S> proj = linearBackward<S>(a.context, as<S>(b.attentionOutput.weight), dh);
        addLinear(g.attentionOutput, proj);
        RowMatrix<S> dq(a.queries.rows(), a.queries.cols()), dk(dq.rows(), dq.cols()), dv(dq.rows(), dq.cols());
        for (int s = 0; s < batch.sequences; ++s) {
            const AttentionGradients<S> ag = attentionBackward<S>(
                a.queries.middleRows(s * n, n), a.keys.middleRows(s * n, n), a.values.middleRows(s * n, n),
                a.weights[std::size_t(s)], attentionScale(c, l), proj.input.middleRows(s * n, n));
            dq.middleRows(s * n, n) = ag.queries;
            dk.middleRows(s * n, n) = ag.keys;
            dv.middleRows(s * n, n) = ag.values;
        }
        const LinearGradients<S> gq = linearBackward<S>(a.norm1, as<S>(b.query.weight), dq);
        const LinearGradients<S> gk = linearBackward<S>(a.norm1, as<S>(b.key.weight), dk);
        const LinearGradients<S> gv = linearBackward<S>(a.norm1, as<S>(b.value.weight), dv);
        addLinear(g.query, gq);
        addLinear(g.key, gk);
        addLinear(g.value, gv);
        const RowMatrix<S> dNorm1 = gq.input + gk.input + gv.input;
        const LayerNormGradients<S> ln1 = layerNormBackward<S>(a.input, as<S>(b.norm1.weight), eps, dNorm1);
        addTo<S>(g.norm1.weight, ln1.weight);
        addTo<S>(g.norm1.bias, ln1.bias);
        residualBackward<S>(dh, ln1.input);
    }
    embeddingBackward<S>(batch.inputs, batch.length, dh, dTokens, dPositions);
    addTo<S>(gradients.tokenEmbedding, dTokens);
    addTo<S>(gradients.positionEmbedding, dPositions);
}

ModelParameters zeroGpt2(const ModelConfig &c)
{
    ModelParameters m;
    m.config = c;
    auto dense = [](int in, int out) { return DenseParameters{RowMatrix<float>::Zero(in, out), RowVector<float>::Zero(out)}; };
    auto norm = [&] { return LayerNormParameters{RowVector<float>::Zero(c.dModel), RowVector<float>::Zero(c.dModel)}; };
    m.tokenEmbedding = RowMatrix<float>::Zero(c.vocab, c.dModel);
    m.positionEmbedding = RowMatrix<float>::Zero(c.positions, c.dModel);
    m.blocks.resize(std::size_t(c.layers));
    for (BlockParameters &b : m.blocks) {
        b.norm1 = norm();
        b.norm2 = norm();
        b.query = dense(c.dModel, c.dModel);
        b.key = dense(c.dModel, c.dModel);
        b.value = dense(c.dModel, c.dModel);
        b.attentionOutput = dense(c.dModel, c.dModel);
        b.mlpIn = dense(c.dModel, c.dFF);
        b.mlpOut = dense(c.dFF, c.dModel);
    }
    m.finalNorm = norm();
    return m;
}

std::vector<ParameterTensor> parameterTensors(ModelParameters &m)
{
    std::vector<ParameterTensor> t;
    auto matrix = [&](const QString &name, WeightMatrix &w) {
        RowMatrix<float> &x = w.writable();
        t.push_back({name, x.data(), x.rows(), x.cols(), true});
    };
    auto vector = [&](const QString &name, WeightVector &w) {
        RowVector<float> &x = w.writable();
        t.push_back({name, x.data(), 1, x.cols(), false});
    };
    matrix(QStringLiteral("wte.weight"), m.tokenEmbedding);
    matrix(QStringLiteral("wpe.weight"), m.positionEmbedding);
    for (std::size_t l = 0; l < m.blocks.size(); ++l) {
        BlockParameters &b = m.blocks[l];
        const QString p = QStringLiteral("h.%1.").arg(l);
        vector(p + "ln_1.weight", b.norm1.weight);
        vector(p + "ln_1.bias", b.norm1.bias);
        for (auto [name, d] : {std::pair{"attn.q", &b.query}, {"attn.k", &b.key}, {"attn.v", &b.value},
                               {"attn.c_proj", &b.attentionOutput}, {"mlp.c_fc", &b.mlpIn}, {"mlp.c_proj", &b.mlpOut}}) {
            matrix(p + name + ".weight", d->weight);
            vector(p + name + ".bias", d->bias);
        }
        vector(p + "ln_2.weight", b.norm2.weight);
        vector(p + "ln_2.bias", b.norm2.bias);
    }
    vector(QStringLiteral("ln_f.weight"), m.finalNorm.weight);
    vector(QStringLiteral("ln_f.bias"), m.finalNorm.bias);
    return t;
}

template float trainingForward<float>(const ModelParameters &, const TrainingBatch &, TrainingActivations<float> &);
template double trainingForward<double>(const ModelParameters &, const TrainingBatch &, TrainingActivations<double> &);
template void trainingBackward<float>(const ModelParameters &, const TrainingBatch &, const TrainingActivations<float> &,
                                      ModelParameters &);
template void trainingBackward<double>(const ModelParameters &, const TrainingBatch &,
                                       const TrainingActivations<double> &, ModelParameters &);

} // namespace attn
