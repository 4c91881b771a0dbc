#include "model/incremental.h"

#include "model/inputedit.h"

#include <algorithm>

namespace attn {
namespace {

// Whether `trace` has every matrix forwardFrom() copies rows from, over
// its own tokens (a trace from elsewhere, or a default one, is not reused).
bool wellFormed(const ModelConfig &c, const ModelTrace &trace)
{
    const Eigen::Index n = Eigen::Index(trace.tokenIds.size());
    if (n == 0 || trace.hidden.size() != std::size_t(c.layers) + 1 || trace.layers.size() != std::size_t(c.layers))
        return false;
    for (const RowMatrix<float> &h : trace.hidden)
        if (h.rows() != n || h.cols() != c.dModel)
            return false;
    const std::size_t scoreCount = trace.options.keepScores ? std::size_t(c.heads) : 0;
    const Eigen::Index q = Eigen::Index(c.heads) * c.headDim(), kv = Eigen::Index(c.kvHeads()) * c.headDim();
    for (const LayerTrace &l : trace.layers) {
        for (const RowMatrix<float> *m : {&l.queries, &l.context})
            if (m->rows() != n || m->cols() != q)
                return false;
        for (const RowMatrix<float> *m : {&l.keys, &l.values})
            if (m->rows() != n || m->cols() != kv)
                return false;
        if (l.weights.size() != std::size_t(c.heads) || l.scores.size() != scoreCount)
            return false;
        for (const auto *list : {&l.weights, &l.scores})
            for (const RowMatrix<float> &w : *list)
                if (w.rows() != n || w.cols() != n)
                    return false;
    }
    return true;
}

} // namespace

int reusablePrefix(const ModelParameters &model, const ModelTrace &previous, const std::vector<int> &ids,
                   const ForwardOptions &options)
{
    const ModelConfig &c = model.config;
    // Without the causal mask (BERT) positions all see each other: one new
    // token changes every row.
    if (!c.causal || ids.empty())
        return 0;
    if (previous.options.ablatedHeads != options.ablatedHeads || previous.options.keepScores != options.keepScores)
        return 0;
    if (!wellFormed(c, previous))
        return 0;
    const auto differs = std::mismatch(previous.tokenIds.begin(), previous.tokenIds.end(), ids.begin(), ids.end());
    // An edited embedding changes its position's row as a changed token does.
    const int common = firstDifferingEdit(previous.options.embeddingEdits, options.embeddingEdits,
                                          int(differs.first - previous.tokenIds.begin()), c.dModel);
    // The last position is always computed: the next-token prediction reads its row.
    return std::min(common, int(ids.size()) - 1);
}

int reusableLayers(const ModelParameters &model, const ModelTrace &previous, const std::vector<int> &ids,
                   const ForwardOptions &options)
{
    const ModelConfig &c = model.config;
    if (ids.empty() || previous.tokenIds != ids
        || previous.options.keepScores != options.keepScores || !wellFormed(c, previous)
        || firstDifferingEdit(previous.options.embeddingEdits, options.embeddingEdits, int(ids.size()), c.dModel)
            < int(ids.size()))
        return 0;
    const std::set<LayerHead> &a = previous.options.ablatedHeads, &b = options.ablatedHeads;
    int first = c.layers;
    for (const auto *set : {&a, &b})
        for (const LayerHead &h : *set)
            if ((set == &a ? b : a).count(h) == 0)
                first = std::min(first, h.layer);
    return first >= c.layers ? 0 : first;
}

ModelTrace extendTrace(const ModelParameters &model, const ModelTrace &previous, const std::vector<int> &ids,
                       const ForwardOptions &options)
{
    if (const int layer = reusableLayers(model, previous, ids, options); layer > 0)
        return forwardFrom(model, ids, options, &previous, 0, layer);
    const int from = reusablePrefix(model, previous, ids, options);
    if (from == 0)
        return forward(model, ids, options);
    return forwardFrom(model, ids, options, &previous, from);
}

} // namespace attn
