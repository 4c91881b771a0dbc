// Phi-3: Llama with q | k | v in one tensor (rows in that order) and gate | up
// in another, a window on every layer when the config sets one, and partial
// rotary where partial_rotary_factor says.
#include "io/ggufmetadata.h"
#include "model/families/family.h"

namespace attn {

namespace {

TensorNames phi3Names()
{
    TensorNames n;
    n.query = n.key = n.value = nullptr;
    n.queryKeyValue = "self_attn.qkv_proj";
    n.mlpIn = n.mlpGate = nullptr;
    n.mlpGateIn = "mlp.gate_up_proj";
    return n;
}

} // namespace

const FamilyDescription &phi3Family()
{
    static const FamilyDescription family = [] {
        FamilyDescription f{"phi3", "max_position_embeddings",
                            [](const ConfigFields &fields, ModelConfig &c) {
                                readLlamaConfig(fields, c, LlamaDefaults{1e-5, 10000.0, false, "hidden_act", "silu"});
                                c.slidingWindow = fields.integer("sliding_window", 1, kMaxRotaryPositions, 0);
                                readWindowedLayers(fields, c, [](int, const ConfigFields &) { return true; });
                            },
                            phi3Names()};
        f.ggufArchitecture = "phi3";
        f.readGguf = [](const GgufFields &fields, ModelConfig &c) {
            readLlamaGguf(fields, c);
            // 0 means no window (what Phi-4's files write).
            c.slidingWindow = fields.integer(".attention.sliding_window", 0, kMaxRotaryPositions, 0);
            c.windowedLayers.assign(std::size_t(c.layers), c.slidingWindow > 0);
        };
        f.ggufNames.query = f.ggufNames.key = f.ggufNames.value = nullptr;
        f.ggufNames.queryKeyValue = "attn_qkv";
        f.ggufNames.mlpIn = f.ggufNames.mlpGate = nullptr;
        f.ggufNames.mlpGateIn = "ffn_up";
        return f;
    }();
    return family;
}

} // namespace attn
