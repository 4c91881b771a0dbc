// The body of the attention kernels (see attentionkernels.h), included by one
// file per instruction set after it defines, in its own namespace:
//   Reg, kWidth (floats in Reg), kRows, kVectors (the register tile),
//   kNarrowRows and kNarrowMost (narrowContext's rows at a time and widest V),
//   loadu(const float *), storeu(float *, Reg), loadPart and storePart (the
//   first `count` lanes only, nothing touched past them), broadcast(float), zero(),
//   multiplyAdd(a, b, c) = a * b + c, add, multiply, larger (max),
//   firstLanes(x, count, fill) (lanes from count on replaced by fill),
//   roundToIntegral (to nearest), timesPowerOfTwo(y, n) = y * 2^n (n integral in [-126, 127]).
// No #include and nothing outside an anonymous namespace but the two entry
// points: an inline function compiled here with AVX flags must never be
// shared with (and picked by the linker for) code that runs everywhere.
// No include guard: each instruction set's file includes it once.

namespace {

constexpr long kPanel = kWidth * kVectors;

inline long smaller(long a, long b)
{
    return a < b ? a : b;
}

// Rows past the last are read as the last row again (and not stored), so a
// partial group runs the same instructions as a full one.
template<typename Pointer, long Group>
inline void rowPointers(Pointer base, long stride, long first, long count, Pointer (&out)[Group])
{
    for (long r = 0; r < Group; ++r)
        out[r] = base + (first + smaller(r, count - 1)) * stride;
}

inline void scoreTile(const float *const q[kRows], const float *panel, long dk, float *const s[kRows], long rows,
                      long cols)
{
    Reg acc[kRows][kVectors];
    for (long r = 0; r < kRows; ++r)
        for (long c = 0; c < kVectors; ++c)
            acc[r][c] = zero();
    for (long k = 0; k < dk; ++k) {
        Reg b[kVectors];
        for (long c = 0; c < kVectors; ++c)
            b[c] = loadu(panel + k * kPanel + c * kWidth);
        for (long r = 0; r < kRows; ++r) {
            const Reg a = broadcast(q[r][k]);
            for (long c = 0; c < kVectors; ++c)
                acc[r][c] = multiplyAdd(a, b[c], acc[r][c]);
        }
    }
    if (cols >= kPanel) {
        for (long r = 0; r < rows; ++r)
            for (long c = 0; c < kVectors; ++c)
                storeu(s[r] + c * kWidth, acc[r][c]);
        return;
    }
    for (long r = 0; r < rows; ++r)
        for (long c = 0; c * kWidth < cols; ++c)
            storePart(s[r] + c * kWidth, acc[r][c], cols - c * kWidth);
}

template<long Vectors>
inline void contextTile(const float *const w[kRows], long keys, const float *v, long ldv, float *const z[kRows],
                        long rows)
{
    Reg acc[kRows][Vectors];
    for (long r = 0; r < kRows; ++r)
        for (long c = 0; c < Vectors; ++c)
            acc[r][c] = zero();
    for (long j = 0; j < keys; ++j) {
        Reg b[Vectors];
        for (long c = 0; c < Vectors; ++c)
            b[c] = loadu(v + j * ldv + c * kWidth);
        for (long r = 0; r < kRows; ++r) {
            const Reg a = broadcast(w[r][j]);
            for (long c = 0; c < Vectors; ++c)
                acc[r][c] = multiplyAdd(a, b[c], acc[r][c]);
        }
    }
    for (long r = 0; r < rows; ++r)
        for (long c = 0; c < Vectors; ++c)
            storeu(z[r] + c * kWidth, acc[r][c]);
}

// The sum of x's lanes, always in the same order.
inline float sumOfLanes(Reg x)
{
    float lanes[kWidth];
    storeu(lanes, x);
    float sum = lanes[0];
    for (long l = 1; l < kWidth; ++l)
        sum += lanes[l];
    return sum;
}

// Rows of narrowContext, Dv columns of V: each output a dot product of a
// weights row with a column of V, the keys along the vector lanes.
template<long Dv>
inline void narrowTile(const float *const w[kNarrowRows], long keys, const float *vt, long ldvt,
                       float *const z[kNarrowRows], long rows)
{
    Reg acc[kNarrowRows][Dv];
    for (long r = 0; r < kNarrowRows; ++r)
        for (long c = 0; c < Dv; ++c)
            acc[r][c] = zero();
    const long full = keys / kWidth * kWidth, rest = keys - full;
    for (long j = 0; j < full; j += kWidth) {
        Reg a[kNarrowRows];
        for (long r = 0; r < kNarrowRows; ++r)
            a[r] = loadu(w[r] + j);
        for (long c = 0; c < Dv; ++c) {
            const Reg v = loadu(vt + c * ldvt + j);
            for (long r = 0; r < kNarrowRows; ++r)
                acc[r][c] = multiplyAdd(a[r], v, acc[r][c]);
        }
    }
    if (rest) {
        Reg a[kNarrowRows];
        for (long r = 0; r < kNarrowRows; ++r)
            a[r] = loadPart(w[r] + full, rest);
        for (long c = 0; c < Dv; ++c) {
            const Reg v = loadPart(vt + c * ldvt + full, rest);
            for (long r = 0; r < kNarrowRows; ++r)
                acc[r][c] = multiplyAdd(a[r], v, acc[r][c]);
        }
    }
    for (long r = 0; r < rows; ++r)
        for (long c = 0; c < Dv; ++c)
            z[r][c] = sumOfLanes(acc[r][c]);
}

template<long Dv>
inline void narrowRows(const float *w, long ldw, long rows, long keys, const float *vt, long ldvt, float *z,
                       long ldz)
{
    for (long r0 = 0; r0 < rows; r0 += kNarrowRows) {
        const long count = smaller(kNarrowRows, rows - r0);
        const float *wr[kNarrowRows];
        float *zr[kNarrowRows];
        rowPointers(w, ldw, r0, count, wr);
        rowPointers(z, ldz, r0, count, zr);
        narrowTile<Dv>(wr, keys, vt, ldvt, zr, count);
    }
}

// narrowRows<dv>, for dv from Dv to kNarrowMost.
template<long Dv>
inline void narrowFrom(long dv, const float *w, long ldw, long rows, long keys, const float *vt, long ldvt, float *z,
                       long ldz)
{
    if constexpr (Dv <= kNarrowMost) {
        if (dv == Dv)
            narrowRows<Dv>(w, ldw, rows, keys, vt, ldvt, z, ldz);
        else
            narrowFrom<Dv + 1>(dv, w, ldw, rows, keys, vt, ldvt, z, ldz);
    }
}

// 2^t for t <= 0 (a scaled score less its row's largest, in base 2): 2^n
// for the integer n nearest t, times 2^(t - n) from a polynomial on
// [-1/2, 1/2] (relative error 2e-9 before float's rounding; the coefficients
// are fitted by scripts/fit_exp2.py). Base 2 saves the two steps of taking
// n ln 2 off a natural exponent. Below -126, where float's normal numbers
// end, it stays at 2^-126 (about 1.2e-38): a weight that small is 0 to
// float's eye beside the row's largest, which is 1.
inline Reg twoToThe(Reg t)
{
    t = larger(broadcast(-126.0f), t);
    const Reg n = roundToIntegral(t);
    const Reg r = multiplyAdd(n, broadcast(-1.0f), t); // exact: n and t are within 1/2
    Reg y = multiplyAdd(broadcast(1.5353362e-4f), r, broadcast(1.3398875e-3f));
    y = multiplyAdd(y, r, broadcast(9.618437e-3f));
    y = multiplyAdd(y, r, broadcast(5.5503324e-2f));
    y = multiplyAdd(y, r, broadcast(2.4022648e-1f));
    y = multiplyAdd(y, r, broadcast(6.931472e-1f));
    y = multiplyAdd(y, r, broadcast(1.0f));
    return timesPowerOfTwo(y, n);
}

// The softmax of one row (see softmax below), and what else is done with the
// row while it is in registers (RowExtras): PoolScores and PoolWeights pool
// the raw scores and the weights into a thumbnail line, Sum adds the weights
// to the heads' sum.
template<bool PoolScores, bool PoolWeights, bool Sum>
inline void softmaxRow(const float *in, float *out, long visible, float scale, float *max, float *inverseSum,
                       const RowExtras *extras)
{
    const long full = visible / kWidth * kWidth, rest = visible - full;
    const float minusInfinity = -__builtin_huge_valf();
    const Reg minusOne = broadcast(-1.0f);
    // The largest score times a positive scale is the largest scaled score:
    // one product a row instead of one a key (the scale is never negative
    // in practice: 1/sqrt(d_k) or 1).
    const bool positive = scale > 0.0f;
    const Reg s = broadcast(scale);
    const auto scaled = [&](Reg x) { return positive ? x : multiply(x, s); };
    Reg top = broadcast(minusInfinity);
    for (long j = 0; j < full; j += kWidth) {
        const Reg x = loadu(in + j);
        top = larger(top, scaled(x));
        if constexpr (PoolScores) {
            const Reg negated = multiply(x, minusOne);
            storeu(extras->high + j, extras->firstRow ? x : larger(loadu(extras->high + j), x));
            storeu(extras->low + j, extras->firstRow ? negated : larger(loadu(extras->low + j), negated));
        }
    }
    if (rest) {
        const Reg x = loadPart(in + full, rest);
        top = larger(top, firstLanes(scaled(x), rest, minusInfinity));
        if constexpr (PoolScores) {
            const Reg negated = multiply(x, minusOne);
            storePart(extras->high + full, extras->firstRow ? x : larger(loadPart(extras->high + full, rest), x), rest);
            storePart(extras->low + full,
                      extras->firstRow ? negated : larger(loadPart(extras->low + full, rest), negated), rest);
        }
    }
    float lanes[kWidth];
    storeu(lanes, top);
    float largest = lanes[0];
    for (long c = 1; c < kWidth; ++c)
        largest = lanes[c] > largest ? lanes[c] : largest;
    if (positive)
        largest *= scale;

    // exp(x s - largest) = 2^(x s log2(e) - largest log2(e)), one fused
    // multiply-add a key; the largest becomes about 2^0 = 1, so nothing overflows.
    constexpr float log2e = 1.44269504088896341f;
    const Reg toBaseTwo = broadcast(scale * log2e), less = broadcast(-largest * log2e);
    Reg total = zero();
    for (long j = 0; j < full; j += kWidth) {
        const Reg e = twoToThe(multiplyAdd(loadu(in + j), toBaseTwo, less));
        storeu(out + j, e);
        total = add(total, e);
    }
    if (rest) {
        const Reg e = firstLanes(twoToThe(multiplyAdd(loadPart(in + full, rest), toBaseTwo, less)), rest, 0.0f);
        storePart(out + full, e, rest);
        total = add(total, e);
    }
    storeu(lanes, total);
    float sum = 0.0f;
    for (long c = 0; c < kWidth; ++c)
        sum += lanes[c];

    // Times the reciprocal, not divided: a division per vector would cost as
    // much as the exponentials, for a difference of one rounding.
    const float inverse = 1.0f / sum;
    const Reg factor = broadcast(inverse);
    for (long j = 0; j < full; j += kWidth) {
        const Reg w = multiply(loadu(out + j), factor);
        storeu(out + j, w);
        if constexpr (PoolWeights)
            storeu(extras->weightHigh + j, extras->firstRow ? w : larger(loadu(extras->weightHigh + j), w));
        if constexpr (Sum)
            storeu(extras->sum + j, extras->firstTerm ? w : add(loadu(extras->sum + j), w));
    }
    if (rest) {
        const Reg w = multiply(loadPart(out + full, rest), factor);
        storePart(out + full, w, rest);
        if constexpr (PoolWeights)
            storePart(extras->weightHigh + full,
                      extras->firstRow ? w : larger(loadPart(extras->weightHigh + full, rest), w), rest);
        if constexpr (Sum)
            storePart(extras->sum + full, extras->firstTerm ? w : add(loadPart(extras->sum + full, rest), w), rest);
    }
    if (max) {
        *max = largest;
        *inverseSum = inverse;
    }
}

} // namespace

void softmax(const float *in, float *out, long visible, float scale, float *max, float *inverseSum)
{
    softmaxRow<false, false, false>(in, out, visible, scale, max, inverseSum, nullptr);
}

void softmaxWithExtras(const float *in, float *out, long visible, float scale, float *max, float *inverseSum,
                       const RowExtras &extras)
{
    const bool scores = extras.high != nullptr, weights = extras.weightHigh != nullptr, sum = extras.sum != nullptr;
    const RowExtras *e = &extras;
    switch (int(scores) * 4 + int(weights) * 2 + int(sum)) {
    case 0: softmaxRow<false, false, false>(in, out, visible, scale, max, inverseSum, e); break;
    case 1: softmaxRow<false, false, true>(in, out, visible, scale, max, inverseSum, e); break;
    case 2: softmaxRow<false, true, false>(in, out, visible, scale, max, inverseSum, e); break;
    case 3: softmaxRow<false, true, true>(in, out, visible, scale, max, inverseSum, e); break;
    case 4: softmaxRow<true, false, false>(in, out, visible, scale, max, inverseSum, e); break;
    case 5: softmaxRow<true, false, true>(in, out, visible, scale, max, inverseSum, e); break;
    case 6: softmaxRow<true, true, false>(in, out, visible, scale, max, inverseSum, e); break;
    default: softmaxRow<true, true, true>(in, out, visible, scale, max, inverseSum, e); break;
    }
}

void largest(const float *in, long count, float sign, float *into)
{
    const long full = count / kWidth * kWidth, rest = count - full;
    const Reg s = broadcast(sign);
    for (long j = 0; j < full; j += kWidth)
        storeu(into + j, larger(loadu(into + j), multiply(loadu(in + j), s)));
    if (rest)
        storePart(into + full, larger(loadPart(into + full, rest), multiply(loadPart(in + full, rest), s)), rest);
}

void slidingLargest(float *values, long count, long width)
{
    // Windows of `span` keys, doubled while they fit: values[c] becomes the
    // largest of [c, c + span). Ascending, each vector read before it is
    // written over, so the pass can work in place.
    long span = 1;
    for (; 2 * span <= width; span *= 2) {
        const long end = count - span;
        long c = 0;
        for (; c + kWidth <= end; c += kWidth)
            storeu(values + c, larger(loadu(values + c), loadu(values + c + span)));
        for (; c < end; ++c)
            values[c] = values[c] > values[c + span] ? values[c] : values[c + span];
    }
    // Two windows of `span` cover one of `width` (span <= width < 2 span).
    const long shift = width - span, end = count - width + 1;
    if (shift == 0)
        return;
    long c = 0;
    for (; c + kWidth <= end; c += kWidth)
        storeu(values + c, larger(loadu(values + c), loadu(values + c + shift)));
    for (; c < end; ++c)
        values[c] = values[c] > values[c + shift] ? values[c] : values[c + shift];
}

void scores(const float *q, long ldq, long rows, const float *packed, long dk, long cols, float *s, long lds)
{
    const long panels = (cols + kPanel - 1) / kPanel;
    // Panel by panel, so that each panel of K (dk x kPanel) stays in the
    // first-level cache while every row group of the block passes over it.
    for (long t = 0; t < panels; ++t) {
        const float *panel = packed + t * dk * kPanel;
        for (long r0 = 0; r0 < rows; r0 += kRows) {
            const long count = smaller(kRows, rows - r0);
            const float *qr[kRows];
            float *sr[kRows];
            rowPointers(q, ldq, r0, count, qr);
            rowPointers(s + t * kPanel, lds, r0, count, sr);
            scoreTile(qr, panel, dk, sr, count, cols - t * kPanel);
        }
    }
}

void narrowContext(const float *w, long ldw, long rows, long keys, const float *vt, long ldvt, long dv, float *z,
                   long ldz)
{
    narrowFrom<1>(dv, w, ldw, rows, keys, vt, ldvt, z, ldz);
}

void context(const float *w, long ldw, long rows, long keys, const float *v, long ldv, float *z, long ldz)
{
    for (long c0 = 0; c0 < ldv; c0 += kPanel) {
        const long vectors = smaller(kVectors, (ldv - c0) / kWidth);
        for (long r0 = 0; r0 < rows; r0 += kRows) {
            const long count = smaller(kRows, rows - r0);
            const float *wr[kRows];
            float *zr[kRows];
            rowPointers(w, ldw, r0, count, wr);
            rowPointers(z + c0, ldz, r0, count, zr);
            switch (vectors) {
            case 1:
                contextTile<1>(wr, keys, v + c0, ldv, zr, count);
                break;
            case 2:
                contextTile<2>(wr, keys, v + c0, ldv, zr, count);
                break;
            case 3:
                contextTile<3>(wr, keys, v + c0, ldv, zr, count);
                break;
            default:
                contextTile<kVectors>(wr, keys, v + c0, ldv, zr, count);
                break;
            }
        }
    }
}
