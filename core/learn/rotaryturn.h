#pragma once
// Rotary positions for training: q and k turned as model/rotary.cpp turns them
// (the rotate-half pairing, each angle position * frequency in float, its
// cosine and sine from double), written for any scalar so that the double
// gradient checks run the same code, and turned back for the backward pass.
// A rotation is orthogonal: the gradient of turned rows is the gradient of the
// rows before, turned back by the same angles.

#include "model/modeltypes.h"
#include "model/rotaryconfig.h"

namespace attn {

// The cosine and sine of every position's angle for every pair: [positions, pairs].
template<typename S>
struct RotaryTable
{
    RowMatrix<S> cosines, sines;
    int pairs() const { return int(cosines.cols()); }
    Eigen::Index positions() const { return cosines.rows(); }
};

// The table of positions 0 ... positions - 1 for `config`'s frequencies (model/rotary.h).
template<typename S>
RotaryTable<S> rotaryTable(const RotaryConfig &config, int positions);

// Turns `heads` heads of headDim values side by side in each row of x, in
// place; rows hold sequences of `length` tokens one after another (row r
// stands at position r % length). Of each head the first 2 * table.pairs()
// values turn. `back`: turn by the opposite angles (the backward pass).
template<typename S>
void turnHeads(RowMatrix<S> &x, int heads, int headDim, int length, const RotaryTable<S> &table, bool back = false);

} // namespace attn
