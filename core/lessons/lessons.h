#pragma once
// Variants of a session for the learning demos (self vs cross-attention,
// scaling, word order, causal mask) and the per-key pieces of a context
// vector. The demos run these through the same engine as the main view, so
// every number they show is the core's.

#include "session/session.h"

#include <Eigen/Dense>
#include <cstdint>
#include <vector>

namespace attn {

// The same session as plain self-attention (the source dropped).
Session withoutSource(const Session &session);
// The same session with the causal mask switched on or off.
Session withCausal(const Session &session, bool causal);
// One head of scaled dot-product attention, at least `minHeadDim` wide, with
// scaling on or off: how large dot products get and what that does to softmax.
Session withScaling(const Session &session, bool scale, int minHeadDim = 64);
// The same session with positional encoding set.
Session withPositionalEncoding(const Session &session, PositionalEncoding encoding);

// A shuffle of 0..n-1 from a seed (never the identity when n > 1):
// order[p] is the original index of the token now at position p.
std::vector<int> shuffleOrder(int tokens, std::uint64_t seed);
// Tokens, embedding rows and the source stay together; the query follows its
// token; the sentence becomes the shuffled tokens joined by spaces.
Session shuffled(const Session &session, const std::vector<int> &order);
// A matrix computed in shuffled order, put back in the original order:
// out(order[a], order[b]) = m(a, b). Without positional encoding this gives
// back the original weights, because attention only sees the set of tokens.
Eigen::MatrixXd unshuffle(const Eigen::MatrixXd &shuffledMatrix, const std::vector<int> &order);

// Row j is what key j adds to the query's context vector: α_qj · v_j.
// The rows sum to the context row.
Eigen::MatrixXd contributions(const HeadResult &head, int query);

} // namespace attn
