// The Llama family's config.json, which the other decoders extend
// (transformers' LlamaConfig and modeling_rope_utils.py).
#include "model/families/family.h"

#include <QJsonArray>
#include <cmath>

namespace attn {
namespace {

// A field of a nested object (rope_scaling), its messages naming the object.
template<typename Read>
auto nested(const char *object, Read read)
{
    try {
        return read();
    } catch (const ConfigError &e) {
        ConfigFields::fail(QLatin1String(object) + QLatin1Char('.') + e.message);
    }
}

void readRopeScaling(const QJsonObject &scaling, const char *name, RotaryConfig &rope)
{
    const ConfigFields s(scaling);
    const QString type = nested(name, [&] {
        return s.has("rope_type") ? s.string("rope_type", QString()) : s.string("type", QStringLiteral("default"));
    });
    if (type == QLatin1String("default"))
        return;
    if (type == QLatin1String("linear")) {
        rope.scaling = RopeScaling::Linear;
        rope.factor = nested(name, [&] { return s.positive("factor", 1e6, 1.0); });
        return;
    }
    if (type == QLatin1String("llama3")) {
        rope.scaling = RopeScaling::Llama3;
        nested(name, [&] {
            rope.factor = s.positive("factor", 1e6, 8.0);
            rope.lowFrequencyFactor = s.positive("low_freq_factor", 1e6, 1.0);
            rope.highFrequencyFactor = s.positive("high_freq_factor", 1e6, 4.0);
            rope.originalPositions = s.integer("original_max_position_embeddings", 1, kMaxRotaryPositions, 8192);
            if (rope.highFrequencyFactor <= rope.lowFrequencyFactor)
                ConfigFields::fail(QStringLiteral("high_freq_factor %1 must be more than low_freq_factor %2")
                                       .arg(rope.highFrequencyFactor).arg(rope.lowFrequencyFactor));
            return 0;
        });
        return;
    }
    ConfigFields::fail(QStringLiteral("%1.rope_type %2 is not supported (default, linear, llama3)")
                           .arg(QLatin1String(name), shownJsonValue(type)));
}

} // namespace

void readLlamaConfig(const ConfigFields &f, ModelConfig &c, const LlamaDefaults &defaults)
{
    c.layers = f.integer("num_hidden_layers", 1, kMaxModelLayers);
    c.heads = f.integer("num_attention_heads", 1, kMaxModelHeads);
    c.keyValueHeads = f.integer("num_key_value_heads", 1, kMaxModelHeads, c.heads);
    if (c.heads % c.kvHeads() != 0)
        ConfigFields::fail(QStringLiteral("num_attention_heads %1 is not a multiple of num_key_value_heads %2")
                               .arg(c.heads).arg(c.kvHeads()));
    c.dModel = f.integer("hidden_size", 1, kMaxModelDModel);
    if (!f.has("head_dim") && c.dModel % c.heads != 0)
        ConfigFields::fail(QStringLiteral("num_attention_heads %1 does not divide hidden_size %2 (and no head_dim)")
                               .arg(c.heads).arg(c.dModel));
    c.headDimension = f.integer("head_dim", 1, kMaxModelHeadDim, c.dModel / c.heads);
    c.dFF = f.integer("intermediate_size", 1, kMaxModelDFF);
    c.positions = f.integer("max_position_embeddings", 1, kMaxRotaryPositions, 2048);
    c.vocab = f.integer("vocab_size", 1, kMaxModelVocab);

    c.norm = NormKind::RmsNorm;
    c.normPlacement = NormPlacement::BeforeSublayer;
    c.normEpsilon = f.positive("rms_norm_eps", 1.0, defaults.normEpsilon);
    c.mlp = MlpKind::Gated;
    c.activation = f.activation(defaults.activationKey, QLatin1String(defaults.activation));
    const bool attentionBias = f.boolean("attention_bias", false);
    c.queryKeyValueBias = attentionBias;
    c.outputBias = attentionBias;
    c.mlpBias = f.boolean("mlp_bias", false);
    c.tiedUnembedding = f.boolean("tie_word_embeddings", defaults.tied);
    c.causal = true;

    c.positionKind = PositionKind::Rotary;
    RotaryConfig &rope = c.rotary;
    // Newer files keep theta and the scaling in one object, rope_parameters.
    const std::optional<QJsonObject> parameters = f.object("rope_parameters");
    if (parameters) {
        const ConfigFields p(*parameters);
        rope.theta = nested("rope_parameters", [&] { return p.positive("rope_theta", 1e15, defaults.ropeTheta); });
        readRopeScaling(*parameters, "rope_parameters", rope);
    } else {
        rope.theta = f.positive("rope_theta", 1e15, defaults.ropeTheta);
        if (const std::optional<QJsonObject> scaling = f.object("rope_scaling"))
            readRopeScaling(*scaling, "rope_scaling", rope);
    }
    const double partial = f.positive("partial_rotary_factor", 1.0, 1.0);
    rope.dimensions = int(c.headDimension * partial);
    if (rope.dimensions < 2 || rope.dimensions % 2 != 0)
        ConfigFields::fail(QStringLiteral("head_dim %1 times partial_rotary_factor %2 gives %3 rotated dimensions, "
                                          "which must be even and at least 2")
                               .arg(c.headDimension).arg(partial).arg(rope.dimensions));
}

void readWindowedLayers(const ConfigFields &f, ModelConfig &c, bool (*rule)(int layer, const ConfigFields &f))
{
    c.windowedLayers.assign(std::size_t(c.layers), false);
    const QJsonValue types = f.value("layer_types");
    if (!types.isUndefined() && !types.isNull()) {
        const QJsonArray list = types.toArray();
        if (!types.isArray() || list.size() != c.layers)
            ConfigFields::fail(QStringLiteral("layer_types must list %1 layers, got %2")
                                   .arg(c.layers).arg(types.isArray() ? QString::number(list.size())
                                                                       : shownJsonValue(types)));
        for (int l = 0; l < c.layers; ++l) {
            const QString type = list.at(l).toString();
            if (type != QLatin1String("sliding_attention") && type != QLatin1String("full_attention"))
                ConfigFields::fail(QStringLiteral("layer_types[%1] %2 is not sliding_attention or full_attention")
                                       .arg(l).arg(shownJsonValue(list.at(l))));
            c.windowedLayers[std::size_t(l)] = type == QLatin1String("sliding_attention");
        }
    } else {
        for (int l = 0; l < c.layers; ++l)
            c.windowedLayers[std::size_t(l)] = rule(l, f);
    }
    if (c.slidingWindow <= 0)
        c.windowedLayers.assign(std::size_t(c.layers), false);
}

} // namespace attn
