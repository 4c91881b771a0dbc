// Qwen 3: Llama with a per-head RMSNorm of q and k before the rotation, and
// Qwen 2's window settings.
#include "io/ggufmetadata.h"
#include "model/families/family.h"

namespace attn {

void readQwenWindow(const ConfigFields &f, ModelConfig &c);

const FamilyDescription &qwen3Family()
{
    static const FamilyDescription family = [] {
        FamilyDescription f{"qwen3", "max_position_embeddings",
                            [](const ConfigFields &fields, ModelConfig &c) {
                                readLlamaConfig(fields, c);
                                c.queryKeyNorms = true;
                                readQwenWindow(fields, c);
                            },
                            TensorNames{}};
        f.ggufArchitecture = "qwen3";
        f.readGguf = [](const GgufFields &fields, ModelConfig &c) {
            readLlamaGguf(fields, c);
            c.queryKeyNorms = true;
        };
        return f;
    }();
    return family;
}

} // namespace attn
