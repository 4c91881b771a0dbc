#pragma once
// Bar columns for the demos, read straight from snapshots the core computed:
// one query's scores, scaled scores or weights in one head.

#include "barcolumnsview.h"
#include "snapshot.h"

#include <vector>

enum class DemoRow { Scores, ScaledScores, Weights };

// The query's row of one kind; masked keys are marked, and the largest
// weight (or score) is highlighted. Empty values when there is no result.
BarColumn demoColumn(const QString &title, const AttentionSnapshot &snapshot, int query, int head, DemoRow row);

// The weights of a snapshot computed on a shuffled sentence, put back in the
// original word order (`order` from attn::shuffleOrder), labelled with the
// original tokens: comparable row by row with the unshuffled weights.
BarColumn unshuffledWeightsColumn(const QString &title, const AttentionSnapshot &shuffled,
                                  const std::vector<int> &order, const QStringList &originalTokens, int originalQuery,
                                  int head);

// "largest weight 0.97 (“step”)" for a footer.
QString largestWeightText(const BarColumn &column);
