// The dense-layer kernel (see attentionkernels.h, denseProduct), included by
// each instruction set's file after attentionkernelbody.h, whose primitives
// and register tile it uses. No #include, no include guard, nothing outside
// an anonymous namespace but the entry point (attentionkernelbody.h says why).

namespace {

// One register tile of a dense product: `rows` (at most kRows) rows of up to
// kPanel outputs, each the sum over k < depth of x[r][k] times the panel's
// element (k, c), in that order, after what y holds when Accumulate.
template<bool Accumulate>
inline void denseTile(const float *const x[kRows], const float *panel, long depth, float *const y[kRows], long rows,
                      long cols)
{
    Reg acc[kRows][kVectors];
    for (long r = 0; r < kRows; ++r)
        for (long c = 0; c < kVectors; ++c) {
            if constexpr (Accumulate)
                acc[r][c] = c * kWidth < cols ? loadPart(y[r] + c * kWidth, cols - c * kWidth) : zero();
            else
                acc[r][c] = zero();
        }
    for (long k = 0; k < depth; ++k) {
        Reg b[kVectors];
        for (long c = 0; c < kVectors; ++c)
            b[c] = loadu(panel + k * kPanel + c * kWidth);
        for (long r = 0; r < kRows; ++r) {
            const Reg a = broadcast(x[r][k]);
            for (long c = 0; c < kVectors; ++c)
                acc[r][c] = multiplyAdd(a, b[c], acc[r][c]);
        }
    }
    if (cols >= kPanel) {
        for (long r = 0; r < rows; ++r)
            for (long c = 0; c < kVectors; ++c)
                storeu(y[r] + c * kWidth, acc[r][c]);
        return;
    }
    for (long r = 0; r < rows; ++r)
        for (long c = 0; c * kWidth < cols; ++c)
            storePart(y[r] + c * kWidth, acc[r][c], cols - c * kWidth);
}

// `n` (at most kWidth) weights from element `at` of w, as floats; the lanes past them zero.
template<RowElement Element>
inline const void *elementAt(const void *w, long at)
{
    return static_cast<const char *>(w) + at * (Element == RowElement::Float ? 4 : 2);
}

// kWidth weights from element `at` of w, as floats.
template<RowElement Element>
inline Reg weightVector(const void *w, long at)
{
    if constexpr (Element == RowElement::Float)
        return loadu(static_cast<const float *>(w) + at);
    else if constexpr (Element == RowElement::BFloat16)
        return widenBfloat16(static_cast<const std::uint16_t *>(w) + at);
    else
        return widenHalf(static_cast<const std::uint16_t *>(w) + at);
}

// The last `n` (fewer than kWidth) weights of a row from element `at`, the
// lanes past them zero; nothing past the row is read (it may end the mapping).
template<RowElement Element>
inline Reg weightPart(const void *w, long at, long n)
{
    if constexpr (Element == RowElement::Float) {
        return loadPart(static_cast<const float *>(w) + at, n);
    } else {
        const std::uint16_t *p = static_cast<const std::uint16_t *>(w) + at;
        std::uint16_t part[kWidth];
        for (long l = 0; l < kWidth; ++l)
            part[l] = l < n ? p[l] : 0;
        return weightVector<Element>(part, 0);
    }
}

// One step of rowGroupDots: the `kCols` rows of w at `at` from element k
// (`n` < kWidth of them: the row's end, else a whole vector) times x's rows.
template<RowElement Element, long Rows, long kCols, bool Whole>
inline void dotStep(const float *x, long ldx, const void *w, const long (&at)[kCols], long ahead, long k, long n,
                    Reg (&acc)[Rows][kCols])
{
    Reg b[kCols];
    for (long c = 0; c < kCols; ++c) {
        b[c] = Whole ? weightVector<Element>(w, at[c] + k) : weightPart<Element>(w, at[c] + k, n);
        if (ahead)
            __builtin_prefetch(elementAt<Element>(w, at[c] + ahead + k));
    }
    for (long r = 0; r < Rows; ++r) {
        const Reg a = Whole ? loadu(x + r * ldx + k) : loadPart(x + r * ldx + k, n);
        for (long c = 0; c < kCols; ++c)
            acc[r][c] = multiplyAdd(a, b[c], acc[r][c]);
    }
}

// rowDots for exactly `Rows` rows of x: 4 rows of w at a time, each vector
// of them widened once and multiplied with every row of x in registers.
template<RowElement Element, long Rows>
void rowGroupDots(const float *x, long ldx, const void *w, long ldw, long depth, long cols, float *y, long ldy)
{
    constexpr long kCols = 4;
    const long whole = depth - depth % kWidth;
    for (long j0 = 0; j0 < cols; j0 += kCols) {
        const long nc = smaller(kCols, cols - j0);
        // Rows of w past the last are read as the last again (and not stored).
        long at[kCols];
        for (long c = 0; c < kCols; ++c)
            at[c] = (j0 + smaller(c, nc - 1)) * ldw;
        // The next 4 rows are asked from memory while these are multiplied:
        // rows of a few thousand bytes are too short for the processor's
        // own prefetching to run ahead by itself.
        const long ahead = j0 + kCols < cols ? kCols * ldw : 0;
        Reg acc[Rows][kCols];
        for (long r = 0; r < Rows; ++r)
            for (long c = 0; c < kCols; ++c)
                acc[r][c] = zero();
        for (long k = 0; k < whole; k += kWidth)
            dotStep<Element, Rows, kCols, true>(x, ldx, w, at, ahead, k, kWidth, acc);
        if (whole < depth)
            dotStep<Element, Rows, kCols, false>(x, ldx, w, at, ahead, whole, depth - whole, acc);
        for (long r = 0; r < Rows; ++r)
            for (long c = 0; c < nc; ++c)
                y[r * ldy + j0 + c] = sumOfLanes(acc[r][c]);
    }
}

template<RowElement Element>
void rowDotsOf(const float *x, long ldx, long rows, const void *w, long ldw, long depth, long cols, float *y, long ldy)
{
    // Rows of x at a time: 16 sums of 4 x 4 fit 32 vector registers, 8 of 2 x 4 fit 16.
    constexpr long kGroup = kVectors >= 4 ? 4 : 2;
    for (long r0 = 0; r0 < rows; r0 += kGroup) {
        const float *xr = x + r0 * ldx;
        float *yr = y + r0 * ldy;
        switch (smaller(kGroup, rows - r0)) {
        case 1:
            rowGroupDots<Element, 1>(xr, ldx, w, ldw, depth, cols, yr, ldy);
            break;
        case 2:
            rowGroupDots<Element, 2>(xr, ldx, w, ldw, depth, cols, yr, ldy);
            break;
        case 3:
            rowGroupDots<Element, kGroup < 3 ? 1 : 3>(xr, ldx, w, ldw, depth, cols, yr, ldy);
            break;
        default:
            rowGroupDots<Element, kGroup>(xr, ldx, w, ldw, depth, cols, yr, ldy);
            break;
        }
    }
}

} // namespace

void denseProduct(const float *x, long ldx, long rows, const float *packed, long depth, long cols, float *y, long ldy,
                  bool accumulate)
{
    const long panels = (cols + kPanel - 1) / kPanel;
    // Panel by panel: each (depth x kPanel) stays in the cache while every
    // row group passes over it.
    for (long t = 0; t < panels; ++t) {
        const float *panel = packed + t * depth * kPanel;
        for (long r0 = 0; r0 < rows; r0 += kRows) {
            const long count = smaller(kRows, rows - r0);
            const float *xr[kRows];
            float *yr[kRows];
            rowPointers(x, ldx, r0, count, xr);
            rowPointers(y + t * kPanel, ldy, r0, count, yr);
            if (accumulate)
                denseTile<true>(xr, panel, depth, yr, count, cols - t * kPanel);
            else
                denseTile<false>(xr, panel, depth, yr, count, cols - t * kPanel);
        }
    }
}

void rowDots(const float *x, long ldx, long rows, const void *w, RowElement element, long ldw, long depth, long cols,
             float *y, long ldy)
{
    switch (element) {
    case RowElement::Float:
        rowDotsOf<RowElement::Float>(x, ldx, rows, w, ldw, depth, cols, y, ldy);
        break;
    case RowElement::BFloat16:
        rowDotsOf<RowElement::BFloat16>(x, ldx, rows, w, ldw, depth, cols, y, ldy);
        break;
    case RowElement::Half:
        rowDotsOf<RowElement::Half>(x, ldx, rows, w, ldw, depth, cols, y, ldy);
        break;
    }
}
