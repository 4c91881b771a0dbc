// The attention kernels for AVX-512F (with FMA): 32 vector registers of 16 floats.
// Compiled with its own instruction-set flags (core/CMakeLists.txt); run only
// where attentionkernels.cpp finds the processor can.

// GCC 12's AVX-512 intrinsics start from _mm512_undefined_ps(), which it then
// takes for an uninitialised variable (a false alarm inside its own header).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#include <immintrin.h>

#include "model/attentionkernels.h" // RowExtras: a plain struct, no inline code

namespace attn::kernels::avx512 {

namespace {

using Reg = __m512;
constexpr long kWidth = 16;
constexpr long kRows = 6;
constexpr long kVectors = 4;
// narrowContext: 3 rows of 8 sums and their 3 weights fit the 32 registers.
constexpr long kNarrowRows = 3;
constexpr long kNarrowMost = 8;

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

inline Reg add(Reg a, Reg b)
{
    return _mm512_add_ps(a, b);
}
inline Reg multiply(Reg a, Reg b)
{
    return _mm512_mul_ps(a, b);
}
// The second operand when either is NaN: larger(bound, x) keeps a NaN x.
inline Reg larger(Reg a, Reg b)
{
    return _mm512_max_ps(a, b);
}
inline __mmask16 lanesBelow(long count)
{
    return __mmask16(count >= 16 ? 0xffff : (1u << count) - 1u);
}
inline Reg loadPart(const float *p, long count)
{
    return _mm512_maskz_loadu_ps(lanesBelow(count), p);
}
inline void storePart(float *p, Reg x, long count)
{
    _mm512_mask_storeu_ps(p, lanesBelow(count), x);
}
inline Reg firstLanes(Reg x, long count, float fill)
{
    return _mm512_mask_blend_ps(lanesBelow(count), _mm512_set1_ps(fill), x);
}
inline Reg roundToIntegral(Reg x)
{
    return _mm512_roundscale_ps(x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
}
// y times 2^n, n integral: one instruction here (the others build 2^n's bits).
inline Reg timesPowerOfTwo(Reg y, Reg n)
{
    return _mm512_scalef_ps(y, n);
}
// kWidth weights stored as bfloat16 (a float's upper half) or IEEE half, as floats.
inline Reg widenBfloat16(const std::uint16_t *p)
{
    const __m512i wide = _mm512_cvtepu16_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i *>(p)));
    return _mm512_castsi512_ps(_mm512_slli_epi32(wide, 16));
}
inline Reg widenHalf(const std::uint16_t *p)
{
    return _mm512_cvtph_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i *>(p)));
}

} // namespace

#include "model/attentionkernelbody.h"
#include "model/densekernelbody.h"

} // namespace attn::kernels::avx512
