// Gemma 3 (its text model): Gemma 2's block without soft-caps by default,
// with per-head q and k norms, and a sliding window on five layers of every
// six, which rotate with their own base frequency.
#include "io/ggufmetadata.h"
#include "model/families/family.h"

namespace attn {

void readGemmaConfig(const ConfigFields &f, ModelConfig &c);
void readGemmaGguf(const GgufFields &f, ModelConfig &c);
double gemmaQueryScalar(const ModelConfig &c, int layersOf27B);
TensorNames gemmaSandwichNames();

const FamilyDescription &gemma3Family()
{
    static const FamilyDescription family = [] {
        FamilyDescription f{"gemma3_text", "max_position_embeddings",
                            [](const ConfigFields &fields, ModelConfig &c) {
                                readGemmaConfig(fields, c);
                                c.sublayerOutputNorms = true;
                                c.queryKeyNorms = true;
                                c.queryPreAttentionScalar = fields.positive("query_pre_attn_scalar", 1e9, 256.0);
                                c.attentionSoftcap = fields.positiveOrNone("attn_logit_softcapping", 1e9);
                                c.finalSoftcap = fields.positiveOrNone("final_logit_softcapping", 1e9);
                                c.rotary.localTheta = fields.positive("rope_local_base_freq", 1e15, 10000.0);
                                c.slidingWindow = fields.integer("sliding_window", 1, kMaxRotaryPositions, 4096);
                                readWindowedLayers(fields, c, [](int layer, const ConfigFields &config) {
                                    return (layer + 1) % config.integer("sliding_window_pattern", 1, kMaxModelLayers, 6) != 0;
                                });
                            },
                            gemmaSandwichNames()};
        // llama.cpp: five layers of every six local (il % 6 < 5), rotating
        // with base 10000 and no scaling; the sixth global with freq_base.
        f.ggufArchitecture = "gemma3";
        f.readGguf = [](const GgufFields &fields, ModelConfig &c) {
            readGemmaGguf(fields, c);
            c.sublayerOutputNorms = true;
            c.queryKeyNorms = true;
            c.queryPreAttentionScalar = gemmaQueryScalar(c, 62);
            c.rotary.localTheta = 10000.0;
            c.slidingWindow = fields.integer(".attention.sliding_window", 1, kMaxRotaryPositions);
            const int period = fields.integer(".attention.sliding_window_pattern", 1, kMaxModelLayers, 6);
            c.windowedLayers.resize(std::size_t(c.layers));
            for (int layer = 0; layer < c.layers; ++layer)
                c.windowedLayers[std::size_t(layer)] = layer % period < period - 1;
        };
        return f;
    }();
    return family;
}

} // namespace attn
