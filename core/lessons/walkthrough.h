#pragma once
// The guided walkthrough as plain data: one step per stage of the attention
// computation for one query and head, with its formula filled in with the
// numbers of an AttentionResult (read from it, never recomputed another way).

#include "attention/attention.h"
#include "lessons/notation.h"

#include <QString>
#include <QStringList>
#include <vector>

namespace attn {

enum class WalkthroughStepKind {
    AddPositions,
    PickQuery,
    SharedKeyValues,   // key/value heads shared by several query heads
    RotatePositions,   // rotary positions: q and k turned
    RelativePositions, // rotary positions: only the distance counts
    Scores,
    Scale,
    Mask,
    Softmax,
    WeightValues,
    SumContext,
    Project
};

// One filled-in formula. `numbers` are the results the line shows (a score,
// a weight, a vector), carried as doubles so tests compare them exactly with
// the result instead of parsing the text.
struct FormulaLine
{
    QString text;
    int key = -1; // the key the line is about, -1 when none
    std::vector<double> numbers;
};

struct WalkthroughStep
{
    WalkthroughStepKind kind = WalkthroughStepKind::PickQuery;
    QString title;
    QString explanation;
    std::vector<FormulaLine> lines;
    // What the views could highlight while the step is shown.
    int query = 0;
    std::vector<int> keys; // key columns the lines talk about
    std::vector<int> dims; // dimensions the lines spell out
};

// How much of a long sentence or vector is written out; the rest is
// summarised as "… (+N more)".
struct WalkthroughLimits
{
    int maxKeys = 12;
    int maxTerms = 8;
};

// The steps that apply to this result: adding positions only when positional
// encoding is on (`embeddings`, the vectors before it, are then written out;
// without them they are recovered from the inputs), the groups of heads only
// when heads share keys and values, turning q and k and what that means only
// with rotary positions (about the key the query weights most among the
// others), scaling only when the scores are
// scaled, the mask only under a causal mask, the projection only when there
// is an output matrix; the neighbouring steps say briefly what was skipped.
// A model's layer that turned q and k by position gets the two steps of
// model/rotarywalkthrough.h after the query is picked.
// Query and head are clamped into range. `queryTokens` label the rows,
// `keyTokens` the keys (the source's tokens in cross-attention).
std::vector<WalkthroughStep> buildWalkthrough(const QStringList &queryTokens, const QStringList &keyTokens,
                                              const AttentionResult &result, int query, int head,
                                              const WalkthroughLimits &limits = {},
                                              const Eigen::MatrixXd *embeddings = nullptr);

} // namespace attn
