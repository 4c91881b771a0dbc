#pragma once
// The walkthrough's steps for the two ideas of today's models (internal to
// lessons/walkthrough.cpp): rotary positions, which turn q and k instead of adding
// to x, and key/value heads shared by several query heads.

#include "lessons/walkthrough.h"

namespace attn::walk {

// What these steps need to know of the walkthrough: its result, head,
// query, the key they single out, and how names are written.
struct PositionsContext
{
    const AttentionResult &result;
    int head = 0;
    int query = 0;
    int key = 0; // the key whose k the rotary steps turn
    QStringList queryTokens, keyTokens;
    WalkthroughLimits limits;
    QString queryName, keyName, valueName; // "q", "k", "v" (or x, y in simplified mode)
};

// The key the rotary steps single out: the one the query weights most among
// the other positions (its own key turns by the same angle, which hides the
// lesson), the query itself when it is the only key.
int rotaryKeyFor(const AttentionResult &result, int head, int query);

// q of the query and k of `key` before they were turned: x·W_q and y·W_k of
// the head (its key/value head's W_k), or x and y themselves in simplified
// mode; without the session's matrices (a model's layer), turned back.
Eigen::RowVectorXd unturnedQuery(const AttentionResult &result, int head, int query);
Eigen::RowVectorXd unturnedKey(const AttentionResult &result, int head, int key);

// "Turn q and k by their positions": each pair's angle and the numbers before and after.
WalkthroughStep rotaryStep(const PositionsContext &c);
// "Only the distance counts": the same two vectors moved together keep their
// score, another distance changes it; sinusoidal positions side by side.
// `embeddings` are the vectors before any position (the session's X).
WalkthroughStep distanceStep(const PositionsContext &c, const Eigen::MatrixXd &embeddings);
// "Heads that share keys and values": the groups, what they save per token and what they cost.
WalkthroughStep sharedKeyValuesStep(const PositionsContext &c);

} // namespace attn::walk
