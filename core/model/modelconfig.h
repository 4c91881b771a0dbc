#pragma once
// The recipe of a trained transformer: its shape and every switch of its
// block, read from config.json by the model's family (model/families/).
// The one forward pass (model/forward.h) reads only this recipe, so GPT-2,
// BERT and the Llama-family decoders are numbers and flags here, not branches
// in the maths.

#include "model/rotaryconfig.h"

#include <QByteArray>
#include <QString>
#include <algorithm>
#include <optional>
#include <vector>

namespace attn {

// The MLP's nonlinearity, by the names Hugging Face's ACT2FN gives them.
// gelu_new, gelu_pytorch_tanh and gelu_fast are one formula (the tanh
// approximation); "gelu" is the exact one with erf.
enum class Activation { GeluTanh, GeluErf, Relu, Silu, QuickGelu };

// LayerNorm (mean and variance, weight and bias) or RMSNorm (root mean square, weight only).
enum class NormKind { LayerNorm, RmsNorm };

// Where a block normalises: before each sublayer, on the copy it reads
// (GPT-2, Llama), or after each residual sum, on the stream itself (BERT).
enum class NormPlacement { BeforeSublayer, AfterResidual };

// How positions enter: a learned vector added to each token's embedding
// (GPT-2, BERT), or q and k rotated by an angle per position (every Llama-family model).
enum class PositionKind { Learned, Rotary };

// The MLP: out(act(in(x))) (GPT-2, BERT), or down(act(gate(x)) * up(x)) (SwiGLU, GeGLU).
enum class MlpKind { Plain, Gated };

// Limits far above any checkpoint this program opens, so that a hostile
// config cannot make the program plan an allocation of terabytes.
constexpr int kMaxModelLayers = 256;
constexpr int kMaxModelHeads = 256;
constexpr int kMaxModelDModel = 16384;
constexpr int kMaxModelHeadDim = 1024;
constexpr int kMaxModelDFF = 65536;
constexpr int kMaxModelVocab = 1000000;
// Learned position tables are allocated; rotary models only promise a length.
constexpr int kMaxModelPositions = 65536;
constexpr int kMaxRotaryPositions = 1 << 24;
constexpr int kMaxModelTokenTypes = 1024;
constexpr double kMaxModelParameters = 4e9; // 16 GB in float

struct ModelConfig
{
    QString modelType; // config.json's model_type: "gpt2", "bert", "llama", "qwen2", ...
    int layers = 0;
    int heads = 0;
    // Key/value heads (grouped-query attention): query head h reads h /
    // (heads / kvHeads()). 0: one per query head.
    int keyValueHeads = 0;
    int dModel = 0;
    int headDimension = 0; // head_dim, when the config gives one other than d_model / heads (Qwen3, Gemma)
    int dFF = 0;           // the MLP's inner width (n_inner, intermediate_size)
    int positions = 0;     // the longest text: n_positions / max_position_embeddings
    int vocab = 0;
    int tokenTypes = 0; // BERT type_vocab_size; 0 for the others

    // The block.
    NormKind norm = NormKind::LayerNorm;
    NormPlacement normPlacement = NormPlacement::BeforeSublayer;
    double normEpsilon = 1e-5;
    bool normAddsOne = false;       // Gemma: RMSNorm multiplies by (1 + w)
    bool sublayerOutputNorms = false; // Gemma 2/3: the attention's and the MLP's outputs normalised before each residual sum
    bool queryKeyNorms = false;     // Qwen3, Gemma 3: per-head RMSNorm of q and k, before the rotation
    bool embeddingNorm = false;     // BERT: LayerNorm of the summed embeddings
    PositionKind positionKind = PositionKind::Learned;
    RotaryConfig rotary;
    MlpKind mlp = MlpKind::Plain;
    Activation activation = Activation::GeluTanh;
    bool queryKeyValueBias = true;  // biases on q, k and v (GPT-2, BERT, Qwen2)
    bool outputBias = true;         // on the attention's output projection
    bool mlpBias = true;
    double embeddingScale = 1.0;    // Gemma: sqrt(d_model), in float
    // The scores' scale: 1/sqrt(head_dim), or 1/sqrt(query_pre_attn_scalar) (Gemma 2/3) when above 0.
    double queryPreAttentionScalar = 0.0;
    bool scaleAttention = true;            // GPT-2 scale_attn_weights: divide by sqrt(head_dim)
    bool scaleByInverseLayerIndex = false; // GPT-2 scale_attn_by_inverse_layer_idx: also divide by layer + 1
    double attentionSoftcap = 0.0; // Gemma 2: scaled scores become cap * tanh(s / cap); 0: none
    double finalSoftcap = 0.0;     // Gemma 2: the same for the logits
    // Sliding window: in a layer that has one, query i sees key j only when
    // i - window < j <= i. windowedLayers has one flag per layer (empty: none).
    int slidingWindow = 0;
    std::vector<bool> windowedLayers;
    bool tiedUnembedding = true; // tie_word_embeddings: logits from the token embedding, not lm_head.weight
    bool causal = true;          // every decoder; BERT only when is_decoder

    int headDim() const { return headDimension > 0 ? headDimension : heads > 0 ? dModel / heads : 0; }
    int kvHeads() const { return keyValueHeads > 0 ? keyValueHeads : heads; }
    int kvGroup() const { return heads / std::max(kvHeads(), 1); } // query heads per key/value head
    // The key/value head query head `head` reads.
    int kvHeadOf(int head) const { return head / kvGroup(); }
    // The window of `layer`: 0 when it has none.
    int windowOf(int layer) const
    {
        return layer >= 0 && std::size_t(layer) < windowedLayers.size() && windowedLayers[std::size_t(layer)]
            ? slidingWindow : 0;
    }
    // The factor scores q.k of `layer` are multiplied by before any soft-cap and the softmax.
    double scoreScale(int layer) const;
    // Weights the family's tensors hold (embeddings, blocks, final norm; no heads).
    double parameterCount() const;
    QString familyName() const { return modelType; }
};

// The activation named as in config.json; nothing for a name not supported.
std::optional<Activation> activationFromName(const QString &name);

// Parses config.json. On failure returns nothing and sets `error` to one
// line, "NAME: what is wrong", naming the field (NAME is usually "config.json").
std::optional<ModelConfig> parseModelConfig(const QByteArray &json, const QString &name, QString *error);

} // namespace attn
