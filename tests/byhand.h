#pragma once
// Reference computations written for the tests apart from the code under
// test, in double and long double.
//
// The heatmap's pooling: cell (y, x) of a matrix drawn in at most `side` cells a side covers
// rows [y n / h, (y + 1) n / h) and columns likewise; its value is the
// visible entry of largest magnitude (the larger of two equal ones); NaN
// when none is visible (causal: key j of query i is visible when j <= i + m - n).

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <limits>

template<typename Matrix>
Eigen::MatrixXd pooledByHand(const Matrix &matrix, bool causal, Eigen::Index side)
{
    using Index = Eigen::Index;
    const Index n = matrix.rows(), m = matrix.cols();
    const Index h = std::min(n, side), w = std::min(m, side);
    Eigen::MatrixXd out(h, w);
    for (Index y = 0; y < h; ++y)
        for (Index x = 0; x < w; ++x) {
            double best = std::numeric_limits<double>::quiet_NaN();
            for (Index r = y * n / h; r < (y + 1) * n / h; ++r)
                for (Index c = x * m / w; c < (x + 1) * m / w; ++c) {
                    if (causal && c > r + m - n)
                        continue;
                    const double v = double(matrix(r, c));
                    if (std::isnan(best) || std::abs(v) > std::abs(best) || (std::abs(v) == std::abs(best) && v > best))
                        best = v;
                }
            out(y, x) = best;
        }
    return out;
}

// The largest difference between pooled cells; infinite when their masked cells differ.
template<typename Pooled>
double pooledDifference(const Pooled &cells, const Eigen::MatrixXd &expected)
{
    if (cells.rows() != expected.rows() || cells.cols() != expected.cols())
        return INFINITY;
    double largest = 0;
    for (Eigen::Index y = 0; y < expected.rows(); ++y)
        for (Eigen::Index x = 0; x < expected.cols(); ++x) {
            const double a = double(cells(y, x)), b = expected(y, x);
            if (std::isnan(a) != std::isnan(b))
                return INFINITY;
            if (!std::isnan(a))
                largest = std::max(largest, std::abs(a - b));
        }
    return largest;
}

// Each row's softmax of scores * scale over its visible keys (causal: key j of
// query i when j <= i + m - n), summed in long double; masked weights 0.
template<typename Matrix>
Matrix softmaxByHand(const Matrix &scores, double scale, bool causal)
{
    using Index = Eigen::Index;
    const Index n = scores.rows(), m = scores.cols();
    Matrix weights = Matrix::Zero(n, m);
    for (Index i = 0; i < n; ++i) {
        const Index visible = causal ? i + 1 + m - n : m;
        long double largest = -INFINITY, sum = 0;
        for (Index j = 0; j < visible; ++j)
            largest = std::max(largest, (long double)(scores(i, j) * scale));
        for (Index j = 0; j < visible; ++j)
            sum += std::exp((long double)(scores(i, j) * scale) - largest);
        for (Index j = 0; j < visible; ++j)
            weights(i, j) = double(std::exp((long double)(scores(i, j) * scale) - largest) / sum);
    }
    return weights;
}
