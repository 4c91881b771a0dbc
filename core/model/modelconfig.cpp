#include "modelconfig.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonValue>
#include <cmath>

namespace attn {
namespace {

struct ConfigError
{
    QString message;
};

// A JSON value as a message quotes it: short, on one line.
QString shown(const QJsonValue &v)
{
    switch (v.type()) {
    case QJsonValue::Null: return QStringLiteral("null");
    case QJsonValue::Bool: return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    case QJsonValue::Double: return QString::number(v.toDouble(), 'g', 12);
    case QJsonValue::String: {
        QString s = v.toString();
        const bool cut = s.size() > 40;
        s = s.left(40);
        for (QChar &c : s)
            if (c.category() == QChar::Other_Control || c.category() == QChar::Separator_Line
                || c.category() == QChar::Separator_Paragraph)
                c = QLatin1Char('?');
        return QLatin1Char('"') + s + (cut ? QStringLiteral("…\"") : QStringLiteral("\""));
    }
    case QJsonValue::Array: return QStringLiteral("a list");
    case QJsonValue::Object: return QStringLiteral("an object");
    case QJsonValue::Undefined: break;
    }
    return QStringLiteral("nothing");
}

class Fields
{
public:
    explicit Fields(const QJsonObject &object) : m_object(object) {}

    [[noreturn]] static void fail(const QString &message) { throw ConfigError{message}; }

    bool has(const char *key) const
    {
        const QJsonValue v = m_object.value(QLatin1String(key));
        return !v.isUndefined() && !v.isNull();
    }

    // A whole number in [min, max]; `fallback` when absent or null, if given.
    int integer(const char *key, int min, int max, std::optional<int> fallback = std::nullopt) const
    {
        const QJsonValue v = m_object.value(QLatin1String(key));
        if (v.isUndefined() || v.isNull()) {
            if (fallback)
                return *fallback;
            fail(QStringLiteral("%1 is missing").arg(QLatin1String(key)));
        }
        const double d = v.toDouble();
        if (!v.isDouble() || !std::isfinite(d) || d != std::floor(d))
            fail(QStringLiteral("%1 must be a whole number, got %2").arg(QLatin1String(key), shown(v)));
        if (d < min)
            fail(QStringLiteral("%1 %2 must be at least %3").arg(QLatin1String(key), shown(v)).arg(min));
        if (d > max)
            fail(QStringLiteral("%1 %2 is more than %3").arg(QLatin1String(key), shown(v)).arg(max));
        return int(d);
    }

    // A number in (0, max].
    double positive(const char *key, double max, double fallback) const
    {
        const QJsonValue v = m_object.value(QLatin1String(key));
        if (v.isUndefined() || v.isNull())
            return fallback;
        if (!v.isDouble())
            fail(QStringLiteral("%1 must be a number, got %2").arg(QLatin1String(key), shown(v)));
        const double d = v.toDouble();
        if (!(d > 0))
            fail(QStringLiteral("%1 %2 must be positive").arg(QLatin1String(key), shown(v)));
        if (d > max)
            fail(QStringLiteral("%1 %2 is more than %3").arg(QLatin1String(key), shown(v)).arg(max));
        return d;
    }

    QString string(const char *key, const QString &fallback) const
    {
        const QJsonValue v = m_object.value(QLatin1String(key));
        if (v.isUndefined() || v.isNull())
            return fallback;
        if (!v.isString())
            fail(QStringLiteral("%1 must be a string, got %2").arg(QLatin1String(key), shown(v)));
        return v.toString();
    }

    bool boolean(const char *key, bool fallback) const
    {
        const QJsonValue v = m_object.value(QLatin1String(key));
        if (v.isUndefined() || v.isNull())
            return fallback;
        if (!v.isBool())
            fail(QStringLiteral("%1 must be true or false, got %2").arg(QLatin1String(key), shown(v)));
        return v.toBool();
    }

    Activation activation(const char *key, const QString &fallback) const
    {
        const QString name = string(key, fallback);
        if (const auto a = activationFromName(name))
            return *a;
        // shown(): a name from the file may hold a line break or be megabytes long.
        fail(QStringLiteral("%1 %2 is not supported (gelu_new, gelu, gelu_pytorch_tanh, gelu_fast, quick_gelu, "
                            "relu, silu)")
                 .arg(QLatin1String(key), shown(name)));
    }

private:
    const QJsonObject &m_object;
};

void checkHeads(const ModelConfig &c, const char *headsKey, const char *widthKey)
{
    if (c.dModel % c.heads != 0)
        Fields::fail(QStringLiteral("%1 %2 does not divide %3 %4")
                         .arg(QLatin1String(headsKey)).arg(c.heads).arg(QLatin1String(widthKey)).arg(c.dModel));
}

ModelConfig parseGpt2(const Fields &f)
{
    ModelConfig c;
    c.family = ModelFamily::Gpt2;
    c.layers = f.integer("n_layer", 1, kMaxModelLayers);
    c.heads = f.integer("n_head", 1, kMaxModelHeads);
    c.dModel = f.integer("n_embd", 1, kMaxModelDModel);
    checkHeads(c, "n_head", "n_embd");
    c.positions = f.integer("n_positions", 1, kMaxModelPositions);
    c.vocab = f.integer("vocab_size", 1, kMaxModelVocab);
    // null means 4 * n_embd; a 16384-wide model would then need 65536.
    c.dFF = f.integer("n_inner", 1, kMaxModelDFF, 4 * c.dModel);
    c.activation = f.activation("activation_function", QStringLiteral("gelu_new"));
    c.layerNormEpsilon = f.positive("layer_norm_epsilon", 1.0, 1e-5);
    c.scaleAttention = f.boolean("scale_attn_weights", true);
    c.scaleByInverseLayerIndex = f.boolean("scale_attn_by_inverse_layer_idx", false);
    c.tiedUnembedding = f.boolean("tie_word_embeddings", true);
    c.causal = true;
    return c;
}

ModelConfig parseBert(const Fields &f)
{
    ModelConfig c;
    c.family = ModelFamily::Bert;
    c.layers = f.integer("num_hidden_layers", 1, kMaxModelLayers);
    c.heads = f.integer("num_attention_heads", 1, kMaxModelHeads);
    c.dModel = f.integer("hidden_size", 1, kMaxModelDModel);
    checkHeads(c, "num_attention_heads", "hidden_size");
    c.dFF = f.integer("intermediate_size", 1, kMaxModelDFF);
    c.positions = f.integer("max_position_embeddings", 1, kMaxModelPositions);
    c.vocab = f.integer("vocab_size", 1, kMaxModelVocab);
    c.tokenTypes = f.integer("type_vocab_size", 1, kMaxModelTokenTypes, 2);
    c.activation = f.activation("hidden_act", QStringLiteral("gelu"));
    c.layerNormEpsilon = f.positive("layer_norm_eps", 1.0, 1e-12);
    const QString positionType = f.string("position_embedding_type", QStringLiteral("absolute"));
    if (positionType != QLatin1String("absolute"))
        Fields::fail(QStringLiteral("position_embedding_type %1 is not supported (absolute)").arg(shown(positionType)));
    c.causal = f.boolean("is_decoder", false);
    c.tiedUnembedding = true;
    return c;
}

} // namespace

double ModelConfig::parameterCount() const
{
    const double d = dModel, block = 4 * d * d + 4 * d + 2 * d * dFF + dFF + d + 4 * d;
    return double(vocab) * d + double(positions) * d + double(tokenTypes) * d + layers * block + 2 * d;
}

std::optional<Activation> activationFromName(const QString &name)
{
    if (name == QLatin1String("gelu_new") || name == QLatin1String("gelu_pytorch_tanh")
        || name == QLatin1String("gelu_fast"))
        return Activation::GeluTanh;
    if (name == QLatin1String("gelu"))
        return Activation::GeluErf;
    if (name == QLatin1String("relu"))
        return Activation::Relu;
    if (name == QLatin1String("silu") || name == QLatin1String("swish"))
        return Activation::Silu;
    if (name == QLatin1String("quick_gelu"))
        return Activation::QuickGelu;
    return std::nullopt;
}

std::optional<ModelConfig> parseModelConfig(const QByteArray &json, const QString &name, QString *error)
{
    try {
        QJsonParseError parseError;
        const QJsonDocument doc = QJsonDocument::fromJson(json, &parseError);
        if (parseError.error != QJsonParseError::NoError)
            Fields::fail(QStringLiteral("not JSON (%1 at byte %2)").arg(parseError.errorString()).arg(parseError.offset));
        if (!doc.isObject())
            Fields::fail(QStringLiteral("not a JSON object"));
        const QJsonObject object = doc.object();
        const Fields f(object);
        const QJsonValue type = object.value(QLatin1String("model_type"));
        if (type.isUndefined())
            Fields::fail(QStringLiteral("model_type is missing (gpt2 or bert)"));
        if (!type.isString())
            Fields::fail(QStringLiteral("model_type must be a string, got %1").arg(shown(type)));
        ModelConfig config;
        if (type.toString() == QLatin1String("gpt2"))
            config = parseGpt2(f);
        else if (type.toString() == QLatin1String("bert"))
            config = parseBert(f);
        else
            Fields::fail(QStringLiteral("model_type %1 is not supported (gpt2 or bert)").arg(shown(type)));
        if (f.boolean("add_cross_attention", false))
            Fields::fail(QStringLiteral("add_cross_attention true is not supported (self-attention models only)"));
        if (config.parameterCount() > kMaxModelParameters)
            Fields::fail(QStringLiteral("%1 million weights are more than this program opens (%2 million)")
                             .arg(config.parameterCount() / 1e6, 0, 'f', 0)
                             .arg(kMaxModelParameters / 1e6, 0, 'f', 0));
        return config;
    } catch (const ConfigError &e) {
        if (error)
            *error = name + QStringLiteral(": ") + e.message;
        return std::nullopt;
    }
}

} // namespace attn
