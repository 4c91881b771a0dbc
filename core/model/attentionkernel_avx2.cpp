// The attention kernels for AVX2 with FMA: 16 vector registers of 8 floats.
// Compiled with its own instruction-set flags (core/CMakeLists.txt); run only
// where attentionkernels.cpp finds the processor can.

#include <immintrin.h>

#include "model/attentionkernels.h" // RowExtras: a plain struct, no inline code

namespace attn::kernels::avx2 {

namespace {

using Reg = __m256;
constexpr long kWidth = 8;
constexpr long kRows = 6;
constexpr long kVectors = 2;
// narrowContext: 2 rows of 4 sums and their 2 weights fit the 16 registers; wider V is as fast by rows.
constexpr long kNarrowRows = 2;
constexpr long kNarrowMost = 4;

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

inline Reg add(Reg a, Reg b)
{
    return _mm256_add_ps(a, b);
}
inline Reg multiply(Reg a, Reg b)
{
    return _mm256_mul_ps(a, b);
}
// The second operand when either is NaN: larger(bound, x) keeps a NaN x.
inline Reg larger(Reg a, Reg b)
{
    return _mm256_max_ps(a, b);
}
inline __m256i lanesBelow(long count)
{
    return _mm256_cmpgt_epi32(_mm256_set1_epi32(int(count < 8 ? count : 8)), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}
inline Reg loadPart(const float *p, long count)
{
    return _mm256_maskload_ps(p, lanesBelow(count));
}
inline void storePart(float *p, Reg x, long count)
{
    _mm256_maskstore_ps(p, lanesBelow(count), x);
}
inline Reg firstLanes(Reg x, long count, float fill)
{
    return _mm256_blendv_ps(_mm256_set1_ps(fill), x, _mm256_castsi256_ps(lanesBelow(count)));
}
inline Reg roundToIntegral(Reg x)
{
    return _mm256_round_ps(x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
}
// y times 2^n, n integral in [-126, 127]: n's bits as a float's exponent.
inline Reg timesPowerOfTwo(Reg y, Reg n)
{
    const __m256i biased = _mm256_add_epi32(_mm256_cvtps_epi32(n), _mm256_set1_epi32(127));
    return _mm256_mul_ps(y, _mm256_castsi256_ps(_mm256_slli_epi32(biased, 23)));
}
// kWidth weights stored as bfloat16 (a float's upper half) or IEEE half (F16C, which every AVX2 processor has), as floats.
inline Reg widenBfloat16(const std::uint16_t *p)
{
    const __m256i wide = _mm256_cvtepu16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i *>(p)));
    return _mm256_castsi256_ps(_mm256_slli_epi32(wide, 16));
}
inline Reg widenHalf(const std::uint16_t *p)
{
    return _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i *>(p)));
}

} // namespace

#include "model/attentionkernelbody.h"
#include "model/densekernelbody.h"

} // namespace attn::kernels::avx2
