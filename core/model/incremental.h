#pragma once
// Typing into a causal model: a text that keeps the start of the last one
// only needs its new positions computed. Under the causal mask position i
// sees positions 0 ... i alone, so every number of the unchanged prefix (its
// hidden states, queries, keys, values, context, attention rows) is the same
// in the longer text and is copied; only the rows from the first changed
// token on are computed, their attention reading the prefix's keys and values.

#include "model/forward.h"

namespace attn {

// The trace forward(model, ids, options) gives, reusing `previous` (a trace
// of this same model: nothing checks the weights) where it
// can: on the same ids with other switched-off heads, the layers before the
// first that changed (reusableLayers); else for a causal model computed with the same ablated heads and score keeping, the
// positions from the first id (or embedding edit) that differs from previous on are
// computed (at least the last one, which gives the next-token prediction:
// a shorter text or the same one recomputes only its last position).
// Anything else (BERT, whose positions all see each other; other options; a
// different first token) is a full forward(). Throws as forward() does.
ModelTrace extendTrace(const ModelParameters &model, const ModelTrace &previous, const std::vector<int> &ids,
                       const ForwardOptions &options = {});

// The number of leading positions extendTrace() takes from `previous` (0: a full pass).
int reusablePrefix(const ModelParameters &model, const ModelTrace &previous, const std::vector<int> &ids,
                   const ForwardOptions &options);

// Switching heads off or on in any model on the same tokens: the first layer
// whose switched-off heads differ between `previous` and `options`, before
// which nothing changes (its layers and their input are taken from
// `previous`; extendTrace() computes only the layers from it on). 0 when
// nothing can be taken: another text, other edits or score keeping,
// or the same heads.
int reusableLayers(const ModelParameters &model, const ModelTrace &previous, const std::vector<int> &ids,
                   const ForwardOptions &options);

// The pass behind both forward() and extendTrace(): positions
// `from` ... n-1 are computed, rows 0 ... from-1 of every matrix copied from
// `prefix`, which must hold at least `from` positions of the same ids and options
// (unused when from is 0). With fromLayer > 0 instead, layers 0 ... fromLayer-1
// and their input are copied from `prefix` (over the same ids, with the same
// switched-off heads in those layers) and the layers from fromLayer on are
// computed at every position. Checks the input as forward() does.
ModelTrace forwardFrom(const ModelParameters &model, const std::vector<int> &ids, const ForwardOptions &options,
                             const ModelTrace *prefix, int from, int fromLayer = 0);

} // namespace attn
