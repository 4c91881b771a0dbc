#pragma once
// An IEEE half's bits as a float, exactly, for the kernel sets whose
// processors cannot convert halves (attentionkernel_sse2.cpp, _portable.cpp).
// In an anonymous namespace: each kernel file compiles its own copy with its
// own flags (attentionkernelbody.h says why that matters).

#include <cstdint>
#include <cstring>

namespace {

inline float halfToFloat(std::uint16_t half)
{
    const std::uint32_t sign = std::uint32_t(half & 0x8000u) << 16, exponent = (half >> 10) & 0x1fu,
                        mantissa = half & 0x3ffu;
    std::uint32_t bits;
    if (exponent == 0x1f) // infinity or NaN
        bits = sign | 0x7f800000u | (mantissa << 13);
    else if (exponent != 0) // normal: rebias 15 -> 127
        bits = sign | ((exponent + 112) << 23) | (mantissa << 13);
    else { // zero or subnormal: mantissa * 2^-24, exact in a float
        float magnitude = float(mantissa) * (1.0f / 16777216.0f);
        std::memcpy(&bits, &magnitude, sizeof bits);
        bits |= sign;
    }
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
}

} // namespace
