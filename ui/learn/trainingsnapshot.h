#pragma once
// What the training window shows of the model at one step: the attention of
// the fixed example sequence per layer and head, and each head's pattern scores.

#include "model/forward.h"
#include "trainingcurves.h"

#include <memory>
#include <vector>

struct TrainingSnapshot
{
    int step = 0;
    // Only the attention weights are kept (layers[l].weights[h]); the rest of
    // the forward pass is dropped so fifty snapshots stay small.
    std::shared_ptr<const attn::ModelTrace> trace;
    std::vector<PatternScores> scores; // layers * heads, layer after layer

    const PatternScores &score(int layer, int head) const
    {
        const int heads = trace && !trace->layers.empty() ? int(trace->layers.front().weights.size()) : 0;
        return scores[std::size_t(layer * heads + head)];
    }
};
