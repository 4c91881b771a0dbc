#include "io/ggmltypes.h"

#include <QtEndian>
#include <cmath>
#include <cstring>

namespace attn {
namespace {

constexpr int kQK = 256; // values per K-quant super-block

quint16 half16(const uchar *p) { return qFromLittleEndian<quint16>(p); }
float halfAt(const uchar *p) { return halfToFloat(half16(p)); }
bool finite(float x) { return std::isfinite(x); }

// ggml-quants.c get_scale_min_k4: the j-th 6-bit scale and min of Q4_K/Q5_K's 12 bytes.
void scaleMinK4(int j, const uchar *q, quint8 *d, quint8 *m)
{
    if (j < 4) {
        *d = q[j] & 63;
        *m = q[j + 4] & 63;
    } else {
        *d = quint8((q[j + 4] & 0xF) | ((q[j - 4] >> 6) << 4));
        *m = quint8((q[j + 4] >> 4) | ((q[j - 0] >> 6) << 4));
    }
}

// Each block: 32 values; the low nibbles are values 0-15, the high 16-31.
bool q4_0(const uchar *b, float *y)
{
    const float d = halfAt(b);
    for (int j = 0; j < 16; ++j) {
        y[j] = float((b[2 + j] & 0x0F) - 8) * d;
        y[j + 16] = float((b[2 + j] >> 4) - 8) * d;
    }
    return finite(d);
}

bool q4_1(const uchar *b, float *y)
{
    const float d = halfAt(b), m = halfAt(b + 2);
    for (int j = 0; j < 16; ++j) {
        y[j] = float(b[4 + j] & 0x0F) * d + m;
        y[j + 16] = float(b[4 + j] >> 4) * d + m;
    }
    return finite(d) && finite(m);
}

bool q5_0(const uchar *b, float *y)
{
    const float d = halfAt(b);
    const quint32 qh = qFromLittleEndian<quint32>(b + 2);
    for (int j = 0; j < 16; ++j) {
        const int high0 = int(((qh >> (j + 0)) << 4) & 0x10), high1 = int((qh >> (j + 12)) & 0x10);
        y[j] = float(((b[6 + j] & 0x0F) | high0) - 16) * d;
        y[j + 16] = float(((b[6 + j] >> 4) | high1) - 16) * d;
    }
    return finite(d);
}

bool q5_1(const uchar *b, float *y)
{
    const float d = halfAt(b), m = halfAt(b + 2);
    const quint32 qh = qFromLittleEndian<quint32>(b + 4);
    for (int j = 0; j < 16; ++j) {
        const int high0 = int(((qh >> (j + 0)) << 4) & 0x10), high1 = int((qh >> (j + 12)) & 0x10);
        y[j] = float((b[8 + j] & 0x0F) | high0) * d + m;
        y[j + 16] = float((b[8 + j] >> 4) | high1) * d + m;
    }
    return finite(d) && finite(m);
}

bool q8_0(const uchar *b, float *y)
{
    const float d = halfAt(b);
    for (int j = 0; j < 32; ++j)
        y[j] = float(qint8(b[2 + j])) * d;
    return finite(d);
}

// Q2_K: scales[16], qs[64], d, dmin.
bool q2_k(const uchar *b, float *y)
{
    const uchar *scales = b, *q = b + 16;
    const float d = halfAt(b + 80), min = halfAt(b + 82);
    int is = 0;
    for (int n = 0; n < kQK; n += 128) {
        int shift = 0;
        for (int j = 0; j < 4; ++j) {
            quint8 sc = scales[is++];
            float dl = d * float(sc & 0xF), ml = min * float(sc >> 4);
            for (int l = 0; l < 16; ++l)
                *y++ = dl * float((q[l] >> shift) & 3) - ml;
            sc = scales[is++];
            dl = d * float(sc & 0xF);
            ml = min * float(sc >> 4);
            for (int l = 0; l < 16; ++l)
                *y++ = dl * float((q[l + 16] >> shift) & 3) - ml;
            shift += 2;
        }
        q += 32;
    }
    return finite(d) && finite(min);
}

// Q3_K: hmask[32], qs[64], scales[12] (16 six-bit scales), d.
bool q3_k(const uchar *b, float *y)
{
    const uchar *hm = b, *q = b + 32;
    const float all = halfAt(b + 108);
    quint32 aux[4];
    std::memcpy(aux, b + 96, 12);
    const quint32 kmask1 = 0x03030303, kmask2 = 0x0f0f0f0f, tmp = aux[2];
    aux[2] = ((aux[0] >> 4) & kmask2) | (((tmp >> 4) & kmask1) << 4);
    aux[3] = ((aux[1] >> 4) & kmask2) | (((tmp >> 6) & kmask1) << 4);
    aux[0] = (aux[0] & kmask2) | (((tmp >> 0) & kmask1) << 4);
    aux[1] = (aux[1] & kmask2) | (((tmp >> 2) & kmask1) << 4);
    qint8 scales[16];
    std::memcpy(scales, aux, 16);
    int is = 0;
    quint8 m = 1;
    for (int n = 0; n < kQK; n += 128) {
        int shift = 0;
        for (int j = 0; j < 4; ++j) {
            float dl = all * float(scales[is++] - 32);
            for (int l = 0; l < 16; ++l)
                *y++ = dl * float(int((q[l] >> shift) & 3) - ((hm[l] & m) ? 0 : 4));
            dl = all * float(scales[is++] - 32);
            for (int l = 0; l < 16; ++l)
                *y++ = dl * float(int((q[l + 16] >> shift) & 3) - ((hm[l + 16] & m) ? 0 : 4));
            shift += 2;
            m = quint8(m << 1);
        }
        q += 32;
    }
    return finite(all);
}

// Q4_K: d, dmin, scales[12], qs[128].
bool q4_k(const uchar *b, float *y)
{
    const float d = halfAt(b), min = halfAt(b + 2);
    const uchar *scales = b + 4, *q = b + 16;
    int is = 0;
    for (int j = 0; j < kQK; j += 64) {
        quint8 sc, m;
        scaleMinK4(is + 0, scales, &sc, &m);
        const float d1 = d * float(sc), m1 = min * float(m);
        scaleMinK4(is + 1, scales, &sc, &m);
        const float d2 = d * float(sc), m2 = min * float(m);
        for (int l = 0; l < 32; ++l)
            *y++ = d1 * float(q[l] & 0xF) - m1;
        for (int l = 0; l < 32; ++l)
            *y++ = d2 * float(q[l] >> 4) - m2;
        q += 32;
        is += 2;
    }
    return finite(d) && finite(min);
}

// Q5_K: d, dmin, scales[12], qh[32], qs[128].
bool q5_k(const uchar *b, float *y)
{
    const float d = halfAt(b), min = halfAt(b + 2);
    const uchar *scales = b + 4, *qh = b + 16, *ql = b + 48;
    int is = 0;
    quint8 u1 = 1, u2 = 2;
    for (int j = 0; j < kQK; j += 64) {
        quint8 sc, m;
        scaleMinK4(is + 0, scales, &sc, &m);
        const float d1 = d * float(sc), m1 = min * float(m);
        scaleMinK4(is + 1, scales, &sc, &m);
        const float d2 = d * float(sc), m2 = min * float(m);
        for (int l = 0; l < 32; ++l)
            *y++ = d1 * float((ql[l] & 0xF) + ((qh[l] & u1) ? 16 : 0)) - m1;
        for (int l = 0; l < 32; ++l)
            *y++ = d2 * float((ql[l] >> 4) + ((qh[l] & u2) ? 16 : 0)) - m2;
        ql += 32;
        is += 2;
        u1 = quint8(u1 << 2);
        u2 = quint8(u2 << 2);
    }
    return finite(d) && finite(min);
}

// Q6_K: ql[128], qh[64], scales[16] (signed), d.
bool q6_k(const uchar *b, float *y)
{
    const uchar *ql = b, *qh = b + 128;
    const qint8 *sc = reinterpret_cast<const qint8 *>(b + 192);
    const float d = halfAt(b + 208);
    for (int n = 0; n < kQK; n += 128) {
        for (int l = 0; l < 32; ++l) {
            const int is = l / 16;
            const int q1 = int((ql[l + 0] & 0xF) | (((qh[l] >> 0) & 3) << 4)) - 32;
            const int q2 = int((ql[l + 32] & 0xF) | (((qh[l] >> 2) & 3) << 4)) - 32;
            const int q3 = int((ql[l + 0] >> 4) | (((qh[l] >> 4) & 3) << 4)) - 32;
            const int q4 = int((ql[l + 32] >> 4) | (((qh[l] >> 6) & 3) << 4)) - 32;
            y[l + 0] = d * float(sc[is + 0]) * float(q1);
            y[l + 32] = d * float(sc[is + 2]) * float(q2);
            y[l + 64] = d * float(sc[is + 4]) * float(q3);
            y[l + 96] = d * float(sc[is + 6]) * float(q4);
        }
        y += 128;
        ql += 64;
        qh += 32;
        sc += 8;
    }
    return finite(d);
}

struct Known
{
    quint32 id;
    GgmlTypeInfo info;
};

// gguf-py constants.py GGML_QUANT_SIZES (Q8_1 per ggml-common.h's struct).
constexpr Known kTypes[] = {
    {0, {"F32", 1, 4, true}},         {1, {"F16", 1, 2, true}},          {2, {"Q4_0", 32, 18, true}},
    {3, {"Q4_1", 32, 20, true}},      {6, {"Q5_0", 32, 22, true}},       {7, {"Q5_1", 32, 24, true}},
    {8, {"Q8_0", 32, 34, true}},      {9, {"Q8_1", 32, 36, false}},      {10, {"Q2_K", 256, 84, true}},
    {11, {"Q3_K", 256, 110, true}},   {12, {"Q4_K", 256, 144, true}},    {13, {"Q5_K", 256, 176, true}},
    {14, {"Q6_K", 256, 210, true}},   {15, {"Q8_K", 256, 292, false}},   {16, {"IQ2_XXS", 256, 66, false}},
    {17, {"IQ2_XS", 256, 74, false}}, {18, {"IQ3_XXS", 256, 98, false}}, {19, {"IQ1_S", 256, 50, false}},
    {20, {"IQ4_NL", 32, 18, false}},  {21, {"IQ3_S", 256, 110, false}},  {22, {"IQ2_S", 256, 82, false}},
    {23, {"IQ4_XS", 256, 136, false}}, {24, {"I8", 1, 1, false}},        {25, {"I16", 1, 2, false}},
    {26, {"I32", 1, 4, false}},       {27, {"I64", 1, 8, false}},        {28, {"F64", 1, 8, false}},
    {29, {"IQ1_M", 256, 56, false}},  {30, {"BF16", 1, 2, true}},        {34, {"TQ1_0", 256, 54, false}},
    {35, {"TQ2_0", 256, 66, false}},  {39, {"MXFP4", 32, 17, false}},
};

} // namespace

float halfToFloat(quint16 h)
{
    const quint32 sign = quint32(h & 0x8000) << 16;
    quint32 exponent = (h >> 10) & 0x1F, mantissa = h & 0x3FF, bits;
    if (exponent == 0x1F) {
        bits = sign | 0x7F800000u | (mantissa << 13); // infinity or NaN
    } else if (exponent != 0) {
        bits = sign | ((exponent + 112) << 23) | (mantissa << 13);
    } else if (mantissa == 0) {
        bits = sign; // zero
    } else {
        // A subnormal half is a normal float: shift the mantissa up.
        exponent = 113;
        while ((mantissa & 0x400) == 0) {
            mantissa <<= 1;
            --exponent;
        }
        bits = sign | (exponent << 23) | ((mantissa & 0x3FF) << 13);
    }
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
}

std::optional<GgmlTypeInfo> ggmlTypeInfo(quint32 type)
{
    for (const Known &k : kTypes)
        if (k.id == type)
            return k.info;
    return std::nullopt;
}

bool dequantizeBlocks(GgmlType type, const uchar *src, qint64 blocks, float *dst, qint64 *bad)
{
    bool (*block)(const uchar *, float *) = nullptr;
    switch (type) {
    case GgmlType::F32:
        std::memcpy(dst, src, std::size_t(blocks) * sizeof(float));
        for (qint64 i = 0; i < blocks; ++i)
            if (!finite(dst[i])) {
                *bad = i;
                return false;
            }
        return true;
    case GgmlType::F16:
        for (qint64 i = 0; i < blocks; ++i)
            if (!finite(dst[i] = halfToFloat(half16(src + 2 * i)))) {
                *bad = i;
                return false;
            }
        return true;
    case GgmlType::BF16:
        for (qint64 i = 0; i < blocks; ++i) {
            const quint32 bits = quint32(half16(src + 2 * i)) << 16;
            std::memcpy(dst + i, &bits, sizeof bits);
        }
        for (qint64 i = 0; i < blocks; ++i)
            if (!finite(dst[i])) {
                *bad = i;
                return false;
            }
        return true;
    case GgmlType::Q4_0: block = q4_0; break;
    case GgmlType::Q4_1: block = q4_1; break;
    case GgmlType::Q5_0: block = q5_0; break;
    case GgmlType::Q5_1: block = q5_1; break;
    case GgmlType::Q8_0: block = q8_0; break;
    case GgmlType::Q2_K: block = q2_k; break;
    case GgmlType::Q3_K: block = q3_k; break;
    case GgmlType::Q4_K: block = q4_k; break;
    case GgmlType::Q5_K: block = q5_k; break;
    case GgmlType::Q6_K: block = q6_k; break;
    }
    const GgmlTypeInfo info = *ggmlTypeInfo(quint32(type));
    for (qint64 i = 0; i < blocks; ++i)
        if (!block(src + i * info.blockBytes, dst + i * info.blockValues)) {
            *bad = i;
            return false;
        }
    return true;
}

} // namespace attn
