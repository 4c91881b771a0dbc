#include "model/inputedit.h"

#include "model/denseops.h"

#include <QString>
#include <algorithm>
#include <cmath>

namespace attn {
namespace {

void checkToken(const ModelParameters &model, int id)
{
    if (id < 0 || id >= model.config.vocab)
        throw ModelInputError(QStringLiteral("token id %1 is outside the vocabulary of %2")
                                  .arg(id).arg(model.config.vocab).toStdString());
}

} // namespace

RowVector<float> deltaTowards(const ModelParameters &model, int from, int to, double fraction)
{
    checkToken(model, from);
    checkToken(model, to);
    const RowVector<float> difference = weightRow(model.tokenEmbedding, to) - weightRow(model.tokenEmbedding, from);
    return difference * float(fraction);
}

RowVector<float> deltaSettingFirstDims(const ModelParameters &model, int token, const std::vector<float> &values)
{
    checkToken(model, token);
    const int d = model.config.dModel;
    if (int(values.size()) > d)
        throw ModelInputError(QStringLiteral("%1 values are more than the %2 dimensions of an embedding")
                                  .arg(values.size()).arg(d).toStdString());
    RowVector<float> delta = RowVector<float>::Zero(d);
    const RowVector<float> own = weightRow(model.tokenEmbedding, token);
    for (int i = 0; i < int(values.size()); ++i)
        delta[i] = values[std::size_t(i)] - own[i];
    return delta;
}

std::optional<double> tokenEmbeddingNorm(const ModelParameters &model, int token)
{
    if (token < 0 || token >= model.tokenEmbedding.rowCount())
        return std::nullopt;
    return weightRow(model.tokenEmbedding, token).cast<double>().norm();
}

RowVector<float> positionDelta(const std::vector<EmbeddingEdit> &edits, int position, int dModel)
{
    RowVector<float> sum = RowVector<float>::Zero(dModel);
    for (const EmbeddingEdit &e : edits)
        if (e.position == position && e.delta.size() == dModel)
            sum += e.delta;
    return sum;
}

int firstDifferingEdit(const std::vector<EmbeddingEdit> &a, const std::vector<EmbeddingEdit> &b, int limit,
                       int dModel)
{
    int first = limit;
    for (const auto *list : {&a, &b})
        for (const EmbeddingEdit &e : *list)
            if (e.position >= 0 && e.position < first
                && (e.delta.size() != dModel || positionDelta(a, e.position, dModel) != positionDelta(b, e.position, dModel)))
                first = e.position;
    return first;
}

} // namespace attn
