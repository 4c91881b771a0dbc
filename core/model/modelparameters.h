#pragma once
// The weights of a GPT-2 or BERT model, immutable and in one convention.
//
// Every dense layer is stored row-vector style, [in, out], y = x * W + b:
// GPT-2's Conv1D weights as the file holds them (c_attn split into q | k | v),
// BERT's nn.Linear weights ([out, in] in the file) transposed once at load.
// A model is shared as std::shared_ptr<const ModelParameters>: documents, undo
// steps and worker runs hold the pointer, never a copy of the weights. F32
// tensors are not copied at load either: each Weights maps the checkpoint's
// bytes (see model/weights.h), and the mapping lives as long as they do.

#include "model/modelconfig.h"
#include "model/modeltypes.h"
#include "model/weights.h"

#include <memory>
#include <optional>
#include <vector>

namespace attn {

struct DenseParameters
{
    WeightMatrix weight; // [in, out]
    WeightVector bias;   // [out]
};

struct LayerNormParameters
{
    WeightVector weight; // gamma
    WeightVector bias;   // beta
};

struct BlockParameters
{
    // GPT-2: ln_1 before attention, ln_2 before the MLP.
    // BERT: attention.output.LayerNorm and output.LayerNorm, after each residual.
    LayerNormParameters norm1, norm2;
    DenseParameters query, key, value; // d_model -> d_model, heads side by side (head h: columns h*head_dim...)
    DenseParameters attentionOutput;   // c_proj / attention.output.dense
    DenseParameters mlpIn;             // c_fc / intermediate.dense: d_model -> d_ff
    DenseParameters mlpOut;            // mlp.c_proj / output.dense: d_ff -> d_model
};

// BERT's masked-language-model head (cls.predictions.*); its decoder is tied
// to the word embeddings, with a bias of its own.
struct MlmHeadParameters
{
    DenseParameters transform;      // transform.dense
    LayerNormParameters norm;       // transform.LayerNorm
    WeightVector decoderBias;       // cls.predictions.bias [vocab]
};

struct ModelParameters
{
    ModelConfig config;
    WeightMatrix tokenEmbedding;     // [vocab, d_model]: wte / word_embeddings
    WeightMatrix positionEmbedding;  // [positions, d_model]: wpe / position_embeddings
    WeightMatrix tokenTypeEmbedding; // BERT [type_vocab, d_model]; empty for GPT-2
    LayerNormParameters embeddingNorm;   // BERT embeddings.LayerNorm
    std::vector<BlockParameters> blocks;
    LayerNormParameters finalNorm;       // GPT-2 ln_f
    // GPT-2 with tie_word_embeddings false: lm_head.weight [vocab, d_model].
    // Empty when tied: the logits then come from tokenEmbedding.
    WeightMatrix untiedUnembedding;
    std::optional<MlmHeadParameters> mlm;

    const WeightMatrix &unembedding() const
    {
        return untiedUnembedding.size() > 0 ? untiedUnembedding : tokenEmbedding;
    }
};

using SharedModelParameters = std::shared_ptr<const ModelParameters>;

} // namespace attn
