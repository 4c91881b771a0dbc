#pragma once
// Per-head pattern scores: how much of a head's attention follows a named
// pattern (previous token, duplicate token, induction, first token, self),
// so a lesson can point at "the previous-token head" by a number.

#include "model/forward.h"

#include <optional>
#include <vector>

namespace attn {

// One weight of interest: from query `query` to key `key` (the pronoun lesson
// asks how much "it" attends to the noun it stands for).
struct QueryKey
{
    int query = 0;
    int key = 0;
};

// Every score is a mean, over the queries that qualify, of the weight each
// such query puts on its qualifying keys (summed when a query has several).
// Weights are a head's softmax rows (queries x keys), tokens the input ids;
// positions are numbered from 0. A score no query qualifies for is NaN
// (std::isnan), never 0: "this head ignores the pattern" and "this input
// cannot show it" are different answers.
//
// Query 0 never counts: in a causal model it can attend only to itself, so
// it would add a 1 to the self and first-token scores that says nothing
// about the head. Only keys at or before the query are looked at, as in a
// causal model; a bidirectional head's weight on later keys counts in none.
//
// In a layer with a sliding window (query i sees key j only when
// i - window < j <= i), a key outside the query's window is no candidate,
// and a query left with none does not count: a head cannot be faulted for
// not looking where it cannot see.
struct HeadScores
{
    // Queries 1 ... n-1; key i - 1. NaN for fewer than 2 tokens.
    double previousToken = 0;
    // Queries i whose token occurred before; keys j < i with tokens[j] ==
    // tokens[i], their weights summed. NaN when no token repeats.
    double duplicate = 0;
    // Queries i whose token occurred before at some j with j + 1 < i; keys
    // j + 1 (the token that followed each earlier occurrence), each such key
    // counted once. A query that followed an occurrence directly (j = i - 1,
    // so j + 1 would be the query itself) has only its other occurrences.
    // NaN when no query qualifies. On a random sequence repeated once, an
    // ideal induction head scores 1.
    double induction = 0;
    // The first token's share: queries 1 ... n-1 that can see key 0 (all of
    // them, or those before the window's length); key 0, the "attention
    // sink" of most heads in today's models. NaN for fewer than 2 tokens.
    double firstToken = 0;
    // Queries 1 ... n-1; key i (the diagonal). NaN for fewer than 2 tokens.
    double self = 0;
    // The weight from QueryKey::query to QueryKey::key; NaN when none was
    // chosen or either position is outside the matrix.
    double chosenKey = 0;
};

// The scores of one head of a layer whose sliding window is `window` (0:
// none). Throws std::invalid_argument unless `weights` is square with one
// row per token.
HeadScores headScores(const MatrixIn<float> &weights, const std::vector<int> &tokens,
                      const std::optional<QueryKey> &chosen = std::nullopt, int window = 0);

// Every head of every layer of `trace` (the forward pass over `tokens`):
// result[layer][head]; windows[layer] is the layer's sliding window (0 or
// missing: none). The keys each pattern looks at depend only on the tokens
// and the window, so they are found once for all heads: O(n + repeats) per
// head, where repeats is the number of (query, earlier equal token) pairs.
std::vector<std::vector<HeadScores>> traceHeadScores(const ModelTrace &trace, const std::vector<int> &tokens,
                                                     const std::optional<QueryKey> &chosen = std::nullopt,
                                                     const std::vector<int> &windows = {});

// Every head of one layer (a row of traceHeadScores), for a pass shown as it goes.
std::vector<HeadScores> layerHeadScores(const LayerTrace &layer, const std::vector<int> &tokens,
                                        const std::optional<QueryKey> &chosen = std::nullopt, int window = 0);

// A head's pattern sums row by row: rows[i] holds each pattern's total and
// the queries counted over queries 0 ... i. A longer text whose first rows
// are the same (a word typed at the end of a causal text) goes on from them,
// so a typed word reads only its own rows, and its scores are the ones
// computed whole, to the bit: the sums are added in the same order.
struct HeadScoreRows
{
    struct Sums // previous token, first token, self, duplicate, induction
    {
        double total[5] = {};
        int queries[5] = {};
    };
    std::vector<Sums> rows;
};

// layerHeadScores (no chosen key) keeping every head's sums in `rows`; with
// `earlier` (the same layer's over a text whose first `reused` tokens and
// weight rows are this one's), its sums over those rows are taken as they
// are. An `earlier` of other heads or fewer rows is not used.
std::vector<HeadScores> layerHeadScores(const LayerTrace &layer, const std::vector<int> &tokens, int window,
                                        std::vector<HeadScoreRows> &rows,
                                        const std::vector<HeadScoreRows> *earlier = nullptr, int reused = 0);

// `table` (traceHeadScores of `trace`) with every head's chosenKey set for
// `chosen` and the other scores kept: picking another word, or another
// query, needs no new pass over the weights.
std::vector<std::vector<HeadScores>> withChosenKey(std::vector<std::vector<HeadScores>> table, const ModelTrace &trace,
                                                   const std::optional<QueryKey> &chosen);

// The head of `layer` with the highest value of `score` (NaN scores never
// win); nothing when the layer has no head with a number.
std::optional<int> bestHead(const std::vector<HeadScores> &layer, double HeadScores::*score);

} // namespace attn
