#include "attention/rotarypositions.h"

namespace attn {

std::vector<double> rotaryPairFrequencies(int headDim, double theta)
{
    std::vector<double> frequencies(std::size_t(std::max(headDim / 2, 0)));
    for (std::size_t i = 0; i < frequencies.size(); ++i)
        frequencies[i] = std::pow(theta, -2.0 * double(i) / double(headDim));
    return frequencies;
}

Eigen::RowVectorXd rotatedAt(const Eigen::Ref<const Eigen::RowVectorXd> &x, Eigen::Index position, double theta)
{
    const int width = int(x.size()), half = width / 2;
    const std::vector<double> frequencies = rotaryPairFrequencies(width, theta);
    Eigen::RowVectorXd out = x;
    for (int i = 0; i < half; ++i) {
        const RotatedPair turned = rotatePair(x[i], x[i + half], rotaryPairAngle(frequencies, i, position));
        out[i] = turned.first;
        out[i + half] = turned.second;
    }
    return out;
}

} // namespace attn
