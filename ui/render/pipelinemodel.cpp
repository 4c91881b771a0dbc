#include "pipelinemodel.h"

#include <QCoreApplication>
#include <algorithm>
#include <numeric>

namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("PipelinePainter", text);
}

} // namespace

PipelineModel buildPipelineModel(const AttentionSnapshot &snapshot, int query, int head, int maxRows, int maxDims)
{
    PipelineModel model;
    const attn::AttentionResult *result = snapshot.result.get();
    if (!result || result->heads.empty() || result->heads.front().weights.size() == 0) {
        model.error = snapshot.error.isEmpty() ? tr("Nothing to show yet.") : snapshot.error;
        return model;
    }
    model.headCount = int(result->heads.size());
    model.head = std::clamp(head, 0, model.headCount - 1);
    const attn::HeadResult &h = result->heads[size_t(model.head)];
    model.switchedOff = snapshot.isSwitchedOff(model.head);
    const int queries = int(h.weights.rows());
    const int keys = int(h.weights.cols());
    model.query = std::clamp(query, 0, queries - 1);
    const int i = model.query;
    model.queryToken = i < snapshot.rowTokens.size() ? snapshot.rowTokens[i] : QStringLiteral("#%1").arg(i);

    // Short enough for the column: no wider than "scores ω = q·k".
    const bool simplified = !result->projected;
    if (result->positionalEncoding)
        model.queryTitle = simplified ? tr("q = x + PE") : tr("q = (x+PE)·W_q");
    else if (result->rotary || result->rotation) // turned by its position (a session's, or a model layer's): rot(·)
        model.queryTitle = simplified ? tr("q = rot(x)") : tr("q = rot(x·W_q)");
    else
        model.queryTitle = simplified ? tr("query q = x") : tr("query q");
    if (result->sharesKeyValues()) {
        model.keyValueHead = result->keyValueHeadOf(model.head);
        for (int other = 0; other < model.headCount; ++other)
            if (result->keyValueHeadOf(other) == model.keyValueHead)
                model.sharedWith.push_back(other);
    }

    model.headDim = int(h.queries.cols());
    const int dims = std::min(model.headDim, std::max(1, maxDims));
    for (int d = 0; d < dims; ++d) {
        model.queryValues.push_back(h.queries(i, d));
        model.contextValues.push_back(h.context(i, d));
    }
    model.hiddenDims = model.headDim - dims;

    model.scoreScale = result->scoreScale;
    model.scaled = result->scoreScale != 1.0;
    model.sqrtDk = result->scoreScale > 0.0 ? 1.0 / result->scoreScale : 1.0;
    model.keyCount = keys;
    // The query's row once: a large result derives each weight from its score.
    const Eigen::RowVectorXd weights = h.weights.row(i), scores = h.scores.row(i);
    model.weightSum = weights.sum();

    // Too many keys: keep the heaviest, ties in sentence order, then put them
    // back in sentence order so the rows still read like the sentence.
    std::vector<int> shown(static_cast<size_t>(keys));
    std::iota(shown.begin(), shown.end(), 0);
    const int rows = std::max(1, maxRows);
    if (keys > rows) {
        std::stable_sort(shown.begin(), shown.end(), [&](int a, int b) { return weights[a] > weights[b]; });
        shown.resize(size_t(rows));
        const bool selfAttention = result->sourceInputs.size() == 0 && i < keys;
        if (selfAttention && !result->isMasked(i, i) && std::find(shown.begin(), shown.end(), i) == shown.end())
            shown.back() = i;
        std::sort(shown.begin(), shown.end());
    }

    std::vector<bool> isShown(size_t(keys), false);
    for (int j : shown) {
        isShown[size_t(j)] = true;
        PipelineKeyRow row;
        row.key = j;
        row.label = j < snapshot.columnTokens.size() ? snapshot.columnTokens[j] : QStringLiteral("#%1").arg(j);
        row.score = scores[j];
        row.scaled = scores[j] * result->scoreScale;
        row.weight = weights[j];
        row.masked = result->isMasked(i, j);
        row.outsideWindow = result->isOutsideWindow(i, j);
        row.isSelf = result->sourceInputs.size() == 0 && j == i;
        model.rows.push_back(row);
    }
    for (int j = 0; j < keys; ++j) {
        if (isShown[size_t(j)])
            continue;
        ++model.hiddenKeys;
        model.hiddenMasked += result->isMasked(i, j) ? 1 : 0;
        model.hiddenWeight += weights[j];
    }
    return model;
}
