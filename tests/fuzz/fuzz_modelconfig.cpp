// libFuzzer target: config.json of both families. Any bytes are read as they
// are, then (when they are a JSON object) once more as a GPT-2 and once as a
// BERT config, so mutations of any field reach both parsers whatever the
// input's model_type says. Each read gives either a config inside the limits
// the loader relies on (heads dividing the width, the weight count bounded),
// or one line "config.json: ..." naming the field. A GPT-2 config written
// back as training writes it reads back with the same shape, and the memory
// estimate of any accepted config is a finite number.

#include "learn/modelwriter.h"
#include "model/memoryestimate.h"
#include "model/modelconfig.h"

#include <QByteArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <cmath>
#include <cstdint>
#include <cstdlib>

namespace {

bool withinLimits(const attn::ModelConfig &c)
{
    const bool rotary = c.positionKind == attn::PositionKind::Rotary;
    return c.layers >= 1 && c.layers <= attn::kMaxModelLayers && c.heads >= 1 && c.heads <= attn::kMaxModelHeads
           && c.kvHeads() >= 1 && c.heads % c.kvHeads() == 0 && c.headDim() >= 1
           && c.headDim() <= std::max(attn::kMaxModelHeadDim, attn::kMaxModelDModel)
           && (!rotary || (c.rotary.dimensions >= 2 && c.rotary.dimensions <= c.headDim() && c.rotary.dimensions % 2 == 0))
           && c.dModel >= 1 && c.dModel <= attn::kMaxModelDModel && c.dFF >= 1
           && c.dFF <= attn::kMaxModelDFF && c.positions >= 1
           && c.positions <= (rotary ? attn::kMaxRotaryPositions : attn::kMaxModelPositions)
           && (c.windowedLayers.empty() || int(c.windowedLayers.size()) == c.layers)
           && c.vocab >= 1 && c.vocab <= attn::kMaxModelVocab && c.tokenTypes >= 0
           && c.tokenTypes <= attn::kMaxModelTokenTypes && c.normEpsilon > 0 && c.normEpsilon <= 1.0
           && std::isfinite(c.parameterCount()) && c.parameterCount() <= attn::kMaxModelParameters
           && (c.modelType == QLatin1String("bert")) == (c.tokenTypes > 0);
}

void check(const QByteArray &json)
{
    QString error;
    const std::optional<attn::ModelConfig> config = attn::parseModelConfig(json, QStringLiteral("config.json"), &error);
    if (!config) {
        if (!error.startsWith(QLatin1String("config.json: ")) || error.contains(QLatin1Char('\n'))
            || error.contains(QLatin1Char('\r')) || error.size() > 400)
            std::abort();
        return;
    }
    if (!withinLimits(*config))
        std::abort();
    // The memory a run at the model's full length needs is a finite figure
    // (the refusal compares it), growing with the length.
    const attn::WeightsOnDisk none;
    const attn::MemoryEstimate full = attn::estimateRunMemory(*config, none, config->positions, true, 1e12);
    const attn::MemoryEstimate one = attn::estimateRunMemory(*config, none, 1, false, 0);
    if (!std::isfinite(full.total()) || !(one.total() > 0) || one.total() > full.total())
        std::abort();
    if (config->modelType != QLatin1String("gpt2"))
        return;
    const QByteArray written = QJsonDocument(attn::gpt2ConfigJson(*config)).toJson();
    const std::optional<attn::ModelConfig> again = attn::parseModelConfig(written, QStringLiteral("x"), &error);
    if (!again || again->layers != config->layers || again->heads != config->heads || again->dModel != config->dModel
        || again->dFF != config->dFF || again->positions != config->positions || again->vocab != config->vocab
        || again->normEpsilon != config->normEpsilon)
        std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char *>(data), qsizetype(size));
    check(bytes);
    const QJsonDocument doc = QJsonDocument::fromJson(bytes);
    if (!doc.isObject())
        return 0;
    for (const char *family : {"gpt2", "bert"}) {
        QJsonObject object = doc.object();
        object.insert(QStringLiteral("model_type"), QLatin1String(family));
        check(QJsonDocument(object).toJson(QJsonDocument::Compact));
    }
    return 0;
}
