// GPT-2: learned positions, LayerNorm before each sublayer, q | k | v in one
// Conv1D tensor stored [in, out], a plain MLP, biases everywhere.
#include "model/families/family.h"

namespace attn {

namespace {

void readGpt2(const ConfigFields &f, ModelConfig &c)
{
    c.layers = f.integer("n_layer", 1, kMaxModelLayers);
    c.heads = f.integer("n_head", 1, kMaxModelHeads);
    c.keyValueHeads = c.heads;
    c.dModel = f.integer("n_embd", 1, kMaxModelDModel);
    if (c.dModel % c.heads != 0)
        ConfigFields::fail(QStringLiteral("n_head %1 does not divide n_embd %2").arg(c.heads).arg(c.dModel));
    c.headDimension = c.dModel / c.heads;
    c.positions = f.integer("n_positions", 1, kMaxModelPositions);
    c.vocab = f.integer("vocab_size", 1, kMaxModelVocab);
    // null means 4 * n_embd; a 16384-wide model would then need 65536.
    c.dFF = f.integer("n_inner", 1, kMaxModelDFF, 4 * c.dModel);
    c.activation = f.activation("activation_function", QStringLiteral("gelu_new"));
    c.normEpsilon = f.positive("layer_norm_epsilon", 1.0, 1e-5);
    c.scaleAttention = f.boolean("scale_attn_weights", true);
    c.scaleByInverseLayerIndex = f.boolean("scale_attn_by_inverse_layer_idx", false);
    c.tiedUnembedding = f.boolean("tie_word_embeddings", true);
    c.causal = true;
}

TensorNames gpt2Names()
{
    TensorNames n;
    n.prefix = "transformer.";
    n.tokenEmbedding = "wte";
    n.positionEmbedding = "wpe";
    n.layer = "h.%1.";
    n.norm1 = "ln_1";
    n.query = n.key = n.value = nullptr;
    n.queryKeyValue = "attn.c_attn";
    n.attentionOutput = "attn.c_proj";
    n.queryNorm = n.keyNorm = nullptr;
    n.norm2 = "ln_2";
    n.mlpIn = "mlp.c_fc";
    n.mlpGate = nullptr;
    n.mlpOut = "mlp.c_proj";
    n.finalNorm = "ln_f";
    return n;
}

} // namespace

const FamilyDescription &gpt2Family()
{
    static const FamilyDescription family{"gpt2", "n_positions", readGpt2, gpt2Names(), true};
    return family;
}

} // namespace attn
