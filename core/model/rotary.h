#pragma once
// Rotary position embedding (RoPE), as transformers applies it: each head's
// q and k turned pairwise by an angle that grows with the position, so that
// q_i . k_j depends on i - j and not on where the pair stands.
//
// The "rotate half" pairing: of the first `dimensions` values of a head, pair
// i is (x[i], x[i + dimensions/2]), turned by position * frequency[i]:
//   x[i]     <- x[i] cos - x[i + half] sin
//   x[i + h] <- x[i + half] cos + x[i] sin
// Values past `dimensions` (partial rotary) are left as they are.

#include "model/rotaryconfig.h"
#include "model/modeltypes.h"

#include <vector>

namespace attn {

// The frequency of each pair (dimensions / 2 of them): theta^(-2i/dimensions),
// stretched as config.scaling says; `local` takes Gemma 3's local base and no
// scaling. In float, as transformers keeps inv_freq.
std::vector<float> rotaryFrequencies(const RotaryConfig &config, bool local = false);

// Rotates every head (headDim values each, `heads` of them side by side) of
// every row of x in place; row r stands at position firstPosition + r.
void applyRotary(RowMatrix<float> &x, int heads, int headDim, int dimensions, const std::vector<float> &frequencies,
                 Eigen::Index firstPosition);

// The same turned back (angle -position * frequency): a rotated vector as it was.
void undoRotary(RowMatrix<float> &x, int heads, int headDim, int dimensions, const std::vector<float> &frequencies,
                Eigen::Index firstPosition);

// The angle pair i turns by at `position`, in radians (as applyRotary computes it: in float).
float rotaryAngle(const std::vector<float> &frequencies, int pair, Eigen::Index position);

} // namespace attn
