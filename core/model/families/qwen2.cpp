// Qwen 2 and 2.5: Llama with biases on q, k and v, and a sliding window only
// when use_sliding_window is set, on the layers from max_window_layers on.
#include "io/ggufmetadata.h"
#include "model/families/family.h"

namespace attn {

// Shared with Qwen3, whose window is configured the same way.
void readQwenWindow(const ConfigFields &f, ModelConfig &c)
{
    if (f.boolean("use_sliding_window", false))
        c.slidingWindow = f.integer("sliding_window", 1, kMaxRotaryPositions, 4096);
    readWindowedLayers(f, c, [](int layer, const ConfigFields &fields) {
        return layer >= fields.integer("max_window_layers", 0, kMaxModelLayers, 28);
    });
}

const FamilyDescription &qwen2Family()
{
    static const FamilyDescription family = [] {
        FamilyDescription f{"qwen2", "max_position_embeddings",
                            [](const ConfigFields &fields, ModelConfig &c) {
                                readLlamaConfig(fields, c);
                                c.queryKeyValueBias = true;
                                c.outputBias = false;
                                c.mlpBias = false;
                                readQwenWindow(fields, c);
                            },
                            TensorNames{}};
        f.ggufArchitecture = "qwen2";
        f.readGguf = [](const GgufFields &fields, ModelConfig &c) { readLlamaGguf(fields, c); };
        return f;
    }();
    return family;
}

} // namespace attn
