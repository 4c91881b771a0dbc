// ModelDocument's switched-off heads and what they change in the prediction.

#include "modeldocument.h"

#include <algorithm>

namespace {

// What the prediction views show of a trace: GPT-2's next token or BERT's first [MASK]; null when neither.
const attn::RowVector<float> *shownProbabilities(const attn::ModelTrace *trace)
{
    if (!trace)
        return nullptr;
    if (trace->nextToken)
        return &trace->nextToken->probabilities;
    if (!trace->maskPredictions.empty())
        return &trace->maskPredictions.front().probabilities;
    return nullptr;
}

bool sameIds(const std::vector<attn::ModelToken> &a, const std::vector<attn::ModelToken> &b)
{
    return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                      [](const attn::ModelToken &x, const attn::ModelToken &y) { return x.id == y.id; });
}

} // namespace

std::vector<std::pair<int, float>> ModelDocument::predictions(int k) const
{
    const attn::RowVector<float> *p = shownProbabilities(m_trace.get());
    return p ? attn::topPredictions(*p, k) : std::vector<std::pair<int, float>>{};
}

QString ModelDocument::predictionTitle() const
{
    if (!m_trace)
        return {};
    if (m_trace->nextToken)
        return tr("Next token after “%1”").arg(m_tokens.empty() ? QString() : m_tokens.back().text);
    if (!m_trace->maskPredictions.empty())
        return tr("[MASK] at position %1").arg(m_trace->maskPredictions.front().position);
    return {};
}

void ModelDocument::setAblatedHeads(const std::set<attn::LayerHead> &heads)
{
    if (!m_model)
        return; // an undo step left from a model that was closed
    const std::set<attn::LayerHead> kept = withinModel(heads);
    if (kept == m_ablated)
        return;
    m_ablated = kept;
    emit ablationChanged();
    startCompute();
}

std::set<attn::LayerHead> ModelDocument::withinModel(const std::set<attn::LayerHead> &heads) const
{
    std::set<attn::LayerHead> kept;
    if (!m_model)
        return kept;
    for (const attn::LayerHead &h : heads)
        if (h.layer >= 0 && h.layer < m_model->config.layers && h.head >= 0 && h.head < m_model->config.heads)
            kept.insert(h);
    return kept;
}

void ModelDocument::takeBefore(const std::vector<attn::ModelToken> &newTokens,
                               const std::set<attn::LayerHead> &newAblated)
{
    // Before -> after compares two sets of heads on one text; another text has nothing to compare with.
    const attn::RowVector<float> *old = shownProbabilities(m_trace.get());
    if (!old || !sameIds(m_tokens, newTokens))
        m_before.reset();
    else if (newAblated != m_traceAblated)
        m_before = std::make_shared<const attn::RowVector<float>>(*old);
}

std::vector<ModelDocument::PredictionChange> ModelDocument::predictionChanges(int k) const
{
    const attn::RowVector<float> *now = shownProbabilities(m_trace.get());
    std::vector<PredictionChange> out;
    if (!now)
        return out;
    const bool comparable = m_before && m_before->size() == now->size();
    for (const auto &[id, p] : attn::topPredictions(*now, k))
        out.push_back({id, comparable ? double((*m_before)(id)) : -1.0, double(p)});
    return out;
}

std::vector<ModelDocument::PredictionChange> ModelDocument::biggestMovers(int k) const
{
    const attn::RowVector<float> *now = shownProbabilities(m_trace.get());
    std::vector<PredictionChange> out;
    if (!now || !m_before || m_before->size() != now->size())
        return out;
    const attn::RowVector<float> moved = (*now - *m_before).cwiseAbs();
    for (const auto &[id, change] : attn::topPredictions(moved, k))
        if (change > 0)
            out.push_back({id, double((*m_before)(id)), double((*now)(id))});
    return out;
}
