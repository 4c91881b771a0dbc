#pragma once
// The weights of a model, immutable, as its family's description names them
// (model/families/) and the recipe in its config (model/modelconfig.h) uses them.
//
// A dense layer computes y = x * W + b with W stored [in, out] (GPT-2's
// Conv1D, the trainer's own weights), or y = x * Wᵀ + b with W stored [out,
// in] (nn.Linear: BERT and every Llama-family model), as the checkpoint
// holds it: never transposed or copied at load.
// A model is shared as std::shared_ptr<const ModelParameters>: documents, undo
// steps and worker runs hold the pointer, never a copy of the weights. F32
// tensors are not copied at load either: each Weights maps the checkpoint's
// bytes (see model/weights.h), and the mapping lives as long as they do;
// F16 and BF16 tensors stay as stored and are converted a band of rows at a
// time when used (model/denseops.h).

#include "model/modelconfig.h"
#include "model/modeltypes.h"
#include "model/weights.h"

#include <memory>
#include <optional>
#include <vector>

namespace attn {

struct DenseParameters
{
    WeightMatrix weight; // [in, out], or [out, in] when transposed
    WeightVector bias;   // [out]; empty when the layer has none
    bool transposed = false; // stored [out, in] (nn.Linear): y = x * Wᵀ + b

    Eigen::Index inputs() const { return transposed ? weight.colCount() : weight.rowCount(); }
    Eigen::Index outputs() const { return transposed ? weight.rowCount() : weight.colCount(); }
};

// A LayerNorm (weight and bias) or an RMSNorm (weight only: bias empty).
// Gemma's (1 + w) is added once at load, so every RMSNorm multiplies by weight.
struct NormParameters
{
    WeightVector weight;
    WeightVector bias;
};
using LayerNormParameters = NormParameters;

struct BlockParameters
{
    // BeforeSublayer placement: norm1 before attention, norm2 before the MLP.
    // AfterResidual (BERT): norm1 after the attention's residual sum, norm2 after the MLP's.
    NormParameters norm1, norm2;
    // Gemma 2/3: the attention's and the MLP's outputs, before each residual sum.
    NormParameters attentionOutputNorm, mlpOutputNorm;
    // Qwen3, Gemma 3: each head's q and k (head_dim wide), before the rotation.
    NormParameters queryNorm, keyNorm;
    // q: heads * head_dim outputs, head h at [h * head_dim, (h + 1) * head_dim);
    // k and v: kv_heads * head_dim outputs, likewise.
    DenseParameters query, key, value;
    DenseParameters attentionOutput;   // c_proj / attention.output.dense / o_proj
    DenseParameters mlpIn;             // c_fc / intermediate.dense / up_proj
    DenseParameters mlpGate;           // gate_proj (Gated MLPs only)
    DenseParameters mlpOut;            // mlp.c_proj / output.dense / down_proj
};

// BERT's masked-language-model head (cls.predictions.*); its decoder is tied
// to the word embeddings, with a bias of its own.
struct MlmHeadParameters
{
    DenseParameters transform;      // transform.dense
    NormParameters norm;            // transform.LayerNorm
    WeightVector decoderBias;       // cls.predictions.bias [vocab]
};

struct ModelParameters
{
    ModelConfig config;
    WeightMatrix tokenEmbedding;     // [vocab, d_model]: wte / word_embeddings / embed_tokens
    WeightMatrix positionEmbedding;  // [positions, d_model]: learned positions only
    WeightMatrix tokenTypeEmbedding; // BERT [type_vocab, d_model]; empty otherwise
    NormParameters embeddingNorm;    // BERT embeddings.LayerNorm
    std::vector<BlockParameters> blocks;
    NormParameters finalNorm;        // ln_f / model.norm; empty for BERT
    // lm_head.weight [vocab, d_model] when tie_word_embeddings is false.
    // Empty when tied: the logits then come from tokenEmbedding.
    WeightMatrix untiedUnembedding;
    std::optional<MlmHeadParameters> mlm;
    // What most of the weights are stored as, for result files: "F32", "BF16", "Q4_K".
    QString storedType = QStringLiteral("F32");
    // The file format they came from: "safetensors" or "gguf".
    QString container = QStringLiteral("safetensors");
    // "safetensors-F32", "gguf-Q4_K": the result files' model.format.
    QString format() const { return container + QLatin1Char('-') + storedType; }

    const WeightMatrix &unembedding() const
    {
        return untiedUnembedding.rowCount() > 0 ? untiedUnembedding : tokenEmbedding;
    }
};

using SharedModelParameters = std::shared_ptr<const ModelParameters>;

} // namespace attn
