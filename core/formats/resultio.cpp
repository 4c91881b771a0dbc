#include "formats/resultio.h"

#include "formats/jsonconvert.h"
#include "formats/jsonformat.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace attn {

QJsonObject resultToJsonObject(const Session &session, const AttentionResult &result)
{
    QJsonObject root;
    root["format"] = "attention-explorer-result";
    root["version"] = 1;
    root["tokens"] = QJsonArray::fromStringList(session.tokens);
    root["inputs"] = matrixToJson(result.inputs);
    root["causal"] = result.causal; // as computed: always false in cross-attention
    root["cross_attention"] = session.source.has_value();
    if (session.source) {
        root["source_tokens"] = QJsonArray::fromStringList(session.source->tokens);
        root["source_inputs"] = matrixToJson(result.sourceInputs);
    }
    // Contract section 9: rotary positions and shared key/value heads, said
    // where they apply (each head's keys and values are its group's).
    if (result.rotary) {
        root["positional_encoding"] = "rotary";
        root["rope_theta"] = result.ropeTheta;
    }
    if (result.sharesKeyValues())
        root["kv_heads"] = result.keyValueHeadCount();
    QJsonArray heads;
    for (std::size_t i = 0; i < result.heads.size(); ++i) {
        const HeadResult &h = result.heads[i];
        QJsonObject head;
        if (result.sharesKeyValues())
            head["kv_head"] = result.keyValueHeadOf(int(i));
        head["queries"] = matrixToJson(h.queries);
        head["keys"] = matrixToJson(h.keys);
        head["values"] = matrixToJson(h.values);
        head["scores"] = matrixToJson(h.scores.toDouble());
        head["weights"] = matrixToJson(h.weights.toDouble());
        head["context"] = matrixToJson(h.context);
        heads.append(head);
    }
    root["heads"] = heads;
    root["output"] = matrixToJson(result.output);
    return root;
}

QByteArray resultToJson(const Session &session, const AttentionResult &result)
{
    return formatJson(resultToJsonObject(session, result));
}

} // namespace attn
