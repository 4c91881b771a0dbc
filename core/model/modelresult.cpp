#include "model/modelresult.h"

#include "model/rollout.h"
#include "tokenizers/modeltokenizer.h"

#include <QJsonArray>

namespace attn {
namespace {

template<typename Derived>
QJsonArray matrixJson(const Eigen::MatrixBase<Derived> &m)
{
    QJsonArray rows;
    for (Eigen::Index r = 0; r < m.rows(); ++r) {
        QJsonArray row;
        for (Eigen::Index c = 0; c < m.cols(); ++c)
            row.append(double(m(r, c)));
        rows.append(row);
    }
    return rows;
}

QJsonArray topJson(const TokenPrediction &prediction, const ModelTokenizer &tokenizer, int k)
{
    QJsonArray top;
    for (const auto &[id, probability] : topPredictions(prediction.probabilities, k))
        top.append(QJsonObject{{QStringLiteral("id"), id},
                               {QStringLiteral("token"), tokenizer.idToText(id)},
                               {QStringLiteral("probability"), double(probability)}});
    return top;
}

} // namespace

QJsonObject modelResultJson(const ModelConfig &config, const std::vector<int> &tokenIds,
                            const std::vector<QString> &tokens, const ModelTrace &trace,
                            const ModelTokenizer &tokenizer, const ModelResultOptions &options)
{
    QJsonObject out;
    out[QStringLiteral("format")] = QStringLiteral("attention-explorer-result");
    out[QStringLiteral("version")] = 2;
    out[QStringLiteral("model")] = QJsonObject{{QStringLiteral("type"), config.familyName()},
                                               {QStringLiteral("layers"), config.layers},
                                               {QStringLiteral("heads"), config.heads},
                                               {QStringLiteral("kv_heads"), config.kvHeads()},
                                               {QStringLiteral("head_dim"), config.headDim()},
                                               {QStringLiteral("d_model"), config.dModel},
                                               {QStringLiteral("format"), options.format}};
    QJsonArray ids, texts;
    for (int id : tokenIds)
        ids.append(id);
    for (const QString &t : tokens)
        texts.append(t);
    out[QStringLiteral("token_ids")] = ids;
    out[QStringLiteral("tokens")] = texts;

    const bool scores = options.scores && config.layers <= kMaxLayersWithScores;
    QJsonArray layers;
    for (const LayerTrace &layer : trace.layers) {
        QJsonArray heads;
        for (std::size_t h = 0; h < layer.weights.size(); ++h) {
            QJsonObject head{{QStringLiteral("weights"), matrixJson(layer.weights[h])}};
            if (scores && h < layer.scores.size())
                head[QStringLiteral("scores")] = matrixJson(layer.scores[h]);
            heads.append(head);
        }
        layers.append(QJsonObject{{QStringLiteral("heads"), heads}});
    }
    out[QStringLiteral("layers")] = layers;

    if (!options.ablatedHeads.empty()) {
        QJsonArray ablated;
        for (const LayerHead &lh : options.ablatedHeads)
            ablated.append(QJsonArray{lh.layer, lh.head});
        out[QStringLiteral("ablated")] = ablated;
    }
    if (trace.nextToken)
        out[QStringLiteral("next_token")] = QJsonObject{{QStringLiteral("position"), trace.nextToken->position},
                                                        {QStringLiteral("top"), topJson(*trace.nextToken, tokenizer, options.top)}};
    if (!trace.maskPredictions.empty()) {
        QJsonArray masks;
        for (const TokenPrediction &p : trace.maskPredictions)
            masks.append(QJsonObject{{QStringLiteral("position"), p.position},
                                     {QStringLiteral("top"), topJson(p, tokenizer, options.top)}});
        out[QStringLiteral("mask_predictions")] = masks;
    }
    if (options.rollout)
        out[QStringLiteral("rollout")] = matrixJson(attentionRollout(trace));
    return out;
}

} // namespace attn
