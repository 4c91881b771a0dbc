// Llama 2 and 3.x, TinyLlama, SmolLM: the block every other decoder here is described against.
#include "io/ggufmetadata.h"
#include "model/families/family.h"

namespace attn {

const FamilyDescription &llamaFamily()
{
    static const FamilyDescription family = [] {
        FamilyDescription f{"llama", "max_position_embeddings",
                            [](const ConfigFields &fields, ModelConfig &c) { readLlamaConfig(fields, c); }, TensorNames{}};
        // Mistral's GGUF files are `llama` too: a window when the file gives one.
        f.ggufArchitecture = "llama";
        f.readGguf = [](const GgufFields &fields, ModelConfig &c) {
            readLlamaGguf(fields, c);
            c.slidingWindow = fields.integer(".attention.sliding_window", 0, kMaxRotaryPositions, 0);
            c.windowedLayers.assign(std::size_t(c.layers), c.slidingWindow > 0);
        };
        f.ggufInterleavedQueryKey = true;
        return f;
    }();
    return family;
}

} // namespace attn
