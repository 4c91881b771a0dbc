// The attention kernels for processors other than x86-64, one float at a
// time (the compiler may vectorise them for its own target). x86-64 builds
// use attentionkernel_sse2/avx2/avx512.cpp instead (core/CMakeLists.txt).

#include <cstdint>
#include <cstring>

#include "model/attentionkernels.h" // RowExtras: a plain struct, no inline code
#include "model/halftofloat.h"

namespace attn::kernels::portable {

namespace {

using Reg = float;
constexpr long kWidth = 1;
constexpr long kRows = 6;
constexpr long kVectors = 4;
// narrowContext: one lane: a dot product gains nothing over a row of V at a time.
constexpr long kNarrowRows = 1;
constexpr long kNarrowMost = 0;

inline Reg loadu(const float *p)
{
    return *p;
}
inline void storeu(float *p, Reg x)
{
    *p = x;
}
inline Reg broadcast(float x)
{
    return x;
}
inline Reg zero()
{
    return 0.0f;
}
inline Reg multiplyAdd(Reg a, Reg b, Reg c)
{
    return a * b + c;
}
inline Reg add(Reg a, Reg b)
{
    return a + b;
}
inline Reg multiply(Reg a, Reg b)
{
    return a * b;
}
// b when either is NaN, as x86's maxps.
inline Reg larger(Reg a, Reg b)
{
    return a > b ? a : b;
}
inline Reg loadPart(const float *p, long count)
{
    return count > 0 ? *p : 0.0f;
}
inline void storePart(float *p, Reg x, long count)
{
    if (count > 0)
        *p = x;
}
inline Reg firstLanes(Reg x, long count, float fill)
{
    return count > 0 ? x : fill;
}
inline Reg roundToIntegral(Reg x)
{
    return float(long(x < 0 ? x - 0.5f : x + 0.5f)); // |x| < 2^7 here
}
// y times 2^n, n integral in [-126, 127]: n's bits as a float's exponent.
inline Reg timesPowerOfTwo(Reg y, Reg n)
{
    const std::uint32_t bits = std::uint32_t(long(n) + 127) << 23;
    float power;
    std::memcpy(&power, &bits, sizeof power);
    return y * power;
}
// A weight stored as bfloat16 (a float's upper half) or IEEE half, as a float.
inline Reg widenBfloat16(const std::uint16_t *p)
{
    const std::uint32_t bits = std::uint32_t(*p) << 16;
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
}
inline Reg widenHalf(const std::uint16_t *p)
{
    return halfToFloat(*p);
}

} // namespace

#include "model/attentionkernelbody.h"
#include "model/densekernelbody.h"

} // namespace attn::kernels::portable
