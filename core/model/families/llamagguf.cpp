// The Llama block as llama.cpp's GGUF files describe it (gguf-py
// constants.py, src/llama-model.cpp load_hparams; gguf.md sections 2 and 3).
#include "io/gguffile.h"
#include "io/ggufmetadata.h"
#include "model/families/family.h"

namespace attn {

TensorNames ggufTensorNames()
{
    TensorNames n;
    n.prefix = "";
    n.tokenEmbedding = "token_embd";
    n.layer = "blk.%1.";
    n.norm1 = "attn_norm";
    n.query = "attn_q";
    n.key = "attn_k";
    n.value = "attn_v";
    n.attentionOutput = "attn_output";
    n.queryNorm = "attn_q_norm";
    n.keyNorm = "attn_k_norm";
    n.attentionOutputNorm = "post_attention_norm";
    n.norm2 = "ffn_norm";
    n.mlpIn = "ffn_up";
    n.mlpGate = "ffn_gate";
    n.mlpOut = "ffn_down";
    n.mlpOutputNorm = "post_ffw_norm";
    n.finalNorm = "output_norm";
    n.unembedding = "output";
    return n;
}

void readLlamaGguf(const GgufFields &f, ModelConfig &c)
{
    c.layers = f.integer(".block_count", 1, kMaxModelLayers);
    c.dModel = f.integer(".embedding_length", 1, kMaxModelDModel);
    c.dFF = f.integer(".feed_forward_length", 1, kMaxModelDFF);
    c.heads = f.integer(".attention.head_count", 1, kMaxModelHeads);
    c.keyValueHeads = f.integer(".attention.head_count_kv", 1, kMaxModelHeads, c.heads);
    if (c.heads % c.keyValueHeads != 0)
        ConfigFields::fail(QStringLiteral("%1 %2 is not a multiple of %3 %4")
                               .arg(f.key(".attention.head_count")).arg(c.heads)
                               .arg(f.key(".attention.head_count_kv")).arg(c.keyValueHeads));
    if (!f.has(".attention.key_length") && c.dModel % c.heads != 0)
        ConfigFields::fail(QStringLiteral("%1 %2 does not divide %3 %4 (and no %5)")
                               .arg(f.key(".attention.head_count")).arg(c.heads)
                               .arg(f.key(".embedding_length")).arg(c.dModel).arg(f.key(".attention.key_length")));
    c.headDimension = f.integer(".attention.key_length", 1, kMaxModelHeadDim, c.dModel / c.heads);
    if (f.integer(".attention.value_length", 1, kMaxModelHeadDim, c.headDimension) != c.headDimension)
        ConfigFields::fail(QStringLiteral("%1 differs from %2, which this program does not support")
                               .arg(f.key(".attention.value_length"), f.key(".attention.key_length")));
    c.positions = f.integer(".context_length", 1, kMaxRotaryPositions);
    c.vocab = f.tensorRows(QStringLiteral("token_embd.weight"), kMaxModelVocab);

    c.norm = NormKind::RmsNorm;
    c.normPlacement = NormPlacement::BeforeSublayer;
    c.normEpsilon = f.positive(".attention.layer_norm_rms_epsilon", 1.0, 1e-5);
    c.mlp = MlpKind::Gated;
    c.activation = Activation::Silu;
    // Biases are there when the file has them (Qwen2's q, k and v).
    c.queryKeyValueBias = f.file().findTensor(QStringLiteral("blk.0.attn_q.bias")) != nullptr;
    c.outputBias = f.file().findTensor(QStringLiteral("blk.0.attn_output.bias")) != nullptr;
    c.mlpBias = f.file().findTensor(QStringLiteral("blk.0.ffn_up.bias")) != nullptr;
    // llama.cpp reuses token_embd when a file has no output tensor.
    c.tiedUnembedding = f.file().findTensor(QStringLiteral("output.weight")) == nullptr;
    c.causal = true;

    c.positionKind = PositionKind::Rotary;
    c.rotary.theta = f.positive(".rope.freq_base", 1e15, 10000.0);
    c.rotary.dimensions = f.integer(".rope.dimension_count", 2, c.headDimension, c.headDimension);
    if (c.rotary.dimensions % 2 != 0)
        ConfigFields::fail(QStringLiteral("%1 %2 must be even").arg(f.key(".rope.dimension_count")).arg(c.rotary.dimensions));
    const QString scaling = f.string(".rope.scaling.type", QStringLiteral("none"));
    if (scaling == QLatin1String("linear")) {
        const double factor = f.positive(".rope.scaling.factor", 1e6, 1.0);
        if (factor != 1.0) {
            c.rotary.scaling = RopeScaling::Linear;
            c.rotary.factor = factor;
        }
    } else if (scaling != QLatin1String("none")) {
        ConfigFields::fail(QStringLiteral("%1 %2 is not supported (none, linear)")
                               .arg(f.key(".rope.scaling.type"), shownJsonValue(scaling)));
    }
}

} // namespace attn
