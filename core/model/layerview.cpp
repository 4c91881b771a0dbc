#include "model/layerview.h"

#include "model/denseops.h"
#include "model/layerrotation.h"
#include "runtime/twothreads.h"

#include <cmath>
#include <stdexcept>

namespace attn {

double layerScoreScale(const ModelConfig &config, int layer)
{
    return config.scoreScale(layer);
}

RowMatrix<float> layerOutput(const ModelParameters &model, const LayerTrace &layer, int index)
{
    if (layer.keptOutput() && layer.output.cols() == model.config.dModel)
        return layer.output;
    return product(layer.context, model.blocks.at(std::size_t(index)).attentionOutput);
}

AttentionResult layerAttention(const ModelParameters &model, const std::shared_ptr<const ModelTrace> &trace,
                               int layer)
{
    if (!trace || layer < 0 || layer >= int(trace->layers.size()) || layer >= int(model.blocks.size())
        || layer >= int(trace->hidden.size()))
        throw std::out_of_range("layerAttention: no such layer");
    const LayerTrace &t = trace->layers[std::size_t(layer)];
    const int heads = int(t.weights.size());

    AttentionResult result;
    result.scoreScale = layerScoreScale(model.config, layer);
    result.causal = model.config.causal;
    result.window = model.config.causal ? model.config.windowOf(layer) : 0;
    result.kvHeads = model.config.kvHeads();
    if (const std::optional<LayerRotation> rotation = layerRotation(model.config, layer))
        result.rotation = std::make_shared<const LayerRotation>(*rotation);
    result.heads.resize(std::size_t(heads));
    const bool keptScores = int(t.scores.size()) == heads;
    for (int h = 0; h < heads; ++h) {
        HeadResult &head = result.heads[std::size_t(h)];
        // The aliasing constructor: the matrix lives as long as the trace, no copy.
        head.weights = AttentionMatrix(std::shared_ptr<const RowMatrixF>(trace, &t.weights[std::size_t(h)]));
        if (keptScores) {
            head.scores = AttentionMatrix(std::shared_ptr<const RowMatrixF>(trace, &t.scores[std::size_t(h)]));
        } else { // here, not beside the copies below: OpenBLAS may not be called from two threads at once
            auto scores = std::make_shared<RowMatrixF>();
            scores->noalias() = t.query(h) * t.key(h).transpose();
            head.scores = AttentionMatrix(std::shared_ptr<const RowMatrixF>(std::move(scores)));
        }
    }
    // The views read doubles: megabytes of copies at a few hundred tokens, on both threads.
    const auto copyHeads = [&](int from, int to) {
        for (int h = from; h < to; ++h) {
            HeadResult &head = result.heads[std::size_t(h)];
            head.queries = t.query(h).cast<double>();
            head.keys = t.key(h).cast<double>();
            head.values = t.value(h).cast<double>();
            head.context = t.headContext(h).cast<double>();
        }
    };
    const bool outputKept = t.keptOutput() && t.output.cols() == model.config.dModel;
    runBoth(
        [&] {
            copyHeads(0, heads / 2);
            result.inputs = trace->hidden[std::size_t(layer)].cast<double>();
        },
        [&] {
            copyHeads(heads / 2, heads);
            if (outputKept)
                result.output = t.output.cast<double>(); // no float copy first
        });
    // The weights stay in the model: a copy in double would be 19 MB per
    // GPT-2 layer, written at every keystroke for the views to read none of it.
    result.projected = true;
    result.outputProjected = true;
    if (!outputKept)
        result.output = layerOutput(model, t, layer).cast<double>();
    if (heads > 1) {
        std::vector<const AttentionMatrix *> all;
        for (const HeadResult &head : result.heads)
            all.push_back(&head.weights);
        result.meanWeights = averageOf(all);
    }
    return result;
}

} // namespace attn
