#pragma once
// A model family as one small description: how its config.json becomes the
// recipe (model/modelconfig.h) and what its tensors are called. The loader
// (model/modelloader.cpp) and the one forward pass (model/forward.cpp) read
// descriptions; adding a family is one file here and one line in families.cpp.

#include "model/configfields.h"
#include "model/modelconfig.h"

#include <QString>
#include <vector>

namespace attn {

// Tensor names, without ".weight" / ".bias"; nullptr where the family has no
// such tensor. Per-layer names follow `layer` with %1 for the layer number.
struct TensorNames
{
    // Tried with and without: "transformer." (GPT-2), "bert.", "model." (the rest).
    const char *prefix = "model.";
    const char *tokenEmbedding = "embed_tokens";
    const char *positionEmbedding = nullptr;
    const char *tokenTypeEmbedding = nullptr;
    const char *embeddingNorm = nullptr;
    const char *layer = "layers.%1.";
    const char *norm1 = "input_layernorm";
    const char *query = "self_attn.q_proj";
    const char *key = "self_attn.k_proj";
    const char *value = "self_attn.v_proj";
    const char *queryKeyValue = nullptr; // one tensor for q | k | v (GPT-2 by columns, Phi-3 by rows)
    const char *attentionOutput = "self_attn.o_proj";
    const char *queryNorm = "self_attn.q_norm";
    const char *keyNorm = "self_attn.k_norm";
    const char *attentionOutputNorm = nullptr;
    const char *norm2 = "post_attention_layernorm";
    const char *mlpIn = "mlp.up_proj";
    const char *mlpGate = "mlp.gate_proj";
    const char *mlpGateIn = nullptr; // one tensor for gate | up (Phi-3)
    const char *mlpOut = "mlp.down_proj";
    const char *mlpOutputNorm = nullptr;
    const char *finalNorm = "norm";
    const char *unembedding = "lm_head"; // never prefixed
};

class GgufFields;

// llama.cpp's names for the Llama block in GGUF files (gguf-py constants.py).
TensorNames ggufTensorNames();

struct FamilyDescription
{
    const char *modelType;         // config.json's model_type
    const char *positionsKey;      // the config field that limits a text's length, for messages
    // Fills the recipe from config.json (shape already read by the caller
    // where the family uses the common keys); throws ConfigError.
    void (*readConfig)(const ConfigFields &fields, ModelConfig &config);
    TensorNames names;
    bool conv1d = false; // weights stored [in, out] (GPT-2); else [out, in] (nn.Linear)
    const char *maskedLmHead = nullptr; // BERT's cls.predictions. prefix, loaded when present
    // GGUF: the file's general.architecture, how its metadata becomes the
    // recipe, and its tensor names; null when the family has no GGUF form.
    const char *ggufArchitecture = nullptr;
    void (*readGguf)(const GgufFields &fields, ModelConfig &config) = nullptr;
    TensorNames ggufNames = ggufTensorNames();
    // llama.cpp's converter interleaves q's and k's rows pair by pair for the
    // `llama` architecture (gguf.md section 3); the loader puts them back.
    bool ggufInterleavedQueryKey = false;
};

// Every family this program opens, in the order messages list them.
const std::vector<const FamilyDescription *> &modelFamilies();
// The family of a model_type; nullptr when none.
const FamilyDescription *findFamily(const QString &modelType);
// The family of a GGUF general.architecture; nullptr when none.
const FamilyDescription *findGgufFamily(const QString &architecture);
// "llama, qwen2, ...": the GGUF architectures messages offer.
QString ggufArchitectureNames();
// "gpt2, bert, llama, ...": what messages offer.
QString familyNames();

// The Llama family's reading of config.json (model/families/llamacommon.cpp),
// which the others extend: shape, grouped heads, head_dim, RMSNorm, rotary
// positions with rope_scaling, SwiGLU, biases, tied embeddings. Its defaults
// are those of LlamaConfig; a family passes its own where they differ.
struct LlamaDefaults
{
    double normEpsilon = 1e-6;
    double ropeTheta = 10000.0;
    bool tied = false;
    const char *activationKey = "hidden_act";
    const char *activation = "silu";
};
void readLlamaConfig(const ConfigFields &f, ModelConfig &c, const LlamaDefaults &defaults = {});

// The Llama block from a GGUF file's metadata (llama.cpp's keys, gguf.md
// 2.3): shape, heads, head_dim, RMSNorm epsilon, rotary base, dimensions and
// linear scaling; the vocabulary from token_embd; tied when there is no
// output tensor. What differs is the family's own to add.
void readLlamaGguf(const GgufFields &f, ModelConfig &c);

// The layers with a sliding window: config.json's layer_types when it has
// them ("sliding_attention" / "full_attention"), else `rule(layer)`.
void readWindowedLayers(const ConfigFields &f, ModelConfig &c, bool (*rule)(int layer, const ConfigFields &f));

} // namespace attn
