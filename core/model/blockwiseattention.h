#pragma once
// attn::attention in float, a block of query rows at a time: the block's
// scores against the keys it may see, their softmax while they are still in
// the cache, and their weights times V at once, for each head in turn (so the
// weights' sum over heads stays in the cache too). Under the causal mask the
// keys no row of a block may see are never multiplied with V (nor scored,
// unless the raw scores are kept: they are shown above the diagonal too).
// The two cores take blocks in turn, each row computed by the same
// instructions whichever block holds it. Part of model/attentionop.cpp,
// which checks the sizes and calls it; not to be called from elsewhere.

#include "model/attentionop.h"

namespace attn::detail {

template<typename In>
AttentionOutput<float> blockwiseAttention(const In &queries, const In &keys, const In &values,
                                          const AttentionSettings &settings);

} // namespace attn::detail
