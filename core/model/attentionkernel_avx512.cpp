// The attention kernels for AVX-512F (with FMA): 32 vector registers of 16 floats.
// Compiled with its own instruction-set flags (core/CMakeLists.txt); run only
// where attentionkernels.cpp finds the processor can.

#include <immintrin.h>

namespace attn::kernels::avx512 {

namespace {

using Reg = __m512;
constexpr long kWidth = 16;
constexpr long kRows = 6;
constexpr long kVectors = 4;

inline Reg loadu(const float *p)
{
    return _mm512_loadu_ps(p);
}
inline void storeu(float *p, Reg x)
{
    _mm512_storeu_ps(p, x);
}
inline Reg broadcast(float x)
{
    return _mm512_set1_ps(x);
}
inline Reg zero()
{
    return _mm512_setzero_ps();
}
inline Reg multiplyAdd(Reg a, Reg b, Reg c)
{
    return _mm512_fmadd_ps(a, b, c);
}

} // namespace

#include "model/attentionkernelbody.h"

} // namespace attn::kernels::avx512
