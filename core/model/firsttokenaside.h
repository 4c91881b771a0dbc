#pragma once
// Attention sinks set aside. Most heads of today's decoders park most of
// their weight on the first token (an "attention sink"), which leaves every
// other weight too pale to read. Here a head's weights get key 0's column set
// aside and each row's other weights divided by their sum, so that they sum
// to 1 again: what the head does with the rest of its attention. These are
// not the weights the model computed; every view made from them says so.

#include "attention/attention.h"
#include "model/modeltypes.h"

namespace attn {

// What a row of weights (key 0 first, `count` of them) is multiplied by once
// key 0 is set aside: 1 / (weights[1] + ... + weights[count - 1]), summed in
// double (a sink of 0.9999 leaves 1 - w0 to float's rounding), or 0 when
// they sum to 0 (a row that sees only the first token, as query 0 of a
// causal model, has nothing left to show).
double firstTokenAsideScale(const float *weights, Eigen::Index count);
double firstTokenAsideScale(const double *weights, Eigen::Index count);

// Every row of `weights` so: column 0 is 0, the rest renormalised.
RowMatrix<float> firstTokenAside(const MatrixIn<float> &weights);

// A head's weights (or their mean) so. Double-precision matrices (teaching
// sizes) are computed at once, in double; single-precision ones keep nothing
// n x m: their rows are read from `weights` and scaled when asked.
AttentionMatrix firstTokenAside(const AttentionMatrix &weights);

// `result` with every head's weights set aside and meanWeights the mean of
// those (the average tile shows what the heads do besides the sink, each head
// counted alike). Scores, q, k, v, contexts and the output stay as computed.
AttentionResult firstTokenAside(const AttentionResult &result);

} // namespace attn
