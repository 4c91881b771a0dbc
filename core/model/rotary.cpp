#include "model/rotary.h"

#include <algorithm>
#include <cmath>

namespace attn {
namespace {

// modeling_rope_utils.py, _compute_llama3_parameters: long wavelengths are
// divided by the factor, short ones kept, the band between blended.
double llama3Frequency(const RotaryConfig &c, double frequency)
{
    const double pi = 3.14159265358979323846;
    const double lowWavelength = c.originalPositions / c.lowFrequencyFactor;
    const double highWavelength = c.originalPositions / c.highFrequencyFactor;
    const double wavelength = 2 * pi / frequency;
    if (wavelength > lowWavelength)
        return frequency / c.factor;
    if (wavelength < highWavelength)
        return frequency;
    const double smooth = (c.originalPositions / wavelength - c.lowFrequencyFactor)
                        / (c.highFrequencyFactor - c.lowFrequencyFactor);
    return (1 - smooth) * frequency / c.factor + smooth * frequency;
}

void turn(RowMatrix<float> &x, int heads, int headDim, int dimensions, const std::vector<float> &frequencies,
          Eigen::Index firstPosition, float direction)
{
    const int half = dimensions / 2;
    std::vector<float> cosines(static_cast<std::size_t>(half)), sines(static_cast<std::size_t>(half));
    for (Eigen::Index r = 0; r < x.rows(); ++r) {
        for (int i = 0; i < half; ++i) {
            const float angle = rotaryAngle(frequencies, i, firstPosition + r);
            cosines[std::size_t(i)] = float(std::cos(double(angle)));
            sines[std::size_t(i)] = direction * float(std::sin(double(angle)));
        }
        float *row = x.row(r).data();
        for (int h = 0; h < heads; ++h) {
            float *head = row + std::ptrdiff_t(h) * headDim;
            for (int i = 0; i < half; ++i) {
                const float a = head[i], b = head[i + half];
                const float c = cosines[std::size_t(i)], s = sines[std::size_t(i)];
                head[i] = a * c - b * s;
                head[i + half] = b * c + a * s;
            }
        }
    }
}

} // namespace

std::vector<float> rotaryFrequencies(const RotaryConfig &c, bool local)
{
    const int pairs = c.dimensions / 2;
    const double theta = local && c.localTheta > 0 ? c.localTheta : c.theta;
    std::vector<float> frequencies(std::size_t(std::max(pairs, 0)));
    for (int i = 0; i < pairs; ++i) {
        // 1 / theta^(2i / d), with theta^(2i/d) in float as torch computes it.
        const float power = float(std::pow(theta, double(float(2 * i) / float(c.dimensions))));
        double frequency = double(1.0f / power);
        if (!local || c.localTheta <= 0) {
            if (c.scaling == RopeScaling::Linear)
                frequency /= c.factor;
            else if (c.scaling == RopeScaling::Llama3)
                frequency = llama3Frequency(c, frequency);
            if (std::size_t(i) < c.frequencyFactors.size())
                frequency = double(float(frequency) / c.frequencyFactors[std::size_t(i)]);
        }
        frequencies[std::size_t(i)] = float(frequency);
    }
    return frequencies;
}

float rotaryAngle(const std::vector<float> &frequencies, int pair, Eigen::Index position)
{
    return float(position) * frequencies[std::size_t(pair)];
}

void applyRotary(RowMatrix<float> &x, int heads, int headDim, int dimensions, const std::vector<float> &frequencies,
                 Eigen::Index firstPosition)
{
    turn(x, heads, headDim, dimensions, frequencies, firstPosition, 1.0f);
}

void undoRotary(RowMatrix<float> &x, int heads, int headDim, int dimensions, const std::vector<float> &frequencies,
                Eigen::Index firstPosition)
{
    turn(x, heads, headDim, dimensions, frequencies, firstPosition, -1.0f);
}

} // namespace attn
