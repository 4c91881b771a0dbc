// Gemma 2: Gemma with norms on each sublayer's output, soft-capped scores and
// logits, scores scaled by query_pre_attn_scalar, and a sliding window on
// every other layer (the even ones).
#include "io/ggufmetadata.h"
#include "model/families/family.h"

namespace attn {

void readGemmaConfig(const ConfigFields &f, ModelConfig &c);
void readGemmaGguf(const GgufFields &f, ModelConfig &c);
double gemmaQueryScalar(const ModelConfig &c, int layersOf27B);

// Gemma 2's and 3's names: the MLP's input norm is pre_feedforward_layernorm,
// and post_attention_layernorm normalises the attention's output.
TensorNames gemmaSandwichNames()
{
    TensorNames n;
    n.attentionOutputNorm = "post_attention_layernorm";
    n.norm2 = "pre_feedforward_layernorm";
    n.mlpOutputNorm = "post_feedforward_layernorm";
    return n;
}

const FamilyDescription &gemma2Family()
{
    static const FamilyDescription family = [] {
        FamilyDescription f{"gemma2", "max_position_embeddings",
                            [](const ConfigFields &fields, ModelConfig &c) {
                                readGemmaConfig(fields, c);
                                c.sublayerOutputNorms = true;
                                c.queryPreAttentionScalar = fields.positive("query_pre_attn_scalar", 1e9, 256.0);
                                c.attentionSoftcap = fields.positive("attn_logit_softcapping", 1e9, 50.0);
                                c.finalSoftcap = fields.positive("final_logit_softcapping", 1e9, 30.0);
                                c.slidingWindow = fields.integer("sliding_window", 1, kMaxRotaryPositions, 4096);
                                readWindowedLayers(fields, c, [](int layer, const ConfigFields &) { return layer % 2 == 0; });
                            },
                            gemmaSandwichNames()};
        f.ggufArchitecture = "gemma2";
        f.readGguf = [](const GgufFields &fields, ModelConfig &c) {
            readGemmaGguf(fields, c);
            c.sublayerOutputNorms = true;
            c.queryPreAttentionScalar = gemmaQueryScalar(c, 46);
            c.attentionSoftcap = fields.positive(".attn_logit_softcapping", 1e9, 50.0);
            c.finalSoftcap = fields.positive(".final_logit_softcapping", 1e9, 30.0);
            c.slidingWindow = fields.integer(".attention.sliding_window", 1, kMaxRotaryPositions, 4096);
            c.windowedLayers.resize(std::size_t(c.layers));
            for (int layer = 0; layer < c.layers; ++layer)
                c.windowedLayers[std::size_t(layer)] = layer % 2 == 0;
        };
        return f;
    }();
    return family;
}

} // namespace attn
