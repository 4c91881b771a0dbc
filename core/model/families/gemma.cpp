// Gemma: Llama with RMSNorm multiplying by (1 + w), the embeddings scaled by
// sqrt(hidden_size), a GELU-tanh gate and tied embeddings.
#include "io/ggufmetadata.h"
#include "model/families/family.h"

#include <cmath>

namespace attn {

// What every Gemma shares; Gemma 2 and 3 add to it.
void readGemmaConfig(const ConfigFields &f, ModelConfig &c)
{
    // transformers reads hidden_activation and ignores hidden_act (Gemma's
    // files say "gelu" there), falling back to the tanh approximation.
    readLlamaConfig(f, c, LlamaDefaults{1e-6, 10000.0, true, "hidden_activation", "gelu_pytorch_tanh"});
    c.normAddsOne = true;
    // torch.tensor(hidden_size ** 0.5, dtype=float32): the square root rounded to float.
    c.embeddingScale = double(float(std::sqrt(double(c.dModel))));
}

// What every Gemma GGUF shares: its norms already hold 1 + w (the converter
// added the one), so they multiply as they are; the embedding scale and the
// GELU-tanh gate are not in the file.
void readGemmaGguf(const GgufFields &f, ModelConfig &c)
{
    readLlamaGguf(f, c);
    c.activation = Activation::GeluTanh;
    c.embeddingScale = double(float(std::sqrt(double(c.dModel))));
    c.tiedUnembedding = true;
}

// llama.cpp's scale for Gemma 2 and 3: 1/sqrt(head_dim), but for the 27B
// models, whose query_pre_attn_scalar is d_model / heads (46 and 62 layers).
double gemmaQueryScalar(const ModelConfig &c, int layersOf27B)
{
    return c.layers == layersOf27B ? double(c.dModel / c.heads) : double(c.headDim());
}

const FamilyDescription &gemmaFamily()
{
    static const FamilyDescription family = [] {
        FamilyDescription f{"gemma", "max_position_embeddings", readGemmaConfig, TensorNames{}};
        f.ggufArchitecture = "gemma";
        f.readGguf = readGemmaGguf;
        return f;
    }();
    return family;
}

} // namespace attn
