#pragma once
// What the bench commands share: repeated timing, deterministic random data,
// and the sizes every JSON line starts with.

#include "cliparse.h"
#include "runtime/prng.h"

#include <Eigen/Dense>
#include <QElapsedTimer>
#include <QJsonObject>
#include <algorithm>
#include <vector>

struct Timing
{
    double medianMs = 0;
    double minMs = 0;
};

inline Timing summarize(std::vector<double> ms)
{
    std::sort(ms.begin(), ms.end());
    return {ms[ms.size() / 2], ms.front()};
}

template<typename F>
Timing timeRepeated(int repeat, F &&work)
{
    std::vector<double> ms;
    for (int r = 0; r < repeat; ++r) {
        QElapsedTimer t;
        t.start();
        work();
        ms.push_back(t.nsecsElapsed() / 1e6);
    }
    return summarize(std::move(ms));
}

inline Eigen::MatrixXd randomMatrix(int rows, int cols, std::uint64_t seed)
{
    attn::SplitMix64 rng(seed);
    Eigen::MatrixXd m(rows, cols);
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c)
            m(r, c) = rng.nextSymmetric(1.0);
    return m;
}

// The sizes a bench line reports first.
inline QJsonObject sizesJson(const BenchArgs &args)
{
    QJsonObject out;
    out["tokens"] = args.tokens;
    out["d_model"] = args.dModel;
    out["heads"] = args.heads;
    out["head_dim"] = args.headDim;
    out["causal"] = args.causal;
    out["repeat"] = args.repeat;
    return out;
}
