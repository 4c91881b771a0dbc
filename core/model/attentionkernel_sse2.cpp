// The attention kernels for SSE2, which every x86-64 processor has: 16
// vector registers of 4 floats, no fused multiply-add. Compiled with the
// build's own flags, for processors without AVX2.

#include <immintrin.h>

#include "model/attentionkernels.h" // RowExtras: a plain struct, no inline code
#include "model/halftofloat.h"

namespace attn::kernels::sse2 {

namespace {

using Reg = __m128;
constexpr long kWidth = 4;
constexpr long kRows = 6;
constexpr long kVectors = 2;
// narrowContext: with 4 lanes, only the narrowest V gains.
constexpr long kNarrowRows = 2;
constexpr long kNarrowMost = 2;

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

inline Reg add(Reg a, Reg b)
{
    return _mm_add_ps(a, b);
}
inline Reg multiply(Reg a, Reg b)
{
    return _mm_mul_ps(a, b);
}
// The second operand when either is NaN: larger(bound, x) keeps a NaN x.
inline Reg larger(Reg a, Reg b)
{
    return _mm_max_ps(a, b);
}
// SSE2 has no masked loads or stores: a lane at a time.
inline Reg loadPart(const float *p, long count)
{
    float lanes[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (long c = 0; c < count && c < 4; ++c)
        lanes[c] = p[c];
    return _mm_loadu_ps(lanes);
}
inline void storePart(float *p, Reg x, long count)
{
    float lanes[4];
    _mm_storeu_ps(lanes, x);
    for (long c = 0; c < count && c < 4; ++c)
        p[c] = lanes[c];
}
inline Reg firstLanes(Reg x, long count, float fill)
{
    const __m128i lanes = _mm_setr_epi32(0, 1, 2, 3);
    const Reg keep = _mm_castsi128_ps(_mm_cmpgt_epi32(_mm_set1_epi32(int(count < 4 ? count : 4)), lanes));
    return _mm_or_ps(_mm_and_ps(keep, x), _mm_andnot_ps(keep, _mm_set1_ps(fill)));
}
inline Reg roundToIntegral(Reg x)
{
    return _mm_cvtepi32_ps(_mm_cvtps_epi32(x)); // to nearest, as the processor rounds by default
}
// y times 2^n, n integral in [-126, 127]: n's bits as a float's exponent.
inline Reg timesPowerOfTwo(Reg y, Reg n)
{
    const __m128i biased = _mm_add_epi32(_mm_cvtps_epi32(n), _mm_set1_epi32(127));
    return _mm_mul_ps(y, _mm_castsi128_ps(_mm_slli_epi32(biased, 23)));
}
// kWidth weights stored as bfloat16 (each a float's upper half) or IEEE
// half (SSE2 cannot convert those: one at a time), as floats.
inline Reg widenBfloat16(const std::uint16_t *p)
{
    const __m128i four = _mm_loadl_epi64(reinterpret_cast<const __m128i *>(p));
    return _mm_castsi128_ps(_mm_unpacklo_epi16(_mm_setzero_si128(), four));
}
inline Reg widenHalf(const std::uint16_t *p)
{
    return _mm_setr_ps(halfToFloat(p[0]), halfToFloat(p[1]), halfToFloat(p[2]), halfToFloat(p[3]));
}

} // namespace

#include "model/attentionkernelbody.h"
#include "model/densekernelbody.h"

} // namespace attn::kernels::sse2
