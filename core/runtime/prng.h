#pragma once
// A tiny, fully specified random generator (SplitMix64), so that default
// embeddings and generated weights are the same numbers on every platform and
// compiler; std::uniform_real_distribution gives no such promise.

#include <cstdint>

namespace attn {

class SplitMix64
{
public:
    explicit SplitMix64(std::uint64_t seed) : m_state(seed) {}

    std::uint64_t next()
    {
        std::uint64_t z = (m_state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }

    // Uniform in [0, 1), built from the top 53 bits so it is exact in a double.
    double nextUnit() { return double(next() >> 11) * (1.0 / 9007199254740992.0); }

    // Uniform in [-limit, limit).
    double nextSymmetric(double limit) { return (2.0 * nextUnit() - 1.0) * limit; }

private:
    std::uint64_t m_state;
};

// FNV-1a over bytes: a stable hash to seed a generator from a word or a label.
inline std::uint64_t stableHash(const char *data, std::size_t size, std::uint64_t basis = 0xcbf29ce484222325ull)
{
    std::uint64_t h = basis;
    for (std::size_t i = 0; i < size; ++i) {
        h ^= static_cast<unsigned char>(data[i]);
        h *= 0x100000001b3ull;
    }
    return h;
}

} // namespace attn
