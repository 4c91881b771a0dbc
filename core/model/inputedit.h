#pragma once
// Changing a model's input rather than its weights: the deltas that move one
// token's embedding towards another's, or set its first dimensions, as
// ForwardOptions::embeddingEdits takes them (added to the token's embedding
// row before the position embedding, so they act like editing that row for
// one position).

#include "model/forward.h"

#include <optional>
#include <vector>

namespace attn {

// (wte[to] - wte[from]) * fraction: `fraction` of the way from token `from`'s
// embedding to token `to`'s (1: the row becomes `to`'s exactly). Throws
// ModelInputError for an id outside the vocabulary.
RowVector<float> deltaTowards(const ModelParameters &model, int from, int to, double fraction);

// The delta that sets the first values.size() dimensions of token `token`'s
// embedding to `values` and leaves the others. Throws ModelInputError for an
// id outside the vocabulary or more values than d_model.
RowVector<float> deltaSettingFirstDims(const ModelParameters &model, int token, const std::vector<float> &values);

// The length (Euclidean norm, summed in double) of token `token`'s embedding
// row as the model stores it, before any edit; nullopt for an id outside the
// vocabulary. What the window's Embedding panel says of a model's token.
std::optional<double> tokenEmbeddingNorm(const ModelParameters &model, int token);

// The summed delta the edits give `position` (zeros when none edits it).
RowVector<float> positionDelta(const std::vector<EmbeddingEdit> &edits, int position, int dModel);

// The first position below `limit` whose summed delta differs between the two
// lists of edits; `limit` when none does. What incremental reuse must stop at.
int firstDifferingEdit(const std::vector<EmbeddingEdit> &a, const std::vector<EmbeddingEdit> &b, int limit,
                       int dModel);

} // namespace attn
