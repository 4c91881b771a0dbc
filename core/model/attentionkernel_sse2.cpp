// The attention kernels for SSE2, which every x86-64 processor has: 16 vector registers of 4 floats, no fused multiply-add.
// Compiled with its own instruction-set flags (core/CMakeLists.txt); run only
// where attentionkernels.cpp finds the processor can.

#include <immintrin.h>

namespace attn::kernels::sse2 {

namespace {

using Reg = __m128;
constexpr long kWidth = 4;
constexpr long kRows = 6;
constexpr long kVectors = 2;

inline Reg loadu(const float *p)
{
    return _mm_loadu_ps(p);
}
inline void storeu(float *p, Reg x)
{
    _mm_storeu_ps(p, x);
}
inline Reg broadcast(float x)
{
    return _mm_set1_ps(x);
}
inline Reg zero()
{
    return _mm_setzero_ps();
}
inline Reg multiplyAdd(Reg a, Reg b, Reg c)
{
    return _mm_add_ps(_mm_mul_ps(a, b), c); // SSE2 has no fused multiply-add
}

} // namespace

#include "model/attentionkernelbody.h"

} // namespace attn::kernels::sse2
