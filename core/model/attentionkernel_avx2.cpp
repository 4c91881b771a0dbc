// The attention kernels for AVX2 with FMA: 16 vector registers of 8 floats.
// Compiled with its own instruction-set flags (core/CMakeLists.txt); run only
// where attentionkernels.cpp finds the processor can.

#include <immintrin.h>

namespace attn::kernels::avx2 {

namespace {

using Reg = __m256;
constexpr long kWidth = 8;
constexpr long kRows = 6;
constexpr long kVectors = 2;

inline Reg loadu(const float *p)
{
    return _mm256_loadu_ps(p);
}
inline void storeu(float *p, Reg x)
{
    _mm256_storeu_ps(p, x);
}
inline Reg broadcast(float x)
{
    return _mm256_set1_ps(x);
}
inline Reg zero()
{
    return _mm256_setzero_ps();
}
inline Reg multiplyAdd(Reg a, Reg b, Reg c)
{
    return _mm256_fmadd_ps(a, b, c);
}

} // namespace

#include "model/attentionkernelbody.h"

} // namespace attn::kernels::avx2
