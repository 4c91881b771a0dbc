#include "modelconfig.h"

#include "model/configfields.h"
#include "model/families/family.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <cmath>

namespace attn {

double ModelConfig::scoreScale(int layer) const
{
    double scale = 1.0;
    if (queryPreAttentionScalar > 0)
        scale = 1.0 / std::sqrt(queryPreAttentionScalar);
    else if (scaleAttention && headDim() > 0)
        scale = 1.0 / std::sqrt(double(headDim()));
    if (scaleByInverseLayerIndex)
        scale /= double(layer + 1);
    return scale;
}

double ModelConfig::parameterCount() const
{
    const double d = dModel, q = double(heads) * headDim(), kv = double(kvHeads()) * headDim();
    const double attention = d * q + 2 * d * kv + q * d + (queryKeyValueBias ? q + 2 * kv : 0) + (outputBias ? d : 0);
    const double mlpWeights = (mlp == MlpKind::Gated ? 3 : 2) * d * dFF + (mlpBias ? dFF + d : 0);
    const double norms = (norm == NormKind::LayerNorm ? 4 : 2) * d + (sublayerOutputNorms ? 2 * d : 0)
                       + (queryKeyNorms ? 2.0 * headDim() : 0);
    const double embeddings = double(vocab) * d + (positionKind == PositionKind::Learned ? double(positions) * d : 0)
                            + double(tokenTypes) * d + (embeddingNorm ? 2 * d : 0);
    const double finalNorm = normPlacement == NormPlacement::BeforeSublayer ? (norm == NormKind::LayerNorm ? 2 : 1) * d : 0;
    const double head = tiedUnembedding ? 0 : double(vocab) * d;
    return embeddings + layers * (attention + mlpWeights + norms) + finalNorm + head;
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
            ConfigFields::fail(
                QStringLiteral("not JSON (%1 at byte %2)").arg(parseError.errorString()).arg(parseError.offset));
        if (!doc.isObject())
            ConfigFields::fail(QStringLiteral("not a JSON object"));
        const QJsonObject object = doc.object();
        const ConfigFields f(object);
        const QJsonValue type = object.value(QLatin1String("model_type"));
        if (type.isUndefined())
            ConfigFields::fail(QStringLiteral("model_type is missing (%1)").arg(familyNames()));
        if (!type.isString())
            ConfigFields::fail(QStringLiteral("model_type must be a string, got %1").arg(shownJsonValue(type)));
        const FamilyDescription *family = findFamily(type.toString());
        if (!family)
            ConfigFields::fail(QStringLiteral("model_type %1 is not supported (%2)")
                                   .arg(shownJsonValue(type), familyNames()));
        ModelConfig config;
        config.modelType = type.toString();
        family->readConfig(f, config);
        if (f.boolean("add_cross_attention", false))
            ConfigFields::fail(QStringLiteral("add_cross_attention true is not supported (self-attention models only)"));
        if (config.parameterCount() > kMaxModelParameters)
            ConfigFields::fail(QStringLiteral("%1 million weights are more than this program opens (%2 million)")
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
