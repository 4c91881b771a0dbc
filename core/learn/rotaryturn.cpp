#include "learn/rotaryturn.h"

#include "model/rotary.h"

#include <cmath>

namespace attn {

template<typename S>
RotaryTable<S> rotaryTable(const RotaryConfig &config, int positions)
{
    const std::vector<float> frequencies = rotaryFrequencies(config);
    const int pairs = int(frequencies.size());
    RotaryTable<S> t{RowMatrix<S>(positions, pairs), RowMatrix<S>(positions, pairs)};
    for (int p = 0; p < positions; ++p)
        for (int i = 0; i < pairs; ++i) {
            // As model/rotary.cpp: the angle in float, its cosine and sine in double.
            const float angle = rotaryAngle(frequencies, i, p);
            t.cosines(p, i) = S(std::cos(double(angle)));
            t.sines(p, i) = S(std::sin(double(angle)));
        }
    return t;
}

template<typename S>
void turnHeads(RowMatrix<S> &x, int heads, int headDim, int length, const RotaryTable<S> &table, bool back)
{
    const int half = table.pairs();
    const S direction = back ? S(-1) : S(1);
    for (Eigen::Index r = 0; r < x.rows(); ++r) {
        const Eigen::Index position = r % length;
        const S *cosines = table.cosines.row(position).data();
        const S *sines = table.sines.row(position).data();
        S *row = x.row(r).data();
        for (int h = 0; h < heads; ++h) {
            S *head = row + std::ptrdiff_t(h) * headDim;
            for (int i = 0; i < half; ++i) {
                const S a = head[i], b = head[i + half];
                const S c = cosines[i], s = direction * sines[i];
                head[i] = a * c - b * s;
                head[i + half] = b * c + a * s;
            }
        }
    }
}

template RotaryTable<float> rotaryTable<float>(const RotaryConfig &, int);
template RotaryTable<double> rotaryTable<double>(const RotaryConfig &, int);
template void turnHeads<float>(RowMatrix<float> &, int, int, int, const RotaryTable<float> &, bool);
template void turnHeads<double>(RowMatrix<double> &, int, int, int, const RotaryTable<double> &, bool);

} // namespace attn
