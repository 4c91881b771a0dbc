#pragma once
// Rotary positions for hand-made sessions (contract section 9), in double:
// each head's q and k turned pairwise by an angle that grows with the
// position, in the rotate-half pairing of model/rotary.h (pair i is
// (x[i], x[i + head_dim/2]), turned by position * theta^(-2i/head_dim)).
// Models keep their own float version there; sessions compute in double and
// show every angle, so they have theirs here, written for any scalar.

#include <Eigen/Dense>
#include <cmath>
#include <vector>

namespace attn {

// The frequency of each of the headDim / 2 pairs: theta^(-2i/headDim).
std::vector<double> rotaryPairFrequencies(int headDim, double theta);

// The angle pair i turns by at `position`, in radians.
inline double rotaryPairAngle(const std::vector<double> &frequencies, int pair, Eigen::Index position)
{
    return double(position) * frequencies[std::size_t(pair)];
}

// (a, b) turned by `angle`: (a cos - b sin, b cos + a sin).
struct RotatedPair
{
    double first, second;
};
inline RotatedPair rotatePair(double a, double b, double angle)
{
    const double c = std::cos(angle), s = std::sin(angle);
    return {a * c - b * s, b * c + a * s};
}

// Turns `heads` heads of width headDim, side by side from column
// firstColumn of x, in place; row r stands at position r. Matrices stored by
// columns, as sessions hold them; the cosines and sines in double whatever S.
template<typename S>
void rotateHeadsByPosition(Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic> &x, Eigen::Index firstColumn, int heads,
                           int headDim, const std::vector<double> &frequencies)
{
    const int half = headDim / 2;
    Eigen::Matrix<S, Eigen::Dynamic, 1> cosines(x.rows()), sines(x.rows());
    for (int i = 0; i < half; ++i) {
        for (Eigen::Index r = 0; r < x.rows(); ++r) {
            const double angle = rotaryPairAngle(frequencies, i, r);
            cosines[r] = S(std::cos(angle));
            sines[r] = S(std::sin(angle));
        }
        for (int h = 0; h < heads; ++h) {
            const Eigen::Index col = firstColumn + Eigen::Index(h) * headDim + i;
            auto a = x.col(col), b = x.col(col + half);
            const Eigen::Matrix<S, Eigen::Dynamic, 1> oldA = a;
            a = (a.array() * cosines.array() - b.array() * sines.array()).matrix();
            b = (b.array() * cosines.array() + oldA.array() * sines.array()).matrix();
        }
    }
}

// A copy of x (heads of width headDim side by side) with every row turned to its position.
template<typename S>
Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic>
rotatedByPosition(const Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic> &x, int heads, int headDim, double theta)
{
    Eigen::Matrix<S, Eigen::Dynamic, Eigen::Dynamic> out = x;
    rotateHeadsByPosition<S>(out, 0, heads, headDim, rotaryPairFrequencies(headDim, theta));
    return out;
}

// One vector of width headDim turned as if it stood at `position`.
Eigen::RowVectorXd rotatedAt(const Eigen::Ref<const Eigen::RowVectorXd> &x, Eigen::Index position, double theta);

} // namespace attn
