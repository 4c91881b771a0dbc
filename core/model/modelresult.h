#pragma once
// The result file of a trained model (contract section 6, version 2): what
// `compute --model` writes and `export --model … .json` is to write too.

#include "model/forward.h"

#include <QJsonObject>
#include <vector>

namespace attn {

class ModelTokenizer;

struct ModelResultOptions
{
    int top = 10;          // next-token (and [MASK]) predictions to list
    bool rollout = false;  // add "rollout" (attention rollout of every layer)
    bool scores = true;    // add each head's raw scores (when the trace kept them)
    std::set<LayerHead> ablatedHeads; // written as "ablated": [[layer, head], ...]
    // model.format: the container and the type of most weights, "safetensors-F32", "gguf-Q4_K".
    QString format = QStringLiteral("safetensors-F32");
};

// Layers with more than this many leave their scores out of a result: the
// contract allows it, and a 12-layer model's scores double a large file.
constexpr int kMaxLayersWithScores = 8;

// The result object. `tokens` are the display texts of `tokenIds`; `tokenizer`
// names the predicted tokens. Numbers are the trace's floats, as doubles:
// attn::formatJson writes them so they read back the same.
QJsonObject modelResultJson(const ModelConfig &config, const std::vector<int> &tokenIds,
                            const std::vector<QString> &tokens, const ModelTrace &trace,
                            const ModelTokenizer &tokenizer, const ModelResultOptions &options);

} // namespace attn
