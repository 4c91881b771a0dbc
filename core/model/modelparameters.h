#pragma once
// The weights of a GPT-2 or BERT model, immutable and in one convention.
//
// Every dense layer is stored row-vector style, [in, out], y = x * W + b:
// GPT-2's Conv1D weights as the file holds them (c_attn split into q | k | v),
// BERT's nn.Linear weights ([out, in] in the file) transposed once at load.
// A model is shared as std::shared_ptr<const ModelParameters>: documents, undo
// steps and worker runs hold the pointer, never a copy of the weights.

#include "model/modelconfig.h"
#include "model/modeltypes.h"

#include <memory>
#include <optional>
#include <vector>

namespace attn {

struct DenseParameters
{
    RowMatrix<float> weight; // [in, out]
    RowVector<float> bias;   // [out]
};

struct LayerNormParameters
{
    RowVector<float> weight; // gamma
    RowVector<float> bias;   // beta
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
    RowVector<float> decoderBias;   // cls.predictions.bias [vocab]
};

struct ModelParameters
{
    ModelConfig config;
    RowMatrix<float> tokenEmbedding;    // [vocab, d_model]: wte / word_embeddings
    RowMatrix<float> positionEmbedding; // [positions, d_model]: wpe / position_embeddings
    RowMatrix<float> tokenTypeEmbedding; // BERT [type_vocab, d_model]; empty for GPT-2
    LayerNormParameters embeddingNorm;   // BERT embeddings.LayerNorm
    std::vector<BlockParameters> blocks;
    LayerNormParameters finalNorm;       // GPT-2 ln_f
    // GPT-2 with tie_word_embeddings false: lm_head.weight [vocab, d_model].
    // Empty when tied: the logits then come from tokenEmbedding.
    RowMatrix<float> untiedUnembedding;
    std::optional<MlmHeadParameters> mlm;

    const RowMatrix<float> &unembedding() const
    {
        return untiedUnembedding.size() > 0 ? untiedUnembedding : tokenEmbedding;
    }
};

using SharedModelParameters = std::shared_ptr<const ModelParameters>;

} // namespace attn
