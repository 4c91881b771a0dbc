// Mistral: Llama with a sliding window on every layer when the config sets one.
#include "model/families/family.h"

namespace attn {

const FamilyDescription &mistralFamily()
{
    static const FamilyDescription family{
        "mistral", "max_position_embeddings",
        [](const ConfigFields &f, ModelConfig &c) {
            readLlamaConfig(f, c);
            c.slidingWindow = f.integer("sliding_window", 1, kMaxRotaryPositions, 0);
            readWindowedLayers(f, c, [](int, const ConfigFields &) { return true; });
        },
        TensorNames{}};
    return family;
}

} // namespace attn
