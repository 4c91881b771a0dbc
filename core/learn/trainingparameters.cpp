#include "learn/trainingparameters.h"

#include "model/families/family.h"

namespace attn {
namespace {

WeightVector zeros(int n, bool present = true)
{
    return present ? WeightVector(RowVector<float>::Zero(n)) : WeightVector();
}

DenseParameters zeroDense(const ModelConfig &c, int in, int out, bool bias)
{
    DenseParameters d;
    d.transposed = storesOutByIn(c);
    d.weight = d.transposed ? RowMatrix<float>::Zero(out, in) : RowMatrix<float>::Zero(in, out);
    d.bias = zeros(out, bias);
    return d;
}

NormParameters zeroNorm(const ModelConfig &c)
{
    return {zeros(c.dModel), zeros(c.dModel, c.norm == NormKind::LayerNorm)};
}

// The names a saved folder gives each tensor: GPT-2's (without the
// "transformer." prefix, as the gpt2 checkpoint writes them) or Llama's.
struct Names
{
    const char *tokenEmbedding, *positionEmbedding, *layer, *norm1, *query, *key, *value, *attentionOutput, *norm2,
        *mlpIn, *mlpGate, *mlpOut, *finalNorm, *unembedding;
};
constexpr Names kGpt2Names{"wte", "wpe", "h.%1.", "ln_1", "attn.q", "attn.k", "attn.v", "attn.c_proj", "ln_2",
                           "mlp.c_fc", nullptr, "mlp.c_proj", "ln_f", nullptr};
constexpr Names kLlamaNames{"model.embed_tokens", nullptr, "model.layers.%1.", "input_layernorm", "self_attn.q_proj",
                            "self_attn.k_proj", "self_attn.v_proj", "self_attn.o_proj", "post_attention_layernorm",
                            "mlp.up_proj", "mlp.gate_proj", "mlp.down_proj", "model.norm", "lm_head"};

} // namespace

bool storesOutByIn(const ModelConfig &c)
{
    const FamilyDescription *family = findFamily(c.modelType);
    return family && !family->conv1d;
}

ModelParameters zeroModel(const ModelConfig &c)
{
    ModelParameters m;
    m.config = c;
    const int q = c.heads * c.headDim(), kv = c.kvHeads() * c.headDim();
    m.tokenEmbedding = RowMatrix<float>::Zero(c.vocab, c.dModel);
    if (c.positionKind == PositionKind::Learned)
        m.positionEmbedding = RowMatrix<float>::Zero(c.positions, c.dModel);
    m.blocks.resize(std::size_t(c.layers));
    for (BlockParameters &b : m.blocks) {
        b.norm1 = zeroNorm(c);
        b.norm2 = zeroNorm(c);
        b.query = zeroDense(c, c.dModel, q, c.queryKeyValueBias);
        b.key = zeroDense(c, c.dModel, kv, c.queryKeyValueBias);
        b.value = zeroDense(c, c.dModel, kv, c.queryKeyValueBias);
        b.attentionOutput = zeroDense(c, q, c.dModel, c.outputBias);
        b.mlpIn = zeroDense(c, c.dModel, c.dFF, c.mlpBias);
        if (c.mlp == MlpKind::Gated)
            b.mlpGate = zeroDense(c, c.dModel, c.dFF, c.mlpBias);
        b.mlpOut = zeroDense(c, c.dFF, c.dModel, c.mlpBias);
    }
    m.finalNorm = zeroNorm(c);
    if (!c.tiedUnembedding)
        m.untiedUnembedding = RowMatrix<float>::Zero(c.vocab, c.dModel);
    return m;
}

std::vector<ParameterTensor> parameterTensors(ModelParameters &m)
{
    const Names &n = storesOutByIn(m.config) ? kLlamaNames : kGpt2Names;
    std::vector<ParameterTensor> t;
    auto matrix = [&](const QString &name, WeightMatrix &w) {
        if (w.rowCount() == 0)
            return;
        RowMatrix<float> &x = w.writable();
        t.push_back({name + QStringLiteral(".weight"), x.data(), x.rows(), x.cols(), true});
    };
    auto vector = [&](const QString &name, WeightVector &w) {
        if (w.colCount() == 0)
            return;
        RowVector<float> &x = w.writable();
        t.push_back({name, x.data(), 1, x.cols(), false});
    };
    auto norm = [&](const QString &name, NormParameters &p) {
        vector(name + QStringLiteral(".weight"), p.weight);
        vector(name + QStringLiteral(".bias"), p.bias);
    };
    auto dense = [&](const QString &name, DenseParameters &d) {
        matrix(name, d.weight);
        vector(name + QStringLiteral(".bias"), d.bias);
    };
    matrix(QLatin1String(n.tokenEmbedding), m.tokenEmbedding);
    if (n.positionEmbedding)
        matrix(QLatin1String(n.positionEmbedding), m.positionEmbedding);
    for (std::size_t l = 0; l < m.blocks.size(); ++l) {
        BlockParameters &b = m.blocks[l];
        const QString p = QString::fromLatin1(n.layer).arg(l);
        norm(p + QLatin1String(n.norm1), b.norm1);
        dense(p + QLatin1String(n.query), b.query);
        dense(p + QLatin1String(n.key), b.key);
        dense(p + QLatin1String(n.value), b.value);
        dense(p + QLatin1String(n.attentionOutput), b.attentionOutput);
        if (n.mlpGate)
            dense(p + QLatin1String(n.mlpGate), b.mlpGate);
        dense(p + QLatin1String(n.mlpIn), b.mlpIn);
        dense(p + QLatin1String(n.mlpOut), b.mlpOut);
        // After the MLP, as the trainer has always listed them: the order fixes
        // how the gradients' norm is summed, and with it a run's last bits.
        norm(p + QLatin1String(n.norm2), b.norm2);
    }
    norm(QLatin1String(n.finalNorm), m.finalNorm);
    if (n.unembedding)
        matrix(QLatin1String(n.unembedding), m.untiedUnembedding);
    return t;
}

} // namespace attn
