#pragma once
// The shape and maths switches of a trained transformer, read from its config.json.

#include <QByteArray>
#include <QString>
#include <optional>

namespace attn {

enum class ModelFamily { Gpt2, Bert };

// The MLP's nonlinearity, by the names Hugging Face's ACT2FN gives them.
// gelu_new, gelu_pytorch_tanh and gelu_fast are one formula (the tanh
// approximation); "gelu" is the exact one with erf.
enum class Activation { GeluTanh, GeluErf, Relu, Silu, QuickGelu };

// Limits far above any GPT-2 or BERT checkpoint, so that a hostile config
// cannot make the program plan an allocation of terabytes.
constexpr int kMaxModelLayers = 256;
constexpr int kMaxModelHeads = 256;
constexpr int kMaxModelDModel = 16384;
constexpr int kMaxModelDFF = 65536;
constexpr int kMaxModelVocab = 1000000;
constexpr int kMaxModelPositions = 65536;
constexpr int kMaxModelTokenTypes = 1024;
constexpr double kMaxModelParameters = 4e9; // 16 GB in float

struct ModelConfig
{
    ModelFamily family = ModelFamily::Gpt2;
    int layers = 0;
    int heads = 0;
    int dModel = 0;
    int dFF = 0;       // the MLP's inner width (GPT-2 n_inner, null = 4 * n_embd; BERT intermediate_size)
    int positions = 0; // n_positions / max_position_embeddings
    int vocab = 0;
    int tokenTypes = 0; // BERT type_vocab_size; 0 for GPT-2
    Activation activation = Activation::GeluTanh;
    double layerNormEpsilon = 1e-5;
    // GPT-2 switches that change the scores' scale.
    bool scaleAttention = true;            // scale_attn_weights: divide by sqrt(head_dim)
    bool scaleByInverseLayerIndex = false; // scale_attn_by_inverse_layer_idx: also divide by layer + 1
    bool tiedUnembedding = true;           // tie_word_embeddings: logits from wte, not lm_head.weight
    bool causal = true;                    // GPT-2 always; BERT only when is_decoder

    int headDim() const { return heads > 0 ? dModel / heads : 0; }
    // Weights the family's tensors hold (embeddings, blocks, final norm; no heads).
    double parameterCount() const;
    QString familyName() const { return family == ModelFamily::Gpt2 ? QStringLiteral("gpt2") : QStringLiteral("bert"); }
};

// The activation named as in config.json; nothing for a name not supported.
std::optional<Activation> activationFromName(const QString &name);

// Parses config.json. On failure returns nothing and sets `error` to one
// line, "NAME: what is wrong", naming the field (NAME is usually "config.json").
std::optional<ModelConfig> parseModelConfig(const QByteArray &json, const QString &name, QString *error);

} // namespace attn
