#pragma once
// How strongly one head's weights follow the four classic attention patterns.
// To be replaced by core/model/headscores (written on another branch) once it
// is merged: these are private, small versions of the same definitions.

#include "model/modeltypes.h"
#include "trainingcurves.h"

#include <vector>

// `weights`: one head's n x n causal weights over `tokens` (n ids). Each score
// is a mean over the queries where the pattern is defined:
//   previous-token: the weight on key i - 1 (queries 1..n-1);
//   induction: the weight on the keys just after an earlier occurrence of the
//     query's token (queries with such an occurrence; 0 when none has);
//   diagonal: the weight on the query itself;
//   first-token: the weight on key 0 (queries 1..n-1, query 0 has no choice).
PatternScores headPatternScores(const attn::RowMatrix<float> &weights, const std::vector<int> &tokens);
